"""The domain as data: action schemas with typed parameters, preconditions and effects.

A schema names its preconditions and effects by primitive (`world.rules`,
registered in `world.primitives`), with the parameters they read and, for
each precondition, the `Cause` reported when it fails. The simulator, the
PDDL export, the grounding and the prompts' action lists are all read from
these schemas and the primitives' faces. `register_action` adds an action to
a vocabulary (an extension's schema is checked like the built-in ones).

The vocabularies defined in modules of their own (ALFWorld's, `EXTENSIONS`)
register on first need: the first lookup in `VOCABULARIES` or in the goal
predicates' table (each a `Registry`) imports them, so a command that only
reads tasks (`sceneplan tasks show`) does not load them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import Node, NodeKind, SceneGraph
from sceneplan.world import rules  # registers the built-in primitives
from sceneplan.world import substances as _substances_primitives  # noqa: F401  (the same)
from sceneplan.world.primitives import Cause, CauseRow, define_causes, get_effect, get_test
from sceneplan.world.substances import split_word, supplied

K = NodeKind


def _causes() -> tuple[CauseRow, ...]:
    """The built-in causes, a table for `define_causes`: name, feedback sentence (over the
    failure's facts), error type, repairable."""
    wrong, missing = "wrong_action", "missing_action"
    return (
        ("unknown_action", "'{action}' is not an action; the actions are: {known}", wrong, False),
        ("wrong_arity", "{action} takes {expected} argument(s), got {got}", wrong, False),
        (
            "unknown_node",
            "there is no node called '{node}' in the scene graph{hint}",
            "hallucinated_node",
            False,
        ),
        ("wrong_kind", "{node} is {found}, but {action} needs {expected}", wrong, False),
        (
            "no_affordance",
            "{node} cannot be used with {action} (its affordances: {affordances})",
            wrong,
            False,
        ),
        (
            "not_adjacent",
            "{x} is not reachable directly from {at}; go through the poses "
            "connecting them (neighbours of {at}: {neighbours})",
            "missing_pose",
            True,
        ),
        ("not_in_room", "the agent is at {at}, not in {room} where {node} is", missing, True),
        (
            "not_accessed",
            "{node} is at {asset}, which has not been accessed (accessed: {accessed})",
            missing,
            True,
        ),
        (
            "nothing_accessed",
            "no asset is accessed; access the asset to put {node} on first",
            missing,
            True,
        ),
        (
            "hand_full",
            "the agent is already holding {held} and has no hand free; put something down first",
            missing,
            True,
        ),
        ("not_holding", "the agent is not holding {node} (holding: {held})", missing, True),
        ("container_closed", "{node} is inside {container}, which is closed", missing, True),
        ("already_open", "{node} is already open", wrong, True),
        ("already_closed", "{node} is already closed", wrong, True),
        ("is_closed", "{node} is closed; open it first", missing, True),
        ("already_on", "{node} is already on", wrong, True),
        ("already_off", "{node} is already off", wrong, True),
        ("must_close_first", "{node} is open; close it before turning it on", missing, True),
        ("not_a_container", "{node} cannot hold things inside it", wrong, True),
        ("already_plugged_in", "{node} is already plugged in", wrong, True),
        ("already_plugged_out", "{node} is already unplugged", wrong, True),
        ("already_clean", "{node} is already clean", wrong, True),
        ("already_folded", "{node} is already folded", wrong, True),
        ("already_unfolded", "{node} is already unfolded", wrong, True),
        ("is_off", "{node} is off; turn it on first", missing, True),
        # substances (world/substances.py)
        (
            "no_substance",
            "{node} holds no substance and gives none; fill it first",
            missing,
            True,
        ),
        (
            "nothing_to_remove",
            "{node} is covered with nothing {tool} takes off now (covered with: {covering}); "
            "mud, stains and oils come off only with a soaked tool",
            missing,
            True,
        ),
        ("not_standing", "the agent is {posture}; stand_up() first", missing, True),
        ("already_standing", "the agent is already standing", wrong, True),
        (
            "carried",
            "{node} is held by the agent, or is on or in what it holds (holding: {held}); "
            "put it down first",
            wrong,
            True,
        ),
        # partial observability (world/partial.py): memory and the true world disagree
        (
            "stale_memory",
            "{node} is not {where} as memory had it; memory has dropped it: look again to find it",
            "incomplete_search",
            True,
        ),
        (
            "not_in_world",
            "{node} is not there: nothing like it is {where}; memory has dropped it",
            "hallucinated_node",
            True,
        ),
        (
            "state_changed",
            "{node} is {found}, not {believed} as memory had it; memory is corrected",
            "incomplete_search",
            True,
        ),
    )


define_causes(_causes())


@dataclass(frozen=True, slots=True)
class Param:
    """A typed parameter: the node kinds it accepts and the affordance it needs."""

    name: str
    kinds: frozenset[NodeKind]
    affordance: str | None = None


@dataclass(frozen=True, slots=True)
class Pre:
    """A precondition: the test primitive `test` over `args`, failing with `cause`.

    `args` are parameter names or literal words (`has_state(x, closed)`).
    """

    test: str
    args: tuple[str, ...]
    cause: Cause


@dataclass(frozen=True, slots=True)
class Eff:
    """An effect: the effect primitive `op` over `args` (parameter names or literal words)."""

    op: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionSchema:
    """One action of a vocabulary. Checked on creation: every primitive it names exists and
    takes the arguments given, and every cause is registered."""

    name: str
    params: tuple[Param, ...]
    pre: tuple[Pre, ...]
    effects: tuple[Eff, ...]
    doc: str
    # offered in a scene only with one of these actions (stand_up, after sit or lie)
    only_with: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for pre in self.pre:
            self._check_use(get_test(pre.test), pre.args)
            if not isinstance(pre.cause, Cause):
                raise UnsupportedError(
                    f"action {self.signature}: cause {pre.cause!r} is not a registered Cause"
                )
        for index, effect in enumerate(self.effects):
            self._check_use(get_effect(effect.op), effect.args)
            get_effect(effect.op).check_use(self, index)

    def _check_use(self, primitive, args: tuple[str, ...]) -> None:
        if len(args) != len(primitive.params):
            raise UnsupportedError(
                f"action {self.signature}: {primitive.name} takes {len(primitive.params)} "
                f"argument(s) ({', '.join(primitive.params)}), got {len(args)}"
            )
        if primitive.kinds is not None:
            for param in self.params:
                if param.name in args and not param.kinds <= primitive.kinds:
                    raise UnsupportedError(
                        f"action {self.signature}: {primitive.name} is defined for "
                        + ", ".join(sorted(k.value for k in primitive.kinds))
                        + f" only, and {param.name} may be "
                        + ", ".join(sorted(k.value for k in param.kinds))
                    )

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join('<' + p.name + '>' for p in self.params)})"

    def afforded(self, affordances: Collection[tuple[NodeKind, str]]) -> bool:
        """Whether a scene whose nodes afford these (kind, affordance) pairs has, for each
        parameter that needs an affordance, a node that can fill it."""
        return all(
            any((kind, p.affordance) in affordances for kind in p.kinds)
            for p in self.params
            if p.affordance is not None
        )

    def bind(self, args: tuple[str, ...]) -> dict[str, str]:
        """Parameter name -> argument of one call."""
        return dict(zip((p.name for p in self.params), args, strict=True))

    def conditions(self) -> list[str]:
        """The preconditions in words (prompt wording of each test, with parameter names)."""
        return [
            get_test(p.test).describe(tuple(f"<{a}>" if self._is_param(a) else a for a in p.args))
            for p in self.pre
        ]

    def _is_param(self, name: str) -> bool:
        return any(p.name == name for p in self.params)

    @property
    def held_param(self) -> str | None:
        """The parameter the agent must hold (`holding(o)` among the preconditions): what
        an effect on "the held object" acts on; None for an action that does not name it
        (LookPlanGraph's put_on(a), on the one held object)."""
        return next((p.args[0] for p in self.pre if p.test == "holding"), None)

    @property
    def ends_plan(self) -> bool:
        """Whether the action only ends the plan (`done`): every effect is bookkeeping,
        nothing for a robot to do."""
        return bool(self.effects) and all(get_effect(e.op).bookkeeping for e in self.effects)


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
        (Eff("set_state", ("x", word)),)
        + ((Eff("apply_appliance", ("x",)),) if word == "on" else ()),
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


def _postures(reach: Pre) -> tuple[ActionSchema, ...]:
    """Sitting and lying down on what affords it, and standing up (VirtualHome's SIT, LIE,
    STANDUP): the agent's posture, state words `sitting` / `lying` of the agent node."""
    standing = Pre("agent_standing", (), Cause.NOT_STANDING)
    return (
        ActionSchema(
            "sit",
            (Param("x", THINGS, "sit"),),
            (reach, standing),
            (Eff("set_posture", ("sitting",)),),
            "Sit down on a chair, sofa or bed.",
        ),
        ActionSchema(
            "lie",
            (Param("x", THINGS, "lie"),),
            (reach, standing),
            (Eff("set_posture", ("lying",)),),
            "Lie down on a bed or sofa.",
        ),
        ActionSchema(
            "stand_up",
            (),
            (Pre("agent_resting", (), Cause.ALREADY_STANDING),),
            (Eff("set_posture", ("standing",)),),
            "Stand up after sitting or lying down (needed before moving).",
            only_with=("sit", "lie"),
        ),
    )


def _care(reach: Pre, reach_water: Pre) -> tuple[ActionSchema, ...]:
    """Plugging (VirtualHome's plug_in / plug_out), cleaning (wipe, rinse) and folding
    cloth (BEHAVIOR-1K's folded / unfolded: towels, shirts, sheets)."""
    return (
        _toggle(
            "plug_in",
            "plug_in",
            reach,
            Pre("has_state", ("x", "plugged_out"), Cause.ALREADY_PLUGGED_IN),
            "plugged_in",
            "Plug a device's cord into the socket.",
        ),
        _toggle(
            "plug_out",
            "plug_out",
            reach,
            Pre("has_state", ("x", "plugged_in"), Cause.ALREADY_PLUGGED_OUT),
            "plugged_out",
            "Unplug a device.",
        ),
        _toggle(
            "wipe",
            "wipe",
            reach,
            Pre("has_state", ("x", "dirty"), Cause.ALREADY_CLEAN),
            "clean",
            "Wipe a dirty surface or object clean.",
        ),
        _toggle(
            "fold",
            "fold",
            reach,
            Pre("has_state", ("x", "unfolded"), Cause.ALREADY_FOLDED),
            "folded",
            "Fold an unfolded cloth (a towel, a shirt, a sheet).",
        ),
        _toggle(
            "unfold",
            "unfold",
            reach,
            Pre("has_state", ("x", "folded"), Cause.ALREADY_UNFOLDED),
            "unfolded",
            "Unfold a folded cloth, spreading it out.",
        ),
        ActionSchema(
            "rinse",
            (Param("o", OBJECTS), Param("s", THINGS, "rinse")),
            (
                Pre("holding", ("o",), Cause.NOT_HOLDING),
                reach_water,
                Pre("has_state", ("s", "on"), Cause.IS_OFF),
            ),
            (Eff("set_state", ("o", "clean")),),
            "Rinse the held object clean under a running tap (a sink or faucet that is on).",
        ),
    )


# Attaching (BEHAVIOR-1K's `attached`): the held object goes onto a thing that affords
# `attach` (and `release`), and rests there as on top of it; `world.predicates.Attached`
# reads it as attached. Picking it up takes it off.
ATTACH_DOC = (
    "Hang or fasten the held object on a thing made for it (a picture on a nail, a hanger "
    "on a wardrobe rail, a lid on a jar, a bulb in a lamp)."
)


def _substances(reach: Callable[[str], Pre]) -> tuple[ActionSchema, ...]:
    """Substances (BEHAVIOR-1K's filled / contains / covered / saturated / insource, see
    `world.substances`): fill a held container from a source, pour or sprinkle what a held
    thing holds, soak a cloth, wipe a covered thing with a tool. `reach(p)` is the
    vocabulary's precondition that the agent can touch parameter p. Affordances: `fill`
    (a container for substances), `pour` (an object that pours or sprinkles), `source`
    (gives a substance), `soak` (a cloth), `wiper` (a cleaning tool), `coat` (a surface
    substances cover)."""
    holding = (Pre("holding", ("o",), Cause.NOT_HOLDING),)

    def onto(x: str) -> tuple[Pre, ...]:
        """x is in reach and open to the held thing: not held, and in no closed container
        (no sprinkling onto food in a shut fridge)."""
        return (
            Pre("not_carried", (x,), Cause.CARRIED),
            reach(x),
            Pre("accessible", (x,), Cause.CONTAINER_CLOSED),
        )

    running = Pre("running", ("o",), Cause.IS_OFF)
    holds = Pre("has_substance", ("o",), Cause.NO_SUBSTANCE)
    return (
        ActionSchema(
            "fill",
            (Param("o", OBJECTS, "fill"), Param("s", THINGS, "source")),
            (*holding, reach("s"), Pre("running", ("s",), Cause.IS_OFF)),
            (Eff("fill_from", ("o", "s")),),
            "Fill the held container from a source that gives a substance (water from a "
            "sink that is on).",
        ),
        ActionSchema(
            "pour",
            (Param("o", OBJECTS, "pour"), Param("c", THINGS, "fill")),
            (
                *holding,
                *onto("c"),
                Pre("opening_clear", ("c",), Cause.IS_CLOSED),
                running,
                holds,
            ),
            (Eff("pour_into", ("o", "c")),),
            "Pour what the held thing holds or gives into a container (it empties).",
        ),
        ActionSchema(
            "sprinkle",
            (Param("o", OBJECTS, "pour"), Param("x", THINGS, "coat")),
            (*holding, *onto("x"), running, holds),
            (Eff("sprinkle_on", ("o", "x")),),
            "Sprinkle or spray what the held thing holds or gives over a thing, covering it.",
        ),
        ActionSchema(
            "soak",
            (Param("o", OBJECTS, "soak"), Param("x", THINGS, "fill")),
            (
                *holding,
                *onto("x"),
                Pre("running", ("x",), Cause.IS_OFF),
                Pre("has_substance", ("x",), Cause.NO_SUBSTANCE),
            ),
            (Eff("soak_in", ("o", "x")),),
            "Soak the held cloth in what a container holds or gives (a bucket of water, a "
            "running sink).",
        ),
        ActionSchema(
            "wipe_with",
            (Param("o", OBJECTS, "wiper"), Param("x", THINGS, "coat")),
            (*holding, *onto("x"), Pre("removable", ("x", "o"), Cause.NOTHING_TO_REMOVE)),
            (Eff("remove_cover", ("x", "o")),),
            "Wipe what covers a thing off it with the held tool (a rag, a brush); mud, "
            "stains and oils need the tool soaked first.",
        ),
    )


_DONE = ActionSchema("done", (), (), (Eff("finish"),), "Call when the task is complete.")

SAYPLAN: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "goto",
            (Param("x", PLACES),),
            (
                Pre("adjacent", ("x",), Cause.NOT_ADJACENT),
                Pre("agent_standing", (), Cause.NOT_STANDING),
            ),
            (Eff("move_agent", ("x",)),),
            "Move to a room or pose node linked to the current one.",
        ),
        ActionSchema(
            "access",
            (Param("a", ASSETS),),
            (Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),),
            (Eff("set_accessed", ("a",)),),
            "Reach an asset in the current room, and the objects on or in it.",
        ),
        ActionSchema(
            "pickup",
            (Param("o", OBJECTS, "pickup"),),
            (
                Pre("hand_free", (), Cause.HAND_FULL),
                Pre("asset_accessed", ("o",), Cause.NOT_ACCESSED),
                Pre("accessible", ("o",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("grab", ("o",)),),
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
            (Eff("place_at_accessed", ("o",)),),
            "Put the held object in the accessed asset if it is an open container, "
            "otherwise on top of it.",
        ),
        ActionSchema(
            "release_in",
            (Param("o", OBJECTS), Param("r", OBJECTS, "release")),
            (
                Pre("holding", ("o",), Cause.NOT_HOLDING),
                Pre("reachable_accessed", ("r",), Cause.NOT_ACCESSED),
                Pre("accessible", ("r",), Cause.CONTAINER_CLOSED),
                Pre("is_container", ("r",), Cause.NOT_A_CONTAINER),
                Pre("opening_clear", ("r",), Cause.IS_CLOSED),
            ),
            (Eff("place", ("r", "inside_of")),),
            "Put the held object inside an object on the accessed asset (a bowl, a sack, "
            "an open box).",
        ),
        ActionSchema(
            "release_on",
            (Param("o", OBJECTS), Param("r", THINGS, "release")),
            (
                Pre("holding", ("o",), Cause.NOT_HOLDING),
                Pre("reachable_accessed", ("r",), Cause.NOT_ACCESSED),
                Pre("accessible", ("r",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("place", ("r", "ontop_of")),),
            "Put the held object on top of the accessed asset (even one that holds things "
            "inside, a shelf) or of an object on it (a plate, a tray).",
        ),
        ActionSchema(
            "attach",
            (Param("o", OBJECTS), Param("r", THINGS, "attach")),
            (
                Pre("holding", ("o",), Cause.NOT_HOLDING),
                Pre("reachable_accessed", ("r",), Cause.NOT_ACCESSED),
                Pre("accessible", ("r",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("place", ("r", "ontop_of")),),
            ATTACH_DOC,
        ),
        *_switches(Pre("reachable_accessed", ("x",), Cause.NOT_ACCESSED)),
        *_care(
            Pre("reachable_accessed", ("x",), Cause.NOT_ACCESSED),
            Pre("reachable_accessed", ("s",), Cause.NOT_ACCESSED),
        ),
        *_postures(Pre("reachable_accessed", ("x",), Cause.NOT_ACCESSED)),
        *_substances(lambda x: Pre("reachable_accessed", (x,), Cause.NOT_ACCESSED)),
        _DONE,
    )
}

LOOKPLANGRAPH: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "go_to",
            (Param("r", ROOMS),),
            (Pre("agent_standing", (), Cause.NOT_STANDING),),
            (Eff("move_agent", ("r",)),),
            "Move to a room node (navigation is handled for you).",
        ),
        ActionSchema(
            "pick_up",
            (Param("o", OBJECTS, "pickup"),),
            (
                Pre("hand_free", (), Cause.HAND_FULL),
                Pre("in_room_of", ("o",), Cause.NOT_IN_ROOM),
                Pre("accessible", ("o",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("grab", ("o",)),),
            "Pick up an accessible object in the current room (one at a time).",
        ),
        ActionSchema(
            "put_on",
            (Param("a", THINGS, "release"),),
            (
                Pre("holding_any", (), Cause.NOT_HOLDING),
                Pre("not_carried", ("a",), Cause.CARRIED),
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("accessible", ("a",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("place", ("a", "ontop_of")),),
            "Put the held object on top of an asset, or of an object that takes things "
            "(a plate, a tray).",
        ),
        ActionSchema(
            "put_inside",
            (Param("a", THINGS, "release"),),
            (
                Pre("holding_any", (), Cause.NOT_HOLDING),
                Pre("not_carried", ("a",), Cause.CARRIED),
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("accessible", ("a",), Cause.CONTAINER_CLOSED),
                Pre("is_container", ("a",), Cause.NOT_A_CONTAINER),
                Pre("opening_clear", ("a",), Cause.IS_CLOSED),
            ),
            (Eff("place", ("a", "inside_of")),),
            "Put the held object inside an open container or a receptacle (a bowl, a sack).",
        ),
        ActionSchema(
            "attach",
            (Param("a", THINGS, "attach"),),
            (
                Pre("holding_any", (), Cause.NOT_HOLDING),
                Pre("not_carried", ("a",), Cause.CARRIED),
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("accessible", ("a",), Cause.CONTAINER_CLOSED),
            ),
            (Eff("place", ("a", "ontop_of")),),
            ATTACH_DOC,
        ),
        *_switches(Pre("in_room_of", ("x",), Cause.NOT_IN_ROOM)),
        *_care(
            Pre("in_room_of", ("x",), Cause.NOT_IN_ROOM),
            Pre("in_room_of", ("s",), Cause.NOT_IN_ROOM),
        ),
        *_postures(Pre("in_room_of", ("x",), Cause.NOT_IN_ROOM)),
        *_substances(lambda x: Pre("in_room_of", (x,), Cause.NOT_IN_ROOM)),
        ActionSchema(
            "look_on",
            (Param("a", ASSETS),),
            (Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),),
            (Eff("observe", ("a", "ontop_of")),),
            "Look on top of an asset; what is found is added to the graph.",
        ),
        ActionSchema(
            "look_inside",
            (Param("a", ASSETS),),
            (
                Pre("in_room_of", ("a",), Cause.NOT_IN_ROOM),
                Pre("is_container", ("a",), Cause.NOT_A_CONTAINER),
                Pre("opening_clear", ("a",), Cause.IS_CLOSED),
            ),
            (Eff("observe", ("a", "inside_of")),),
            "Look inside an open container; what is found is added to the graph.",
        ),
        _DONE,
    )
}


def _naming_the_held(schemas: dict[str, ActionSchema]) -> dict[str, ActionSchema]:
    """A vocabulary for an agent with two hands: an action that acts on "the held object"
    without naming it (LookPlanGraph's put_on(a), `holding_any`) takes the object as its
    first argument instead (`put_on(o, a)`, as VirtualHome's PUTBACK <object> <target>),
    since with two objects held "the held object" is not one. The rest is unchanged."""
    out = {}
    for name, schema in schemas.items():
        if any(p.test == "hand_free" for p in schema.pre):
            # with a hand free, what is held (or on or in it) could be picked up again
            doc = schema.doc.replace("(one at a time)", "(two hands: up to two objects)")
            taken = schema.params[0].name
            pre = (schema.pre[0], Pre("not_carried", (taken,), Cause.CARRIED), *schema.pre[1:])
            out[name] = replace(schema, pre=pre, doc=doc)
            continue
        if not any(p.test == "holding_any" for p in schema.pre):
            out[name] = schema
            continue
        pre = tuple(
            Pre("holding", ("o",), p.cause) if p.test == "holding_any" else p for p in schema.pre
        )
        doc = schema.doc.replace("Put the held object", "Put a held object <o>")
        out[name] = replace(schema, params=(Param("o", OBJECTS), *schema.params), pre=pre, doc=doc)
    return out


# Modules that extend the registries (a vocabulary, its primitives and goal predicates),
# imported by the first lookup in a `Registry`. They import this module, so importing
# them here at the top would be a cycle; the package does not import them either.
EXTENSIONS = ("sceneplan.world.alfworld",)
_extensions_loaded = False

V = TypeVar("V")


def load_extensions() -> None:
    """Import the `EXTENSIONS` (once): what a `Registry` does before its first lookup."""
    global _extensions_loaded
    if _extensions_loaded:
        return
    _extensions_loaded = True  # first: the extensions register into the tables they read
    for name in EXTENSIONS:
        importlib.import_module(name)


class Registry(dict[str, V], Generic[V]):
    """A registry table (name -> entry) that loads the `EXTENSIONS` before it is first
    read or added to, so every lookup, iteration or registration sees their entries, in
    the order they had when the package imported them eagerly. A table filled while its
    module is still being imported (built-in entries registered by a decorator) is
    created with `ready=False` and made ready at the end of that module."""

    def __init__(self, entries: Any = (), *, ready: bool = True):
        super().__init__(entries)
        self.ready = ready

    def _load(self) -> None:
        if self.ready and not _extensions_loaded:
            load_extensions()

    def __getitem__(self, key: str) -> V:
        self._load()
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._load()
        return super().__contains__(key)

    def __iter__(self) -> Any:
        self._load()
        return super().__iter__()

    def __len__(self) -> int:
        self._load()
        return super().__len__()

    def __repr__(self) -> str:
        self._load()
        return super().__repr__()

    def get(self, key: str, default: Any = None) -> Any:
        self._load()
        return super().get(key, default)

    def keys(self) -> Any:
        self._load()
        return super().keys()

    def values(self) -> Any:
        self._load()
        return super().values()

    def items(self) -> Any:
        self._load()
        return super().items()

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._load()
        return super().setdefault(key, default)

    def pop(self, key: str, *default: Any) -> Any:
        self._load()
        return super().pop(key, *default)


VOCABULARIES: Registry[dict[str, ActionSchema]] = Registry(
    {
        "sayplan": SAYPLAN,
        "lookplangraph": LOOKPLANGRAPH,
        "lookplangraph_two_hands": _naming_the_held(LOOKPLANGRAPH),
    }
)
# The vocabulary a run of a vocabulary uses where the agent has two hands (`WorldState.
# hands`): one whose actions name what they put down. SayPlan's and ALFWorld's do already.
TWO_HANDED: dict[str, str] = {"lookplangraph": "lookplangraph_two_hands"}


def plan_enders() -> frozenset[str]:
    """The names of the actions that only end a plan, in any vocabulary (`done`): what a
    count of a plan's steps leaves out when the plan's vocabulary is not known."""
    return frozenset(
        name
        for actions in VOCABULARIES.values()
        for name, schema in actions.items()
        if schema.ends_plan
    )


def vocabulary_in(name: str, graph: SceneGraph) -> str:
    """The vocabulary a run of `name` uses in `graph`: its two-handed form (`TWO_HANDED`)
    where the graph's agent has two hands, else `name` itself."""
    return TWO_HANDED.get(name, name) if graph.hands == 2 else name


def register_action(vocabulary: str, schema: ActionSchema) -> None:
    """Add an action to a vocabulary (a new vocabulary name starts one, with `done`)."""
    actions = VOCABULARIES.setdefault(vocabulary, {"done": _DONE})
    if schema.name in actions and actions[schema.name] != schema:
        raise UnsupportedError(f"vocabulary '{vocabulary}' already has an action '{schema.name}'")
    done = actions.pop("done", None)
    actions[schema.name] = schema
    if done is not None and schema.name != "done":
        actions["done"] = done  # `done` stays last in prompts


def forget_action(vocabulary: str, name: str) -> None:
    """Remove an action from a vocabulary (for extensions defined in tests)."""
    VOCABULARIES.get(vocabulary, {}).pop(name, None)


def get_vocabulary(name: str) -> dict[str, ActionSchema]:
    """The actions of a vocabulary by name; an unknown name lists the known ones."""
    try:
        return VOCABULARIES[name]
    except KeyError:
        raise UnsupportedError(
            f"unknown action vocabulary '{name}'; choose one of {', '.join(VOCABULARIES)}"
        ) from None


@dataclass(frozen=True, slots=True)
class Giver:
    """An action that gives a state word to one of its parameters (`target`), with the
    nodes of its other parameters that need an affordance (`helpers`: the sink basin of
    ALFWorld's `clean(o, r)`, the tap of `rinse(o, s)`; none for `wipe(x)`)."""

    vocabulary: str
    action: str
    target: Param
    helpers: tuple[Param, ...]


def givers(word: str, vocabulary: str | None = None) -> list[Giver]:
    """The actions of a vocabulary (of all, when None) whose effects set `word` on a node:
    read from the effects' own `words`, so an extension's action counts as well."""
    names = VOCABULARIES if vocabulary is None else {vocabulary: get_vocabulary(vocabulary)}
    out = []
    for name in names:
        for schema in VOCABULARIES[name].values():
            params = {p.name: p for p in schema.params}
            for eff in schema.effects:
                if word in get_effect(eff.op).words(eff.args) and eff.args[0] in params:
                    target = params[eff.args[0]]
                    helpers = tuple(
                        p for p in schema.params if p is not target and p.affordance is not None
                    )
                    out.append(Giver(name, schema.name, target, helpers))
    return out


def runs_appliances(vocabulary: str) -> bool:
    """Whether an action of the vocabulary lets appliances act (switching one on, putting
    something in or on one)."""
    return any(
        get_effect(e.op).runs_appliances
        for schema in get_vocabulary(vocabulary).values()
        for e in schema.effects
    )


def gives(helper: Node, obj: Node, word: str, vocabulary: str) -> bool:
    """Whether, in the vocabulary, node `helper` can give `obj` the state word: as the
    helper of an action that sets the word on obj (a sink basin cleans what is held at
    it), or as an appliance whose function gives the word to obj's category."""
    if helper.id == obj.id:
        return False
    moved = split_word(word)
    if moved is not None:  # a substance: from a node that holds or gives it at the start
        relation, substance = moved
        return substance in supplied(helper.state) and any(
            relation in relations and _fits(obj, target) and _fits(helper, other)
            for target, other, relations in _substance_uses(vocabulary, "flow")
        )
    if runs_appliances(vocabulary) and rules.appliance_gives(helper.category, word, obj.category):
        return True
    return any(
        _fits(obj, g.target) and any(_fits(helper, h) for h in g.helpers)
        for g in givers(word, vocabulary)
    )


def takes_away(helper: Node, obj: Node, word: str, vocabulary: str) -> bool:
    """Whether, in the vocabulary, node `helper` is a tool that can take the substance
    word off `obj` (a rag wipes dust off a table); False for any other word."""
    moved = split_word(word)
    return (
        moved is not None
        and helper.id != obj.id
        and any(
            moved[0] in relations and _fits(obj, target) and _fits(helper, tool)
            for target, tool, relations in _substance_uses(vocabulary, "removal")
        )
    )


def _substance_uses(vocabulary: str, face: str) -> list[tuple[Param, Param, tuple[str, ...]]]:
    """(target, other, relations) of each use of a substance effect's `flow` or `removal`
    face in the vocabulary's actions: the params the effect's arguments name."""
    out = []
    for schema in get_vocabulary(vocabulary).values():
        params = {p.name: p for p in schema.params}
        for eff in schema.effects:
            use = getattr(get_effect(eff.op), face)
            if use is None:
                continue
            first, second, relations = use
            target, other = eff.args[first], eff.args[second]
            if target in params and other in params:
                out.append((params[target], params[other], relations))
    return out


def _fits(node: Node, param: Param) -> bool:
    return node.kind in param.kinds and (
        param.affordance is None or param.affordance in node.affordances
    )


def setters(word: str) -> tuple[frozenset[str | None] | None, bool]:
    """How a state word can come about: the affordances that actions setting it require of
    their node (None in the set: no affordance needed), or None when no action sets it;
    and whether an appliance gives it (or its opposite)."""
    affordances = {g.target.affordance for g in givers(word)}
    return (frozenset(affordances) if affordances else None), word in rules.appliance_words()
