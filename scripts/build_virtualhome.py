"""Build the VirtualHome suites from the virtualhome-eval package (scene 1, 342 tasks).

Each task of virtualhome-eval's LTL goal file (`task_state_LTL_formula_accurate.json`,
scene_1) goes through the virtualhome importer
(`sceneplan.importers.virtualhome`): the task's initial graph
(`init_and_final_graphs/.../file<ID>.json`) as a scene graph, its goal, and
its program (`executable_programs/.../file<ID>.txt`; title and description
are the instruction). A task is kept when the domain expresses its goal and
start now and the symbolic solver solves it:

- `virtualhome-grasif`: tasks whose goal uses only what LookPlanGraph's
  vocabulary acts on (ON / INSIDE / HOLDS edges; on, off, open, closed; no
  goal actions), judged on the VirtualHome goal (the character ON a toilet is
  an ON edge, read as `sitting(agent)`);
- `virtualhome`: every other task the domain expresses.

How each relation, state and program step is read is the importer's
(`sceneplan/importers/virtualhome/task.py`) and is summed up in the task
files' headers.

The reference plan is the program, translated, where it translates and
reaches the goal in the simulator; otherwise the solver's plan (the task's
note says why). Counts of what is left out, and of programs that do not
translate, by reason, are printed and written in the task files' headers.

Writes `datasets/bundles/virtualhome.json` (one base scene, each task's graph
as changes to it) and `datasets/tasks/virtualhome_grasif.yaml`,
`virtualhome.yaml`.

Usage: ``python scripts/build_virtualhome.py [--data DIR] [--check]``, DIR
the `virtualhome_eval` package folder (default: the installed one; ``pip
install -e '.[virtualhome]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from build_behavior import bundle_text, solver_plan  # type: ignore[import-not-found]

from sceneplan.graph.io import to_dict
from sceneplan.importers.virtualhome import convert_task

REPO_ROOT = Path(__file__).resolve().parents[1]
DATASETS = REPO_ROOT / "src" / "sceneplan" / "datasets"
BUNDLE = DATASETS / "bundles" / "virtualhome.json"
TASK_FILES = {
    "virtualhome-grasif": DATASETS / "tasks" / "virtualhome_grasif.yaml",
    "virtualhome": DATASETS / "tasks" / "virtualhome.yaml",
}
GOALS = "resources/virtualhome/task_state_LTL_formula_accurate.json"
DATA = "dataset/programs_processed_precond_nograb_morepreconds"
SCENE = "TrimmedTestScene1_graph/results_intentions_march-13-18"
GRASIF_STATES = frozenset({"ON", "OFF", "OPEN", "CLOSED"})
GRASIF_RELATIONS = frozenset({"ON", "INSIDE", "HOLDS_RH", "HOLDS_LH"})


def grasif(goal: dict[str, Any]) -> bool:
    """Whether a goal uses only what the LookPlanGraph vocabulary acts on."""
    if goal.get("actions"):
        return False
    for item in goal.get("goal", ()):
        if "state" in item and item["state"] not in GRASIF_STATES:
            return False
        if "relation_type" in item and item["relation_type"] not in GRASIF_RELATIONS:
            return False
    return True


def package_dir() -> Path | None:
    spec = importlib.util.find_spec("virtualhome_eval")
    return Path(spec.origin).parent if spec and spec.origin else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="the virtualhome_eval package folder")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    root = args.data or package_dir()
    if root is None or not (root / GOALS).is_file():
        print(
            "build_virtualhome: virtualhome-eval not found; pip install -e '.[virtualhome]' "
            "or give --data",
            file=sys.stderr,
        )
        return 1
    goals = json.loads((root / GOALS).read_text(encoding="utf-8"))["scene_1"]
    entries = sorted(
        (
            (tid, category, spec["vh_goal"])
            for category, tasks in goals.items()
            for tid, spec in tasks.items()
        ),
        key=lambda e: tuple(int(x) for x in e[0].split("_")),
    )
    graphs: dict[str, dict[str, Any]] = {}
    tasks: dict[str, list[dict[str, Any]]] = {s: [] for s in TASK_FILES}
    skipped: dict[str, Counter] = {s: Counter() for s in TASK_FILES}
    programs: dict[str, Counter] = {s: Counter() for s in TASK_FILES}
    totals: Counter = Counter()
    two_handed: Counter = Counter()
    started = time.perf_counter()
    for tid, _category, vh_goal in entries:
        suite = "virtualhome-grasif" if grasif(vh_goal) else "virtualhome"
        totals[suite] += 1
        init = json.loads(
            (root / DATA / "init_and_final_graphs" / SCENE / f"file{tid}.json").read_text(
                encoding="utf-8"
            )
        )["init_graph"]
        program = (root / DATA / "executable_programs" / SCENE / f"file{tid}.txt").read_text(
            encoding="utf-8", errors="replace"
        )
        imported = convert_task(
            tid, init, vh_goal, program, suite=suite, source=f"virtualhome-eval file{tid}.json"
        )
        if not imported.tasks:
            for gap in dict.fromkeys(imported.extra["gaps"]):
                skipped[suite][gap] += 1
            continue
        task = imported.tasks[0]
        plan, why = solver_plan(imported.graph, task.goal or "")
        if plan is None:
            skipped[suite][why] += 1
            print(f"  {tid}: {why}", file=sys.stderr)
            continue
        if imported.extra["program"]:
            programs[suite]["translates and reaches the goal"] += 1
        else:
            reason = imported.extra["program_gap"]
            programs[suite][reason] += 1
            task = replace(
                task,
                reference_plan=plan,
                note=f"The program does not translate ({reason}); the reference plan is "
                "the symbolic solver's.",
            )
        two_handed[suite] += imported.graph.hands == 2
        tasks[suite].append(task.to_dict(defaults=False))
        graphs[task.environment] = to_dict(imported.graph)
    elapsed = time.perf_counter() - started
    outputs = {BUNDLE: bundle_text(make_bundle(graphs))}
    for suite, path in TASK_FILES.items():
        outputs[path] = header(
            suite,
            len(tasks[suite]),
            totals[suite],
            skipped[suite],
            programs[suite],
            two_handed[suite],
        ) + (
            yaml.safe_dump(tasks[suite], sort_keys=False, width=100, allow_unicode=True)
            if tasks[suite]
            else "[]\n"
        )
    for suite in TASK_FILES:
        print(
            f"{suite}: {len(tasks[suite])} of {totals[suite]} tasks "
            f"({two_handed[suite]} with two hands)"
        )
        for reason, n in sorted(skipped[suite].items(), key=lambda x: (-x[1], x[0])):
            print(f"  {n:4d}  {reason}")
        print("  programs:")
        for reason, n in sorted(programs[suite].items(), key=lambda x: (-x[1], x[0])):
            print(f"  {n:4d}  {reason}")
    print(f"({elapsed:.0f} s)")
    if args.check:
        stale = [
            p for p, t in outputs.items() if not p.exists() or p.read_text(encoding="utf-8") != t
        ]
        for path in stale:
            print(
                f"build_virtualhome: {path} is out of date; rerun without --check", file=sys.stderr
            )
        return 1 if stale else 0
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def make_bundle(graphs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One base graph (each node as most tasks have it) and each task's changes to it."""
    names = sorted(graphs)
    seen: dict[str, Counter] = {}
    order: list[str] = []
    for name in names:
        for node in graphs[name]["nodes"]:
            key = node["id"]
            if key not in seen:
                seen[key] = Counter()
                order.append(key)
            seen[key][json.dumps(node, sort_keys=True)] += 1
    everywhere = [k for k in order if sum(seen[k].values()) == len(names)]
    base_nodes = [json.loads(seen[k].most_common(1)[0][0]) for k in everywhere]
    base_nodes = [_ordered(n) for n in base_nodes]
    base_ids = {n["id"]: n for n in base_nodes}
    base_links = [
        link for link in graphs[names[0]]["links"] if all(link in graphs[n]["links"] for n in names)
    ]
    members = {}
    for name in names:
        nodes = graphs[name]["nodes"]
        ids = {n["id"] for n in nodes}
        member: dict[str, Any] = {}
        removed = sorted(set(base_ids) - ids)
        if removed:
            member["remove"] = removed
        member["nodes"] = [n for n in nodes if base_ids.get(n["id"]) != n]
        extra_links = [link for link in graphs[name]["links"] if link not in base_links]
        if extra_links:
            member["links"] = extra_links
        members[name] = member
    return {
        "format": "sceneplan-graph-bundle",
        "version": 1,
        "name": "virtualhome",
        "description": "VirtualHome scene 1 (virtualhome-eval 0.1.1, MIT): one base scene and "
        "each task's changes; built by scripts/build_virtualhome.py",
        "base": {"nodes": base_nodes, "links": base_links},
        "graphs": members,
    }


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    from sceneplan.graph.io import native_node

    return native_node(**node)


def header(
    suite: str, count: int, total: int, skipped: Counter, programs: Counter, two_handed: int
) -> str:
    lines = [
        "# GENERATED by `python scripts/build_virtualhome.py`: do not edit; change the importer",
        "# or the script and rerun it (`--check` tells whether this file is up to date).",
        "#",
        f"# Suite {suite}: {count} of the {total} virtualhome-eval scene-1 tasks "
        + ("whose goal uses only" if suite == "virtualhome-grasif" else "outside that set"),
        "# ON / INSIDE / HOLDS edges and on, off, open, closed states"
        + (" (LookPlanGraph's vocabulary)," if suite == "virtualhome-grasif" else ","),
        "# that the domain expresses and the solver solves; each in its own scene",
        "# (environment virtualhome-<id>, datasets/bundles/virtualhome.json).",
        "# Instruction: the program's title and description. reference_plan: the program",
        "# translated to the LookPlanGraph vocabulary where it translates, else the solver's.",
        "#",
        "# How goals are read (sceneplan.importers.virtualhome.task): the character ON a thing",
        "# is the posture that thing affords (VirtualHome's SIT / LIE are what put it there):",
        "# sitting(agent) / lying(agent), the seat itself unchecked (the domain does not record",
        "# it); its SITTING / LYING states the same; the character INSIDE a room agent_at(room).",
        "# CLOSE is VirtualHome's nearness: between two objects it is nextto(x, y) (on or in the",
        "# same thing, stricter than nearness); the character CLOSE to a thing, or a thing CLOSE",
        "# to an asset, is not expressed (the domain has no nearness of the agent; nextto an",
        "# asset means on any furniture of its room, far looser). Goal actions (RINSE|WASH,",
        "# DRINK, ...) are events, not states: left out.",
        f"# Two hands: in {two_handed} of the tasks the agent has VirtualHome's two hands",
        "# (`two_handed`), where the start or the goal holds two objects or the program holds",
        "# two at once; there LookPlanGraph's put_on / put_inside name the object they put down.",
        "#",
        f"# Left out ({sum(skipped.values())} reasons over {total - count} tasks), by reason:",
    ]
    lines += [f"#   {n:4d}  {r}" for r, n in sorted(skipped.items(), key=lambda x: (-x[1], x[0]))]
    lines += ["#", "# Programs of the kept tasks:"]
    lines += [f"#   {n:4d}  {r}" for r, n in sorted(programs.items(), key=lambda x: (-x[1], x[0]))]
    return "\n".join(lines) + "\n\n"


if __name__ == "__main__":
    from build_task_index import refresh  # the task index, as the suites now are

    sys.exit(main() or refresh(check="--check" in sys.argv))
