"""The oracle solves every packaged planning task, and its plans reach the goals; it answers
search tasks from their answer sets (tests/eval/test_search_scoring.py runs all 60)."""

import pytest

from sceneplan import runs
from sceneplan.datasets.tasks import get_task, packaged_tasks
from sceneplan.planners import Status

# ALFWorld's 134 tasks: a sample per type in tests/alfworld, all in benchmarks/alfworld.py;
# the BEHAVIOR and VirtualHome suites: a sample in tests/importers, all in benchmarks/suites.py
ELSEWHERE = {"alfworld-valid-unseen", "behavior-grasif", "behavior-extended", "behavior-1k"}
ELSEWHERE |= {"virtualhome-grasif", "virtualhome"}
PLANNING_TASKS = [t for t in packaged_tasks() if not t.is_search and t.suite not in ELSEWHERE]


def test_there_are_planning_tasks_to_solve():
    assert {t.environment for t in PLANNING_TASKS} >= {"office"}


@pytest.mark.parametrize("task", PLANNING_TASKS, ids=lambda t: t.id)
@pytest.mark.slow
def test_oracle_solves_every_planning_task(task):
    episode = runs.plan("oracle", task)
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert episode.executable and episode.goal_reached and episode.correct
    assert episode.action_sources == ["planner"] * len(episode.full_plan)
    assert episode.llm_calls == []


def test_oracle_needs_a_goal():
    episode = runs.plan("oracle", "make coffee", "coffee")
    assert episode.status is Status.ERROR
    assert "planning task" in episode.error


def test_oracle_answers_a_search_task_after_expanding_its_rooms():
    task = get_task("home-simple-14")  # Find me 2 bedrooms with pillows in them.
    episode = runs.plan("oracle", task)
    assert episode.answer == ["bedroom1", "bedroom3"] and episode.explored == task.answer_rooms
    assert [(c.op, c.target) for c in episode.sim_calls] == [
        ("expand", "bedroom1"),
        ("expand", "bedroom3"),
    ]
    assert episode.answer_correct and episode.answer_room_explored
    assert episode.status is Status.SUCCESS and episode.llm_calls == []
    nothing = runs.plan("oracle", get_task("home-complex-15"))  # My tie is in one of the closets.
    assert nothing.answer == [] and nothing.explored == ["closet0", "closet1"]
    assert nothing.status is Status.SUCCESS
