"""Plugging, cleaning and cooking (VirtualHome's plug_in / plug_out, wipe, rinse; a stove
cooks): the simulator, its feedback, the solver and the prompts, in both vocabularies."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def scene(dishwasher: bool = True):
    data = kitchen_dict()
    if not dishwasher:
        data["nodes"] = [n for n in data["nodes"] if n["id"] != "dishwasher"]
    switch = ["turn_on", "turn_off"]
    for n in data["nodes"]:
        if n["id"] == "bench":
            n["affordances"] = [*n["affordances"], "wipe"]
            n["state"] = ["dirty"]
    data["nodes"] += [
        node(
            "toaster",
            "asset",
            "kitchen",
            affordances=["release", *switch, "plug_in", "plug_out"],
            state=["off", "plugged_out"],
        ),
        node("sink", "asset", "kitchen", affordances=["release", "rinse", *switch], state=["off"]),
        node("stove", "asset", "kitchen", affordances=["release", *switch], state=["off"]),
        node(
            "pan",
            "object",
            "stove",
            relation="ontop_of",
            affordances=["pickup", "release", "receptacle"],
            state=["dirty"],
        ),
        node("rice", "object", "bench", relation="ontop_of", affordances=["pickup"], state=["raw"]),
    ]
    return from_dict(data, "care")


GRAPH = scene()


def test_plug_wipe_rinse_and_cook():
    end = Simulator(GRAPH).run(
        f"{TO_KITCHEN} > access(toaster) > plug_in(toaster) > access(bench) > wipe(bench) > "
        "pickup(rice) > access(stove) > release_in(rice, pan) > turn_on(stove)"
    )
    assert {"plugged_in"} <= end.states("toaster") and "plugged_out" not in end.states("toaster")
    assert "clean" in end.states("bench") and "dirty" not in end.states("bench")
    assert "cooked" in end.states("rice") and "raw" not in end.states("rice")
    after = Simulator(GRAPH).run(
        f"{TO_KITCHEN} > access(stove) > pickup(pan) > access(sink) > turn_on(sink) > "
        "rinse(pan, sink)"
    )
    assert "clean" in after.states("pan")


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (
            f"{TO_KITCHEN} > access(toaster) > plug_out(toaster)",
            "step 5 plug_out(toaster): toaster is already unplugged",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > wipe(bench) > wipe(bench)",
            "step 6 wipe(bench): bench is already clean",
        ),
        (
            f"{TO_KITCHEN} > access(stove) > pickup(pan) > access(sink) > rinse(pan, sink)",
            "step 7 rinse(pan, sink): sink is off; turn it on first",
        ),
        (
            f"{TO_KITCHEN} > access(stove) > pickup(pan) > rinse(pan, sink)",
            "step 6 rinse(pan, sink): sink is at sink, which has not been accessed "
            "(accessed: stove)",
        ),
        (
            f"{TO_KITCHEN} > access(stove) > pickup(pan) > access(sink) > rinse(pan, toaster)",
            "step 7 rinse(pan, toaster): toaster cannot be used with rinse "
            "(its affordances: release, turn_on, turn_off, plug_in, plug_out)",
        ),
    ],
)
def test_wrong_care_steps_say_why(plan, message):
    assert Simulator(GRAPH).verify_plan(plan).feedback == message


def test_lookplangraph_feedback():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    failure = sim.verify_plan("go_to(kitchen) > pick_up(rice) > rinse(rice, sink)").failure
    assert failure is not None and failure.message == (
        "step 3 rinse(rice, sink): sink is off; turn it on first"
    )


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    ("goal", "action"),
    [
        ("plugged_in(toaster) and on(toaster)", "plug_in"),
        ("clean(bench) and clean(pan)", "wipe"),
        ("cooked(rice)", "turn_on"),
    ],
)
def test_the_solver_plans_with_them(vocabulary, goal, action):
    vocabulary = get_vocabulary(vocabulary)
    formula = parse_goal(goal, GRAPH)
    result = solve(PlanningProblem(GRAPH, formula, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    assert action in {a.name for a in result.plan}
    assert formula.holds(Simulator(GRAPH, vocabulary).run(result.plan))


def test_without_a_dishwasher_rinsing_is_how_the_pan_gets_clean():
    graph = scene(dishwasher=False)
    result = solve(PlanningProblem(graph, "clean(pan)"), timeout=60)
    assert result.ok and "rinse" in {a.name for a in result.plan}
    assert "clean" in Simulator(graph).run(result.plan).states("pan")


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
def test_prompts_list_them(vocabulary):
    vocabulary = get_vocabulary(vocabulary)
    lines = "\n".join(Simulator(GRAPH, vocabulary).describe_actions(conditions=True))
    assert "plug_in(<x>): Plug a device's cord into the socket." in lines
    assert "plug_out(<x>): Unplug a device." in lines
    assert "wipe(<x>): Wipe a dirty surface or object clean. Needs:" in lines
    assert "rinse(<o>, <s>): Rinse the held object clean under a running tap" in lines
    assert "<s> is on" in lines
