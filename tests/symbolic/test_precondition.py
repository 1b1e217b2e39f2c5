"""Precondition verification inserts the steps that make a proposed action executable."""

import importlib.util
from functools import cache

import pytest

from sceneplan.datasets import load_environment
from sceneplan.graph import from_dict
from sceneplan.symbolic.precondition import verify_preconditions
from sceneplan.symbolic.solver import SolveStatus
from sceneplan.world import Action, Simulator, parse_action
from scenes import kitchen, kitchen_dict, node


def test_executable_action_needs_nothing():
    graph = kitchen()
    verified = verify_preconditions(
        graph, Simulator(graph).initial_state(), Action("access", ("desk",))
    )
    assert verified.failure is None and verified.inserted == [] and verified.executable


def test_missing_steps_are_planned_and_then_the_action_runs():
    graph = kitchen()
    sim = Simulator(graph)
    state = sim.initial_state()
    verified = verify_preconditions(graph, state, Action("pickup", ("pen",)))
    assert verified.failure.cause.value == "not_accessed"
    assert verified.executable and verified.inserted
    after = sim.run(verified.inserted, state)
    assert sim.check(after, Action("pickup", ("pen",))) is None


def test_an_action_no_state_allows_is_reported():
    graph = kitchen()
    verified = verify_preconditions(
        graph, Simulator(graph).initial_state(), Action("turn_on", ("desk",))
    )
    assert not verified.executable and verified.inserted == []
    assert verified.failure.cause.value == "no_affordance"


# --- the coffee scene, robot in Bob's room (the table of docs/symbolic.md) ------------------


@cache
def coffee():
    return load_environment("coffee")


@pytest.mark.parametrize(
    ("proposed", "cause", "inserted"),
    [
        ("pickup(coffee_mug)", "not_accessed", ["access(wardrobe1)", "open(wardrobe1)"]),
        (
            "access(coffee_machine)",
            "not_in_room",
            ["goto(pose1)", "goto(toms_room)", "goto(pose5)", "goto(kitchen)"],
        ),
        ("goto(toms_room)", "not_adjacent", ["goto(pose1)"]),
        (
            "release(coffee_mug)",
            "not_holding",
            ["access(wardrobe1)", "open(wardrobe1)", "pickup(coffee_mug)"],
        ),
    ],
)
def test_state_failures_get_the_steps_that_make_the_action_run(proposed, cause, inserted):
    graph = coffee()
    sim = Simulator(graph)
    action = parse_action(proposed)
    verified = verify_preconditions(graph, sim.initial_state(), action)
    assert verified.failure.cause.value == cause
    assert [str(a) for a in verified.inserted] == inserted
    assert verified.executable and verified.result.ok
    assert sim.check(sim.run(verified.inserted), action) is None
    assert action not in verified.inserted  # the proposed action itself runs afterwards


def test_an_executable_action_runs_no_planner():
    graph = coffee()
    verified = verify_preconditions(
        graph, Simulator(graph).initial_state(), parse_action("access(bed1)")
    )
    assert verified.failure is None and verified.inserted == [] and verified.result is None
    assert verified.executable


def test_verification_starts_from_the_given_state():
    graph = coffee()
    sim = Simulator(graph)
    state = sim.run(["goto(pose1)", "goto(toms_room)"])
    verified = verify_preconditions(graph, state, parse_action("access(coffee_machine)"))
    assert [str(a) for a in verified.inserted] == ["goto(pose5)", "goto(kitchen)"]
    assert (
        sim.check(sim.run(verified.inserted, state), parse_action("access(coffee_machine)")) is None
    )


@pytest.mark.parametrize(
    ("proposed", "cause"),
    [
        ("fly(bed1)", "unknown_action"),
        ("pickup(coffee_mug, bed1)", "wrong_arity"),
        ("pickup(blue_mug)", "unknown_node"),
        ("pickup(bed1)", "wrong_kind"),
        ("turn_on(bed1)", "no_affordance"),
    ],
)
def test_failures_no_state_repairs_are_returned_without_planning(proposed, cause):
    graph = coffee()
    verified = verify_preconditions(graph, Simulator(graph).initial_state(), parse_action(proposed))
    assert verified.failure.cause.value == cause
    assert verified.inserted == [] and verified.result is None
    assert not verified.executable
    assert proposed.split("(")[0] in verified.failure.message


def vault() -> dict:
    """One room: a safe that is closed and cannot be opened, with gold inside, and a shelf."""
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "vault",
        "nodes": [
            node("vault", "room"),
            node("shelf", "asset", "vault", affordances=["release"]),
            node("safe", "asset", "vault", affordances=["release"], state=["closed"]),
            node("gold", "object", "safe", relation="inside_of", affordances=["pickup"]),
            node("coin", "object", "shelf", relation="ontop_of", affordances=["pickup"]),
            node("agent", "agent", "vault"),
        ],
        "links": [],
    }


def test_a_state_failure_no_plan_can_repair_is_reported_unsolvable():
    graph = from_dict(vault(), "vault")
    state = Simulator(graph).run(["access(safe)"])
    verified = verify_preconditions(graph, state, parse_action("pickup(gold)"), timeout=10)
    assert verified.failure.cause.value == "container_closed"
    assert verified.result.status is SolveStatus.UNSOLVABLE
    assert verified.inserted == [] and not verified.executable


def sealed_box_kitchen():
    """The kitchen, but the box that holds the pen is closed and cannot be opened."""
    data = kitchen_dict()
    for n in data["nodes"]:
        if n["id"] == "box":
            n["affordances"] = ["pickup", "release"]
    return from_dict(data, "sealed_box")


@pytest.mark.xfail(
    strict=True,
    reason="h_FF drops negative preconditions, so 'the box is not closed' looks free and the "
    "sealed box is no dead end to it; nor does build_task prune actions whose negative "
    "precondition is a fact no action deletes. PV searches the whole kitchen until its timeout "
    "(125,000 states in 10 s) and reports TIMEOUT, not UNSOLVABLE",
)
@pytest.mark.slow
def test_an_unopenable_container_is_seen_as_a_dead_end_in_a_larger_scene():
    graph = sealed_box_kitchen()
    state = Simulator(graph).initial_state()
    verified = verify_preconditions(graph, state, parse_action("pickup(pen)"), timeout=1.0)
    assert verified.result.status is SolveStatus.UNSOLVABLE


@pytest.mark.skipif(importlib.util.find_spec("lapkt") is None, reason="needs LAPKT")
def test_verification_can_use_bfsf():
    graph = coffee()
    sim = Simulator(graph)
    action = parse_action("pickup(coffee_mug)")
    verified = verify_preconditions(graph, sim.initial_state(), action, planner="bfsf")
    assert verified.result.planner == "bfsf"
    assert [str(a) for a in verified.inserted] == ["access(wardrobe1)", "open(wardrobe1)"]
