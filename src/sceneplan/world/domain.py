"""The domain as data: action schemas with typed parameters, preconditions and effects.

Each precondition names a test (see `rules.TESTS`), the parameters it reads
and the `Cause` reported when it fails; each cause has one feedback sentence.
The simulator, the PDDL export and the prompts' action lists are all read
from these tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sceneplan.graph.model import NodeKind

K = NodeKind


class Cause(StrEnum):
    """Why an action could not be executed. Error types for metrics come from these."""

    UNKNOWN_ACTION = "unknown_action"
    WRONG_ARITY = "wrong_arity"
    UNKNOWN_NODE = "unknown_node"
    WRONG_KIND = "wrong_kind"
    NO_AFFORDANCE = "no_affordance"
    NOT_ADJACENT = "not_adjacent"
    NOT_IN_ROOM = "not_in_room"
    NOT_ACCESSED = "not_accessed"
    NOTHING_ACCESSED = "nothing_accessed"
    HAND_FULL = "hand_full"
    NOT_HOLDING = "not_holding"
    CONTAINER_CLOSED = "container_closed"
    ALREADY_OPEN = "already_open"
    ALREADY_CLOSED = "already_closed"
    IS_CLOSED = "is_closed"
    ALREADY_ON = "already_on"
    ALREADY_OFF = "already_off"
    MUST_CLOSE_FIRST = "must_close_first"
    NOT_A_CONTAINER = "not_a_container"


# One sentence per cause. Fields: the parameter names, plus what the test reports.
FEEDBACK: dict[Cause, str] = {
    Cause.UNKNOWN_ACTION: "'{action}' is not an action; the actions are: {known}",
    Cause.WRONG_ARITY: "{action} takes {expected} argument(s), got {got}",
    Cause.UNKNOWN_NODE: "there is no node called '{node}' in the scene graph{hint}",
    Cause.WRONG_KIND: "{node} is {found}, but {action} needs {expected}",
    Cause.NO_AFFORDANCE: "{node} cannot be used with {action} (its affordances: {affordances})",
    Cause.NOT_ADJACENT: "{x} is not reachable directly from {at}; go through the poses "
    "connecting them (neighbours of {at}: {neighbours})",
    Cause.NOT_IN_ROOM: "the agent is at {at}, not in {room} where {node} is",
    Cause.NOT_ACCESSED: "{node} is at {asset}, which has not been accessed (accessed: {accessed})",
    Cause.NOTHING_ACCESSED: "no asset is accessed; access the asset to put {node} on first",
    Cause.HAND_FULL: "the agent is already holding {held}; release it first",
    Cause.NOT_HOLDING: "the agent is not holding {node} (holding: {held})",
    Cause.CONTAINER_CLOSED: "{node} is inside {container}, which is closed",
    Cause.ALREADY_OPEN: "{node} is already open",
    Cause.ALREADY_CLOSED: "{node} is already closed",
    Cause.IS_CLOSED: "{node} is closed; open it first",
    Cause.ALREADY_ON: "{node} is already on",
    Cause.ALREADY_OFF: "{node} is already off",
    Cause.MUST_CLOSE_FIRST: "{node} is open; close it before turning it on",
    Cause.NOT_A_CONTAINER: "{node} cannot hold things inside it",
}


@dataclass(frozen=True, slots=True)
class Param:
    """A typed parameter: the node kinds it accepts and the affordance it needs."""

    name: str
    kinds: frozenset[NodeKind]
    affordance: str | None = None


@dataclass(frozen=True, slots=True)
class Pre:
    """A precondition: `test` (a name in rules.TESTS) over `args`, failing with `cause`."""

    test: str
    args: tuple[str, ...]
    cause: Cause


@dataclass(frozen=True, slots=True)
class Effect:
    """An effect: `op` (a name in rules.EFFECTS) over `args` (parameter names or literals)."""

    op: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionSchema:
    """One action of a vocabulary."""

    name: str
    params: tuple[Param, ...]
    pre: tuple[Pre, ...]
    effects: tuple[Effect, ...]
    doc: str

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join('<' + p.name + '>' for p in self.params)})"


PLACES = frozenset({K.ROOM, K.POSE})
ROOMS = frozenset({K.ROOM})
ASSETS = frozenset({K.ASSET})
OBJECTS = frozenset({K.OBJECT})
THINGS = frozenset({K.ASSET, K.OBJECT})


def _toggle(
    name: str,
    affordance: str,
    reach: Pre,
    pre_state: Pre,
    word: str,
    doc: str,
    extra: tuple[Pre, ...] = (),
) -> ActionSchema:
    return ActionSchema(
        name,
        (Param("x", THINGS, affordance),),
        (reach, pre_state, *extra),
        (Effect("set_state", ("x", word)),)
        + ((Effect("apply_appliance", ("x",)),) if word == "on" else ()),
        doc,
    )


def _switches(reach: Pre) -> tuple[ActionSchema, ...]:
    return (
        _toggle(
            "open",
            "open",
            reach,
            Pre("has_state", ("x", "closed"), Cause.ALREADY_OPEN),
            "open",
            "Open a closed container (fridge, cabinet, drawer).",
        ),
        _toggle(
            "close",
            "close",
            reach,
            Pre("has_state", ("x", "open"), Cause.ALREADY_CLOSED),
            "closed",
            "Close an open container.",
        ),
        _toggle(
            "turn_on",
            "turn_on",
            reach,
            Pre("has_state", ("x", "off"), Cause.ALREADY_ON),
            "on",
            "Switch a device on; an appliance acts on what is on or in it.",
            (Pre("closed_if_container", ("x",), Cause.MUST_CLOSE_FIRST),),
        ),
        _toggle(
            "turn_off",
            "turn_off",
            reach,
            Pre("has_state", ("x", "on"), Cause.ALREADY_OFF),
            "off",
            "Switch a device off.",
        ),
    )


_DONE = ActionSchema("done", (), (), (Effect("finish"),), "Call when the task is complete.")

SAYPLAN: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "goto",
            (Param("x", PLACES),),
            (Pre("adjacent", ("x",), Cause.NOT_ADJACENT),),
            (Effect("move_agent", ("x",)),),
            "Move to a room or pose node linked to the current one.",
        ),
        ActionSchema(
            "access",
            (Param("a", ASSETS),),
            (Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),),
            (Effect("set_accessed", ("a",)),),
            "Reach an asset in the current room, and the objects on or in it.",
        ),
        ActionSchema(
            "pickup",
            (Param("o", OBJECTS, "pickup"),),
            (
                Pre("hand_empty", (), Cause.HAND_FULL),
                Pre("asset_accessed", ("o",), Cause.NOT_ACCESSED),
                Pre("accessible", ("o",), Cause.CONTAINER_CLOSED),
            ),
            (Effect("grab", ("o",)),),
            "Pick up an accessible object from the accessed asset (one at a time).",
        ),
        ActionSchema(
            "release",
            (Param("o", OBJECTS),),
            (
                Pre("holding", ("o",), Cause.NOT_HOLDING),
                Pre("something_accessed", ("o",), Cause.NOTHING_ACCESSED),
                Pre("accessed_affords_release", (), Cause.NO_AFFORDANCE),
            ),
            (Effect("place_at_accessed", ("o",)),),
            "Put the held object in the accessed asset if it is an open container, "
            "otherwise on top of it.",
        ),
        *_switches(Pre("reachable_accessed", ("x",), Cause.NOT_ACCESSED)),
        _DONE,
    )
}

LOOKPLANGRAPH: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "go_to",
            (Param("r", ROOMS),),
            (),
            (Effect("move_agent", ("r",)),),
            "Move to a room node (navigation is handled for you).",
        ),
        ActionSchema(
            "pick_up",
            (Param("o", OBJECTS, "pickup"),),
            (
                Pre("hand_empty", (), Cause.HAND_FULL),
                Pre("in_room_of", ("o",), Cause.NOT_IN_ROOM),
                Pre("accessible", ("o",), Cause.CONTAINER_CLOSED),
            ),
            (Effect("grab", ("o",)),),
            "Pick up an accessible object in the current room (one at a time).",
        ),
        ActionSchema(
            "put_on",
            (Param("a", THINGS, "release"),),
            (
                Pre("holding_any", (), Cause.NOT_HOLDING),
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
            ),
            (Effect("place", ("a", "ontop_of")),),
            "Put the held object on top of an asset.",
        ),
        ActionSchema(
            "put_inside",
            (Param("a", THINGS, "release"),),
            (
                Pre("holding_any", (), Cause.NOT_HOLDING),
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("is_container", ("a",), Cause.NOT_A_CONTAINER),
                Pre("has_state", ("a", "open"), Cause.IS_CLOSED),
            ),
            (Effect("place", ("a", "inside_of")),),
            "Put the held object inside an open container.",
        ),
        *_switches(Pre("in_room_of", ("x",), Cause.NOT_IN_ROOM)),
        ActionSchema(
            "look_on",
            (Param("a", THINGS),),
            (Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),),
            (Effect("observe", ("a", "ontop_of")),),
            "Look on top of an asset; what is found is added to the graph.",
        ),
        ActionSchema(
            "look_inside",
            (Param("a", THINGS),),
            (
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("is_container", ("a",), Cause.NOT_A_CONTAINER),
                Pre("has_state", ("a", "open"), Cause.IS_CLOSED),
            ),
            (Effect("observe", ("a", "inside_of")),),
            "Look inside an open container; what is found is added to the graph.",
        ),
        _DONE,
    )
}

VOCABULARIES: dict[str, dict[str, ActionSchema]] = {
    "sayplan": SAYPLAN,
    "lookplangraph": LOOKPLANGRAPH,
}
