"""The oracle solves every packaged planning task, and its plans reach the goals."""

import pytest

from sceneplan import runs
from sceneplan.datasets.tasks import packaged_tasks
from sceneplan.planners import Status

PLANNING_TASKS = [t for t in packaged_tasks() if not t.is_search]


def test_there_are_planning_tasks_to_solve():
    assert {t.environment for t in PLANNING_TASKS} >= {"office"}


@pytest.mark.parametrize("task", PLANNING_TASKS, ids=lambda t: t.id)
def test_oracle_solves_every_planning_task(task):
    episode = runs.plan("oracle", task)
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert episode.executable and episode.goal_reached
    assert episode.action_sources == ["planner"] * len(episode.full_plan)
    assert episode.llm_calls == []


def test_oracle_needs_a_goal():
    episode = runs.plan("oracle", "make coffee", "coffee")
    assert episode.status is Status.ERROR
    assert "planning task" in episode.error
