"""The built-in primitives of the one domain: precondition tests and effects, all faces each.

Each class below is one primitive (see `world.primitives`): how the
simulator checks or applies it, its PDDL, its meaning in the grounded task,
and its prompt wording. The PDDL faces use the fluents `symbolic.pddl`
declares: `(agent_at p)`, `(linked p q)`, `(same x x)` (a place or an asset is
itself), `(accessed a)` (the agent's own node when
nothing is accessed),
`(holding o)`, `(handempty)` (nothing held), `(hand_free)` (a hand is free; kept only
for an agent with two hands, `(two_handed)`: with one hand it is `(handempty)`),
`(ontop_of o y)`, `(inside_of o y)`, `(below o y)` (at any depth), `(enclosed o c)`
(below c, entering it through `inside_of`),
`(located o r)` (resting, at any depth, on an asset of room r), `(shut o)`
(see `symbolic.pddl`), `(asset_in_room a r)`,
`(container x)`, `(can_AFFORDANCE x)`, `(is_WORD x)`, `(makes_F x)` and `(takes_F o)`
(appliance function F, see `appliance_functions`), `(finished)`.

The PDDL faces are written for grounders and validators: what the simulator's
action leaves implicit (the place the agent leaves, the room it is in, the
accessed asset) is a keyword term of the face (`here`, `room`, `acc`), which
the exported action makes a hidden parameter bound by a precondition
(`symbolic.pddl.HIDDEN`); the held object is the schema's parameter
(`Place`'s `held`). What stays quantified ranges over the narrowest PDDL type
that can hold it (assets are typed `surface`, `device` or `F_appliance`;
objects nested in or carrying objects at the start `nest`). A precondition is
never universal or negated over something hidden, which a grounder makes an
axiom (Fast Downward's lama then runs out of memory).

The grounded task's facts are `("at", p)`, `("accessed", a)`, `("holding", o)`,
`("handempty",)`, `("hand_free",)` (two hands only), `("ontop_of"|"inside_of", o, y)`
and `("state", word, x)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.pddl_expr import TRUE, And, Exists, Expr, Forall, Not, Or, When, atom
from sceneplan.world.primitives import (
    HAND_FREE,
    HANDEMPTY,
    Alternative,
    Binding,
    Effect,
    Fact,
    GroundEffects,
    Grounding,
    RobotSkill,
    Test,
    bind,
    holds_always,
    opposite_facts,
    pddl_affordance,
    pddl_word,
    primitive,
    word_or_unable,
)
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

K = NodeKind
Facts = dict[str, str] | None

# Appliances act on what is on or in them while they are on (category -> the state words
# they give: a freezer makes things cold and frozen). Heat sources thaw (`thawed` removes
# `frozen`) and heat; those hot enough to cook (BEHAVIOR-1K's ovens, stoves, grills and
# toasters, 148-1980 degrees C) also cook; a microwave or kettle only warms. BEHAVIOR's
# `electric_refrigerator` (a cold source at -18 degrees C) cools and freezes.
APPLIANCE_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "microwave": ("thawed", "hot"),
    "kettle": ("thawed", "hot"),
    "oven": ("thawed", "hot", "cooked"),
    "toaster_oven": ("thawed", "hot", "cooked"),
    "stove": ("thawed", "hot", "cooked"),
    "grill": ("thawed", "hot", "cooked"),
    "toaster": ("thawed", "hot", "cooked"),
    "fridge": ("cold",),
    "freezer": ("cold", "frozen"),
    "electric_refrigerator": ("cold", "frozen"),
    "dishwasher": ("clean",),
    "coffee_machine": ("full",),
}
# Which objects an appliance's function applies to (all objects when absent).
APPLIANCE_TARGETS: dict[str, frozenset[str]] = {
    "coffee_machine": frozenset({"mug", "cup", "coffee_mug", "coffee_cup"}),
}


@dataclass(frozen=True)
class ApplianceFunction:
    """Appliance categories that give the same state words to the same objects (PDDL face).

    In PDDL an appliance of the function is typed `{name}_appliance` (assets) and
    has the static fact `(makes_{name} x)`; when the function has target
    categories, each object it acts on has `(takes_{name} o)`.
    """

    name: str
    words: tuple[str, ...]
    categories: frozenset[str]
    targets: frozenset[str] | None

    @property
    def pddl_type(self) -> str:
        """The PDDL type of the appliances of this function."""
        return f"{self.name}_appliance"

    @property
    def makes(self) -> str:
        """The static predicate `makes_NAME`: true of the appliances of this function."""
        return f"makes_{self.name}"

    @property
    def takes(self) -> str:
        """The static predicate `takes_NAME`: true of the objects the function acts on."""
        return f"takes_{self.name}"


def appliance_functions() -> list[ApplianceFunction]:
    """The appliance categories grouped by (words, targets), named by their last word."""
    groups: dict[tuple[tuple[str, ...], frozenset[str] | None], set[str]] = {}
    for category, words in sorted(APPLIANCE_FUNCTIONS.items()):
        groups.setdefault((words, APPLIANCE_TARGETS.get(category)), set()).add(category)
    keys = sorted(groups, key=lambda k: (k[0], sorted(k[1] or ())))
    out, seen = [], dict[str, int]()
    for words, targets in keys:
        seen[words[-1]] = seen.get(words[-1], 0) + 1
        count = seen[words[-1]]
        name = words[-1] if count == 1 else f"{words[-1]}{count}"
        out.append(ApplianceFunction(name, words, frozenset(groups[words, targets]), targets))
    return out


def appliance_function(category: str) -> ApplianceFunction | None:
    """The function of an appliance category (None for anything else)."""
    return next((f for f in appliance_functions() if category in f.categories), None)


def appliance_gives(category: str, word: str, target: str) -> bool:
    """Whether an appliance of `category` gives `word` to an object of category `target`."""
    if word not in APPLIANCE_FUNCTIONS.get(category, ()):
        return False
    targets = APPLIANCE_TARGETS.get(category)
    return targets is None or target in targets


def appliance_words() -> set[str]:
    """State words appliances give, with their opposites."""
    words = {w for given in APPLIANCE_FUNCTIONS.values() for w in given}
    return words | {EXCLUSIVE_STATES[w] for w in words if w in EXCLUSIVE_STATES}


# Hands. With one hand, "a hand is free" is "the hand is empty"; with two (`(two_handed)`,
# a static fact), `(hand_free)` says that at most one object is held. A PDDL face writes
# both cases; `symbolic.pddl.SceneTypes` folds `(two_handed)` away for a problem's scene.
HAND_FREE_PDDL = Or(atom("handempty"), And(atom("two_handed"), atom("hand_free")))
# picking up with a hand already full leaves none free
GRAB_HANDS_PDDL = (
    Not(atom("handempty")),
    When(And(atom("two_handed"), Not(atom("handempty"))), Not(atom("hand_free"))),
)
# putting one down frees a hand; the hand is empty if a hand was free before (one was held)
PUT_HANDS_PDDL = (
    When(Or(Not(atom("two_handed")), atom("hand_free")), atom("handempty")),
    When(atom("two_handed"), atom("hand_free")),
)


def _grab_hands(g: Grounding) -> list:
    """What picking up does to the hands in the grounded task besides deleting
    `handempty`: with two, a hand already full leaves none free (conditional)."""
    return [] if g.state.hands == 1 else [((), (HANDEMPTY,), [], [HAND_FREE])]


def _put_hands(g: Grounding) -> tuple[list[Fact], list]:
    """What putting down does to the hands in the grounded task: add, conditional."""
    if g.state.hands == 1:
        return [HANDEMPTY], []
    return [HAND_FREE], [((HAND_FREE,), (), [HANDEMPTY], [])]


# -- precondition tests ------------------------------------------------------------------


@primitive
class Adjacent(Test):
    name, params, text = "adjacent", ("x",), "{x} is the agent's place or linked to it"

    def check(self, state, x):
        at, graph = state.agent_at, state.graph
        if x == at or graph.linked(at, x):
            return None
        neighbours = sorted(graph.neighbours(at)) if graph.is_place(at) else []
        return {"at": at, "neighbours": ", ".join(neighbours) or "none"}

    pddl_keywords = frozenset({"here"})

    def pddl(self, x, *, here):
        return Or(atom("same", here, x), atom("linked", here, x))

    def ground(self, g, b, x):
        return [alt for p in g.move_sources(x) for alt in bind(b, "at", p, (("at", p),))]


def _at_room_alternatives(g: Grounding, b: Binding, room: str | None) -> list[Alternative]:
    return bind(b, "at", room, (("at", room),)) if room in g.place_set else []


@primitive
class InRoomOf(Test):
    name, params, text = "in_room_of", ("x",), "the agent is in the room where {x} is"

    def check(self, state, x):
        room = state.room_of(x)
        if room is not None and state.agent_at == room:
            return None
        return {"at": state.agent_at, "room": room or "no room"}

    pddl_keywords = frozenset({"room"})

    def pddl(self, x, *, room):
        # The agent is in a room (`room`, a hidden parameter) that is x's: an asset's room,
        # or the room of the asset an object rests on (`located`); a held object, and what
        # is in it, is where the agent is.
        carried = Exists(
            {"?in_h": "nest"}, And(atom("holding", "?in_h"), atom("below", x, "?in_h"))
        )
        return Or(
            atom("asset_in_room", x, room), atom("located", x, room), atom("holding", x), carried
        )

    def ground(self, g, b, x):
        if g.graph.nodes[x].kind is not K.OBJECT:
            return _at_room_alternatives(g, b, g.graph.room_of(x))
        rooms = [p for p in g.places if g.graph.nodes[p].kind is K.ROOM]
        out = []
        for chain in g.chains_for(b, x):
            here = rooms if chain.asset is None else [g.graph.room_of(chain.asset)]
            for room in here:
                for nb, pos, _ in _at_room_alternatives(g, b, room):
                    out.append(({**nb, ("chain", x): chain}, chain.links + pos, ()))
        return out


@primitive
class HandFree(Test):
    name, params, text = "hand_free", (), "the agent has a hand free"

    def check(self, state):
        return None if state.hand_free else {"held": state.held_text()}

    def pddl(self):
        return HAND_FREE_PDDL

    def ground(self, g, b):
        return [({}, (HANDEMPTY if g.state.hands == 1 else HAND_FREE,), ())]


@primitive
class Holding(Test):
    name, params, text = "holding", ("o",), "the agent holds {o}"

    def check(self, state, o):
        return None if state.holds(o) else {"held": state.held_text()}

    def pddl(self, o):
        return atom("holding", o)

    def ground(self, g, b, o):
        # binds the held object ("held") for effects that put it somewhere (`place`)
        return bind(b, "held", o, (("holding", o),))


@primitive
class HoldingAny(Test):
    """Binds the held object ("held") for effects that act on it without naming it
    (`place` in LookPlanGraph's put_on(a)): there must be exactly one."""

    name, params, text = "holding_any", (), "the agent holds one object"

    def check(self, state):
        if len(state.held) == 1:
            return None
        return {"held": state.held_text(), "node": "one object" if state.held else "anything"}

    def pddl(self):
        return And(Not(atom("handempty")), Or(Not(atom("two_handed")), atom("hand_free")))

    def ground(self, g, b):
        holdable = [o for o in sorted(g.objects) if g.affords(o, "pickup") or g.state.holds(o)]
        one = () if g.state.hands == 1 else (HAND_FREE,)
        return [alt for o in holdable for alt in bind(b, "held", o, (("holding", o), *one))]


def _chain_accessed(g: Grounding, b: Binding, o: str) -> list[Alternative]:
    out: list[Alternative] = []
    for chain in g.chains_for(b, o):
        if chain.asset is None:
            continue
        for nb, pos, _ in bind(b, "accessed", chain.asset, (("accessed", chain.asset),)):
            out.append(({**nb, ("chain", o): chain}, chain.links + pos, ()))
    return out


@primitive
class AssetAccessed(Test):
    name, params, text = "asset_accessed", ("o",), "the asset {o} rests on is accessed"

    def check(self, state, o):
        asset = state.support_asset(o)
        if asset is not None and asset == state.accessed:
            return None
        return {"asset": asset or "the agent's hand", "accessed": state.accessed or "nothing"}

    pddl_keywords = frozenset({"base"})

    def pddl(self, o, *, base):
        # the asset o rests on, at any depth (`base`, a hidden parameter), is accessed
        return atom("accessed", base)

    def ground(self, g, b, o):
        return _chain_accessed(g, b, o)


@primitive
class SomethingAccessed(Test):
    name, params, text = "something_accessed", ("o",), "an asset is accessed to put {o} on"

    def check(self, state, o):
        return None if state.accessed is not None else {}

    pddl_keywords = frozenset({"acc"})

    def pddl(self, o, *, acc):
        return atom("accessed", acc)

    def ground(self, g, b, o):
        if "accessed" in b:
            return holds_always() if b["accessed"] is not None else []
        return [({"accessed": a}, (("accessed", a),), ()) for a in g.assets]


@primitive
class AccessedAffordsRelease(Test):
    name, params, text = (
        "accessed_affords_release",
        (),
        "things can be put on or in the accessed asset",
    )

    def check(self, state):
        asset = state.accessed
        if asset is None or "release" in state.node(asset).affordances:
            return None
        return {
            "node": asset,
            "action": "release",
            "affordances": ", ".join(state.node(asset).affordances) or "none",
        }

    pddl_keywords = frozenset({"acc"})

    def pddl(self, *, acc):
        # the accessed asset (`acc`, a hidden parameter: an action with this test needs
        # something accessed, as SayPlan's release does) affords release
        return atom(pddl_affordance("release"), acc)

    def ground(self, g, b):
        if "accessed" in b:
            a = b["accessed"]
            return holds_always() if a is None or g.affords(a, "release") else []
        nothing = ({"accessed": None}, (), tuple(("accessed", a) for a in g.assets))
        return [nothing] + [
            ({"accessed": a}, (("accessed", a),), ()) for a in g.assets if g.affords(a, "release")
        ]


@primitive
class ReachableAccessed(Test):
    name, params, text = (
        "reachable_accessed",
        ("x",),
        "{x} is the accessed asset or rests on it",
    )

    def check(self, state, x):
        accessed = state.accessed
        if accessed is not None and (x == accessed or state.support_asset(x) == accessed):
            return None
        asset = x if state.node(x).kind is K.ASSET else state.support_asset(x)
        return {"node": x, "asset": asset or "the agent's hand", "accessed": accessed or "nothing"}

    pddl_keywords = frozenset({"acc"})

    def pddl(self, x, *, acc):
        return Or(atom("same", x, acc), atom("below", x, acc))

    def ground(self, g, b, x):
        if g.graph.nodes[x].kind is K.ASSET:
            return bind(b, "accessed", x, (("accessed", x),))
        return _chain_accessed(g, b, x)


@primitive
class Accessible(Test):
    name, params, text = "accessible", ("o",), "no closed container encloses {o}"

    def check(self, state, o):
        blocker = state.closed_container_above(o)
        return None if blocker is None else {"node": o, "container": blocker}

    def pddl(self, o):
        # the fluent opening and closing maintain: a closed container encloses o
        return Not(atom("shut", o))

    def ground(self, g, b, o):
        if g.graph.nodes[o].kind is not K.OBJECT:
            return holds_always()  # an asset stands in its room, enclosed by nothing
        return [
            ({("chain", o): c}, c.links, tuple(("state", "closed", p) for p in c.entered))
            for c in g.chains_for(b, o)
        ]


@primitive
class HasState(Test):
    name, params, text = "has_state", ("x", "word"), "{x} is {word}"

    def check(self, state, x, word):
        return None if word in state.states(x) else {"node": x}

    def pddl(self, x, word):
        return atom(pddl_word(word), x)

    def ground(self, g, b, x, word):
        return [({}, (("state", word, x),), ())]


@primitive
class IsContainer(Test):
    name, params, text = "is_container", ("x",), "{x} can hold things inside it"

    def check(self, state, x):
        return None if state.is_container(x) else {"node": x}

    def pddl(self, x):
        return atom("container", x)

    def ground(self, g, b, x):
        return holds_always() if g.is_container(x) else []


OpeningClear = word_or_unable("opening_clear", "{x} is open or has no lid", "open", "open")


@primitive
class NotCarried(Test):
    name, params, text = (
        "not_carried",
        ("x",),
        "{x} is not the held object, nor on or in it",
    )

    def check(self, state, x):
        return {"node": x, "held": state.held_text()} if state.carried(x) else None

    def pddl(self, x):
        carried = Exists({"?h": "nest"}, And(atom("holding", "?h"), atom("below", x, "?h")))
        return And(Not(atom("holding", x)), Not(carried))

    def ground(self, g, b, x):
        if g.graph.nodes[x].kind is not K.OBJECT:
            return holds_always()
        return [({("chain", x): c}, c.links, ()) for c in g.chains_for(b, x) if c.asset is not None]


@primitive
class ClosedIfContainer(Test):
    name, params, text = "closed_if_container", ("x",), "{x} is closed if it is a container"

    def check(self, state, x):
        return None if not state.is_container(x) or "open" not in state.states(x) else {}

    def pddl(self, x):
        return Or(Not(atom("container", x)), Not(atom("is_open", x)))

    def ground(self, g, b, x):
        return [({}, (), (("state", "open", x),) if g.is_container(x) else ())]


# The agent's postures (VirtualHome's SITTING / LYING), state words of the agent node;
# standing is having neither.
POSTURES = ("sitting", "lying")


def _posture(state: WorldState) -> str | None:
    if not state.graph.has_agent:
        return None
    words = state.states(state.agent_id)
    return next((w for w in POSTURES if w in words), None)


def _agent_postures(g: Grounding) -> tuple[Fact, ...]:
    return tuple(("state", w, g.state.agent_id) for w in POSTURES)


@primitive
class AgentStanding(Test):
    name, params, text = "agent_standing", (), "the agent is standing"
    state_words = frozenset(POSTURES)

    def check(self, state):
        posture = _posture(state)
        return None if posture is None else {"posture": posture}

    def pddl(self):
        # existential (the one robot), so that a grounder needs no axiom
        standing = And(Not(atom("is_sitting", "?g")), Not(atom("is_lying", "?g")))
        return Exists({"?g": "robot"}, standing)

    def ground(self, g, b):
        return [({}, (), _agent_postures(g))]


@primitive
class AgentResting(Test):
    name, params, text = "agent_resting", (), "the agent is sitting or lying"
    state_words = frozenset(POSTURES)

    def check(self, state):
        return None if _posture(state) is not None else {}

    def pddl(self):
        return Exists({"?g": "robot"}, Or(atom("is_sitting", "?g"), atom("is_lying", "?g")))

    def ground(self, g, b):
        return [({}, (fact,), ()) for fact in _agent_postures(g)]


# -- effects -----------------------------------------------------------------------------


def _set_word_pddl(x: str, word: str) -> list[Expr]:
    opposite = EXCLUSIVE_STATES.get(word)
    added = atom(pddl_word(word), x)
    return [added, Not(atom(pddl_word(opposite), x))] if opposite else [added]


def _shut_pddl(x: str, word: str) -> list[Expr]:
    """Keep `(shut d)` (a closed container encloses d) as x closes or opens: what x encloses
    is shut when it closes; when it opens, unless another closed container encloses it:
    one that encloses x, or a `nest` between d and x (the re-add wins over the delete).
    Each re-add names its own container (a grounder negates the re-adds' conditions for
    the delete: a condition over every container would multiply out)."""
    enclosed, shut = atom("enclosed", "?d", x), atom("shut", "?d")
    if word == "closed":
        return [Forall({"?d": "item"}, When(enclosed, shut))]
    if word != "open":
        return []
    closed = atom(pddl_word("closed"), "?c")
    above = [
        Forall(
            {"?d": "item", "?c": t}, When(And(enclosed, atom("enclosed", x, "?c"), closed), shut)
        )
        for t in ("device", "nest")
    ]
    between = When(
        And(enclosed, atom("enclosed", "?d", "?c"), atom("below", "?c", x), closed), shut
    )
    return [
        Forall({"?d": "item"}, When(enclosed, Not(shut))),
        *above,
        Forall({"?d": "item", "?c": "nest"}, between),
    ]


def function_pddl(function: ApplianceFunction, receiver: str, condition: list[Expr]) -> Expr:
    """What an appliance of `function` does to `receiver` when all of `condition` hold."""
    takes = [atom(function.takes, receiver)] if function.targets is not None else []
    given = [e for w in function.words for e in _set_word_pddl(receiver, w)]
    return When(And(*condition, *takes), And(*given))


def appliance_pddl(appliance: str, receiver: str, condition: list[Expr]) -> list[Expr]:
    """What a running appliance does to `receiver` when all of `condition` hold (one `when`
    per function; with `appliance` an action parameter, a validator keeps only its own)."""
    return [
        function_pddl(f, receiver, [*condition, atom(f.makes, appliance)])
        for f in appliance_functions()
    ]


@primitive
class MoveAgent(Effect):
    name, params, text = "move_agent", ("x",), "the agent is at {x} and has nothing accessed"

    def apply(self, state, x):
        state.move(state.agent_id, x, None)
        state.accessed = None

    def skill(self, state, x, *, held=None):
        return RobotSkill("navigate", (("target", x),))

    pddl_keywords = frozenset({"here", "slot", "me"})

    def pddl(self, x, *, here, slot, me):
        # deletes apply before adds, so (agent_at x) holds even when x is where the agent
        # was, and (accessed me) when nothing was accessed (`slot` is then the agent, `me`)
        return And(
            Not(atom("agent_at", here)),
            atom("agent_at", x),
            Not(atom("accessed", slot)),
            atom("accessed", me),
        )

    def ground(self, g, b, x):
        source = b.get("at")
        sources = [source] if source is not None else [p for p in g.places if p != x]
        # an accessed asset is always in the agent's room, so only those can be accessed now
        accessed = g.room_assets(g.graph.room_of(source)) if source is not None else g.assets
        return [("at", x)], [("at", p) for p in sources] + [("accessed", a) for a in accessed], []


@primitive
class SetAccessed(Effect):
    name, params, text = "set_accessed", ("a",), "{a} is the accessed asset"

    def apply(self, state, a):
        state.accessed = a

    def skill(self, state, a, *, held=None):
        return RobotSkill("access", (("asset", a),))

    pddl_keywords = frozenset({"slot"})

    def pddl(self, a, *, slot):
        # what was accessed (an asset, or the agent's node when nothing was) no longer is
        return And(Not(atom("accessed", slot)), atom("accessed", a))

    def ground(self, g, b, a):
        others = [o for o in g.room_assets(g.graph.room_of(a)) if o != a]
        return [("accessed", a)], [("accessed", o) for o in others], []


@primitive
class Grab(Effect):
    name, params, text = "grab", ("o",), "the agent holds {o}, with whatever is on or in it"

    def apply(self, state, o):
        state.take(o)

    def skill(self, state, o, *, held=None):
        return RobotSkill("pick", (("object", o),))

    pddl_keywords = frozenset({"room", "base"})

    def pddl(self, o, *, room, base):
        # o rests on assets and `nest` objects only, at any depth on the asset `base`, and
        # only a `nest` carries objects along; the agent is in o's room (`room`). Both are
        # hidden parameters.
        def unlink(y: str) -> Expr:
            return And(
                *(Not(atom(f, o, y)) for f in ("ontop_of", "inside_of", "below", "enclosed"))
            )

        def carried(y: str) -> Expr:
            gone = And(Not(atom("below", "?d", y)), Not(atom("enclosed", "?d", y)))
            return When(And(atom("below", "?d", o), atom("below", o, y)), gone)

        return And(
            atom("holding", o),
            *GRAB_HANDS_PDDL,
            unlink(base),
            Forall({"?y": "nest"}, unlink("?y")),
            Not(atom("located", o, room)),
            Forall({"?d": "nest"}, carried(base)),
            Forall({"?d": "nest", "?y": "nest"}, carried("?y")),
            Forall({"?d": "nest"}, When(atom("below", "?d", o), Not(atom("located", "?d", room)))),
        )

    def ground(self, g, b, o):
        chain = b.get(("chain", o))
        if chain is not None and chain.asset is not None:
            links = [chain.links[0]]
        else:
            links = [(r.value, o, p) for p, r in g.placements(o)]
        return [("holding", o)], [HANDEMPTY, *links], _grab_hands(g)


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
    targets = APPLIANCE_TARGETS.get(category)
    if targets is None or state.node(obj).category in targets:
        for word in APPLIANCE_FUNCTIONS.get(category, ()):
            state.set_state(obj, word)


def _put(state: WorldState, held: str | None, target: str, relation: Relation) -> None:
    assert held is not None, "preconditions guarantee a held object"
    state.move(held, target, relation)
    state.let_go(held)
    _apply_if_running(state, target, held)


def _one_held(state: WorldState, held: str | None) -> str:
    """The object a put names (`held`), or else the one object the agent holds."""
    if held is not None:
        return held
    if len(state.held) == 1:
        return state.held[0]
    raise UnsupportedError(f"the robot holds {state.held_text()}, not one object")


# The state words a robot's switching skills give (set_state's robot face).
_SWITCH_SKILLS = {"open": "open", "closed": "close", "on": "switch_on", "off": "switch_off"}


@primitive
class Place(Effect):
    """Put the held object on or inside an asset or an object (LookPlanGraph's put_on /
    put_inside; SayPlan's release_on / release_in)."""

    runs_appliances = True
    name, params, text = "place", ("a", "relation"), "the held object is {relation} {a}"

    on_held = True

    def apply(self, state, a, relation, *, held):
        # `held`: the object put down, as in the PDDL face (see `Simulator`)
        _put(state, held, a, Relation(relation))

    def skill(self, state, a, relation, *, held=None):
        return RobotSkill(
            "place", (("object", _one_held(state, held)), ("asset", a), ("relation", relation))
        )

    pddl_keywords = frozenset({"room", "held"})

    def pddl(self, a, relation, *, room, held):
        # `held`: the held object, a bound term: the schema's parameter the agent holds
        # (`holding(o)` among its preconditions) or the hidden parameter `held` (see
        # `symbolic.pddl`). The agent is in a's room (`room`, a hidden parameter).
        inside = relation == Relation.INSIDE_OF.value
        h = held

        def enclosed(d: str) -> list[Expr]:
            return [atom("enclosed", d, a)] if inside else []

        running = [atom("is_on", a), *([] if inside else [Not(atom("container", a))])]

        def each(variables: dict[str, str], condition: list[Expr], effect: Expr) -> Expr:
            return Forall(variables, When(And(*condition), effect))

        # an object target passes on what is above it: what it rests on or in (assets
        # and `nest` objects), and the room; for an asset target these never hold
        above = [
            e
            for t in ("asset", "nest")
            for f in ("below", "enclosed")
            for e in (
                each({"?up": t}, [atom(f, a, "?up")], atom(f, h, "?up")),
                each(
                    {"?sub": "nest", "?up": t},
                    [atom("below", "?sub", h), atom(f, a, "?up")],
                    atom(f, "?sub", "?up"),
                ),
            )
        ]
        subs = appliance_pddl(a, "?sub", [atom("below", "?sub", h), *running])
        under = [atom("below", "?sub", h)]
        return And(
            *PUT_HANDS_PDDL,
            Not(atom("holding", h)),
            atom(relation, h, a),
            atom("below", h, a),
            *enclosed(h),
            atom("located", h, room),
            each({"?sub": "nest"}, under, And(atom("below", "?sub", a), *enclosed("?sub"))),
            each({"?sub": "nest"}, under, atom("located", "?sub", room)),
            *above,
            *appliance_pddl(a, h, running),
            Forall({"?sub": "nest"}, And(*subs)),
        )

    def ground(self, g, b, a, relation):
        held = b.get("held")
        if held is None:
            raise UnsupportedError("place needs holding or holding_any among the preconditions")
        hands, cond = _put_hands(g)
        add: list[Fact] = [*hands, (relation, held, a)]
        if relation == Relation.INSIDE_OF.value or not g.is_container(a):
            receivers = [(held, ()), *g.contents_paths(held)]
            cond += g.appliance_effects(a, receivers, ((("state", "on", a),), ()))
        return add, [("holding", held)], cond

    def check_use(self, schema, index):
        relation = schema.effects[index].args[1]
        if relation not in (Relation.ONTOP_OF.value, Relation.INSIDE_OF.value):
            raise UnsupportedError(f"action {schema.signature}: place needs ontop_of or inside_of")


@primitive
class PlaceAtAccessed(Effect):
    """SayPlan's release: into the accessed asset if it is an open container, else on top."""

    runs_appliances = True
    name, params, text = (
        "place_at_accessed",
        ("o",),
        "{o} is in the accessed asset if it is an open container, otherwise on top of it",
    )

    def apply(self, state, o):
        target = state.accessed
        assert target is not None, "preconditions guarantee an accessed asset"
        _put(state, o, target, self.relation(state, target))

    @staticmethod
    def relation(state: WorldState, target: str) -> Relation:
        """Inside an open container or one with no lid (`opening_clear`), else on top."""
        inside = state.is_container(target) and state.opening_clear(target)
        return Relation.INSIDE_OF if inside else Relation.ONTOP_OF

    def skill(self, state, o, *, held=None):
        target = state.accessed
        if target is None:
            raise UnsupportedError(f"no asset is accessed to put {o} on")
        relation = self.relation(state, target).value
        return RobotSkill("place", (("object", o), ("asset", target), ("relation", relation)))

    pddl_keywords = frozenset({"acc", "room"})

    def pddl(self, o, *, acc, room):
        # the accessed asset (`acc`) and the agent's room (`room`) are hidden parameters;
        # only a `nest` object carries others along
        clear = OpeningClear().pddl(acc)  # open, or no lid
        inside = And(atom("container", acc), clear)
        running = [atom("is_on", acc), Or(Not(atom("container", acc)), clear)]
        carried = appliance_pddl(acc, "?d", [*running, atom("below", "?d", o)])
        on_top = [atom("below", "?d", acc), atom("located", "?d", room)]
        return And(
            Not(atom("holding", o)),
            *PUT_HANDS_PDDL,
            atom("below", o, acc),
            atom("located", o, room),
            When(inside, And(atom("inside_of", o, acc), atom("enclosed", o, acc))),
            When(Not(inside), atom("ontop_of", o, acc)),
            Forall({"?d": "nest"}, When(atom("below", "?d", o), And(*on_top))),
            Forall(
                {"?d": "nest"},
                When(And(inside, atom("below", "?d", o)), atom("enclosed", "?d", acc)),
            ),
            *appliance_pddl(acc, o, running),
            Forall({"?d": "nest"}, And(*carried)),
        )

    def ground(self, g, b, o):
        a = b.get("accessed")
        if a is None:
            raise UnsupportedError(
                "place_at_accessed needs something_accessed among the preconditions"
            )
        hands, cond = _put_hands(g)
        add: list[Fact] = [*hands]
        running: tuple[tuple[Fact, ...], tuple[Fact, ...]] = ((("state", "on", a),), ())
        if g.is_container(a) and not g.affords(a, "open"):
            add.append(("inside_of", o, a))  # a receptacle: always open
        elif g.is_container(a):
            is_open = ("state", "open", a)
            cond += [
                ((is_open,), (), [("inside_of", o, a)], []),
                ((), (is_open,), [("ontop_of", o, a)], []),
            ]
            running = (running[0] + (is_open,), ())
        else:
            add.append(("ontop_of", o, a))
        receivers = [(o, ()), *g.contents_paths(o)]
        cond += g.appliance_effects(a, receivers, running)
        return add, [("holding", o)], cond


@primitive
class SetState(Effect):
    name, params, text = "set_state", ("x", "word"), "{x} is {word}"

    def apply(self, state, x, word):
        state.set_state(x, word)

    def skill(self, state, x, word, *, held=None):
        name = _SWITCH_SKILLS.get(word)
        return RobotSkill(name, (("target", x),)) if name is not None else None

    def pddl(self, x, word):
        return And(*_set_word_pddl(x, word), *_shut_pddl(x, word))

    def ground(self, g, b, x, word):
        return [("state", word, x)], opposite_facts(word, x), []


@primitive
class SetPosture(Effect):
    """The agent sits, lies down, or (`standing`) stands up: one posture at a time."""

    name, params, text = "set_posture", ("word",), "the agent is {word}"
    state_words = frozenset(POSTURES)

    def apply(self, state, word):
        agent = state.agent_id
        state.replace_states(agent, POSTURES, () if word == "standing" else (word,))

    def pddl(self, word):
        def posture(w: str) -> Expr:
            return atom(pddl_word(w), "?g") if w == word else Not(atom(pddl_word(w), "?g"))

        return Forall({"?g": "robot"}, And(*(posture(w) for w in POSTURES)))

    def ground(self, g, b, word):
        agent = g.state.agent_id
        add = [("state", word, agent)] if word in POSTURES else []
        return add, [f for f in _agent_postures(g) if f not in add], []

    def words(self, args):
        return set(self.state_words)  # the postures: its word is the one taken, or standing

    def check_use(self, schema, index):
        word = schema.effects[index].args[0]
        if word not in (*POSTURES, "standing"):
            raise UnsupportedError(
                f"action {schema.signature}: set_posture takes {', '.join(POSTURES)} or standing"
            )


@primitive
class ApplyAppliance(Effect):
    """A switched-on appliance acts on what is in it (or on it, if it is not a container)."""

    runs_appliances = True
    name, params, text = "apply_appliance", ("x",), "{x} acts on what is in or on it"

    def apply(self, state, x):
        for obj in list(state.children(x)):
            _apply_if_running(state, x, obj)

    def pddl(self, x):
        # follows set_state(x, on) in the same schema (see check_use), so x runs
        contained = Or(
            And(atom("container", x), atom("enclosed", "?d", x)),
            And(Not(atom("container", x)), atom("below", "?d", x)),
        )
        return Forall({"?d": "item"}, And(*appliance_pddl(x, "?d", [contained])))

    def ground(self, g, b, x):
        container = g.is_container(x)
        receivers: dict[tuple[str, tuple[Fact, ...]], None] = {}
        for d in sorted(g.objects):
            for chain in g.chains(d):
                if x in chain.parents and (not container or chain.enters(x)):
                    receivers[(d, chain.prefix_to(x))] = None
        return [], [], g.appliance_effects(x, list(receivers), ((), ()))

    def check_use(self, schema, index):
        before = schema.effects[index - 1] if index > 0 else None
        if (
            before is None
            or before.op != "set_state"
            or before.args
            != (
                schema.effects[index].args[0],
                "on",
            )
        ):
            raise UnsupportedError(
                f"action {schema.signature}: apply_appliance is translated only right after "
                "set_state(x, on)"
            )


@primitive
class Finish(Effect):
    name, params, text = "finish", (), "the plan has ended"

    bookkeeping = True

    def apply(self, state):
        state.done = True

    def pddl(self):
        return atom("finished")

    def ground(self, g, b, *args) -> GroundEffects | None:
        return None  # `done` ends a plan; the planner never needs it


@primitive
class Observe(Effect):
    """Looking: in a fully observable world it reveals nothing new, and planners skip it."""

    name, params, text = "observe", ("a", "relation"), "what is {relation} {a} is known"

    def skill(self, state, a, relation, *, held=None):
        return RobotSkill("look", (("asset", a), ("relation", relation)))

    def apply(self, state, a, relation):
        """Full observability: the world state already holds everything there is to see."""

    def pddl(self, a, relation):
        return TRUE  # no effect

    def ground(self, g, b, *args) -> GroundEffects | None:
        return None
