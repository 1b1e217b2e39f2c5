"""LLM-As-Planner and LLM+P (SayPlan Sec. 4), and all four planners end to end."""

import json

import pytest

from sayplan_script import contents, expand, plan, switch
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import Episode, ErrorType, Status, get_planner

REFRIGERATE = get_task("planning-simple-02").reference_plan
# The agent starts at pose8; the path planner's route to the kitchen.
ROUTE = [f"goto({p})" for p in ("pose13", "pose14", "pose23", "pose24", "pose25")]


def run(scripted_llm, planner, replies, task="planning-simple-02"):
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    for reply in replies:
        scripted_llm.enqueue_json(reply)
    with scripted_llm.client() as llm:
        return runs.plan(get_planner(planner), get_task(task), llm=llm)


def test_llm_as_planner_skipping_poses_is_a_missing_pose(scripted_llm):
    episode = run(scripted_llm, "llm_as_planner", [plan(*REFRIGERATE)])
    assert len(scripted_llm.requests) == 3  # one plan, open loop
    assert "write every move on the way" in contents(scripted_llm.requests[0])[0]
    assert episode.full_plan == episode.plan == REFRIGERATE  # no path planner
    assert episode.failure["cause"] == "not_adjacent" and episode.replans == 0
    assert episode.error_type is ErrorType.MISSING_POSE and episode.status is Status.FAILED


def test_llm_as_planner_with_every_pose(scripted_llm):
    episode = run(scripted_llm, "llm_as_planner", [plan(*ROUTE, *REFRIGERATE)])
    assert episode.executable and episode.goal_reached and episode.status is Status.SUCCESS
    assert set(episode.action_sources) == {"llm"}


def test_llm_plus_p_gets_the_poses_inserted(scripted_llm):
    episode = run(scripted_llm, "llm_plus_p", [plan(*REFRIGERATE)])
    assert "path planner fills in the poses" in contents(scripted_llm.requests[0])[0]
    assert episode.plan == REFRIGERATE and episode.full_plan == ROUTE + REFRIGERATE
    assert episode.action_sources == ["nav"] * 5 + ["llm"] * len(REFRIGERATE)
    assert episode.executable and episode.goal_reached and episode.status is Status.SUCCESS


def test_llm_plus_p_does_not_replan(scripted_llm):
    forgot = [s for s in REFRIGERATE if s != "access(kitchen_bench)"]
    episode = run(scripted_llm, "llm_plus_p", [plan(*forgot)])
    assert len(scripted_llm.requests) == 3 and episode.replans == 0
    assert episode.failure["cause"] == "not_accessed"
    assert episode.error_type is ErrorType.MISSING_ACTION and episode.status is Status.FAILED


# Per planner: the plan it is scripted to write for "Refrigerate the orange left on the
# kitchen bench.", in its vocabulary and with the navigation it is responsible for.
PLANS = {
    "sayplan": REFRIGERATE,
    "llm_plus_p": REFRIGERATE,
    "llm_as_planner": ROUTE + REFRIGERATE,
    "sayplan_lite": [
        "go_to(kitchen)",
        "pick_up(orange1)",
        "open(fridge)",
        "put_inside(fridge)",
        "close(fridge)",
        "done()",
    ],
}


@pytest.mark.parametrize("planner", sorted(PLANS))
def test_all_four_planners_end_to_end_on_office_and_home(scripted_llm, planner):
    with scripted_llm.client() as llm:
        chosen = get_planner(planner)
        # Office: a planning task.
        for reply in (expand("kitchen"), switch(), plan(*PLANS[planner])):
            scripted_llm.enqueue_json(reply)
        office = runs.plan(chosen, get_task("planning-simple-02"), llm=llm)
        # Home: a search task (Find me a bottle of wine.).
        scripted_llm.enqueue_json(expand("dining_room1", find=True))
        scripted_llm.enqueue_json(switch(["wine_bottle0"]))
        home = runs.plan(chosen, get_task("home-simple-02"), llm=llm)
    assert office.environment == "office" and home.environment == "home"
    assert office.status is Status.SUCCESS and office.goal_reached and office.executable
    assert home.status is Status.SUCCESS and home.answer_correct and home.answer_room_explored
    for episode in (office, home):
        assert Episode.from_dict(json.loads(json.dumps(episode.to_dict()))) == episode
    assert scripted_llm.pending == 0
