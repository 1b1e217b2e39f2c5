"""SayPlan Lite: the two stages as two separate dialogues, with the room-level vocabulary."""

from sayplan_script import contents, expand, plan, shown, switch
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import Status, get_planner

FIXED = [
    "go_to(kitchen)",
    "pick_up(orange1)",
    "open(fridge)",
    "put_inside(fridge)",
    "close(fridge)",
    "done()",
]


def run(scripted_llm, task, **options):
    with scripted_llm.client() as llm:
        return runs.plan(get_planner("sayplan_lite", **options), task, llm=llm)


def test_search_and_planning_are_two_dialogues(scripted_llm):
    task = get_task("planning-simple-02")  # Refrigerate the orange left on the kitchen bench.
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan("go_to(kitchen)", "pick_up(orange1)", "put_inside(fridge)"))
    scripted_llm.enqueue_json(plan(*FIXED))
    episode = run(scripted_llm, task)

    search, planning = scripted_llm.requests[:2], scripted_llm.requests[2:]
    search_messages = {text for request in search for text in contents(request)}
    planning_messages = {text for request in planning for text in contents(request)}
    assert not search_messages & planning_messages
    assert [len(r["messages"]) for r in scripted_llm.requests] == [2, 2, 2, 2]  # Markovian
    search_system, plan_system = contents(search[0])[0], contents(planning[0])[0]
    assert "pick_up" not in search_system and "expand(<room>)" in search_system
    assert "go_to(<r>)" in plan_system and "look_on" not in plan_system
    assert "expand" not in plan_system

    # The room-level vocabulary needs no poses: the graph leaves them out.
    for request in scripted_llm.requests:
        graph = shown(request).graph
        assert "pose" not in graph["nodes"] and "links" not in graph
    assert {"orange1", "fridge"} <= shown(planning[0]).nodes
    assert shown(planning[0]).memory == ["kitchen"]
    assert (
        shown(planning[1]).feedback == "step 3 put_inside(fridge): fridge is closed; open it first"
        " (in your last plan: go_to(kitchen) > pick_up(orange1) > put_inside(fridge))"
    )

    assert episode.status is Status.SUCCESS and episode.goal_reached and episode.replans == 1
    assert episode.plan == episode.full_plan == FIXED
    assert episode.action_sources == ["llm"] * len(FIXED)
    assert [c.stage for c in episode.llm_calls] == ["search", "search", "plan", "plan"]
    assert episode.explored == ["kitchen"]


def test_search_task_needs_no_planning_dialogue(scripted_llm):
    scripted_llm.enqueue_json(expand("dining_room1", find=True))
    scripted_llm.enqueue_json(switch(["wine_bottle0"]))
    episode = run(scripted_llm, get_task("home-simple-02"))
    assert len(scripted_llm.requests) == 2 and '"answer"' in contents(scripted_llm.requests[0])[0]
    assert episode.answer_correct and episode.answer_room_explored
    assert episode.status is Status.SUCCESS
