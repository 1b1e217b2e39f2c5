"""ALFWorld's action set: a third vocabulary over the one domain (docs/alfworld.md).

ALFWorld (Shridhar et al., ICLR 2021) plays ALFRED's household tasks as text:
the agent goes to a receptacle (`go to cabinet 1`), opens it, takes an object
from it, puts it in or on another, and heats, cools or cleans what it holds
with a microwave, a fridge or a sink basin. Here the room is one room node,
the receptacles are assets, and where the agent stands is the asset it has
accessed (SayPlan's `access`): `go_to(cabinet_1)` accesses the cabinet. So
the actions below are schemas over the existing fluents, plus a few
primitives of their own (prefixed `alfworld_`), each with every face.

- `go_to(r)`, `open(r)`, `close(r)`: a receptacle; the agent must be at it to
  open or close it.
- `take(o, r)`: o is in or on r, where the agent is; r is open if it opens.
- `put(o, r)`: the held o goes in r (an open container) or on it, if r's type
  can hold o's type (ALFRED's `canContain` table: each receptacle carries
  `holds_CATEGORY` attributes for the object categories it takes).
- `heat(o, r)`, `cool(o, r)`, `clean(o, r)`: the held o becomes hot, cold or
  clean, with the agent at a receptacle that can (affordances `heat`, `cool`,
  `clean`: microwaves, fridges, sink basins).
- `slice(o, k)`: with a knife in hand (affordance `cut`), o at the agent's
  receptacle becomes sliced.
- `toggle(x)` and its ALFWorld name `use(x)`: switch a lamp on or off where it is.
- `examine(x)`: look at a held object or at something where the agent is
  (nothing changes; planners never need it).

The goal predicate `agent_near(x)` (`world.predicates`: the agent is at x, or
at the receptacle where x is, or holds x) states "examine in light". A graph
marks itself as an ALFWorld room with the attribute `alfworld` on the agent's
room; planners that can use any vocabulary (react, react_pv, sclplan, oracle)
then use this one (`ALFWORLD.native_to`). An ALFWorld episode ends the moment
its goal holds, within SCLPlan's 25 steps, and the environment answers in
ALFWorld's words (`world.alfworld_text.AlfworldVoice`).
"""

from __future__ import annotations

from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.alfworld_text import AlfworldVoice
from sceneplan.world.domain import (
    ASSETS,
    DONE,
    HAND_FREE,
    OBJECTS,
    THINGS,
    ActionSchema,
    Eff,
    Param,
    Pre,
    accessible,
    holding,
    toggle,
)
from sceneplan.world.pddl_expr import (
    TRUE,
    And,
    Atom,
    Exists,
    Expr,
    Not,
    Or,
    Predicate,
    When,
    atom,
)
from sceneplan.world.primitives import (
    Alternative,
    Binding,
    Cause,
    CauseRow,
    Effect,
    Grounding,
    Test,
    define_causes,
    primitive,
)
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import Vocabulary

K = NodeKind
VOCABULARY = "alfworld"
MARK = "alfworld"  # attribute of the agent's room in an ALFWorld graph
HOLDS = "holds_"  # receptacle attribute prefix: an object category it can hold


# ALFWorld's causes, a table for `define_causes` (as `Cause.ALFWORLD_NOT_AT`, ...).
CAUSES: tuple[CauseRow, ...] = (
    (
        "alfworld_not_at",
        "the agent is at {accessed}, not at {asset}; go_to({asset}) first",
        "missing_action",
        True,
    ),
    (
        "alfworld_not_in",
        "{node} is not in or on {receptacle} (it is at {where})",
        "wrong_action",
        True,
    ),
    (
        "alfworld_no_fit",
        "a {category} cannot hold {node} (it holds: {holds})",
        "wrong_action",
        False,
    ),
    (
        "alfworld_receptacle_closed",
        "{receptacle} is closed; open it first",
        "missing_action",
        True,
    ),
)


define_causes(CAUSES)


def is_alfworld(graph: SceneGraph) -> bool:
    """Whether the graph is an ALFWorld room (its agent's room carries the mark)."""
    if not graph.has_agent:
        return False
    room = graph.agent.parent
    return room is not None and MARK in graph.nodes[room].attributes


def fits(graph: SceneGraph, o: str, r: str) -> bool:
    """Whether receptacle r's category can hold object o (ALFRED's `canContain`)."""
    return HOLDS + graph.nodes[o].category in graph.nodes[r].attributes


# -- primitives ---------------------------------------------------------------------------


def _accessed(state: WorldState) -> str:
    return state.accessed or "no receptacle"


@primitive
class AlfworldAt(Test):
    """The agent stands at x (an asset), or at the asset x rests on (an object)."""

    name, params = "alfworld_at", ("x",)
    text = "the agent is at {x}, or at the receptacle where {x} is"

    def check(self, state, x):
        return _at_check(state, x)

    def pddl(self, x):
        return _at_pddl(x)

    def ground(self, g, b, x):
        return _at_ground(g, b, x)


def _at_check(state: WorldState, x: str) -> dict[str, str] | None:
    accessed = state.accessed
    asset = x if state.node(x).kind is K.ASSET else state.support_asset(x)
    if accessed is not None and asset == accessed:
        return None
    return {"asset": asset or "the agent's hand", "accessed": _accessed(state)}


def _at_pddl(x: str) -> Expr:
    at = Or(atom("=", x, "?acc"), atom("below", x, "?acc"))
    return Exists({"?acc": "asset"}, And(atom("accessed", "?acc"), at))


def _at_ground(g: Grounding, b: Binding, x: str) -> list[Alternative]:
    if g.graph.nodes[x].kind is K.ASSET:
        return _bind_accessed(b, x)
    out: list[Alternative] = []
    for chain in g.chains_for(b, x):
        if chain.asset is None:
            continue
        for nb, pos, _ in _bind_accessed(b, chain.asset):
            out.append(({**nb, ("chain", x): chain}, chain.links + pos, ()))
    return out


def _bind_accessed(b: Binding, a: str) -> list[Alternative]:
    if "accessed" in b:
        return [({}, (), ())] if b["accessed"] == a else []
    return [({"accessed": a}, (("accessed", a),), ())]


@primitive
class AlfworldIn(Test):
    """o rests directly in or on receptacle r (ALFWorld's `inReceptacle`)."""

    name, params, text = "alfworld_in", ("o", "r"), "{o} is in or on {r}"

    def check(self, state, o, r):
        if state.parent(o) == r:
            return None
        where = state.parent(o) if not state.holds(o) else "the agent's hand"
        return {"receptacle": r, "where": where or "nowhere"}

    def pddl(self, o, r):
        return Or(atom("ontop_of", o, r), atom("inside_of", o, r))

    def ground(self, g, b, o, r):
        return [
            ({("chain", o): c}, c.links[:1], ())
            for c in g.chains_for(b, o)
            if c.parents[:1] == (r,)
        ]


@primitive
class AlfworldFits(Test):
    """ALFRED's `canContain`: static, from the receptacle's `holds_CATEGORY` attributes."""

    name, params, text = "alfworld_fits", ("o", "r"), "{r} is of a kind that can hold {o}"
    pddl_predicates = (Predicate("alfworld_fits", {"?o": "object", "?r": "object"}),)

    def check(self, state, o, r):
        if fits(state.graph, o, r):
            return None
        kinds = sorted(a[len(HOLDS) :] for a in state.node(r).attributes if a.startswith(HOLDS))
        return {"category": state.node(r).category, "holds": ", ".join(kinds) or "nothing"}

    def pddl(self, o, r):
        return atom("alfworld_fits", o, r)

    def ground(self, g, b, o, r):
        return [({}, (), ())] if fits(g.graph, o, r) else []

    def pddl_static(self, graph: SceneGraph, nodes: list[str]) -> list[Atom]:
        """The `alfworld_fits` facts among `nodes`: each object with each receptacle whose
        `holds_CATEGORY` attributes take its category."""
        kinds = {n: graph.nodes[n].kind for n in nodes}
        receptacles = [n for n in nodes if kinds[n] is K.ASSET]
        return [
            atom("alfworld_fits", o, r)
            for o in nodes
            if kinds[o] is K.OBJECT
            for r in receptacles
            if fits(graph, o, r)
        ]


@primitive
class AlfworldOpenIfContainer(Test):
    name, params, text = "alfworld_open_if_container", ("x",), "{x} is open if it opens"
    state_words = frozenset({"open"})

    def check(self, state, x):
        if not state.is_container(x) or "open" in state.states(x):
            return None
        return {"receptacle": x}

    def pddl(self, x):
        return Or(Not(atom("container", x)), atom("is_open", x))

    def ground(self, g, b, x):
        return [({}, (("state", "open", x),) if g.is_container(x) else (), ())]


@primitive
class AlfworldInView(Test):
    """Something the agent can examine: held, or at the receptacle where it stands."""

    name, params, text = "alfworld_in_view", ("x",), "the agent holds {x} or is where {x} is"

    def check(self, state, x):
        if state.holds(x):
            return None
        return _at_check(state, x)

    def pddl(self, x):
        return Or(atom("holding", x), _at_pddl(x))

    def ground(self, g, b, x):
        return [({}, (("holding", x),), ()), *_at_ground(g, b, x)]


@primitive
class AlfworldSwitch(Effect):
    """ALFWorld's toggle: a lamp that is on goes off, one that is off goes on."""

    name, params, text = "alfworld_switch", ("x",), "{x} is switched on if it was off, else off"
    state_words = frozenset({"on", "off"})

    def apply(self, state, x):
        state.set_state(x, "off" if "on" in state.states(x) else "on")

    def pddl(self, x):
        on, off = atom("is_on", x), atom("is_off", x)
        return And(When(on, And(Not(on), off)), When(Not(on), And(on, Not(off))))

    def ground(self, g, b, x):
        on, off = ("state", "on", x), ("state", "off", x)
        return [], [], [((on,), (), [off], [on]), ((), (on,), [on], [off])]


@primitive
class AlfworldExamine(Effect):
    """Examining changes nothing (ALFWorld prints what is seen); planners never need it."""

    name, params, text = "alfworld_examine", ("x",), "what {x} is like is seen"

    def apply(self, state, x):
        """Nothing changes: the observation text says what is seen."""

    def pddl(self, x):
        return TRUE  # no effect

    def ground(self, g, b, x):
        return None


# -- the vocabulary -----------------------------------------------------------------------


def _at(p: str) -> Pre:
    """ALFWorld's reach: the agent is at p (a receptacle) or at the receptacle p rests on."""
    return Pre("alfworld_at", (p,), Cause.ALFWORLD_NOT_AT)


def _with(verb: str, word: str, doc: str) -> ActionSchema:
    """heat/cool/clean: the held object gets `word` at a receptacle that can give it."""
    return ActionSchema(
        verb,
        (Param("o", OBJECTS, verb), Param("r", ASSETS, verb)),
        (holding("o"), _at("r")),
        (Eff("set_state", ("o", word)),),
        doc,
    )


def _switch(name: str, doc: str) -> ActionSchema:
    return ActionSchema(
        name, (Param("x", OBJECTS, "toggle"),), (_at("x"),), (Eff("alfworld_switch", ("x",)),), doc
    )


SCHEMAS = (
    ActionSchema(
        "go_to",
        (Param("r", ASSETS),),
        (),
        (Eff("set_accessed", ("r",)),),
        "Go to a receptacle (cabinet_1, countertop_2, ...); you can then use it and what is in it.",
    ),
    toggle("open", "Open the closed receptacle you are at.", _at, param=Param("r", ASSETS, "open")),
    toggle(
        "close", "Close the open receptacle you are at.", _at, param=Param("r", ASSETS, "close")
    ),
    ActionSchema(
        "take",
        (Param("o", OBJECTS, "pickup"), Param("r", ASSETS)),
        (
            HAND_FREE,
            _at("r"),
            Pre("alfworld_in", ("o", "r"), Cause.ALFWORLD_NOT_IN),
            accessible("o"),
        ),
        (Eff("grab", ("o",)),),
        "Take an object from the receptacle you are at (one object at a time).",
    ),
    ActionSchema(
        "put",
        (Param("o", OBJECTS), Param("r", ASSETS, "release")),
        (
            holding("o"),
            _at("r"),
            Pre("alfworld_fits", ("o", "r"), Cause.ALFWORLD_NO_FIT),
            Pre("alfworld_open_if_container", ("r",), Cause.ALFWORLD_RECEPTACLE_CLOSED),
        ),
        (Eff("place_at_accessed", ("o",)),),
        "Put the held object in or on the receptacle you are at (open it first if it opens).",
    ),
    _with("heat", "hot", "Heat the held object with the microwave you are at."),
    _with("cool", "cold", "Cool the held object with the fridge you are at."),
    _with("clean", "clean", "Clean the held object with the sink basin you are at."),
    ActionSchema(
        "slice",
        (Param("o", OBJECTS, "slice"), Param("k", OBJECTS, "cut")),
        (holding("k"), _at("o")),
        (Eff("set_state", ("o", "sliced")),),
        "Slice an object at the receptacle you are at with the knife you hold.",
    ),
    _switch("toggle", "Switch a lamp on or off; you must be at the receptacle it stands on."),
    _switch("use", "ALFWorld's word for toggle: switch a lamp on or off where it stands."),
    ActionSchema(
        "examine",
        (Param("x", THINGS),),
        (Pre("alfworld_in_view", ("x",), Cause.ALFWORLD_NOT_AT),),
        (Eff("alfworld_examine", ("x",)),),
        "Look at the held object, the receptacle you are at, or something in or on it.",
    ),
)

# SCLPlan's cap on ALFWorld: 25 planning iterations (one ReAct prediction each) for all
# three of its methods, as its public configuration sets it (hydra_conf/agent/alfworld_cala.yaml,
# max_planning_steps); the paper's text gives no number.
MAX_STEPS = 25

ALFWORLD = Vocabulary(
    VOCABULARY,
    {**{s.name: s for s in SCHEMAS}, DONE.name: DONE},
    reach=_at,
    ends_when_goal_holds=True,  # ALFWorld stops a game the moment it is won
    max_steps=MAX_STEPS,
    pddl_goals=True,
    voice=AlfworldVoice(),
    native_to=is_alfworld,
)
