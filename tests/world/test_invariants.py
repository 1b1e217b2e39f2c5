"""Random action sequences never break the world's invariants."""

import itertools

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world import SAYPLAN, Action, Simulator, parse_action
from scenes import kitchen

GRAPH = kitchen()
SIM = Simulator(GRAPH)
NODE_IDS = sorted(GRAPH.nodes)
OBJECTS = [n.id for n in GRAPH if n.kind is NodeKind.OBJECT]

NAMES = sorted(set(SAYPLAN.actions) - {"done"})


@st.composite
def actions(draw) -> Action:
    """Any action but done, with as many node arguments as its schema has parameters."""
    name = draw(st.sampled_from(NAMES))
    arity = len(SAYPLAN.actions[name].params)
    args = draw(st.lists(st.sampled_from(NODE_IDS), min_size=arity, max_size=arity))
    return Action(name, tuple(args))


def check_invariants(state):
    held = [o for o in OBJECTS if state.relation(o) is Relation.HELD]
    assert len(held) <= 1
    assert sorted(held) == sorted(state.held)
    for obj in OBJECTS:
        parent = state.parent(obj)
        assert parent in GRAPH.nodes
        assert GRAPH.nodes[parent].kind in (NodeKind.ASSET, NodeKind.OBJECT, NodeKind.AGENT)
        assert (state.relation(obj) is Relation.HELD) == (parent == state.agent_id)
        # exactly one location: the object is listed among its parent's children once
        assert state.children(parent).count(obj) == 1
        # a contained object moves with its container
        if GRAPH.nodes[parent].kind is NodeKind.OBJECT:
            assert state.room_of(obj) == state.room_of(parent)
    assert GRAPH.nodes[state.agent_at].kind in (NodeKind.ROOM, NodeKind.POSE)
    for word_a, word_b in (("open", "closed"), ("on", "off"), ("dirty", "clean")):
        for node_id in NODE_IDS:
            assert not {word_a, word_b} <= state.states(node_id)


@settings(max_examples=300, deadline=None)
@given(st.lists(actions(), max_size=40))
@pytest.mark.slow
def test_random_sequences_keep_invariants(plan):
    state = SIM.initial_state()
    for action in plan:
        new, failure = SIM.step(state, action)
        if failure is None:
            check_invariants(new)
        else:
            assert new is state
        state = new
    check_invariants(state)


@settings(max_examples=100, deadline=None)
@given(st.lists(actions(), max_size=30))
@pytest.mark.slow
def test_verify_plan_agrees_with_stepping(plan):
    result = SIM.verify_plan(plan)
    state = SIM.initial_state()
    for index, action in enumerate(plan):
        state, failure = SIM.step(state, action)
        if failure is not None:
            assert result.failure is not None and result.failure.index == index
            assert result.failure.cause is failure.cause
            return
    assert result.ok
    assert result.final_state.changes() == state.changes()


# Every action on nodes of the kinds its parameters accept (others are refused anyway).
ALL_ACTIONS = [
    Action(name, args)
    for name in NAMES
    for args in itertools.product(
        *([n.id for n in GRAPH if n.kind in p.kinds] for p in SAYPLAN.actions[name].params)
    )
]


def test_the_generators_draw_each_actions_arity():
    """release_in(o, r), release_on(o, r), rinse(o, s) take two nodes; stand_up none."""
    for name, arity in (("release_in", 2), ("release_on", 2), ("rinse", 2), ("stand_up", 0)):
        drawn = find(actions(), lambda a, name=name: a.name == name)
        assert len(drawn.args) == arity
        assert {len(a.args) for a in ALL_ACTIONS if a.name == name} == {arity}


def test_release_on_and_in_a_nested_box_worked_by_hand():
    """The apple goes on the box in the cabinet, then, the box opened, into it."""
    walk = ["goto(pose1)", "goto(pose2)", "goto(kitchen)", "access(bench)", "pickup(apple)"]
    state = SIM.initial_state()
    for step in [*walk, "access(cabinet)", "release_on(apple, box)"]:
        state, failure = SIM.step(state, parse_action(step))
        assert failure is None, (step, failure)
        check_invariants(state)
    assert (state.parent("apple"), state.relation("apple")) == ("box", Relation.ONTOP_OF)
    for step in ["open(box)", "pickup(apple)", "release_in(apple, box)"]:
        state, failure = SIM.step(state, parse_action(step))
        assert failure is None, (step, failure)
        check_invariants(state)
    assert (state.parent("apple"), state.relation("apple")) == ("box", Relation.INSIDE_OF)
    assert state.room_of("apple") == "kitchen" and not state.held


@settings(max_examples=50, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_long_valid_sequences_keep_invariants(data):
    """Walk through executable actions only, so deep states (nested moves, appliances) occur."""
    state = SIM.initial_state()
    for _ in range(40):
        valid = [a for a in ALL_ACTIONS if SIM.check(state, a) is None]
        state, failure = SIM.step(state, data.draw(st.sampled_from(valid)))
        assert failure is None
        check_invariants(state)
