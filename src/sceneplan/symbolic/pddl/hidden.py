"""Hidden parameters: what the simulator's action leaves implicit (the place the agent
leaves, its room, the accessed asset, ...) but its PDDL action needs, as an extra
parameter bound by a precondition (see `symbolic.pddl`). A primitive asks for one by
naming it in `pddl_keywords`, and its PDDL face takes it as a keyword argument."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sceneplan.graph.model import NodeKind
from sceneplan.world.domain import ActionSchema
from sceneplan.world.pddl_expr import TRUE, Expr, atom
from sceneplan.world.primitives import EFFECTS, TESTS
from sceneplan.world.state import WorldState

K = NodeKind


@dataclass(frozen=True)
class Hidden:
    """A term of the state an action leaves implicit, which a PDDL face may take as a
    keyword argument (`name`): an extra parameter of the PDDL action, of `type`, bound
    by a precondition (`condition`, given its variable and the term of the action's first
    parameter);
    `value` reads it in the state before the action (and its arguments)."""

    name: str
    type: str
    condition: Callable[[str, str], Expr]
    value: Callable[[WorldState, tuple[str, ...]], str | None]

    @property
    def var(self) -> str:
        """The PDDL variable that stands for the hidden parameter."""
        return f"?at_{self.name}"


def _base(state: WorldState, args: tuple[str, ...]) -> str | None:
    return state.support_asset(args[0]) if args and args[0] in state.graph.nodes else None


HIDDEN = (
    Hidden("here", "place", lambda v, x: atom("agent_at", v), lambda s, _: s.agent_at),
    Hidden("room", "room", lambda v, x: atom("agent_at", v), lambda s, _: s.agent_at),
    Hidden("acc", "asset", lambda v, x: atom("accessed", v), lambda s, _: s.accessed),
    # what `accessed` points at: the accessed asset, or the agent itself when none is
    Hidden(
        "slot",
        "object",
        lambda v, x: atom("accessed", v),
        lambda s, _: s.accessed or s.agent_id,
    ),
    Hidden("me", "robot", lambda v, x: TRUE, lambda s, _: s.agent_id),
    # the asset the action's first argument rests on, at any depth
    Hidden("base", "asset", lambda v, x: atom("below", x, v), _base),
    # the held object, for an action that acts on it without naming it (LookPlanGraph's
    # put_on(a)); an action with a `holding(o)` precondition binds its own parameter instead
    Hidden(
        "held",
        "item",
        lambda v, x: atom("holding", v),
        lambda s, _: s.held[0] if s.held else None,
    ),
)
HIDDEN_BY_NAME = {h.name: h for h in HIDDEN}


def hidden_terms(schema: ActionSchema) -> list[Hidden]:
    """The hidden parameters of a schema's PDDL action, in order (after its own)."""
    used: set[str] = set().union(
        *(TESTS[p.test].pddl_keywords for p in schema.pre),
        *(EFFECTS[e.op].pddl_keywords for e in schema.effects),
    )
    if "slot" in used:
        used.add("me")  # the slot is the agent's node when nothing is accessed
    if schema.held_param is not None:
        used.discard("held")  # bound by the schema's own parameter
    return [h for h in HIDDEN if h.name in used]


_HIDDEN_KINDS = {
    "place": (K.ROOM, K.POSE),
    "room": (K.ROOM,),
    "asset": (K.ASSET,),
    "robot": (K.AGENT,),
    "item": (K.OBJECT,),
    "object": tuple(K),
}


def hidden_value(hidden: Hidden, state: WorldState, args: tuple[str, ...]) -> str:
    """The hidden term's value; where there is none of its type (nothing is accessed, the
    agent is not in a room), a node of its type near the agent, for which the binding
    precondition is false."""
    graph, kinds = state.graph, _HIDDEN_KINDS[hidden.type]
    value = hidden.value(state, args)
    if value is not None and graph.nodes[value].kind in kinds:
        return value
    room = graph.room_of(state.agent_at) or state.agent_at
    near = [room, *graph.children(room)] if room in graph.nodes else []
    fits = [n for n in near if graph.nodes[n].kind in kinds]
    fits = fits or [n.id for n in graph if n.kind in kinds]
    return fits[0] if fits else state.agent_at
