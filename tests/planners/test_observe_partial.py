"""SayPlan* and SayPlan Lite with `observe=partial`: search and plan on memory, act in the world."""

from __future__ import annotations

import pytest

from sayplan_script import expand, plan, shown, switch
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Status
from sceneplan.planners.progress import PlanEvent
from sceneplan.runs import resolve

REST = ["pick_up(orange1)", "open(fridge)", "put_inside(fridge)", "close(fridge)", "done()"]


@pytest.mark.parametrize("name", ["sayplan", "sayplan_lite"])
def test_a_look_in_the_plan_finds_the_orange_and_the_next_round_uses_it(scripted_llm, name):
    setup = resolve(get_task("planning-simple-02"))  # refrigerate the orange on the kitchen bench
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan("go_to(kitchen)", "pick_up(orange1)"))  # memory knows none
    scripted_llm.enqueue_json(plan("go_to(kitchen)", "look_on(kitchen_bench)", "pick_up(x)"))
    scripted_llm.enqueue_json(plan(*REST))
    planner = get_planner(name, observe="partial")
    with scripted_llm.client() as llm:
        episode = planner.plan(setup.target, setup.graph, llm)

    assert episode.status is Status.SUCCESS, (episode.error, episode.failure)
    assert episode.plan == ["go_to(kitchen)", "look_on(kitchen_bench)", *REST]
    assert episode.replans == 2
    search = shown(scripted_llm.requests[1])  # the expanded kitchen, from memory: no objects
    assert "kitchen_bench" in search.nodes and "orange1" not in search.nodes
    first = shown(scripted_llm.requests[3])
    assert "no node called 'orange1'" in first.feedback  # checked on memory, nothing ran
    after_look = shown(scripted_llm.requests[4])
    assert "look_on(kitchen_bench) found: orange1" in after_look.feedback
    assert "orange1" in after_look.nodes
    look = next(s for s in episode.steps if s.action == "look_on(kitchen_bench)")
    assert "orange1" in look.added
    assert episode.observe.memory == []


def test_sayplan_on_a_stale_map_is_told_what_memory_had_wrong(scripted_llm):
    setup = resolve(get_task("dynamic-office-01"))  # orange1 was moved to table5, meeting_room1
    assert setup.prior is not None
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan("go_to(kitchen)", *REST))  # right on the stale map
    scripted_llm.enqueue_json(plan("go_to(meeting_room1)", "look_on(table5)"))
    scripted_llm.enqueue_json(plan("pick_up(orange1)", "go_to(kitchen)", *REST[1:]))
    planner = get_planner("sayplan", observe="partial")
    with scripted_llm.client() as llm:
        episode = planner.plan(setup.target, setup.graph, llm, prior=setup.prior)

    assert episode.status is Status.SUCCESS, (episode.error, episode.failure)
    stale = shown(scripted_llm.requests[3])
    assert "orange1" in shown(scripted_llm.requests[2]).nodes  # the stale map shows it
    assert "orange1 is not on kitchen_bench as memory had it" in stale.feedback
    assert "orange1" not in stale.nodes  # memory dropped it
    refused = [s for s in episode.steps if not s.ok]
    assert [s.cause for s in refused] == ["stale_memory"]
    assert shown(scripted_llm.requests[4]).feedback.startswith("look_on(table5) found: orange1")


@pytest.mark.parametrize("name", ["sayplan", "sayplan_lite"])
def test_on_memory_every_round_is_judged_and_markov_feedback_quotes_the_plan(scripted_llm, name):
    """The one replanning loop (`replanning.replan`) on memory: an unusable reply is a
    judged round too, and in the Markovian dialogue the feedback names the plan."""
    setup = resolve(get_task("planning-simple-02"))
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_text("go to the kitchen and take the orange")  # unusable,
    scripted_llm.enqueue_text("go to the kitchen")  # and again when re-asked
    scripted_llm.enqueue_json(plan("go_to(kitchen)", "pick_up(orange1)"))  # memory knows none
    scripted_llm.enqueue_json(plan("go_to(kitchen)", "look_on(kitchen_bench)"))
    scripted_llm.enqueue_json(plan(*REST))
    events: list[PlanEvent] = []
    with scripted_llm.client() as llm:
        planner = get_planner(name, observe="partial", on_event=events.append)
        episode = planner.plan(setup.target, setup.graph, llm)

    assert episode.status is Status.SUCCESS, (episode.error, episode.failure)
    verdicts = [(e.step, e.ok) for e in events if e.kind == "verify"]
    assert verdicts == [(1, False), (2, False), (3, False), (4, True)]
    assert [e.message for e in events if e.kind == "verify"][-1] == "plan ran"
    assert "not valid JSON" in shown(scripted_llm.requests[4]).feedback
    refused = shown(scripted_llm.requests[5]).feedback
    assert "no node called 'orange1'" in refused
    assert refused.endswith(" (in your last plan: go_to(kitchen) > pick_up(orange1))")
    assert episode.replans == 3
