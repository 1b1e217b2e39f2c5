"""SCLPlan and ReAct on ALFWorld tasks through the scripted LLM server (127.0.0.1)."""

import pytest

from react_script import act, field, goal
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import Status, get_planner

SAMPLE = ["alfworld-pick-01", "alfworld-look-01", "alfworld-clean-01", "alfworld-heat-01"]
SAMPLE += ["alfworld-cool-01", "alfworld-pick2-01"]


@pytest.mark.parametrize("task_id", SAMPLE)
def test_sclplan_writes_the_goal_and_the_global_planner_solves_it(scripted_llm, task_id):
    task = get_task(task_id)
    scripted_llm.enqueue_json(goal(task.goal))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan"), task, None, llm)
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert episode.executable and episode.goal_reached
    assert episode.action_sources == ["planner"] * len(episode.plan) and episode.plan
    assert [c.stage for c in episode.llm_calls] == ["goal"]
    metrics = episode.sclplan
    assert metrics.actions == {"planner": len(episode.plan), "pv": 0, "react": 0}
    assert metrics.global_plan_found and metrics.goal_valid


def test_react_sees_alfworlds_text_and_pv_inserts_the_missing_steps(scripted_llm):
    task = get_task("alfworld-look-01")  # examine the alarmclock with the desklamp.
    scripted_llm.enqueue_json(act("go_to(safe_1)"))
    scripted_llm.enqueue_json(act("take(alarmclock_1, desk_2)"))  # not at desk_2: PV goes
    scripted_llm.enqueue_json(act("toggle(desklamp_1)"))  # PV goes to the lamp's desk
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("react_pv", max_steps=3), task, None, llm)
    first, second, third = scripted_llm.requests
    assert field(first, "Observation").startswith(
        "You are in the middle of a room. Looking quickly around you, you see a bed 1,"
    )
    assert field(second, "Observation") == "You arrive at safe 1. The safe 1 is closed."
    assert field(third, "Observation") == (
        "You arrive at desk 2. On the desk 2, you see a alarmclock 1. "
        "You pick up the alarmclock 1 from the desk 2."
    )
    assert episode.action_sources == ["react", "pv", "react", "pv", "react"]
    assert episode.goal_reached  # the task is done, though the model never said done()
    assert episode.sclplan.react_invalid == 2


def test_sclplan_tries_the_global_planner_again_after_each_react_step(scripted_llm):
    task = get_task("alfworld-pick-01")  # put a mug in desk.
    scripted_llm.enqueue_json(goal("at(mug_1, desk_1) and at(mug_1, desk_2)"))  # unsolvable
    scripted_llm.enqueue_json(act("go_to(desk_1)"))
    scripted_llm.enqueue_json(act("go_to(shelf_2)"))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan", max_steps=2), task, None, llm)
    # the paper's loop: the problem rebuilt from the goal and the state before each step;
    # the goal request (task, predicates, types and names) is the same, so asked once
    assert [c.stage for c in episode.llm_calls] == ["goal", "react", "react"]
    assert field(scripted_llm.requests[2], "Observation").startswith("You arrive at desk 1.")
    metrics = episode.sclplan
    assert (metrics.goal_calls, metrics.gsp_calls, metrics.llm_calls) == (1, 3, 3)
    assert not metrics.global_plan_found and metrics.react_predictions == 2


def test_sclplan_loop_once_leaves_the_rest_to_react(scripted_llm):
    task = get_task("alfworld-pick-01")
    scripted_llm.enqueue_json(goal("at(mug_1, desk_1) and at(mug_1, desk_2)"))
    scripted_llm.enqueue_json(act("go_to(desk_1)"))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan", loop="once", max_steps=1), task, None, llm)
    assert [c.stage for c in episode.llm_calls] == ["goal", "react"]
    metrics = episode.sclplan
    assert (metrics.goal_calls, metrics.gsp_calls, metrics.llm_calls) == (1, 1, 2)
    assert not metrics.global_plan_found and episode.status is Status.FAILED


PDDL_PICK = (
    "(exists (?o - object ?r - receptacle) (and (objectType ?o MugType) "
    "(receptacleType ?r DeskType) (inReceptacle ?o ?r)))"
)


def test_sclplan_asks_alfworld_for_a_pddl_goal_and_accepts_one(scripted_llm):
    task = get_task("alfworld-pick-01")  # put a mug in desk.
    scripted_llm.enqueue_json(goal(PDDL_PICK))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan"), task, None, llm)
    [request] = scripted_llm.requests
    system, turn = (m["content"] for m in request["messages"])
    assert "goal state in PDDL" in system and "(inReceptacle ?o ?r)" in system
    # the task, the predicates, the object types and their names; no scene, no robot state
    assert turn.startswith("Task: put a mug in desk.\nObject types and their names: ")
    assert "mug: mug_1" in turn and "desk: desk_1, desk_2" in turn
    for absent in ("Scene graph", "Robot", "holding", "Observation", '"nodes"', "You are in"):
        assert absent not in system + turn
    assert episode.status is Status.SUCCESS and episode.goal_reached
    metrics = episode.sclplan
    assert metrics.goal == PDDL_PICK and metrics.goal_valid and metrics.global_plan_found


def test_a_malformed_pddl_goal_is_asked_again_with_the_readers_message(scripted_llm):
    task = get_task("alfworld-pick-01")
    scripted_llm.enqueue_json(goal("(inReceptacle mug_1 desk_1)) ("))  # was an IndexError
    scripted_llm.enqueue_json(goal(PDDL_PICK))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan"), task, None, llm)
    retry = scripted_llm.requests[1]["messages"][-1]["content"]
    assert retry.startswith("That goal cannot be used: ") and "closes nothing" in retry
    assert episode.status is Status.SUCCESS and episode.sclplan.goal_attempts == 2
