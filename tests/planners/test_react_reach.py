"""Every Office planning task is within ReAct's reach: a model that replays the oracle's
plan, room by room, reaches the goal before the step cap, which is twice the longest plan."""

from functools import cache

import pytest

from react_script import act
from sceneplan import runs
from sceneplan.datasets.tasks import load_suite
from sceneplan.planners import Status, get_planner
from sceneplan.planners.react_loop import step_cap
from sceneplan.planners.shared import MAX_STEPS
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import SAYPLAN, Action

TASKS = {t.id: t for t in load_suite("office-planning")}


def room_level(plan: list[Action]) -> list[Action]:
    """The plan with each run of moves cut to its last one (the path planner walks it)."""
    out: list[Action] = []
    for action in plan:
        if action.name == "goto" and out and out[-1].name == "goto":
            out[-1] = action
        else:
            out.append(action)
    return out


@cache
def oracle_plan(task_id: str) -> list[Action]:
    setup = runs.resolve(TASKS[task_id], None)
    result = solve(PlanningProblem(setup.graph, TASKS[task_id].goal), timeout=60)
    assert result.ok, (task_id, result.status)
    return room_level(result.plan)


@pytest.mark.slow
def test_the_step_cap_is_twice_the_longest_oracle_plan():
    longest = max(len(oracle_plan(t)) + 1 for t in TASKS)  # + done()
    assert 2 * (longest - 1) <= MAX_STEPS, longest
    assert step_cap(get_planner("react").options, SAYPLAN) == MAX_STEPS


@pytest.mark.parametrize("task_id", sorted(TASKS))
@pytest.mark.slow
def test_replaying_the_oracle_plan_reaches_the_goal_within_the_cap(scripted_llm, task_id):
    steps = [*map(str, oracle_plan(task_id)), "done()"]
    assert len(steps) <= MAX_STEPS
    for step in steps:
        scripted_llm.enqueue_json(act(step))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("react"), TASKS[task_id], llm=llm)
    assert episode.status is Status.SUCCESS, (episode.failure, episode.error)
    assert episode.goal_reached and len(scripted_llm.requests) == len(steps)
    assert episode.sclplan.react_invalid == 0
