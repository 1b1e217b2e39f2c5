"""SayPlan's own plans (App. G, Table 19), judged by the Office reconstruction as the paper did.

Each plan of data/appg_plans.yaml is expanded to poses by the navigator and
run by the simulator from its task's start state (`sceneplan.runs.resolve`):
a plan the paper marks correct and executable executes and reaches the
task's goal; one marked executable but not correct executes and misses it;
one marked not executable is rejected.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from sceneplan.datasets.tasks import get_task, load_task_file
from sceneplan.graph import SceneGraph
from sceneplan.nav import Navigator
from sceneplan.runs import resolve
from sceneplan.world import Simulator, parse_goal, parse_plan
from sceneplan.world.simulator import Verification

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLANNING_YAML = REPO / "src" / "sceneplan" / "datasets" / "tasks" / "office_planning.yaml"
ENTRIES: list[dict] = yaml.safe_load((HERE / "data" / "appg_plans.yaml").read_text("utf-8"))
PRINTED = [e for e in ENTRIES if e["plan"] is not None]


def marked(correct: bool, executable: bool) -> list:
    chosen = [e for e in PRINTED if e["correct"] is correct and e["executable"] is executable]
    return [pytest.param(e["task"], e["plan"], id=e["task"]) for e in chosen]


def start(task_id: str) -> SceneGraph:
    """The Office as the task starts (its `initial` facts applied)."""
    return resolve(get_task(task_id)).graph


def execute(task_id: str, plan: str) -> tuple[SceneGraph, Verification]:
    graph = start(task_id)
    return graph, Simulator(graph).verify_plan(Navigator(graph).expand_plan(plan))


# -- the data ------------------------------------------------------------------------


def test_one_entry_per_planning_task():
    tasks = [t.id for t in load_task_file(PLANNING_YAML)]
    assert [e["task"] for e in ENTRIES] == tasks
    unprinted = {e["task"] for e in ENTRIES if e["plan"] is None}
    assert unprinted == {"planning-long-07", "planning-long-15"}  # Table 19 has no plan for them


def test_marks_give_table_3_sayplan_row():
    # Table 3, SayPlan: simple 93.3 % correct, 100.0 % executable; long horizon 73.3 %, 86.6 %
    def percent(entries: list[dict], key: str) -> float:
        return math.floor(1000 * sum(e[key] for e in entries) / len(entries)) / 10

    simple = [e for e in ENTRIES if e["task"].startswith("planning-simple-")]
    long = [e for e in ENTRIES if e["task"].startswith("planning-long-")]
    assert (percent(simple, "correct"), percent(simple, "executable")) == (93.3, 100.0)
    assert (percent(long, "correct"), percent(long, "executable")) == (73.3, 86.6)


@pytest.mark.parametrize("entry", PRINTED, ids=[e["task"] for e in PRINTED])
def test_the_papers_routes_are_corridors_of_the_reconstruction(entry: dict):
    # every goto of the printed plans goes to a neighbour: expansion adds no pose
    graph = start(entry["task"])
    expanded = [str(a) for a in Navigator(graph).expand_plan(entry["plan"])]
    assert expanded == [str(a) for a in parse_plan(entry["plan"])]


# -- the marks -----------------------------------------------------------------------


@pytest.mark.parametrize(("task_id", "plan"), marked(correct=True, executable=True))
def test_correct_and_executable_plans_reach_the_goal(task_id: str, plan: str):
    graph, result = execute(task_id, plan)
    assert result.ok, f"{task_id}: {result.feedback}"
    goal = parse_goal(get_task(task_id).goal, graph)
    assert goal.holds(result.final_state), goal.explain(result.final_state)


@pytest.mark.parametrize(("task_id", "plan"), marked(correct=False, executable=True))
def test_executable_but_incorrect_plans_miss_the_goal(task_id: str, plan: str):
    graph, result = execute(task_id, plan)
    assert result.ok, f"{task_id}: {result.feedback}"
    goal = parse_goal(get_task(task_id).goal, graph)
    assert not goal.holds(result.final_state)


@pytest.mark.parametrize(("task_id", "plan"), marked(correct=False, executable=False))
def test_non_executable_plans_are_rejected(task_id: str, plan: str):
    _, result = execute(task_id, plan)
    assert not result.ok


def test_every_printed_plan_is_judged():
    judged = sum(len(marked(c, x)) for c, x in ((True, True), (False, True), (False, False)))
    assert judged == len(PRINTED) == 28
    assert not marked(correct=True, executable=False)  # the paper has none for SayPlan
