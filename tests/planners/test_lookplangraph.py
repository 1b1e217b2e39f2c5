"""LookPlanGraph end to end through the loopback model: looking finds the object, memory grows."""

from __future__ import annotations

import pytest

from sceneplan.datasets.tasks import get_task
from sceneplan.eval.annotate import annotate
from sceneplan.eval.metrics import nrr
from sceneplan.perception import Noise, SimulatedPerception
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Status
from sceneplan.runs import resolve


def move(name: str, target: str = "") -> dict:
    return {
        "chain_of_thought": [f"next: {name}({target})"],
        "next_move": {"function_name": name, "function_target": target},
    }


@pytest.fixture
def orange_task():
    return resolve(get_task("planning-simple-02"))  # refrigerate the orange on the kitchen bench


def test_lookplangraph_finds_the_orange_by_looking_and_refrigerates_it(scripted_llm, orange_task):
    for reply in (
        move("go_to", "kitchen"),
        move("pick_up", "orange1"),  # memory has no orange yet: refused, fed back
        move("look_on", "kitchen_bench"),
        move("pick_up", "orange1"),
        move("open", "fridge"),
        move("put_inside", "fridge"),
        move("close", "fridge"),
        move("done"),
    ):
        scripted_llm.enqueue_json(reply)
    planner = get_planner("lookplangraph", perception="simulated:perfect")
    with scripted_llm.client() as llm:
        episode = planner.plan(orange_task.target, orange_task.graph, llm)

    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    assert episode.plan == [
        "go_to(kitchen)",
        "look_on(kitchen_bench)",
        "pick_up(orange1)",
        "open(fridge)",
        "put_inside(fridge)",
        "close(fridge)",
        "done()",
    ]
    # the refused proposal went back as feedback, and was not run
    refused = scripted_llm.requests[2]["messages"][-1]["content"]
    assert "no node called 'orange1'" in refused
    assert "orange1" not in scripted_llm.requests[1]["messages"][-1]["content"].split("Feedback")[0]
    # the look's step records what perception saw and what memory gained
    look = next(s for s in episode.steps if s.action == "look_on(kitchen_bench)")
    assert {"orange1", "apple1", "bread"} <= set(look.added)
    assert {o["truth"] for o in look.observations} == set(look.added)
    assert {e["id"] for e in look.expected} == set(look.added)
    assert all(s.ok for s in episode.steps) and len(episode.steps) == 7
    # the memory graph the next prompt shows holds the orange, on the bench
    after = scripted_llm.requests[3]["messages"][-1]["content"]
    assert '"id":"orange1","relation":"ontop_of","related_to":"kitchen_bench"' in after
    # NRR is exact: the assets and objects the prompts showed over the goal's nodes
    annotate(episode, orange_task.task, orange_task.graph)
    observed = episode.eval.observed
    assert episode.eval.important == ["orange1"]  # the fridge starts closed
    assert "orange1" in observed and "desk1" not in observed
    assert nrr(episode) == len(observed)


@pytest.mark.parametrize(("corrections", "calls"), [("per_run", 4), ("per_action", 5)])
def test_corrections_are_capped_per_action_or_for_the_run(
    scripted_llm, orange_task, corrections, calls
):
    """Algorithm 1 (004) re-asks inside each action: max_corrections for each (the default);
    per_run: that many for the whole run."""
    for name, target in [("pick_up", "orange1"), ("go_to", "kitchen")] + [
        ("pick_up", "orange1")
    ] * 3:
        scripted_llm.enqueue_json(move(name, target))  # orange1 is not in memory yet
    planner = get_planner(
        "lookplangraph", perception="simulated:perfect", max_corrections=2, corrections=corrections
    )
    with scripted_llm.client() as llm:
        episode = planner.plan(orange_task.target, orange_task.graph, llm)
    assert len(episode.llm_calls) == calls and episode.executable is False
    assert episode.plan == ["go_to(kitchen)"] and episode.corrections == calls - 2
    assert episode.correction_cap == corrections
    assert get_planner("lookplangraph").options.corrections == "per_action"


def test_corrections_are_capped_per_step(scripted_llm, orange_task):
    for _ in range(3):
        scripted_llm.enqueue_json(move("pick_up", "orange1"))
    planner = get_planner("lookplangraph", perception="simulated:perfect", max_corrections=2)
    with scripted_llm.client() as llm:
        episode = planner.plan(orange_task.target, orange_task.graph, llm)
    assert episode.status is Status.FAILED and episode.executable is False
    assert len(episode.llm_calls) == 3 and episode.steps == []
    assert episode.failure["cause"] == "unknown_node" and "orange1" in episode.failure["message"]


def test_an_unusable_reply_is_feedback_not_a_crash(scripted_llm, orange_task):
    scripted_llm.enqueue_text("I would go to the kitchen.")
    scripted_llm.enqueue_text("still not json")
    scripted_llm.enqueue_json(move("done"))
    planner = get_planner("lookplangraph", perception="simulated:perfect")
    with scripted_llm.client() as llm:
        episode = planner.plan(orange_task.target, orange_task.graph, llm)
    assert episode.status is Status.FAILED  # done, but the orange is still on the bench
    assert episode.goal_reached is False and episode.plan == ["done()"]


def test_a_given_perception_object_is_used(scripted_llm, orange_task):
    scripted_llm.enqueue_json(move("go_to", "kitchen"))
    scripted_llm.enqueue_json(move("look_on", "kitchen_bench"))
    scripted_llm.enqueue_json(move("done"))
    blind = SimulatedPerception(Noise(miss=1.0))
    planner = get_planner("lookplangraph", perception=blind)
    with scripted_llm.client() as llm:
        episode = planner.plan(orange_task.target, orange_task.graph, llm)
    look = episode.steps[1]
    assert look.observations == [] and look.added == [] and look.expected


def test_lookplangraph_uses_two_hands_where_virtualhome_gives_them(scripted_llm):
    # Brush teeth: hold the toothbrush and the toothpaste at once (VirtualHome's two hands)
    target = resolve(get_task("virtualhome-696_1"))
    assert target.graph.hands == 2
    for reply in (
        move("go_to", "bathroom"),
        move("look_on", "floor_bathroom"),
        move("pick_up", "tooth_paste_1000"),
        move("pick_up", "toothbrush_1001"),
        move("put_on", "floor_bathroom"),  # which one? refused: it names no object
        move("done"),
    ):
        scripted_llm.enqueue_json(reply)
    planner = get_planner("lookplangraph", perception="simulated:perfect")
    with scripted_llm.client() as llm:
        episode = planner.plan(target.target, target.graph, llm)

    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    assert episode.plan[-3:] == ["pick_up(tooth_paste_1000)", "pick_up(toothbrush_1001)", "done()"]
    first = scripted_llm.requests[0]["messages"]
    prompt = "\n".join(m["content"] for m in first)
    assert "put_on(<o>, <a>)" in prompt and "two hands" in prompt
    refused = scripted_llm.requests[5]["messages"][-1]["content"]
    assert "put_on(<o>, <a>) takes 2 argument(s), got 1" in refused
