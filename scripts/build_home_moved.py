"""Build the Home moved-object suite `home-moved` (src/sceneplan/datasets/tasks/home_moved.yaml).

Twelve planning tasks in the packaged `home` scene (SayPlan's 3D scene graph)
in which an object the task needs was moved by someone after the robot last
mapped the house: `world_script` says where it went, `memory: prior` gives
the robot the map from before. The moves are written by hand, each to a place
where such a thing plausibly ends up in a home (a bottle put in the fridge, a
sock left on the couch beside another sock, a laptop taken to bed, a rattle on
the playroom shelf); four goals already hold on the stale map (the thing was
"put back" in memory only), so a robot has to look before it says done.

For each task the script checks, and refuses to write when one fails: the
goal is false in the true world; the solver solves the task in the true
world; the plan the solver makes on the stale map (the `reference_plan`,
SayPlan's vocabulary) either is empty (the goal holds on the map) or fails in
the true world at a step on the moved object. It writes the solver's plans,
so the output is deterministic: the same inputs give the same bytes.

Usage: ``python scripts/build_home_moved.py [--check]``
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sceneplan.datasets import load_environment
from sceneplan.graph.model import SceneGraph
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.goals import parse_goal
from sceneplan.world.setup import with_facts
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT = REPO_ROOT / "src" / "sceneplan" / "datasets" / "tasks" / "home_moved.yaml"
COMMAND = "python scripts/build_home_moved.py"
SUITE = "home-moved"


@dataclass(frozen=True)
class Moved:
    """One task: the instruction, its goal, and where the object went (a world-script fact)."""

    instruction: str
    goal: str
    moved: str
    why: str  # why the object plausibly ended up there


TASKS = (
    Moved(
        "Put the book from the living-room couch on the desk in the home office.",
        "ontop_of(book1, desk0)",
        "ontop_of(book1, shelf3)",
        "someone shelved it in bedroom3, where books and plants stand",
    ),
    Moved(
        "Bring the bottle from the kitchen counter to the dining table in dining room 0.",
        "ontop_of(bottle0, dining_table0)",
        "inside_of(bottle0, fridge0)",
        "someone put the drink in the fridge of the same kitchen",
    ),
    Moved(
        "Put the wine bottle on the dining table in dining room 2.",
        "ontop_of(wine_bottle0, dining_table2)",
        "inside_of(wine_bottle0, fridge1)",
        "someone chilled it in the other kitchen's fridge",
    ),
    Moved(
        "Put the laptop back on the desk in the home office.",
        "ontop_of(laptop0, desk0)",
        "ontop_of(laptop0, bed1)",
        "someone took it to bed; the map still has it on the desk",
    ),
    Moved(
        "Put the cell phone on the bed in bedroom 1.",
        "ontop_of(cell_phone0, bed1)",
        "ontop_of(cell_phone0, couch2)",
        "someone left it on the couch of the other living room",
    ),
    Moved(
        "Put the sock back on the bed in bedroom 0.",
        "ontop_of(sock0, bed2)",
        "ontop_of(sock0, couch0)",
        "it was left on the living-room couch, beside another sock; the map has it on the bed",
    ),
    Moved(
        "Put the rattle back in the crib.",
        "ontop_of(rattle0, crib0)",
        "ontop_of(rattle0, shelf0)",
        "a child left it on the playroom shelf with the ball; the map has it in the crib",
    ),
    Moved(
        "Put the razor on the sink in bathroom 1.",
        "ontop_of(razor0, sink0)",
        "ontop_of(razor0, sink3)",
        "someone shaved in bathroom 4",
    ),
    Moved(
        "Put the vegetable lasagna in the fridge of kitchen 0 and close it.",
        "inside_of(vegetable_lasagna0, fridge1) and closed(fridge1)",
        "inside_of(vegetable_lasagna0, oven1)",
        "someone put it in an oven to keep it warm",
    ),
    Moved(
        "Bring the roast chicken to the dining table in dining room 1.",
        "ontop_of(roast_chicken0, dining_table1)",
        "inside_of(roast_chicken0, microwave2)",
        "someone put it in the microwave of the same dining room",
    ),
    Moved(
        "Put the banana in the fridge of kitchen 1 and close it.",
        "inside_of(banana0, fridge0) and closed(fridge0)",
        "ontop_of(banana0, dining_table1)",
        "someone carried it to a dining table, with the fruit bowl's plants",
    ),
    Moved(
        "Put the game console back on the TV stand.",
        "ontop_of(game_console0, tv_stand0)",
        "ontop_of(game_console0, couch1)",
        "someone played in the other living room, by its TV; the map has it on the stand",
    ),
)


def _plan(graph: SceneGraph, goal: str, state: WorldState | None = None) -> list[str]:
    result = solve(PlanningProblem(graph, goal, state), 60.0)
    if not result.ok:
        raise SystemExit(f"build_home_moved: the solver found no plan for {goal}")
    return [str(a) for a in result.plan]


def task_data(number: int, spec: Moved, env: SceneGraph) -> dict[str, Any]:
    """One task of the suite, checked as the module says."""
    truth = with_facts(env, [spec.moved])
    goal = parse_goal(spec.goal, env)
    obj = spec.moved[spec.moved.index("(") + 1 : spec.moved.index(",")]
    if goal.holds(WorldState(truth)):
        raise SystemExit(f"build_home_moved: {spec.goal} holds in the true world already")
    _plan(truth, spec.goal)  # solvable in the true world
    stale = _plan(env, spec.goal)
    verdict = Simulator(truth).verify_plan(stale)
    prior = WorldState(env)
    words = {"ontop_of": "on", "inside_of": "inside"}
    relation = prior.relation(obj)
    was = f"{words.get(relation.value, 'at') if relation else 'at'} {prior.parent(obj)}"
    went, _, where = spec.moved.partition("(")
    if stale:
        step = verdict.failure.index if verdict.failure is not None else None
        if step is None or obj not in stale[step]:
            raise SystemExit(f"build_home_moved: the stale plan for {spec.goal} does not fail")
        how = f"it fails in the true world at step {step + 1} {stale[step]}."
    else:
        how = "it is empty, since the goal holds on the map; only looking finds out it does not."
    return {
        "id": f"home-moved-{number:02}",
        "suite": SUITE,
        "family": "simple_planning",
        "environment": "home",
        "instruction": spec.instruction,
        "source": "written for issue 28 (plans on a stale map)",
        "note": (
            f"After the robot last mapped the house, {obj} went from {was} to "
            f"{words[went]} {where.split(', ')[1].rstrip(')')}: {spec.why}. The reference plan "
            f"is the solver's on that stale map: {how}"
        ),
        "world_script": [spec.moved],
        "memory": "prior",
        "goal": spec.goal,
        "reference_plan": [*stale, "done()"],
    }


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = ">" if len(value) > 80 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)

HEADER = f"""\
# GENERATED by `{COMMAND}`: do not edit; change the script and rerun it
# (`--check` tells whether this file is up to date).
#
# Suite home-moved: planning tasks in the Home scene in which an object the
# task needs was moved after the robot last mapped the house (see ../DATA.md,
# section "Home: moved objects"). `world_script` says where it went (by hand,
# where such a thing plausibly ends up); `memory: prior` gives the robot the
# map from before. reference_plan: the solver's plan on that stale map
# (SayPlan vocabulary); it fails in the true world, or is empty where the
# goal holds on the map only.
"""


def build() -> str:
    env = load_environment("home")
    tasks = [task_data(n, spec, env) for n, spec in enumerate(TASKS, start=1)]
    return HEADER + "".join(
        "\n" + yaml.dump([t], Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=88)
        for t in tasks
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if the file differs"
    )
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"build_home_moved: {OUT} is out of date; rerun without --check", file=sys.stderr)
            return 1
        print("home_moved.yaml is up to date")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
