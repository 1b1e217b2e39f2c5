"""Build the BEHAVIOR-1K suites from the activity definitions of the `bddl` package.

Each activity's `problem0.bddl` goes through the behavior importer
(`sceneplan.importers.behavior`): a scene graph, a goal with its quantifiers
written out, and an instruction made from the goal by templates. A task is
kept when the domain can express it now and the symbolic solver solves it
(its plan, verified in the simulator, becomes the reference plan):

- `behavior-grasif`: the activities LookPlanGraph's GraSIF filter selects
  (goals use only ontop / inside / open / toggled_on; initial states only
  inroom / ontop / inside / open / toggled_on);
- `behavior-extended`: every other activity the domain can express;
- `behavior-1k`: every activity the oracle solves and verifies, both of the above
  (task ids `behavior-1k-<activity>`, the same scenes).

What is left out is counted in activities, by reason (printed, and written in
the task files' headers; an activity left out for two reasons counts under
each). Rerun after the domain grows: the suites grow with it. The oracle has
`--timeout` seconds per task (default 30); the slowest solves are printed.

Writes `datasets/bundles/behavior.json` (every kept task's graph) and
`datasets/tasks/behavior_grasif.yaml`, `behavior_extended.yaml`, `behavior_1k.yaml`.

Usage: ``python scripts/build_behavior.py [--bddl DIR] [--check] [--only N] [--timeout S]``
(needs ``pip install -e '.[behavior]'``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import yaml

from sceneplan.errors import SceneplanError
from sceneplan.graph.io import from_dict, to_dict
from sceneplan.graph.model import SceneGraph
from sceneplan.importers.behavior import convert, read_problem
from sceneplan.importers.behavior.bddl import Problem
from sceneplan.importers.behavior.taxonomy import default_taxonomy
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.task import Task
from sceneplan.world.vocabularies import LOOKPLANGRAPH

REPO_ROOT = Path(__file__).resolve().parents[1]
DATASETS = REPO_ROOT / "src" / "sceneplan" / "datasets"
BUNDLE = DATASETS / "bundles" / "behavior.json"
TASK_FILES = {
    "behavior-grasif": DATASETS / "tasks" / "behavior_grasif.yaml",
    "behavior-extended": DATASETS / "tasks" / "behavior_extended.yaml",
    "behavior-1k": DATASETS / "tasks" / "behavior_1k.yaml",
}
ALL = "behavior-1k"  # the suite of every activity solved
VOCABULARY = LOOKPLANGRAPH
TIMEOUT = 30.0  # the oracle's seconds per task (--timeout)
HARD_TIMEOUT = 300.0  # a solve that runs past this despite its timeout is killed

GRASIF_GOAL = frozenset({"ontop", "inside", "open", "toggled_on"})
GRASIF_INIT = frozenset({"inroom", "ontop", "inside", "open", "toggled_on"})
LOGIC = frozenset(
    {"and", "or", "not", "imply", "forall", "exists", "forn", "forpairs", "fornpairs"}
)


def predicates(expr: Any) -> set[str]:
    """The predicates a BDDL goal uses (not its connectives, quantifiers or counts)."""
    out: set[str] = set()
    if not isinstance(expr, list) or not expr:
        return out
    head = expr[0]
    if head in LOGIC:
        for sub in expr[1:]:
            if isinstance(sub, list) and sub and isinstance(sub[0], str):
                if sub[0].startswith("?") or sub[0].isdigit():
                    continue  # a binding (?x - type) or a count (2)
                out |= predicates(sub)
        return out
    return {head}


def grasif(problem: Problem) -> bool:
    """LookPlanGraph's filter: goal and initial-state predicates within its sets."""
    init = {fact[0] for fact in problem.init} | {fact[0] for fact in problem.negated_init}
    return predicates(problem.goal) <= GRASIF_GOAL and init <= GRASIF_INIT


class WorkerDied(Exception):
    """The worker process ended without an answer (a crash in the solver's C code)."""


class Worker:
    """One worker process, kept from call to call (its caches stay warm), killed when a call
    runs past its limit: a stuck or crashing solver costs one task, not the build."""

    def __init__(self) -> None:
        self._process: multiprocessing.Process | None = None
        self._conn: Connection | None = None

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
        """`fn(*args)` in the worker (an exception it raises is raised here); TimeoutError
        after `limit` seconds (the worker is killed), WorkerDied when the worker died."""
        if self._process is None or self._conn is None:
            self._conn, theirs = multiprocessing.Pipe()
            self._process = multiprocessing.Process(
                target=_serve, args=(theirs, self._conn), daemon=True
            )
            self._process.start()
            theirs.close()  # the worker's end: when the worker dies, our end reads EOF
        self._conn.send((fn, args))
        if not self._conn.poll(limit):
            self.close(kill=True)
            raise TimeoutError(f"no answer within {limit:g} s")
        try:
            ok, value = self._conn.recv()
        except EOFError:
            self.close(kill=True)
            raise WorkerDied from None
        if not ok:
            raise value
        return value

    def close(self, kill: bool = False) -> None:
        """End the worker: at once with `kill`, else when it has read that it may go."""
        if self._process is None or self._conn is None:
            return
        if kill:
            self._process.kill()
        else:
            self._conn.send(None)  # the worker's loop ends
        self._conn.close()
        self._process.join()
        self._process = self._conn = None


def _serve(conn: Connection, builds: Connection) -> None:
    """The worker's loop: call what the pipe brings, send back the result or the error
    (`builds`, the build's end, is closed here: a forked worker holds a copy of it)."""
    builds.close()
    while True:
        try:
            message = conn.recv()
        except EOFError:  # the build is gone
            return
        if message is None:  # the build closes the worker
            return
        fn, args = message
        try:
            conn.send((True, fn(*args)))
        except Exception as exc:  # raised again in the build
            conn.send((False, exc))


class SolverPool:
    """Solves in a worker process, so that a solver crash costs one task, not the build."""

    def __init__(self, timeout: float = TIMEOUT, hard_timeout: float = HARD_TIMEOUT) -> None:
        self._worker = Worker()
        self.timeout, self.hard_timeout = timeout, hard_timeout

    def plan(self, graph: SceneGraph, goal: str) -> tuple[list[str] | None, str, float]:
        """The verified plan (or None and why not), and the worker's CPU seconds for it."""
        args = (to_dict(graph), goal, self.timeout)
        try:
            found: tuple[list[str] | None, str, float] = self._worker.call(
                _solve_data, args, self.hard_timeout
            )
        except WorkerDied:
            return None, "oracle: the solver's process died (crash)", 0.0
        except TimeoutError:
            why = f"oracle: the solver ran past its {self.timeout:.0f} s timeout (killed)"
            return None, why, 0.0
        return found

    def close(self) -> None:
        """End the worker process."""
        self._worker.close()


def _solve_data(
    data: dict[str, Any], goal: str, timeout: float
) -> tuple[list[str] | None, str, float]:
    started = time.process_time()
    plan, why = solver_plan(from_dict(data), goal, timeout)
    return plan, why, time.process_time() - started


def solver_plan(
    graph: SceneGraph, goal: str, timeout: float = TIMEOUT
) -> tuple[list[str] | None, str]:
    """The solver's plan in the LookPlanGraph vocabulary, verified; or None and why not."""
    try:
        result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout)
    except SceneplanError as exc:  # the grounding's memory budget: one line, no traceback
        return None, f"oracle: {str(exc).split(':')[0]}"
    if result.status.value == "timeout":
        return None, "oracle: no plan within the timeout"
    if result.stats.get("commitment") == "impossible":
        # no choice of the goal's disjuncts is consistent (`goal_compile.commit_goal`)
        return None, "oracle: unsolvable, the goal contradicts itself (a thing in two places)"
    if not result.ok:
        return None, f"oracle: {result.status.value}"
    plan = [str(a) for a in result.plan] + ["done()"]
    run = Simulator(graph, VOCABULARY).verify_plan(plan)
    if not run.ok:
        return None, f"oracle plan fails in the simulator: {run.failure.reason}"
    if not parse_goal(goal, graph).holds(run.final_state):
        return None, "oracle plan does not reach the goal"
    return plan, ""


def task_dict(task: Task) -> dict[str, Any]:
    return task.to_dict(defaults=False)


def header(suite: str, count: int, skipped: Counter, total: int) -> str:
    """The task file's header; `skipped` counts activities per reason (an activity left
    out for several reasons counts under each), `total` the activities considered."""
    lines = [
        "# GENERATED by `python scripts/build_behavior.py`: do not edit; change the importer",
        "# or the script and rerun it (`--check` tells whether this file is up to date).",
        "#",
    ]
    if suite == "behavior-grasif":
        lines += [
            f"# Suite behavior-grasif: {count} of the {total} BEHAVIOR-1K activities (bddl 3.6.0)",
            "# that LookPlanGraph's GraSIF filter selects (goals: ontop, inside, open,",
            "# toggled_on; initial state: inroom, ontop, inside, open, toggled_on), each",
            "# in its own scene (environment behavior-<activity>, datasets/bundles/behavior.json).",
        ]
    elif suite == ALL:
        lines += [
            f"# Suite behavior-1k: {count} of the {total} BEHAVIOR-1K activities (bddl 3.6.0),",
            "# every one the domain expresses and the oracle solves (behavior-grasif and",
            "# behavior-extended together; task ids behavior-1k-<activity>, the same scenes).",
        ]
    else:
        lines += [
            f"# Suite behavior-extended: {count} further BEHAVIOR-1K activities (bddl 3.6.0),",
            "# outside the GraSIF filter, that the domain expresses today.",
        ]
    lines += [
        "# Instructions are written from the goal by templates; goals write BDDL's",
        "# quantifiers out over the declared instances; reference_plan is the symbolic",
        "# solver's plan (LookPlanGraph vocabulary), verified in the simulator.",
        "#",
        f"# Left out: {total - count} activities. By reason, in activities (one left out",
        "# for several reasons counts under each):",
    ]
    lines += [
        f"#   {n:4d}  {reason}"
        for reason, n in sorted(skipped.items(), key=lambda x: (-x[1], x[0]))
    ]
    return "\n".join(lines) + "\n\n"


class Build:
    """What the build collects: per suite its tasks, reasons left out and activities seen;
    the kept tasks' graphs; the oracle's CPU seconds per solved activity (the worker's,
    which a loaded machine inflates less than wall time)."""

    def __init__(self) -> None:
        self.graphs: dict[str, Any] = {}
        self.tasks: dict[str, list[dict[str, Any]]] = {suite: [] for suite in TASK_FILES}
        self.skipped: dict[str, Counter] = {suite: Counter() for suite in TASK_FILES}
        self.totals: Counter = Counter()
        self.seconds: list[tuple[float, str]] = []

    def leave_out(self, suite: str, reasons: list[str]) -> None:
        for reason in dict.fromkeys(reasons):
            self.skipped[suite][reason] += 1
            self.skipped[ALL][reason] += 1

    def activity(self, folder: Path, activity: str, taxonomy: Any, pool: SolverPool) -> None:
        """Import, solve and keep (or count out) one activity."""
        self.totals[ALL] += 1
        try:
            problem = read_problem(folder / activity / "problem0.bddl")
        except SceneplanError as exc:
            self.totals["behavior-extended"] += 1
            self.leave_out("behavior-extended", [f"import: {str(exc).split(': ', 1)[-1]}"])
            return
        suite = "behavior-grasif" if grasif(problem) else "behavior-extended"
        self.totals[suite] += 1
        try:
            imported = convert(problem, taxonomy, suite)
        except SceneplanError as exc:
            self.leave_out(suite, [f"import: {str(exc).splitlines()[0].split(': ', 1)[-1]}"])
            return
        if not imported.tasks:
            self.leave_out(suite, imported.extra["gaps"])
            return
        task = imported.tasks[0]
        plan, why, seconds = pool.plan(imported.graph, task.goal or "")
        if plan is None:
            self.leave_out(suite, [why])
            print(f"  {activity}: {why}", file=sys.stderr)
            return
        self.seconds.append((seconds, activity))
        task = replace(task, reference_plan=plan)
        self.tasks[suite].append(task_dict(task))
        every = replace(task, id=task.id.replace("behavior-", "behavior-1k-", 1))
        self.tasks[ALL].append(task_dict(replace(every, suite=ALL)))
        data = to_dict(imported.graph)
        self.graphs[task.environment] = {
            "description": data["description"],
            "nodes": data["nodes"],
            **({"links": data["links"]} if data["links"] else {}),
        }

    def outputs(self) -> dict[Path, str]:
        bundle = {
            "format": "sceneplan-graph-bundle",
            "version": 1,
            "name": "behavior",
            "description": "BEHAVIOR-1K activities (bddl 3.6.0, MIT), one scene per activity; "
            "built by scripts/build_behavior.py",
            "graphs": dict(sorted(self.graphs.items())),
        }
        outputs = {BUNDLE: bundle_text(bundle)}
        for suite, path in TASK_FILES.items():
            tasks = self.tasks[suite]
            outputs[path] = header(suite, len(tasks), self.skipped[suite], self.totals[suite]) + (
                yaml.safe_dump(tasks, sort_keys=False, width=100, allow_unicode=True)
                if tasks
                else "[]\n"
            )
        return outputs

    def report(self, elapsed: float) -> None:
        for suite in TASK_FILES:
            print(f"{suite}: {len(self.tasks[suite])} of {self.totals[suite]} activities")
            for reason, n in sorted(self.skipped[suite].items(), key=lambda x: (-x[1], x[0])):
                print(f"  {n:4d}  {reason}")
        slowest = sorted(self.seconds, reverse=True)[:5]
        print(
            "slowest oracle solves (CPU s, solve and verify): "
            + ", ".join(f"{a} {t:.1f}" for t, a in slowest)
        )
        print(f"({elapsed:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bddl", type=Path, help="activity_definitions folder (default: bddl's)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    parser.add_argument("--only", type=int, help="the first N activities (for a quick look)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="oracle seconds per task")
    args = parser.parse_args(argv)
    try:
        taxonomy = default_taxonomy()
    except SceneplanError as exc:
        print(f"build_behavior: {exc}", file=sys.stderr)
        return 1
    folder = args.bddl
    if folder is None:
        import bddl

        folder = Path(bddl.__file__).parent / "activity_definitions"
    activities = sorted(p.name for p in folder.iterdir() if (p / "problem0.bddl").is_file())
    if args.only:
        activities = activities[: args.only]
    build = Build()
    started = time.perf_counter()
    pool = SolverPool(args.timeout)
    for count, activity in enumerate(activities, start=1):
        if count % 50 == 0:
            print(f"  ... {count} of {len(activities)} activities", file=sys.stderr)
        build.activity(folder, activity, taxonomy, pool)
    pool.close()
    outputs = build.outputs()
    build.report(time.perf_counter() - started)
    if args.check:
        stale = [
            p
            for p, text in outputs.items()
            if not p.exists() or p.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"build_behavior: {path} is out of date; rerun without --check", file=sys.stderr)
        return 1 if stale else 0
    for path, text in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def bundle_text(bundle: dict[str, Any]) -> str:
    """Compact JSON with one member per line (diffs stay readable)."""

    def enc(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    head = {k: v for k, v in bundle.items() if k not in ("graphs", "base")}
    lines = ["{" + enc(head)[1:-1] + ","]
    if "base" in bundle:
        lines.append(f'"base":{enc(bundle["base"])},')
    lines.append('"graphs":{')
    members = list(bundle["graphs"].items())
    for i, (name, member) in enumerate(members):
        lines.append(f"{enc(name)}:{enc(member)}" + ("," if i < len(members) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from build_task_index import refresh  # the task index, as the suites now are

    sys.exit(main() or refresh(check="--check" in sys.argv))
