"""What the names in the action schemas mean: precondition tests and effect operations.

A test returns None when it holds, or a dict of facts that fill its cause's
feedback sentence. An effect changes a WorldState in place.
"""

from __future__ import annotations

from collections.abc import Callable

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.state import WorldState

Facts = dict[str, str] | None

# Appliances act on what is on or in them while they are on (category -> state word).
APPLIANCE_FUNCTIONS: dict[str, str] = {
    "microwave": "hot",
    "oven": "hot",
    "kettle": "hot",
    "fridge": "cold",
    "freezer": "cold",
    "dishwasher": "clean",
    "coffee_machine": "full",
}
# Which objects an appliance's function applies to (all objects when absent).
APPLIANCE_TARGETS: dict[str, frozenset[str]] = {
    "coffee_machine": frozenset({"mug", "cup", "coffee_mug", "coffee_cup"}),
}


def _held(state: WorldState) -> str:
    return state.holding or "nothing"


def adjacent(state: WorldState, x: str) -> Facts:
    at = state.agent_at
    if x == at or state.graph.topology.has_edge(at, x):
        return None
    neighbours = sorted(state.graph.topology.neighbors(at)) if at in state.graph.topology else []
    return {"at": at, "neighbours": ", ".join(neighbours) or "none"}


def in_room_of(state: WorldState, x: str) -> Facts:
    room = state.room_of(x)
    if room is not None and state.agent_at == room:
        return None
    return {"at": state.agent_at, "room": room or "no room"}


def hand_empty(state: WorldState) -> Facts:
    return None if state.holding is None else {"held": state.holding}


def holding(state: WorldState, o: str) -> Facts:
    return None if state.holding == o else {"held": _held(state)}


def holding_any(state: WorldState) -> Facts:
    return None if state.holding is not None else {"held": "nothing", "node": "anything"}


def asset_accessed(state: WorldState, o: str) -> Facts:
    asset = state.support_asset(o)
    if asset is not None and asset == state.accessed:
        return None
    return {"asset": asset or "the agent's hand", "accessed": state.accessed or "nothing"}


def something_accessed(state: WorldState, o: str) -> Facts:
    return None if state.accessed is not None else {}


def accessed_affords_release(state: WorldState) -> Facts:
    asset = state.accessed
    if asset is None or "release" in state.node(asset).affordances:
        return None
    return {
        "node": asset,
        "action": "release",
        "affordances": ", ".join(state.node(asset).affordances) or "none",
    }


def reachable_accessed(state: WorldState, x: str) -> Facts:
    """x is the accessed asset, or an object resting on it."""
    accessed = state.accessed
    if accessed is not None and (x == accessed or state.support_asset(x) == accessed):
        return None
    asset = x if state.node(x).kind is NodeKind.ASSET else state.support_asset(x)
    return {"asset": asset or "the agent's hand", "accessed": accessed or "nothing"}


def accessible(state: WorldState, o: str) -> Facts:
    blocker = state.closed_container_above(o)
    return None if blocker is None else {"container": blocker}


def has_state(state: WorldState, x: str, word: str) -> Facts:
    return None if word in state.states(x) else {}


def is_container(state: WorldState, x: str) -> Facts:
    return None if state.is_container(x) else {}


def closed_if_container(state: WorldState, x: str) -> Facts:
    return None if not state.is_container(x) or "open" not in state.states(x) else {}


TESTS: dict[str, Callable[..., Facts]] = {
    f.__name__: f
    for f in (
        adjacent,
        in_room_of,
        hand_empty,
        holding,
        holding_any,
        asset_accessed,
        something_accessed,
        accessed_affords_release,
        reachable_accessed,
        accessible,
        has_state,
        is_container,
        closed_if_container,
    )
}


# -- effects ------------------------------------------------------------------------


def move_agent(state: WorldState, x: str) -> None:
    state.move(state.agent_id, x, None)
    state.accessed = None


def set_accessed(state: WorldState, a: str) -> None:
    state.accessed = a


def grab(state: WorldState, o: str) -> None:
    state.move(o, state.agent_id, Relation.HELD)
    state.holding = o


def place(state: WorldState, target: str, relation: str) -> None:
    held = state.holding
    assert held is not None, "preconditions guarantee a held object"
    state.move(held, target, Relation(relation))
    state.holding = None
    _apply_if_running(state, target, held)


def place_at_accessed(state: WorldState, o: str) -> None:
    target = state.accessed
    assert target is not None, "preconditions guarantee an accessed asset"
    inside = state.is_container(target) and "open" in state.states(target)
    place(state, target, Relation.INSIDE_OF if inside else Relation.ONTOP_OF)


def set_state(state: WorldState, x: str, word: str) -> None:
    state.set_state(x, word)


def apply_appliance(state: WorldState, x: str) -> None:
    for obj in list(state.children(x)):
        _apply_if_running(state, x, obj)


def finish(state: WorldState) -> None:
    state.done = True


def observe(state: WorldState, a: str, relation: str) -> None:
    """Full observability: looking reveals nothing new. Partial-observability worlds override."""


def _apply_if_running(state: WorldState, appliance: str, obj: str) -> None:
    """Act on an object just put on/in an appliance, and on what it carries.

    A container appliance (fridge, microwave) acts on what is inside it only.
    """
    if "on" not in state.states(appliance):
        return
    if state.is_container(appliance) and state.relation(obj) is not Relation.INSIDE_OF:
        return
    for item in (obj, *state.contents(obj)):
        _apply(state, appliance, item)


def _apply(state: WorldState, appliance: str, obj: str) -> None:
    category = state.node(appliance).category
    word = APPLIANCE_FUNCTIONS.get(category)
    if word is None:
        return
    targets = APPLIANCE_TARGETS.get(category)
    if targets is None or state.node(obj).category in targets:
        state.set_state(obj, word)


EFFECTS: dict[str, Callable[..., None]] = {
    f.__name__: f
    for f in (
        move_agent,
        set_accessed,
        grab,
        place,
        place_at_accessed,
        set_state,
        apply_appliance,
        finish,
        observe,
    )
}
