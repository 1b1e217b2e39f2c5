"""The PDDL types of an export: the type hierarchy, an action parameter's type, and the
type of each node in a problem (the narrowest that can hold it; see `symbolic.pddl`)."""

from __future__ import annotations

from collections.abc import Iterable

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.domain import ActionSchema
from sceneplan.world.rules import appliance_function, appliance_functions
from sceneplan.world.state import WorldState, holds_inside

K = NodeKind

# Parameter kinds -> PDDL type (the type hierarchy is in `TYPE_TREE`).
PARAM_TYPE: dict[frozenset[NodeKind], str] = {
    frozenset({K.ROOM, K.POSE}): "place",
    frozenset({K.ROOM}): "room",
    frozenset({K.ASSET}): "asset",
    frozenset({K.OBJECT}): "item",
    frozenset({K.ASSET, K.OBJECT}): "thing",
}
# A node's kind -> its PDDL type, where the kind decides it (assets and objects: `pddl_type`).
PDDL_TYPE: dict[NodeKind, str] = {
    K.BUILDING: "site",
    K.FLOOR: "storey",
    K.ROOM: "room",
    K.POSE: "pose",
    K.ASSET: "asset",
    K.OBJECT: "item",  # PDDL reserves `object` for the root type
    K.AGENT: "robot",
}
# Each group of types and their supertype (the appliance types, `F_appliance - device`,
# come first: `type_tree`).
TYPE_TREE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("room", "pose"), "place"),
    (("surface", "device"), "asset"),
    (("nest",), "item"),
    (("asset", "item"), "thing"),
    (("place", "thing", "site", "storey", "robot"), "object"),
)
# The PDDL types an object (`item`) can have, and those of its supertypes.
ITEM_TYPES = frozenset({"item", "nest", "thing", "object"})


def type_tree() -> tuple[tuple[tuple[str, ...], str], ...]:
    """The domain's type hierarchy, with one `device` subtype per appliance function."""
    appliances = tuple(f.pddl_type for f in appliance_functions())
    return (((appliances, "device"),) if appliances else ()) + TYPE_TREE


def supertypes() -> dict[str, str]:
    """Each type of the hierarchy and its supertype."""
    return {name: parent for names, parent in type_tree() for name in names}


def param_type(schema: ActionSchema, kinds: frozenset[NodeKind]) -> str:
    """The PDDL type of an action parameter of these node kinds."""
    try:
        return PARAM_TYPE[kinds]
    except KeyError:
        raise UnsupportedError(
            f"action {schema.signature}: no PDDL type for parameters of kinds "
            + ", ".join(sorted(k.value for k in kinds))
        ) from None


def pddl_type(state: WorldState, node_id: str, receptacles: bool = False) -> str:
    """The PDDL type of a node in a problem starting from `state` (see `symbolic.pddl`).

    `receptacles`: the problem has objects that things can be put on or in, so every
    object that can be picked up, or can carry others, may be nested: a `nest`.
    """
    node = state.graph.nodes[node_id]
    if node.kind is K.ASSET:
        function = appliance_function(node.category)
        if function is not None:
            return function.pddl_type
        inside = any(state.relation(c) is Relation.INSIDE_OF for c in state.children(node_id))
        words = set(node.state) | state.states(node_id)
        if holds_inside(node) or inside or words & {"open", "closed"}:
            return "device"
        return "surface"
    if node.kind is K.OBJECT:
        graph = state.graph
        parent = state.parent(node_id)
        nested = parent is not None and graph.nodes[parent].kind is K.OBJECT
        carries = any(graph.nodes[c].kind is K.OBJECT for c in state.children(node_id))
        may_nest = receptacles and bool({"pickup", "release"} & set(node.affordances))
        return "nest" if nested or carries or may_nest else "item"
    return PDDL_TYPE[node.kind]


def has_receptacles(nodes: Iterable) -> bool:
    """Whether any object among the nodes affords `release` (things go on or in it)."""
    return any(n.kind is K.OBJECT and "release" in n.affordances for n in nodes)
