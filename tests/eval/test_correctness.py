"""Correct, executable and success: three measures of a plan, judged apart (SayPlan Table 3).

A plan is *correct* when the goal holds after its effects are applied with
failed preconditions ignored, *executable* when the simulator accepts it, and a
*success* when both hold the strict way (it runs and reaches the goal).
"""

from __future__ import annotations

import pytest

from sayplan_script import COFFEE_PLAN, COFFEE_PLAN_NOT_OPENED, COFFEE_TASK, plan, switch
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import Episode, Status, get_planner
from sceneplan.planners.outcome import finish_episode
from sceneplan.planners.records import RelaxedRecord
from sceneplan.world import SAYPLAN

# SayPlan Lite's vocabulary: the mug is picked up from the wardrobe without opening it
LITE_NOT_OPENED = [
    "pick_up(coffee_mug)",
    "go_to(kitchen)",
    "put_on(coffee_machine)",
    "turn_on(coffee_machine)",
    "pick_up(coffee_mug)",
    "go_to(toms_room)",
    "put_on(bed2)",
    "done()",
]


def planned(scripted_llm, steps: list[str], planner: str = "sayplan") -> Episode:
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan(*steps))
    with scripted_llm.client(cache=False) as llm:  # the same prompt may get another plan
        return runs.plan(get_planner(planner, max_replans=0), COFFEE_TASK, None, llm)


@pytest.mark.parametrize(
    ("planner", "steps", "correct", "executable"),
    [
        ("sayplan", COFFEE_PLAN, True, True),
        ("sayplan", COFFEE_PLAN_NOT_OPENED, True, False),  # forgets to open the wardrobe
        ("sayplan", ["done()"], False, True),  # runs, and does nothing asked
        ("sayplan", ["goto(kitchn)", "done()"], False, False),
        ("sayplan_lite", LITE_NOT_OPENED, True, False),
    ],
)
def test_correct_and_executable_are_judged_apart(scripted_llm, planner, steps, correct, executable):
    episode = planned(scripted_llm, steps, planner)
    assert (episode.correct, episode.executable) == (correct, executable)
    assert episode.status is (Status.SUCCESS if correct and executable else Status.FAILED)
    assert episode.success is (episode.status is Status.SUCCESS)
    assert episode.summary()["correct"] is correct and episode.summary()["success"] is (
        correct and executable
    )


def test_what_the_relaxed_execution_ignored_is_recorded(scripted_llm):
    episode = planned(scripted_llm, COFFEE_PLAN_NOT_OPENED)
    assert episode.failure["cause"] == "container_closed"
    assert episode.relaxed == RelaxedRecord(
        ignored=["step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed"],
        skipped=[],
    )
    assert planned(scripted_llm, COFFEE_PLAN).relaxed is None


def test_correctness_starts_from_the_tasks_initial_facts():
    task = get_task("planning-simple-15")  # Throw what the agent is holding in the bin.
    graph = runs.resolve(task).graph  # the agent holds the wrapper
    episode = Episode("p", "m", "office", task.instruction, task_id=task.id, goal=task.goal)
    episode.plan = [s for s in task.reference_plan if not s.startswith("pickup")]
    finish_episode(episode, task, graph, None, SAYPLAN)
    assert episode.correct is True
    episode.correct = None
    finish_episode(
        episode, task, load_environment("office"), None, SAYPLAN
    )  # nothing held at the start
    assert episode.correct is False


def test_an_episode_without_a_plan_is_not_correct():
    task = get_task("planning-simple-02")
    episode = Episode("p", "m", "office", task.instruction, task_id=task.id, goal=task.goal)
    episode.status, episode.error = Status.ERROR, "server down"
    finish_episode(episode, task, load_environment("office"), None, SAYPLAN)
    assert episode.correct is False and episode.status is Status.ERROR
    assert episode.error == "server down"
