"""Build the environments of a real robot's graph and a real scan, with their task suites.

- `hydra-apartment`: Spark-DSG's own test graph (`apartment_dsg.json`, a
  Hydra run in the uHumans2 apartment, 296 nodes) through the spark-dsg
  importer (`sceneplan.importers.spark_dsg`);
- `mp3d-house`: the Matterport3D house file Spark-DSG ships
  (`example_mp3d_scene.house`, 10 regions, 187 objects) through the mp3d
  importer (`sceneplan.importers.mp3d`).

Both files are in `../shared/data/spark-dsg/` (see src/sceneplan/datasets/
DATA.md for provenance and licence). Nothing is added by hand to the graphs:
they are the importers' output. The tasks are written here (TASKS), from
what each scene holds; each goal is solved by the symbolic solver, whose plan
(verified in the simulator, reaching the goal) is the task's reference plan.
A goal the solver cannot reach stops the build.

Writes `datasets/environments/hydra-apartment.json`, `mp3d-house.json` and
`datasets/tasks/hydra_apartment.yaml`, `mp3d_house.yaml`.

Usage: ``python scripts/build_spark.py [--data DIR] [--check]`` (needs the
`spark` extra). The output is deterministic; `--check` compares instead of
writing and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from sceneplan.graph.io import format_text, to_dict
from sceneplan.graph.model import SceneGraph
from sceneplan.importers import import_source
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT / "src" / "sceneplan" / "datasets"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "spark-dsg"


@dataclass(frozen=True)
class Spec:
    """One task: what to say, and the goal that holds exactly when it is done."""

    family: str  # simple_planning / long_horizon
    kind: str  # fetch-and-place, open-close, switch, multi-room
    instruction: str
    goal: str
    note: str = ""


@dataclass(frozen=True)
class Environment:
    name: str
    source: str  # importer
    file: str
    suite_file: str
    header: str
    tasks: tuple[Spec, ...]
    options: tuple[tuple[str, str], ...] = ()  # importer options (the file's label space)


APARTMENT_TASKS = (
    Spec(
        "simple_planning",
        "fetch-and-place",
        "Move the lamp from the small table to the big table.",
        "ontop_of(lamp11, table33)",
        "table24 is the small table (0.46 x 0.71 m), table33 the big one (2.43 x 1.13 m).",
    ),
    Spec("simple_planning", "switch", "Turn on the lamp on the small table.", "on(lamp11)"),
    Spec("simple_planning", "fetch-and-place", "Bring me the lamp from the chair.", "held(lamp84)"),
    Spec(
        "simple_planning",
        "fetch-and-place",
        "Put the lamp that is on a chair onto the small table.",
        "ontop_of(lamp84, table24)",
    ),
    Spec("simple_planning", "switch", "Turn on every lamp.", "forall l in lamp: on(l)"),
    Spec(
        "simple_planning",
        "fetch-and-place",
        "Put the lamp from the small table on the armchair by the window.",
        "ontop_of(lamp11, chair0)",
        "chair0 stands alone at the west end of the room (1.0 x 1.0 m): read as the armchair.",
    ),
    Spec(
        "long_horizon",
        "fetch-and-place",
        "Put both lamps on the big table.",
        "ontop_of(lamp11, table33) and ontop_of(lamp84, table33)",
    ),
    Spec(
        "long_horizon",
        "switch",
        "Move the lamp from the chair onto the big table and switch it on.",
        "ontop_of(lamp84, table33) and on(lamp84)",
    ),
    Spec(
        "long_horizon",
        "fetch-and-place",
        "Swap the two lamps: each goes where the other one is.",
        "ontop_of(lamp11, chair56) and ontop_of(lamp84, table24)",
    ),
    Spec(
        "long_horizon",
        "fetch-and-place",
        "Put a lamp on every table.",
        "forall t in table: exists l in lamp: ontop_of(l, t)",
    ),
    Spec(
        "long_horizon",
        "switch",
        "Light up the big table: put a lamp on it that is switched on, and leave the other lamp "
        "off.",
        "exists l in lamp: (ontop_of(l, table33) and on(l)) and exists l in lamp: off(l)",
    ),
)

HOUSE_TASKS = (
    Spec(
        "simple_planning",
        "multi-room",
        "Bring a towel from the bathroom next to the bedroom and put it on the bed.",
        "exists t in towel: (ontop_of(t, bed5) and not in_room(t, bathroom3))",
        "bathroom1 opens into bedroom0; bathroom3 is by the entrance.",
    ),
    Spec("simple_planning", "open-close", "Open the kitchen cabinet.", "open(kitchen_cabinet175)"),
    Spec("simple_planning", "switch", "Turn on the TV in the TV room.", "on(tv87)"),
    Spec(
        "simple_planning",
        "switch",
        "Switch on the lights in the family room.",
        "on(light163) and on(light170)",
    ),
    Spec(
        "simple_planning",
        "open-close",
        "Get the basket out of the bathroom cabinet and close the cabinet again.",
        "held(basket39) and closed(bath_cabinet62)",
    ),
    Spec(
        "simple_planning",
        "multi-room",
        "Move the speaker from the TV room to the living room's coffee table.",
        "ontop_of(speaker94, coffee_table132)",
    ),
    Spec(
        "long_horizon",
        "multi-room",
        "Take a lamp from the bedroom to the family room's coffee table and turn it on.",
        "exists l in lamp: (ontop_of(l, coffee_table158) and on(l) and not is(l, lamp150))",
        "lamp14 and lamp20 are the bedroom's (on its bedside tables); lamp150 is the living "
        "room's.",
    ),
    Spec(
        "long_horizon",
        "open-close",
        "Put the bottle from the entrance bathroom in the dishwasher, close it and start it.",
        "inside_of(bottle79, dishwasher177) and closed(dishwasher177) and on(dishwasher177)",
    ),
    Spec(
        "long_horizon",
        "multi-room",
        "Put a plant from the dining room on the kitchen counter and the other one on the bar.",
        "exists p in plant_pot: ontop_of(p, kitchen_counter173) and exists p in plant_pot: "
        "ontop_of(p, bar172)",
    ),
    Spec(
        "long_horizon",
        "multi-room",
        "Bring the box from the entrance to the TV room and put it on the TV stand.",
        "ontop_of(box114, tv_stand92)",
    ),
    Spec(
        "long_horizon",
        "open-close",
        "Store the toilet paper from the small toilet in the cabinet of the entrance bathroom, "
        "and leave the cabinet closed.",
        "inside_of(toilet_paper60, bath_cabinet69) and closed(bath_cabinet69)",
    ),
    Spec(
        "long_horizon",
        "switch",
        "Turn on the lights of both bathrooms and of the toilet.",
        "on(light43) and on(light50) and on(light73) and on(light61)",
    ),
)

HEADER = """\
# GENERATED by `python scripts/build_spark.py`: do not edit; change the script and
# rerun it (`--check` tells whether this file is up to date).
#
# Suite {suite}: {n} tasks in the environment `{env}`:
# {what}
# The tasks are written from what the imported scene holds; each reference plan
# is the symbolic solver's, verified in the simulator (SayPlan vocabulary).
# Kinds: {kinds}.
{extra}"""

ENVIRONMENTS = (
    Environment(
        "hydra-apartment",
        "spark-dsg",
        "apartment_dsg.json",
        "hydra_apartment.yaml",
        "Spark-DSG's apartment_dsg.json (a Hydra run in the uHumans2 apartment) through\n# "
        "the spark-dsg importer.",
        APARTMENT_TASKS,
        (("labelspace", "uhumans2"),),  # the file names none; its run was Hydra's uHumans2
    ),
    Environment(
        "mp3d-house",
        "mp3d",
        "example_mp3d_scene.house",
        "mp3d_house.yaml",
        "Spark-DSG's example_mp3d_scene.house (a Matterport3D house) through the mp3d\n# importer.",
        HOUSE_TASKS,
    ),
)
APARTMENT_NOTE = """\
# What the scene cannot hold: Hydra found one room in this run and no openable thing (its
# classes here are chairs, tables and lamps), so the apartment has no open/close and no
# multi-room task; the mp3d-house suite has both.
"""


def build_environment(env: Environment, data: Path) -> tuple[SceneGraph, str]:
    imported = import_source(env.source, data / env.file, name=env.name, **dict(env.options))
    graph = imported.graph
    data_dict = to_dict(graph)
    data_dict["description"] = (
        f"{graph.description}; built by scripts/build_spark.py (src/sceneplan/datasets/DATA.md)"
    )
    text = format_text(data_dict)
    from sceneplan.graph.io import from_dict

    return from_dict(data_dict, env.name), text


def build_tasks(env: Environment, graph: SceneGraph) -> str:
    suite = env.suite_file.removesuffix(".yaml").replace("_", "-")
    items = []
    for index, spec in enumerate(env.tasks, start=1):
        task_id = f"{suite}-{index:02d}"
        goal = parse_goal(spec.goal, graph)
        result = solve(PlanningProblem(graph, goal), timeout=60)
        if not result.ok:
            raise SystemExit(f"build_spark: {task_id}: the solver found no plan ({result.status})")
        plan = [str(a) for a in result.plan] + ["done()"]
        run = Simulator(graph).verify_plan(plan)
        if not run.ok or not goal.holds(run.final_state):
            raise SystemExit(f"build_spark: {task_id}: the solver's plan fails: {run.feedback}")
        if goal.holds(Simulator(graph).initial_state()):
            raise SystemExit(f"build_spark: {task_id}: the goal holds at the start")
        item = {
            "id": task_id,
            "suite": suite,
            "family": spec.family,
            "environment": env.name,
            "instruction": spec.instruction,
            "goal": spec.goal,
            "reference_plan": plan,
        }
        if spec.note:
            item["note"] = spec.note
        item["source"] = f"written for sceneplan ({spec.kind})"
        items.append(item)
    kinds = sorted({s.kind for s in env.tasks})
    header = HEADER.format(
        suite=suite,
        n=len(items),
        env=env.name,
        what=env.header,
        kinds=", ".join(f"{k} {sum(s.kind == k for s in env.tasks)}" for k in kinds),
        extra=APARTMENT_NOTE if env.name == "hydra-apartment" else "",
    )
    body = yaml.safe_dump(items, sort_keys=False, width=100, allow_unicode=True)
    return header + "\n" + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the spark-dsg data folder")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    stale = []
    for env in ENVIRONMENTS:
        graph, text = build_environment(env, args.data)
        outputs = {
            DATASETS / "environments" / f"{env.name}.json": text,
            DATASETS / "tasks" / env.suite_file: build_tasks(env, graph),
        }
        for path, content in outputs.items():
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if args.check:
                if current != content:
                    stale.append(path)
                continue
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
        counts = graph.counts()
        print(
            f"{env.name}: {len(graph)} nodes ({counts['room']} rooms, {counts['asset']} assets, "
            f"{counts['object']} objects, {counts['pose']} poses), {len(env.tasks)} tasks solved "
            "and verified"
        )
    for path in stale:
        print(f"build_spark: {path} is out of date; rerun without --check", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
