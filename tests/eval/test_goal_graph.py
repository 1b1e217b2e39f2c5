"""LookPlanGraph's SR, APA and NRR against the goal graph (004, Sec. 6.3, App. D): the initial
graph after the task's reference plan; the formula's scores in columns of their own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.eval.annotate import annotate, goal_state
from sceneplan.eval.metrics import compute, lookplangraph
from sceneplan.eval.report import render
from sceneplan.eval.store import Record
from sceneplan.planners import Episode, get_planner


def oracle_run(task_id: str, **options) -> Episode:
    task = get_task(task_id)
    setup = runs.resolve(task)
    episode = runs.plan(get_planner("oracle", **options), task)
    annotate(episode, task, setup.graph)
    return episode


@pytest.fixture(scope="module")
def scored() -> list[Record]:
    # 03: the oracle opens a container the goal formula does not name, and closes it again
    # as the reference plan does; 05: it takes another apple than the reference plan
    return [
        Record("office-grasif", 1, oracle_run(i)) for i in ("grasif-office-03", "grasif-office-05")
    ]


def test_the_oracle_scores_one_against_the_goal_graph_where_the_formula_says_half(scored):
    [row] = lookplangraph(scored[:1])
    assert (row["sr"], row["apa"], row["scoring"]) == (1.0, 1.0, "goal graph")
    assert (row["sr_formula"], row["apa_formula"]) == (1.0, 0.5)
    info = scored[0].episode.eval
    assert info.goal_mismatch == [] and info.goal_right == info.run_changed


def test_a_run_that_changes_other_nodes_than_the_reference_plan_is_named(scored):
    [row] = lookplangraph(scored)
    assert row["sr"] == 0.5 and row["sr_formula"] == 1.0
    assert row["mismatch"] == ["grasif-office-05: apple1, apple3, cabinet2"]
    text = render(compute(scored), table_name="lookplangraph-2")
    assert "| office-grasif | oracle | none | 2 | 0.50 |" in text
    assert "- office-grasif, oracle (none): grasif-office-05: apple1, apple3, cabinet2" in text


def test_nrr_is_a_number_for_the_full_and_the_partially_observing_oracle(scored):
    full = scored[0].episode
    partial = oracle_run("grasif-office-03", observe="partial")
    [full_row] = lookplangraph([Record("office-grasif", 1, full)])
    [partial_row] = lookplangraph([Record("office-grasif", 1, partial)])
    changed = len(full.eval.goal_changed)
    assert full_row["nrr"] == len(full.eval.observed) / changed
    assert partial.observed and 0 < partial_row["nrr"] < full_row["nrr"]


def test_no_reference_plan_falls_back_to_the_formula():
    task = replace(get_task("grasif-office-03"), reference_plan=[])
    assert goal_state(task, runs.resolve(task).graph) == "the task has no reference plan"
    episode = runs.plan(get_planner("oracle"), task)
    annotate(episode, task, runs.resolve(task).graph)
    [row] = lookplangraph([Record("office-grasif", 1, episode)])
    assert row["scoring"] == "formula" and row["apa"] == row["apa_formula"] == 0.5
