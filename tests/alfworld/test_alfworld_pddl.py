"""The PDDL export of an ALFWorld task: its own vocabulary, with ALFRED's `canContain` table as
`alfworld_fits` facts, so that `put` applies and the oracle's plan validates."""

from __future__ import annotations

from functools import cache

import pytest

pytest.importorskip("unified_planning", reason="the PDDL checks need unified-planning")

from unified_planning.engines.plan_validator import SequentialPlanValidator
from unified_planning.engines.results import ValidationResultStatus
from unified_planning.io import PDDLReader

from pddl_judge import Judge, lenient_names
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.symbolic.pddl import export_pddl, plan_pddl
from sceneplan.world.alfworld import fits

pytestmark = pytest.mark.slow  # ALFWorld's PDDL validated


def test_the_export_writes_what_each_receptacle_can_hold():
    graph = load_environment("alfworld-look-01")
    files = export_pddl(graph)
    assert "(define (domain sceneplan_alfworld)" in files.domain  # the graph's own vocabulary
    assert "(alfworld_fits ?o - object ?r - object)" in files.domain
    assert "(alfworld_fits cellphone_1 safe_1)" in files.problem
    assert "(alfworld_fits cellphone_1 garbagecan_1)" not in files.problem
    expected = sum(
        fits(graph, o.id, r.id)
        for o in graph
        if o.kind.value == "object"
        for r in graph
        if r.kind.value == "asset"
    )
    assert files.problem.count("(alfworld_fits ") == expected > 0


@pytest.mark.parametrize("task_id", ["alfworld-pick-01", "alfworld-clean-01"])
def test_the_oracles_plan_reaches_the_goal_in_the_exported_problem(task_id):
    task = get_task(task_id)
    plan = runs.plan("oracle", task).plan
    graph = load_environment(task_id)
    files = export_pddl(graph, task.goal)
    reader, validator = PDDLReader(), SequentialPlanValidator()
    with lenient_names():  # the one room is the node `room`, and `room` is a type
        problem = reader.parse_problem_string(files.domain, files.problem)
        verdict = validator.validate(
            problem, reader.parse_plan_string(problem, plan_pddl(plan, graph))
        )
        short = validator.validate(
            problem, reader.parse_plan_string(problem, plan_pddl(plan[:-1], graph))
        )
    assert verdict.status is ValidationResultStatus.VALID, verdict.reason
    assert short.status is ValidationResultStatus.INVALID  # the last put is needed


@pytest.mark.parametrize(
    "plan",
    [
        "go_to(bed_1) > take(cellphone_1, bed_1) > go_to(safe_1) > open(safe_1) > "
        "put(cellphone_1, safe_1) > close(safe_1)",
        "go_to(bed_1) > take(cellphone_1, bed_1) > go_to(garbagecan_1) > "
        "put(cellphone_1, garbagecan_1)",  # a garbagecan cannot hold a cellphone
        "go_to(bed_1) > take(cellphone_1, bed_1) > go_to(safe_1) > put(cellphone_1, safe_1)",
    ],
)
def test_the_simulator_and_the_export_agree_on_put(plan):
    look_judge().assert_agree(plan)


@cache
def look_judge() -> Judge:
    return Judge(load_environment("alfworld-look-01"), "alfworld", lenient=True)
