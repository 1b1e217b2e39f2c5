"""Build the LookPlanGraph Office suites: `office-grasif` and `office-dynamic`.

LookPlanGraph (Onishchenko et al.) evaluates on GraSIF, whose Office part is
25 of SayPlan's 30 Office planning instructions; the paper lists them
(App. C, Table 5) but publishes neither their goals nor their plans. This
script derives both suites from the packaged `office-planning` suite and the
`office` environment, so that nothing in them is written by hand:

- `office_grasif.yaml`: each row of Table 5 is matched to the office-planning
  task with the same instruction (after normalising case, apostrophes and
  punctuation; a row that differs in wording is matched to the task whose
  instruction it contains, and the difference is noted). The task keeps the
  paper's wording and takes the office-planning task's family, goal and
  `initial` facts; its `reference_plan` is the symbolic solver's plan in the
  LookPlanGraph vocabulary on the fully known world, followed by done().
- `office_dynamic.yaml`: variants of GraSIF tasks in which the objects the
  task needs were moved after the robot last mapped the building
  (`world_script`, `memory: prior`). For each variant, `DYNAMIC` below names
  the objects that move; where each one goes is drawn by a generator seeded
  per task from the plausible places in another room (a free table, desk,
  bench, counter, shelf, rack or chair, or a cabinet, cupboard or drawer that
  is open), until the draw satisfies all of: the goal is still false, the
  plan made on the stale map (the `reference_plan`) fails in the true world at
  a step on a moved object, and the solver solves the task in the true world.

The output is deterministic: the same inputs give the same bytes. If the
solver, the environment or office_planning.yaml change, rerun it.

Usage: ``python scripts/build_grasif.py [--check]``
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import Task, load_task_file
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.goals import parse_goal
from sceneplan.world.setup import with_facts
from sceneplan.world.simulator import Simulator, Verification
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH

REPO_ROOT = Path(__file__).resolve().parents[1]
TASKS_DIR = REPO_ROOT / "src" / "sceneplan" / "datasets" / "tasks"
PLANNING_YAML = TASKS_DIR / "office_planning.yaml"
GRASIF_YAML = TASKS_DIR / "office_grasif.yaml"
DYNAMIC_YAML = TASKS_DIR / "office_dynamic.yaml"
COMMAND = "python scripts/build_grasif.py"

VOCABULARY = LOOKPLANGRAPH
SEED = 13  # the LookPlanGraph issue; with the task id, it seeds each variant's draws
TIMEOUT = 120.0  # seconds per solve; every Office task takes well under one
MAX_DRAWS = 200

TABLE = "LookPlanGraph App. C Table 5"

# Table 5 of LookPlanGraph, in its order: the instructions of the GraSIF Office
# tasks (the benchmark's own text, with plain apostrophes).
TABLE5 = [
    "Close Jason's cabinet.",
    "Refrigerate the orange left on the kitchen bench.",
    "Take care of the dirty plate in the lunchroom.",
    "Place the printed document on Will's desk.",
    "Peter is working hard at his desk. Get him a healthy snack.",
    "Hide one of Peter's valuable belongings.",
    "Wipe the dusty admin shelf.",
    "There is coffee dripping on the floor. Stop it.",
    "Place Will's drone on his desk.",
    "Move the monitor from Jason's office to Filipe's.",
    "My parcel just got delivered! Locate it and place it in the appropriate lab.",
    "Check if the coffee machine is working.",
    "Heat up the chicken kebab.",
    "Something is smelling in the kitchen. Dispose of it.",
    "Heat up the noodles in the fridge, and place it somewhere where I can enjoy it.",
    "Throw the rotting fruit in Dimity's office in the correct bin.",
    "Safely file away the freshly printed document in Will's office, then place the "
    "undergraduate thesis on his desk.",
    "Make Niko a coffee and place the mug on his desk.",
    "Tobi spilt soda on his desk. Throw away the can and take him something to clean with.",
    "I want to make a sandwich. Place all the ingredients on the lunch table.",
    "Empty the dishwasher. Place all items in their correct locations.",
    "A delegation of project partners is arriving soon. We want to serve them snacks and "
    "non-alcoholic drinks. Prepare everything in the largest meeting room. Use items found "
    "in the supplies room only.",
    "Serve bottled water to the attendees who are seated in meeting room 1. Each attendee "
    "can only receive a single bottle of water.",
    "Locate all 6 complimentary t-shirts given to the PhD students and place them on the "
    "shelf in admin.",
    "I'm at the lunch table. Let's play a prank on Niko. Dimity might have something.",
]

# Why a row's wording differs from SayPlan's, where the difference is more than punctuation.
WORDING = {
    25: (
        "Its first sentence belongs to SayPlan's 'I'm hungry. Bring me an apple from Peter "
        "and a pepsi from Tobi. I'm at the lunch table.', which Table 5 does not list; the "
        "rest is the prank task, whose goal it takes (where the speaker sits does not change it)."
    ),
}


@dataclass(frozen=True)
class Variant:
    """A dynamic variant: the GraSIF row it varies and the objects that moved."""

    row: int  # 1-based row of Table 5
    moved: tuple[str, ...]


# The variants of office-dynamic, in id order: simple tasks first, then long-horizon.
# The objects are the ones the plan on the stale map fetches, and the instruction
# names them without pinning where they are now, or pins a place that is now stale.
DYNAMIC = [
    Variant(2, ("orange1",)),  # Refrigerate the orange left on the kitchen bench.
    Variant(4, ("document",)),  # Place the printed document on Will's desk.
    Variant(5, ("apple1",)),  # Get Peter a healthy snack.
    Variant(7, ("napkins",)),  # Wipe the dusty admin shelf.
    Variant(9, ("drone2",)),  # Place Will's drone on his desk.
    Variant(11, ("parcel",)),  # Locate the parcel and place it in the lab.
    Variant(13, ("chicken_kebab",)),  # Heat up the chicken kebab.
    Variant(17, ("document", "undergrad_thesis1")),  # File the document, thesis on the desk.
    Variant(18, ("mug1",)),  # Make Niko a coffee.
    Variant(19, ("sponge",)),  # Throw away Tobi's can, bring something to clean with.
    Variant(20, ("bread", "kale_leaves1")),  # Sandwich ingredients on the lunch table.
    Variant(24, ("complimentary_tshirt3", "complimentary_tshirt5")),  # The six t-shirts.
]

# Where a person may plausibly leave an object: surfaces to put it on, and
# storage furniture to put it in (only when already open: nobody is imagined
# opening a colleague's cabinet). Appliances and bins are never chosen.
SURFACES = {"table", "desk", "bench", "counter", "shelf", "workbench", "rack", "chair"}
STORAGE = {"cabinet", "cupboard", "drawer"}


def normalise(text: str) -> str:
    """Lower case, plain apostrophes, words only: how Table 5 rows are matched."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").lower()
    return " ".join(re.findall(r"[a-z0-9']+", text))


def match_row(row: str, tasks: list[Task]) -> Task:
    """The office-planning task a Table 5 row is: same words, else the one the row contains."""
    wanted = normalise(row)
    same = [t for t in tasks if normalise(t.instruction) == wanted]
    if not same:
        same = [t for t in tasks if normalise(t.instruction) in wanted]
    if len(same) != 1:
        raise SystemExit(f"build_grasif: Table 5 row {row!r} matches {len(same)} tasks")
    return same[0]


def start_graph(env: SceneGraph, task: Task) -> SceneGraph:
    return with_facts(env, task.initial) if task.initial else env


def solver_plan(graph: SceneGraph, goal: str) -> list[str] | None:
    """The solver's LookPlanGraph plan for `goal` from the graph's state, ending in done()."""
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), TIMEOUT)
    if result.status.value == "timeout":
        raise SystemExit(f"build_grasif: the solver timed out on {goal!r}; raise TIMEOUT")
    if not result.ok:
        return None
    return [str(a) for a in result.plan] + ["done()"]


def grasif_tasks(planning: list[Task], env: SceneGraph) -> list[tuple[Task, dict[str, Any]]]:
    """Each Table 5 row with its office-planning task and the GraSIF task built from it."""
    out = []
    for row, text in enumerate(TABLE5, start=1):
        base = match_row(text, planning)
        plan = solver_plan(start_graph(env, base), base.goal or "")
        if plan is None:
            raise SystemExit(f"build_grasif: no plan for {base.id}")
        notes = []
        if text != base.instruction:
            notes.append(f"Table 5 words it differently from SayPlan: '{base.instruction}'.")
            if row in WORDING:
                notes.append(WORDING[row])
        if base.note:
            notes.append(base.note)
        data: dict[str, Any] = {
            "id": f"grasif-office-{row:02}",
            "suite": "office-grasif",
            "family": base.family.value,
            "environment": base.environment,
            "instruction": text,
            "source": f"{TABLE} row {row}; office-planning task {base.id} ({base.source})",
        }
        if notes:
            data["note"] = " ".join(notes)
        if base.initial:
            data["initial"] = list(base.initial)
        data["goal"] = base.goal
        data["reference_plan"] = plan
        out.append((base, data))
    return out


def places(graph: SceneGraph) -> list[tuple[str, str]]:
    """Every plausible (asset, relation) to leave an object at, in file order."""
    out = []
    for node in graph.of_kind(NodeKind.ASSET):
        if "release" not in node.affordances or "occupied" in node.state:
            continue
        category = getattr(node, "category", None) or ""
        if category in SURFACES and "open" not in node.affordances:
            out.append((node.id, "ontop_of"))
        elif category in STORAGE and "open" in node.state:
            out.append((node.id, "inside_of"))
    return out


def first_failure_on(verification: Verification, moved: set[str]) -> bool:
    failure = verification.failure
    return failure is not None and bool(moved & set(failure.action.args))


def dynamic_task(
    number: int, variant: Variant, grasif: dict[str, Any], base: Task, env: SceneGraph
) -> dict[str, Any]:
    """One office-dynamic task: seeded draws of where each object went, kept when they pass."""
    before = start_graph(env, base)
    goal = grasif["goal"]
    stale_plan = grasif["reference_plan"]
    picked = {a[len("pick_up(") : -1] for a in stale_plan if a.startswith("pick_up(")}
    missing = set(variant.moved) - picked
    if missing:
        raise SystemExit(
            f"build_grasif: row {variant.row}: the stale plan never picks up {sorted(missing)}"
        )
    rng = random.Random(f"{SEED}:{grasif['id']}")
    candidates = places(before)
    for _ in range(MAX_DRAWS):
        script, moves = [], []
        for obj in variant.moved:
            here = before.room_of(obj)
            options = [(a, r) for a, r in candidates if before.room_of(a) != here]
            asset, relation = rng.choice(options)
            script.append(f"{relation}({obj}, {asset})")
            moves.append((obj, asset, relation))
        if len({a for _, a, _ in moves}) != len(moves):
            continue  # one place per object keeps the notes simple
        after = with_facts(before, script)
        if parse_goal(goal, after).holds(WorldState(after)):
            continue
        if not Simulator(before, VOCABULARY).verify_plan(stale_plan).ok:
            raise SystemExit(f"build_grasif: row {variant.row}: the stale plan does not run")
        true_run = Simulator(after, VOCABULARY).verify_plan(stale_plan)
        if not first_failure_on(true_run, set(variant.moved)):
            continue
        if solver_plan(after, goal) is None:
            continue
        break
    else:
        raise SystemExit(f"build_grasif: row {variant.row}: no draw passed in {MAX_DRAWS}")
    failure = true_run.failure
    assert failure is not None
    parts = []
    for obj, asset, relation in moves:
        old = before.node(obj)
        was = "inside " if old.relation is not None and old.relation.value == "inside_of" else ""
        now = "inside " if relation == "inside_of" else ""
        parts.append(
            f"{obj} from {was}{old.parent} in {before.room_of(obj)} "
            f"to {now}{asset} in {before.room_of(asset)}"
        )
    note = (
        f"After the robot last mapped the office, someone moved {_join(parts)}. "
        f"The robot's memory is that stale map. The reference plan is the one made on it: it "
        f"reaches the goal there, but in the true world it fails at {failure.message}."
    )
    return {
        "id": f"dynamic-office-{number:02}",
        "suite": "office-dynamic",
        "family": grasif["family"],
        "environment": grasif["environment"],
        "instruction": grasif["instruction"],
        "source": (
            f"dynamic variant of {grasif['id']} ({TABLE} row {variant.row}; "
            f"office-planning task {base.id})"
        ),
        "note": note,
        **({"initial": list(base.initial)} if base.initial else {}),
        "world_script": script,
        "memory": "prior",
        "goal": goal,
        "reference_plan": stale_plan,
    }


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class _Dumper(yaml.SafeDumper):
    """Lists indented under their key, long text folded: the style of the hand-written files."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = ">" if len(value) > 80 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def dump(task: dict[str, Any]) -> str:
    return yaml.dump(
        [task],
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=88,
        default_flow_style=False,
    )


GRASIF_HEADER = f"""\
# GENERATED by `{COMMAND}`: do not edit; change the script and rerun it
# (`--check` tells whether this file is up to date).
#
# Suite office-grasif: the 25 Office tasks of GraSIF, the benchmark of
# LookPlanGraph (App. C, Table 5), in the table's order, over the packaged
# `office` environment (see ../DATA.md, section "Office: GraSIF").
#
# The paper lists only the instructions. Each row is one of the 30 SayPlan
# Office planning tasks of office_planning.yaml (matched by its words; rows 17
# and 25 are worded differently, and their notes say how); the task takes that
# one's family, goal and initial facts. GraSIF excluded tasks it judged
# ambiguous without naming them: the five office-planning tasks no row
# matches are left out here:
#   planning-simple-15  Throw what the agent is holding in the bin.
#   planning-long-03    Wash all the dishes on the lunch table. ...
#   planning-long-06    Someone has thrown items in the wrong bins. Correct this.
#   planning-long-13    I'm hungry. Bring me an apple from Peter and a pepsi from Tobi. ...
#   planning-long-15    There is an office which has a cabinet containing a rotten apple. ...
#
# reference_plan: the symbolic solver's plan in the LookPlanGraph vocabulary
# (go_to rooms, pick_up, put_on, put_inside, ...) on the fully known world.
"""

DYNAMIC_HEADER = f"""\
# GENERATED by `{COMMAND}`: do not edit; change the script and rerun it
# (`--check` tells whether this file is up to date).
#
# Suite office-dynamic: variants of office-grasif tasks in a world that
# changed after the robot last mapped it (see ../DATA.md, section "Office:
# dynamic variants"). `world_script` moves the objects the task needs to
# another room; `memory: prior` gives the robot the map from before the move.
# Where each object went was drawn by a seeded generator among the free
# surfaces and open storage of other rooms.
#
# reference_plan: the plan the solver makes on the stale map (LookPlanGraph
# vocabulary). It reaches the goal in the world before the script and fails
# in the true world at a step on a moved object, as each note says; a planner
# has to look again to succeed. The solver does solve every task in the true
# world.
"""


def build() -> tuple[str, str]:
    """The text of office_grasif.yaml and office_dynamic.yaml."""
    planning = load_task_file(PLANNING_YAML)
    env = load_environment("office")
    grasif = grasif_tasks(planning, env)
    grasif_text = GRASIF_HEADER + "".join("\n" + dump(data) for _, data in grasif)
    dynamic = [
        dynamic_task(number, v, grasif[v.row - 1][1], grasif[v.row - 1][0], env)
        for number, v in enumerate(DYNAMIC, start=1)
    ]
    dynamic_text = DYNAMIC_HEADER + "".join("\n" + dump(data) for data in dynamic)
    return grasif_text, dynamic_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write; exit 1 if a file differs from what the script would write",
    )
    args = parser.parse_args(argv)
    stale = []
    for path, text in zip((GRASIF_YAML, DYNAMIC_YAML), build(), strict=True):
        if args.check:
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != text:
                stale.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(REPO_ROOT)}")
    if stale:
        for path in stale:
            print(f"build_grasif: {path} is out of date; rerun without --check", file=sys.stderr)
        return 1
    if args.check:
        print("office_grasif.yaml and office_dynamic.yaml are up to date")
    return 0


if __name__ == "__main__":
    from build_task_index import refresh  # the task index, as the suites now are

    sys.exit(main() or refresh(check="--check" in sys.argv))
