"""`Episode.reason`: the one line the report gives for a run that did not succeed."""

from __future__ import annotations

from sceneplan.eval.metrics import compute
from sceneplan.eval.report import render
from sceneplan.eval.store import Record
from sceneplan.planners.episode import Episode, Status
from sceneplan.planners.records import ExecutionRecord


def ep(**fields) -> Episode:
    return Episode("oracle", "none", "office", "do it", task_id="t1", **fields)


def test_each_kind_of_failure_has_its_reason():
    assert ep(status=Status.SUCCESS).reason() is None
    assert ep(status=Status.ERROR, error="server down").reason() == "server down"
    skipped = ExecutionRecord(robot="sim", skipped="the planner's plan is not executable")
    assert ep(execute=skipped).reason() == "the planner's plan is not executable"
    stopped = ExecutionRecord(robot="sim", stopped="the replan budget (2) is spent")
    assert ep(execute=stopped, goal_unmet=["held(mug) is false"]).reason() == (
        "the replan budget (2) is spent"
    )
    failure = {"cause": "container_closed", "message": "pickup(mug): the wardrobe is closed"}
    assert ep(failure=failure).reason() == "pickup(mug): the wardrobe is closed"
    assert ep(goal_unmet=["held(mug) is false", "open(fridge) is false"]).reason() == (
        "the goal does not hold: held(mug) is false; open(fridge) is false"
    )
    assert ep(answer_correct=False).reason() == "wrong answer: nothing"
    assert ep(executable=False).reason() == "the plan is not executable"
    assert ep().reason() == "the goal was not reached"


def test_a_reason_with_a_bar_or_a_newline_stays_in_its_cell():
    failed = ep(failure={"message": "a | b\nc"})
    text = render(compute([Record("office", 1, failed)]), table_name="failures")
    assert "| oracle | none | t1 | 1 | failed | a \\| b c |" in text
