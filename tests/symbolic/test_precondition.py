"""Precondition verification inserts the steps that make a proposed action executable."""

from sceneplan.symbolic.precondition import verify_preconditions
from sceneplan.world import Action, Simulator
from scenes import kitchen


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
