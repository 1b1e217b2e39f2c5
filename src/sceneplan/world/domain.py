"""The domain as data: action schemas with typed parameters, preconditions and effects.

A schema names its preconditions and effects by primitive (`world.rules`,
registered in `world.primitives`), with the parameters they read and, for
each precondition, the `Cause` reported when it fails. The simulator, the
PDDL export, the grounding and the prompts' action lists are all read from
these schemas and the primitives' faces. The actions of SayPlan and
LookPlanGraph are here; `world.vocabulary` makes a vocabulary of a set of
them, `world.vocabularies` holds every vocabulary (ALFWorld's included).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind
from sceneplan.world import (
    rules,  # noqa: F401  (registers the built-in primitives)
    substances,  # noqa: F401  (the same)
)
from sceneplan.world.primitives import Cause, CauseRow, define_causes, get_effect, get_test

K = NodeKind


_WRONG, _MISSING = "wrong_action", "missing_action"
# The built-in causes, the table `define_causes` registers: name, feedback sentence (over
# the failure's facts), error type, repairable.
CAUSES: tuple[CauseRow, ...] = (
    ("unknown_action", "'{action}' is not an action; the actions are: {known}", _WRONG, False),
    ("wrong_arity", "{action} takes {expected} argument(s), got {got}", _WRONG, False),
    (
        "unknown_node",
        "there is no node called '{node}' in the scene graph{hint}",
        "hallucinated_node",
        False,
    ),
    ("wrong_kind", "{node} is {found}, but {action} needs {expected}", _WRONG, False),
    (
        "no_affordance",
        "{node} cannot be used with {action} (its affordances: {affordances})",
        _WRONG,
        False,
    ),
    (
        "not_adjacent",
        "{x} is not reachable directly from {at}; go through the poses "
        "connecting them (neighbours of {at}: {neighbours})",
        "missing_pose",
        True,
    ),
    ("not_in_room", "the agent is at {at}, not in {room} where {node} is", _MISSING, True),
    (
        "not_accessed",
        "{node} is at {asset}, which has not been accessed (accessed: {accessed})",
        _MISSING,
        True,
    ),
    (
        "nothing_accessed",
        "no asset is accessed; access the asset to put {node} on first",
        _MISSING,
        True,
    ),
    (
        "hand_full",
        "the agent is already holding {held} and has no hand free; put something down first",
        _MISSING,
        True,
    ),
    ("not_holding", "the agent is not holding {node} (holding: {held})", _MISSING, True),
    ("container_closed", "{node} is inside {container}, which is closed", _MISSING, True),
    ("already_open", "{node} is already open", _WRONG, True),
    ("already_closed", "{node} is already closed", _WRONG, True),
    ("is_closed", "{node} is closed; open it first", _MISSING, True),
    ("already_on", "{node} is already on", _WRONG, True),
    ("already_off", "{node} is already off", _WRONG, True),
    ("must_close_first", "{node} is open; close it before turning it on", _MISSING, True),
    ("not_a_container", "{node} cannot hold things inside it", _WRONG, True),
    ("already_plugged_in", "{node} is already plugged in", _WRONG, True),
    ("already_plugged_out", "{node} is already unplugged", _WRONG, True),
    ("already_clean", "{node} is already clean", _WRONG, True),
    ("already_folded", "{node} is already folded", _WRONG, True),
    ("already_unfolded", "{node} is already unfolded", _WRONG, True),
    ("is_off", "{node} is off; turn it on first", _MISSING, True),
    # substances (world/substances.py)
    (
        "no_substance",
        "{node} holds no substance and gives none; fill it first",
        _MISSING,
        True,
    ),
    (
        "nothing_to_remove",
        "{node} is covered with nothing {tool} takes off now (covered with: {covering}); "
        "mud, stains and oils come off only with a soaked tool",
        _MISSING,
        True,
    ),
    ("not_standing", "the agent is {posture}; stand_up() first", _MISSING, True),
    ("already_standing", "the agent is already standing", _WRONG, True),
    (
        "carried",
        "{node} is held by the agent, or is on or in what it holds (holding: {held}); "
        "put it down first",
        _WRONG,
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


define_causes(CAUSES)


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
    # the VirtualHome program verbs that do what this action does (pick_up: GRAB), which
    # the VirtualHome importer translates programs by (`importers.virtualhome.task`)
    virtualhome: tuple[str, ...] = ()

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
        """The action as a prompt names it: `name(<p>, ...)`."""
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

    @property
    def accesses(self) -> bool:
        """Whether the action accesses an asset (SayPlan's access, ALFWorld's go_to)."""
        return any(e.op == "set_accessed" for e in self.effects)

    @property
    def places_at_accessed(self) -> bool:
        """Whether the action puts the held object on whatever asset is accessed (SayPlan's
        release): planning it needs an asset to put things on."""
        return any(e.op == "place_at_accessed" for e in self.effects)

    @property
    def destination(self) -> str | None:
        """The parameter (or word) the agent moves to (goto's `x`); None for an action
        that does not move it."""
        return next((e.args[0] for e in self.effects if e.op == "move_agent"), None)


PLACES = frozenset({K.ROOM, K.POSE})
ROOMS = frozenset({K.ROOM})
ASSETS = frozenset({K.ASSET})
OBJECTS = frozenset({K.OBJECT})
THINGS = frozenset({K.ASSET, K.OBJECT})

# The preconditions that several actions share, each written once. `Reach` is a
# vocabulary's "the agent can touch parameter p" (SayPlan: on the accessed asset,
# LookPlanGraph: in the agent's room); the actions both vocabularies have take it.
Reach = Callable[[str], Pre]
STANDING = Pre("agent_standing", (), Cause.NOT_STANDING)
HAND_FREE = Pre("hand_free", (), Cause.HAND_FULL)


def holding(o: str) -> Pre:
    """The agent holds parameter `o`."""
    return Pre("holding", (o,), Cause.NOT_HOLDING)


def accessible(x: str) -> Pre:
    """Parameter `x` is not inside a closed container."""
    return Pre("accessible", (x,), Cause.CONTAINER_CLOSED)


def not_carried(x: str) -> Pre:
    """Parameter `x` is not held, nor on or in what the agent holds."""
    return Pre("not_carried", (x,), Cause.CARRIED)


def opening_clear(x: str) -> Pre:
    """Nothing closes parameter `x`'s opening (it is open, or has no lid)."""
    return Pre("opening_clear", (x,), Cause.IS_CLOSED)


def running(x: str) -> Pre:
    """Parameter `x` acts now: it is on, or has no switch."""
    return Pre("running", (x,), Cause.IS_OFF)


def open_container(x: str) -> tuple[Pre, ...]:
    """Parameter `x` holds things inside it, and its opening is clear."""
    return (Pre("is_container", (x,), Cause.NOT_A_CONTAINER), opening_clear(x))


def on_accessed(x: str) -> Pre:
    """SayPlan's reach: `x` is the accessed asset or on or in it."""
    return Pre("reachable_accessed", (x,), Cause.NOT_ACCESSED)


def in_room(x: str) -> Pre:
    """LookPlanGraph's reach: `x` is in the agent's room."""
    return Pre("in_room_of", (x,), Cause.NOT_IN_ROOM)


# One action that puts the held object on or in a target: its name, the target's kinds
# and affordance, where the object goes (`ontop_of`, `inside_of`), its prompt text, and
# the VirtualHome verbs that do it (`ActionSchema.virtualhome`).
PutRow = tuple[str, frozenset[NodeKind], str, str, str, tuple[str, ...]]


def _puts(
    reach: Reach, held: tuple[Param, ...], hold: tuple[Pre, ...], r: str, rows: tuple[PutRow, ...]
) -> tuple[ActionSchema, ...]:
    """A vocabulary's put actions, one per row, on target parameter `r` after the `held`
    ones: the agent holds the object (`hold`), reaches r, r is not closed in, and, to put
    the object inside, r is an open container."""
    return tuple(
        ActionSchema(
            name,
            (*held, Param(r, kinds, affordance)),
            (*hold, reach(r), accessible(r), *(open_container(r) if where == "inside_of" else ())),
            (Eff("place", (r, where)),),
            doc,
            virtualhome=verbs,
        )
        for name, kinds, affordance, where, doc, verbs in rows
    )


# The actions that change one state word of the thing they act on (and that it must
# afford, under the action's name): the word it must have, the word it gets, and the
# cause when it has the second already.
TOGGLES: dict[str, tuple[str, str, Cause]] = {
    "open": ("closed", "open", Cause.ALREADY_OPEN),
    "close": ("open", "closed", Cause.ALREADY_CLOSED),
    "turn_on": ("off", "on", Cause.ALREADY_ON),
    "turn_off": ("on", "off", Cause.ALREADY_OFF),
    "plug_in": ("plugged_out", "plugged_in", Cause.ALREADY_PLUGGED_IN),
    "plug_out": ("plugged_in", "plugged_out", Cause.ALREADY_PLUGGED_OUT),
    "wipe": ("dirty", "clean", Cause.ALREADY_CLEAN),
    "fold": ("unfolded", "folded", Cause.ALREADY_FOLDED),
    "unfold": ("folded", "unfolded", Cause.ALREADY_UNFOLDED),
}


def toggle(
    name: str,
    doc: str,
    reach: Reach,
    *extra: Pre,
    param: Param | None = None,
    virtualhome: tuple[str, ...] = (),
) -> ActionSchema:
    """The `TOGGLES` action `name` on `param` (a thing x that affords it, by default),
    which the agent must reach; `extra` preconditions follow; `virtualhome`, the
    VirtualHome verbs that do it. Switching a thing on lets it act as an appliance."""
    before, word, cause = TOGGLES[name]
    p = param or Param("x", THINGS, name)
    return ActionSchema(
        name,
        (p,),
        (reach(p.name), Pre("has_state", (p.name, before), cause), *extra),
        (Eff("set_state", (p.name, word)),)
        + ((Eff("apply_appliance", (p.name,)),) if word == "on" else ()),
        doc,
        virtualhome=virtualhome,
    )


def _switches(reach: Reach) -> tuple[ActionSchema, ...]:
    return (
        toggle(
            "open",
            "Open a closed container (fridge, cabinet, drawer).",
            reach,
            virtualhome=("OPEN",),
        ),
        toggle("close", "Close an open container.", reach, virtualhome=("CLOSE",)),
        toggle(
            "turn_on",
            "Switch a device on; an appliance acts on what is on or in it.",
            reach,
            Pre("closed_if_container", ("x",), Cause.MUST_CLOSE_FIRST),
            virtualhome=("SWITCHON",),
        ),
        toggle("turn_off", "Switch a device off.", reach, virtualhome=("SWITCHOFF",)),
    )


def _postures(reach: Reach) -> tuple[ActionSchema, ...]:
    """Sitting and lying down on what affords it, and standing up (VirtualHome's SIT, LIE,
    STANDUP): the agent's posture, state words `sitting` / `lying` of the agent node."""

    def rest(name: str, posture: str, doc: str, verb: str) -> ActionSchema:
        """Taking `posture` on a thing x that affords `name`, from standing (VirtualHome's
        `verb`)."""
        return ActionSchema(
            name,
            (Param("x", THINGS, name),),
            (reach("x"), STANDING),
            (Eff("set_posture", (posture,)),),
            doc,
            virtualhome=(verb,),
        )

    return (
        rest("sit", "sitting", "Sit down on a chair, sofa or bed.", "SIT"),
        rest("lie", "lying", "Lie down on a bed or sofa.", "LIE"),
        ActionSchema(
            "stand_up",
            (),
            (Pre("agent_resting", (), Cause.ALREADY_STANDING),),
            (Eff("set_posture", ("standing",)),),
            "Stand up after sitting or lying down (needed before moving).",
            only_with=("sit", "lie"),
            virtualhome=("STANDUP",),
        ),
    )


def _care(reach: Reach) -> tuple[ActionSchema, ...]:
    """Plugging (VirtualHome's plug_in / plug_out), cleaning (wipe, rinse) and folding
    cloth (BEHAVIOR-1K's folded / unfolded: towels, shirts, sheets)."""
    return (
        toggle("plug_in", "Plug a device's cord into the socket.", reach, virtualhome=("PLUGIN",)),
        toggle("plug_out", "Unplug a device.", reach, virtualhome=("PLUGOUT",)),
        toggle("wipe", "Wipe a dirty surface or object clean.", reach, virtualhome=("WIPE",)),
        toggle("fold", "Fold an unfolded cloth (a towel, a shirt, a sheet).", reach),
        toggle("unfold", "Unfold a folded cloth, spreading it out.", reach),
        ActionSchema(
            "rinse",
            (Param("o", OBJECTS), Param("s", THINGS, "rinse")),
            (holding("o"), reach("s"), Pre("has_state", ("s", "on"), Cause.IS_OFF)),
            (Eff("set_state", ("o", "clean")),),
            "Rinse the held object clean under a running tap (a sink or faucet that is on).",
            virtualhome=("WASH", "RINSE", "SCRUB"),
        ),
    )


# Attaching (BEHAVIOR-1K's `attached`): the held object goes onto a thing that affords
# `attach` (and `release`), and rests there as on top of it; `world.predicates.Attached`
# reads it as attached. Picking it up takes it off.
ATTACH_DOC = (
    "Hang or fasten the held object on a thing made for it (a picture on a nail, a hanger "
    "on a wardrobe rail, a lid on a jar, a bulb in a lamp)."
)


def _substances(reach: Reach) -> tuple[ActionSchema, ...]:
    """Substances (BEHAVIOR-1K's filled / contains / covered / saturated / insource, see
    `world.substances`): fill a held container from a source, pour or sprinkle what a held
    thing holds, soak a cloth, wipe a covered thing with a tool. Affordances: `fill`
    (a container for substances), `pour` (an object that pours or sprinkles), `source`
    (gives a substance), `soak` (a cloth), `wiper` (a cleaning tool), `coat` (a surface
    substances cover)."""

    def onto(x: str) -> tuple[Pre, ...]:
        """The held o can act on x: x is in reach, not held, and in no closed container
        (no sprinkling onto food in a shut fridge)."""
        return (holding("o"), not_carried(x), reach(x), accessible(x))

    def supplies(x: str) -> tuple[Pre, ...]:  # on (or switchless), holding or giving some
        return (running(x), Pre("has_substance", (x,), Cause.NO_SUBSTANCE))

    return (
        ActionSchema(
            "fill",
            (Param("o", OBJECTS, "fill"), Param("s", THINGS, "source")),
            (holding("o"), reach("s"), running("s")),
            (Eff("fill_from", ("o", "s")),),
            "Fill the held container from a source that gives a substance (water from a "
            "sink that is on).",
        ),
        ActionSchema(
            "pour",
            (Param("o", OBJECTS, "pour"), Param("c", THINGS, "fill")),
            (*onto("c"), opening_clear("c"), *supplies("o")),
            (Eff("pour_into", ("o", "c")),),
            "Pour what the held thing holds or gives into a container (it empties).",
        ),
        ActionSchema(
            "sprinkle",
            (Param("o", OBJECTS, "pour"), Param("x", THINGS, "coat")),
            (*onto("x"), *supplies("o")),
            (Eff("sprinkle_on", ("o", "x")),),
            "Sprinkle or spray what the held thing holds or gives over a thing, covering it.",
        ),
        ActionSchema(
            "soak",
            (Param("o", OBJECTS, "soak"), Param("x", THINGS, "fill")),
            (*onto("x"), *supplies("x")),
            (Eff("soak_in", ("o", "x")),),
            "Soak the held cloth in what a container holds or gives (a bucket of water, a "
            "running sink).",
        ),
        ActionSchema(
            "wipe_with",
            (Param("o", OBJECTS, "wiper"), Param("x", THINGS, "coat")),
            (*onto("x"), Pre("removable", ("x", "o"), Cause.NOTHING_TO_REMOVE)),
            (Eff("remove_cover", ("x", "o")),),
            "Wipe what covers a thing off it with the held tool (a rag, a brush); mud, "
            "stains and oils need the tool soaked first.",
        ),
    )


def _common(reach: Reach) -> tuple[ActionSchema, ...]:
    """The actions SayPlan's and LookPlanGraph's vocabularies share, over their reach."""
    return (*_switches(reach), *_care(reach), *_postures(reach), *_substances(reach))


DONE = ActionSchema("done", (), (), (Eff("finish"),), "Call when the task is complete.")

SAYPLAN_ACTIONS: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "goto",
            (Param("x", PLACES),),
            (Pre("adjacent", ("x",), Cause.NOT_ADJACENT), STANDING),
            (Eff("move_agent", ("x",)),),
            "Move to a room or pose node linked to the current one.",
        ),
        ActionSchema(
            "access",
            (Param("a", ASSETS),),
            (in_room("a"),),
            (Eff("set_accessed", ("a",)),),
            "Reach an asset in the current room, and the objects on or in it.",
        ),
        ActionSchema(
            "pickup",
            (Param("o", OBJECTS, "pickup"),),
            (HAND_FREE, Pre("asset_accessed", ("o",), Cause.NOT_ACCESSED), accessible("o")),
            (Eff("grab", ("o",)),),
            "Pick up an accessible object from the accessed asset (one at a time).",
        ),
        ActionSchema(
            "release",
            (Param("o", OBJECTS),),
            (
                holding("o"),
                Pre("something_accessed", ("o",), Cause.NOTHING_ACCESSED),
                Pre("accessed_affords_release", (), Cause.NO_AFFORDANCE),
            ),
            (Eff("place_at_accessed", ("o",)),),
            "Put the held object in the accessed asset if it is an open container, "
            "otherwise on top of it.",
        ),
        *_puts(
            on_accessed,
            (Param("o", OBJECTS),),
            (holding("o"),),
            "r",
            (
                (
                    "release_in",
                    OBJECTS,
                    "release",
                    "inside_of",
                    "Put the held object inside an object on the accessed asset (a bowl, a "
                    "sack, an open box).",
                    (),
                ),
                (
                    "release_on",
                    THINGS,
                    "release",
                    "ontop_of",
                    "Put the held object on top of the accessed asset (even one that holds "
                    "things inside, a shelf) or of an object on it (a plate, a tray).",
                    (),
                ),
                ("attach", THINGS, "attach", "ontop_of", ATTACH_DOC, ()),
            ),
        ),
        *_common(on_accessed),
        DONE,
    )
}

# LookPlanGraph's put actions act on the one held object, which stays unnamed.
_HOLDING_ANY = Pre("holding_any", (), Cause.NOT_HOLDING)

LOOKPLANGRAPH_ACTIONS: dict[str, ActionSchema] = {
    s.name: s
    for s in (
        ActionSchema(
            "go_to",
            (Param("r", ROOMS),),
            (STANDING,),
            (Eff("move_agent", ("r",)),),
            "Move to a room node (navigation is handled for you).",
            virtualhome=("WALK", "RUN"),
        ),
        ActionSchema(
            "pick_up",
            (Param("o", OBJECTS, "pickup"),),
            (HAND_FREE, in_room("o"), accessible("o")),
            (Eff("grab", ("o",)),),
            "Pick up an accessible object in the current room (one at a time).",
            virtualhome=("GRAB",),
        ),
        *_puts(
            in_room,
            (),
            (_HOLDING_ANY, not_carried("a")),
            "a",
            (
                (
                    "put_on",
                    THINGS,
                    "release",
                    "ontop_of",
                    "Put the held object on top of an asset, or of an object that takes "
                    "things (a plate, a tray).",
                    ("PUTBACK",),
                ),
                (
                    "put_inside",
                    THINGS,
                    "release",
                    "inside_of",
                    "Put the held object inside an open container or a receptacle (a bowl, "
                    "a sack).",
                    ("PUTIN",),
                ),
                ("attach", THINGS, "attach", "ontop_of", ATTACH_DOC, ()),
            ),
        ),
        *_common(in_room),
        ActionSchema(
            "look_on",
            (Param("a", ASSETS),),
            (in_room("a"),),
            (Eff("observe", ("a", "ontop_of")),),
            "Look on top of an asset; what is found is added to the graph.",
        ),
        ActionSchema(
            "look_inside",
            (Param("a", ASSETS),),
            (in_room("a"), *open_container("a")),
            (Eff("observe", ("a", "inside_of")),),
            "Look inside an open container; what is found is added to the graph.",
        ),
        DONE,
    )
}


# The two-handed form of LookPlanGraph's actions in its own words (`two_handed`): picking
# up takes up to two objects, and each put names the held object it puts down.
LOOKPLANGRAPH_TWO_HANDS_WORDING = {
    "pick_up": "Pick up an accessible object in the current room (two hands: up to two objects).",
    "put_on": "Put a held object <o> on top of an asset, or of an object that takes things (a "
    "plate, a tray).",
    "put_inside": "Put a held object <o> inside an open container or a receptacle (a bowl, a "
    "sack).",
    "attach": ATTACH_DOC,
}


def two_handed(
    schemas: dict[str, ActionSchema], wording: dict[str, str]
) -> dict[str, ActionSchema]:
    """Actions for an agent with two hands, each changed one with its `wording` (its doc).

    An action that acts on "the held object" without naming it (LookPlanGraph's
    put_on(a), `holding_any`) takes the object as its first argument instead
    (`put_on(o, a)`, as VirtualHome's PUTBACK <object> <target>), since with two
    objects held "the held object" is not one; one that needs a hand free may not
    take what is held, or on or in it. The rest is unchanged. An UnsupportedError
    names a changed action without wording, or wording for an unchanged one.
    """
    out = {}
    for name, schema in schemas.items():
        tests = [p.test for p in schema.pre]
        if "hand_free" in tests:
            taken = schema.params[0].name
            out[name] = replace(schema, pre=(schema.pre[0], not_carried(taken), *schema.pre[1:]))
        elif "holding_any" in tests:
            pre = tuple(
                Pre("holding", ("o",), p.cause) if p.test == "holding_any" else p
                for p in schema.pre
            )
            out[name] = replace(schema, params=(Param("o", OBJECTS), *schema.params), pre=pre)
        else:
            out[name] = schema
            continue
        if name not in wording:
            raise UnsupportedError(
                f"the two-handed {out[name].signature} has no wording of its own"
            )
        out[name] = replace(out[name], doc=wording[name])
    if extra := set(wording) - {n for n in out if out[n] is not schemas[n]}:
        raise UnsupportedError(f"two-handed wording for unchanged actions: {sorted(extra)}")
    return out
