"""Random action sequences never break the world's invariants."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world import SAYPLAN, Action, Simulator
from scenes import kitchen

GRAPH = kitchen()
SIM = Simulator(GRAPH)
NODE_IDS = sorted(GRAPH.nodes)
OBJECTS = [n.id for n in GRAPH if n.kind is NodeKind.OBJECT]

actions = st.builds(
    lambda name, arg: Action(name, () if name == "done" else (arg,)),
    st.sampled_from(sorted(set(SAYPLAN) - {"done"})),
    st.sampled_from(NODE_IDS),
)


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
@given(st.lists(actions, max_size=40))
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
@given(st.lists(actions, max_size=30))
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


ALL_ACTIONS = [Action(name, (arg,)) for name in sorted(set(SAYPLAN) - {"done"}) for arg in NODE_IDS]


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_long_valid_sequences_keep_invariants(data):
    """Walk through executable actions only, so deep states (nested moves, appliances) occur."""
    state = SIM.initial_state()
    for _ in range(40):
        valid = [a for a in ALL_ACTIONS if SIM.check(state, a) is None]
        state, failure = SIM.step(state, data.draw(st.sampled_from(valid)))
        assert failure is None
        check_invariants(state)
