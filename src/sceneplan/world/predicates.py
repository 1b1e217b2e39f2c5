"""Goal predicates: one table, each predicate with all its faces.

A goal atom `inside_of(mug, fridge)` names a predicate. Each predicate says,
in one class body: its arguments (nodes or words), its doc line (for
docs/goals.md and prompts), how it `holds` on a world state, its PDDL goal
text over the fluents of the exported domain (`pddl`), and what it means over
the facts of a grounded task (`compile`, written against the
`world.primitives.Grounding` protocol). Flags tell goal grounding, the
symbolic planner's focus and the metrics how to treat it: `static` (decided
by the graph alone), `placement` (about where its first argument rests, so
fixed when that node never moves), `subject` (the node its literal is
about, for LookPlanGraph's metrics), `state_word` (a state word such as
`open(fridge)`, which appliances and switches change).

A name that is not registered and takes one argument is a state word.
`register_predicate` adds one; see docs/goals.md for the list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar, Protocol

from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph
from sceneplan.world.pddl_expr import FALSE, And, Exists, Expr, Or, atom
from sceneplan.world.primitives import (
    Chain,
    Grounding,
    add_once,
    check_faces,
    pddl_affordance,
    pddl_attribute,
    pddl_category,
    pddl_word,
)
from sceneplan.world.state import WorldState, holds_inside
from sceneplan.world.substances import (
    CONTAINS,
    COVERED,
    FILLED,
    INSOURCE,
    SATURATED,
    substance_word,
)
from sceneplan.world.vocabularies import setters

K = NodeKind
STATIC_KINDS = frozenset({K.BUILDING, K.FLOOR, K.ROOM, K.POSE, K.ASSET})
Term = tuple[str, NodeKind | None]  # a PDDL term and the kind of node it stands for


class GoalPDDL(Protocol):
    """What a predicate's PDDL face may ask of the goal translator."""

    def fresh(self, stem: str) -> str:
        """A new variable name `?stemN`."""

    def need_word(self, word: str) -> None:
        """Declare the state-word predicate `is_WORD`."""

    def need_attribute(self, word: str) -> None:
        """Declare the attribute predicate `attr_WORD`."""

    def need_category(self, category: str) -> None:
        """Declare the category predicate `category_C`, true of the nodes of category C."""


class GoalGrounding(Protocol):
    """What a predicate's `compile` face may use: the grounder and formula builders.

    The builders make nodes of the goal tree (`world.goals`): a task fact
    (`Prop`), a constant, and simplifying conjunction and disjunction.
    """

    @property
    def g(self) -> Grounding:
        """The grounder of the task the goal is compiled for."""

    def prop(self, fact: tuple) -> Any:
        """The goal-tree leaf for a task fact."""

    def const(self, value: bool) -> Any:
        """The goal-tree constant true or false."""

    def all_of(self, parts: Iterable[Any]) -> Any:
        """The conjunction of the parts, simplified."""

    def any_of(self, parts: Iterable[Any]) -> Any:
        """The disjunction of the parts, simplified."""


Compiled = Any  # a goal-tree formula over task facts, built through GoalGrounding


class GoalPredicate(ABC):
    """One goal predicate. Subclasses set the class attributes and implement the faces."""

    name: ClassVar[str]
    params: ClassVar[tuple[str, ...]]
    doc: ClassVar[str]
    # per argument: "node" (a node id or a bound variable), "word" (a literal word) or
    # "substance" (a word naming a substance: water, coffee)
    arg_kinds: ClassVar[tuple[str, ...] | None] = None
    static: ClassVar[bool] = False
    placement: ClassVar[bool] = False
    subject: ClassVar[int | None] = 0
    state_word: ClassVar[bool] = False

    @property
    def arity(self) -> int:
        """How many arguments the predicate takes."""
        return len(self.params)

    def node_args(self, args: tuple[str, ...]) -> tuple[str, ...]:
        """The arguments that name nodes (not words such as a category), by `arg_kinds`."""
        kinds = self.arg_kinds or ("node",) * len(args)
        return tuple(a for a, k in zip(args, kinds, strict=True) if k == "node")

    def subject_of(self, args: tuple[str, ...]) -> str | None:
        """The argument the atom is about (`subject`), or None."""
        return None if self.subject is None or not args else args[self.subject]

    @property
    def signature(self) -> str:
        """The predicate with its parameters: `name(x, y)`."""
        return f"{self.name}({', '.join(self.params)})"

    @abstractmethod
    def holds(self, state: WorldState, *args: str) -> bool:
        """Whether the atom holds in a world state."""

    @abstractmethod
    def pddl(self, t: GoalPDDL, *terms: Term) -> Expr:
        """The PDDL goal condition, a tree (`world.pddl_expr`); `terms` pair each
        argument's PDDL term with its node kind."""

    @abstractmethod
    def compile(self, c: GoalGrounding, *args: str) -> Compiled:
        """The atom as a formula over a grounded task's facts (`goals.Prop` leaves)."""

    def achievable(self, graph: SceneGraph, *args: str) -> bool:
        """False when no action can ever make the atom true (prunes hopeless literals)."""
        return True

    def word_of(self, args: tuple[str, ...]) -> tuple[str, str] | None:
        """(state word, node) when the atom says one node has a state word: `open(fridge)`,
        or `covered(table, dust)` (`covered_dust` of the table). The symbolic planner's
        focus looks for the nodes that can give or take away that word. None otherwise."""
        return None

    # Whether a task's `initial` facts may use it (world.setup): those that override
    # `establish`, which makes the atom true in a start state or says why it cannot.
    establishable: ClassVar[bool] = False

    def establish(self, state: WorldState, *args: str) -> str | None:
        """Make the atom true in `state`; an error message when it cannot be."""
        raise NotImplementedError


# Ready (loading the ALFWorld predicates on first lookup) once the built-in ones below are in.
PREDICATES: dict[str, GoalPredicate] = {}


def register_predicate(cls: type[GoalPredicate]) -> type[GoalPredicate]:
    """Class decorator: add a goal predicate (every face must be present)."""
    check_faces(cls, "goal predicate", ("name", "params", "doc"))
    return add_once(PREDICATES, cls, "goal predicate")


def forget_predicate(name: str) -> None:
    """Remove a goal predicate (for extensions defined in tests)."""
    PREDICATES.pop(name, None)


def get_predicate(name: str) -> GoalPredicate:
    """The registered predicate, or the state word `name`."""
    found = PREDICATES.get(name)
    return found if found is not None else StateWord(name)


# -- helpers over the grounded task ------------------------------------------------------


def _kind(c: GoalGrounding, node: str) -> NodeKind:
    return c.g.graph.nodes[node].kind


def _links(c: GoalGrounding, facts: Iterable[tuple]) -> Compiled:
    return c.all_of(c.prop(f) for f in facts)


def agent_at(c: GoalGrounding, place: str) -> Compiled:
    """The compiled goal that the agent is at `place` (false for a place out of scope)."""
    return c.prop(("at", place)) if place in c.g.place_set else c.const(False)


def agent_within(c: GoalGrounding, y: str) -> Compiled:
    """The compiled goal that the agent is at y or at a place inside it."""
    g = c.g
    return c.any_of(c.prop(("at", p)) for p in g.places if p == y or y in g.graph.ancestors(p))


def _held_chain(t: GoalPDDL, x: str) -> Expr:
    # only a `nest` (an object that may carry others) can have x below it
    h = t.fresh("h")
    return Or(atom("holding", x), Exists({h: "nest"}, And(atom("holding", h), atom("below", x, h))))


def _rests_within(t: GoalPDDL, x: str, y: tuple[str, NodeKind]) -> Expr:
    """x rests, at any depth, on an asset within the static node y: `located` (kept
    by the domain's effects) names the room, so no quantifier over assets is needed."""
    if y[1] is K.ROOM:
        return atom("located", x, y[0])
    r = t.fresh("r")
    return Exists({r: "room"}, And(atom("located", x, r), atom("static_within", r, y[0])))


def _agent_within_pddl(t: GoalPDDL, y: str) -> Expr:
    p = t.fresh("p")
    inside = Exists({p: "place"}, And(atom("agent_at", p), atom("static_within", p, y)))
    return Or(atom("agent_at", y), inside)


# -- the predicates ----------------------------------------------------------------------


class _Relation(GoalPredicate):
    """x rests directly on/in y."""

    params = ("x", "y")
    placement = True
    relations: ClassVar[tuple[Relation, ...]]

    def holds(self, state, x, y):
        return state.parent(x) == y and state.relation(x) in self.relations

    def pddl(self, t, x, y):
        if x[1] is not K.OBJECT or y[1] not in (K.ASSET, K.OBJECT):
            return FALSE
        parts = [atom(r.value, x[0], y[0]) for r in self.relations]
        return parts[0] if len(parts) == 1 else Or(*parts)

    def compile(self, c, x, y):
        if _kind(c, x) is not K.OBJECT:
            return c.const(False)
        placements = c.g.placements(x)
        return c.any_of(
            c.prop((r.value, x, y)) if (y, r) in placements else c.const(False)
            for r in self.relations
        )

    def establish(self, state, x, y):
        if len(self.relations) != 1:
            raise NotImplementedError
        problem = _placement_problem(state, x, y)
        if problem is not None:
            return problem
        state.let_go(x)
        state.move(x, y, self.relations[0])
        return None

    def achievable(self, graph, x, y):
        target = graph.nodes[y]
        if target.kind not in (K.ASSET, K.OBJECT) or "release" not in target.affordances:
            return False
        return Relation.ONTOP_OF in self.relations or holds_inside(target)


def _placement_problem(state, x: str, y: str) -> str | None:
    """Why a task's start or world script cannot put `x` on or in `y`, or None: a world that
    cannot be (a thing on itself, on what rests on it, a fixed thing moved, a held object
    also placed) is refused with the fact, not run."""
    if x == y:
        return f"{x} cannot rest on or in itself"
    kind = state.node(x).kind
    if kind is not K.OBJECT:
        article = "an" if kind.value[0] in "aeiou" else "a"
        return f"{x} is {article} {kind.value}, fixed in place: only objects are placed"
    if y in set(state.contents(x)):
        return f"{y} rests on or in {x}, so {x} cannot rest on or in it"
    if state.holds(x):
        return f"the robot holds {x} (an earlier fact); a held object is not also placed"
    return None


@register_predicate
class OntopOf(_Relation):
    name, doc, establishable = "ontop_of", "x rests directly on top of y", True
    relations = (Relation.ONTOP_OF,)


@register_predicate
class InsideOf(_Relation):
    name, doc, establishable = "inside_of", "x is directly inside y", True
    relations = (Relation.INSIDE_OF,)


@register_predicate
class Inside(_Relation):
    """x is inside y as a body is: directly, or resting at any depth on or in something
    that is directly inside y (a pizza on a plate in the fridge is inside the fridge).
    BEHAVIOR-1K's `inside` means this; being on top of y is not being inside it."""

    name = "inside"
    doc = "x is inside y, directly or on or in something inside it (a pizza on a plate in a fridge)"
    relations = (Relation.INSIDE_OF,)

    def holds(self, state, x, y):
        current, parent = x, state.parent(x)
        while parent is not None:
            if parent == y:
                return state.relation(current) is Relation.INSIDE_OF
            current, parent = parent, state.parent(parent)
        return False

    def pddl(self, t, x, y):
        if x[1] is not K.OBJECT or y[1] not in (K.ASSET, K.OBJECT):
            return FALSE
        z = t.fresh("z")
        nested = Exists({z: "object"}, And(atom("below", x[0], z), atom("inside_of", z, y[0])))
        return Or(atom("inside_of", x[0], y[0]), nested)

    def compile(self, c, x, y):
        if _kind(c, x) is not K.OBJECT:
            return c.const(False)
        return c.any_of(_links(c, chain.prefix_to(y)) for chain in c.g.chains(x) if chain.enters(y))


@register_predicate
class At(_Relation):
    name, doc = "at", "x rests directly on or inside y"
    relations = (Relation.ONTOP_OF, Relation.INSIDE_OF)


class SharedSupport(GoalPredicate):
    """A relation of object x to y through what x rests on, the graph having no geometry:
    x rests on a support that `rests` accepts, a support in fixed furniture y's room (y an
    asset) or one that holds object y the same way."""

    @abstractmethod
    def rests(self, relation: Relation, support: Node, y_kind: NodeKind) -> bool:
        """Whether x resting `relation` on `support` can relate it to a y of `y_kind`."""

    def holds(self, state, x, y):
        if x == y or state.node(x).kind is not K.OBJECT:
            return False
        relation, support = state.relation(x), state.parent(x)
        kind = state.node(y).kind
        if support is None or kind not in (K.ASSET, K.OBJECT):
            return False
        if not self.rests(relation, state.node(support), kind):
            return False
        if kind is K.ASSET:
            return state.graph.room_of(support) == state.graph.room_of(y)
        return support == state.parent(y) and state.relation(y) is relation

    def compile(self, c, x, y):
        if x == y or _kind(c, x) is not K.OBJECT:
            return c.const(False)
        graph, kind = c.g.graph, _kind(c, y)
        if kind not in (K.ASSET, K.OBJECT):
            return c.const(False)
        spots = [(s, r) for s, r in c.g.placements(x) if self.rests(r, graph.nodes[s], kind)]
        if kind is K.ASSET:
            room = graph.room_of(y)
            return c.any_of(c.prop((r.value, x, s)) for s, r in spots if graph.room_of(s) == room)
        return c.any_of(
            c.all_of([c.prop((r.value, x, s)), c.prop((r.value, y, s))])
            for s, r in self.together(c, x, y, spots)
        )

    def together(
        self, c: GoalGrounding, x: str, y: str, spots: list[tuple[str, Relation]]
    ) -> list[tuple[str, Relation]]:
        """The supports among x's `spots` that object y may rest on the same way, in the
        order of x's placements."""
        of_y = set(c.g.placements(y))
        return [spot for spot in spots if spot in of_y]


@register_predicate
class NextTo(SharedSupport):
    """Side by side. The graph has no geometry, so nearness is shared support: two
    objects are next to each other when they rest directly on (or in) the same thing.
    Fixed furniture stands in its room on nothing, so x is next to an asset y when it
    rests on top of an asset of y's room, y itself or the floor (firewood on the floor
    by the fireplace, money on the counter by the cash register)."""

    name, params, placement = "nextto", ("x", "y"), True
    doc = (
        "x rests side by side with y: directly on or in the same thing; for fixed "
        "furniture y, on top of an asset in y's room"
    )

    def rests(self, relation, support, y_kind):
        if y_kind is K.ASSET:
            return relation is Relation.ONTOP_OF and support.kind is K.ASSET
        return relation in (Relation.ONTOP_OF, Relation.INSIDE_OF)

    def together(self, c, x, y, spots):
        # in the order of y's placements, as nextto's compiled goals have always had it
        return [(s, r) for s, r in c.g.placements(y) if (s, r) in spots and s not in (x, y)]

    def pddl(self, t, x, y):
        if x[1] is not K.OBJECT or x[0] == y[0]:
            return FALSE
        s = t.fresh("s")
        if y[1] is K.ASSET:
            r = t.fresh("r")
            rooms = (atom("asset_in_room", s, r), atom("asset_in_room", y[0], r))
            return Exists({s: "asset", r: "room"}, And(atom("ontop_of", x[0], s), *rooms))
        if y[1] is not K.OBJECT:
            return FALSE
        together = (
            And(atom(r.value, x[0], s), atom(r.value, y[0], s))
            for r in (Relation.ONTOP_OF, Relation.INSIDE_OF)
        )
        return Exists({s: "object"}, Or(*together))

    def achievable(self, graph, x, y):
        if graph.nodes[x].kind is not K.OBJECT or x == y:
            return False
        target = graph.nodes[y]
        if target.kind is K.ASSET:
            room = graph.room_of(y)
            return room is not None and any(
                graph.nodes[c].kind is K.ASSET and "release" in graph.nodes[c].affordances
                for c in graph.children(room)
            )
        return target.kind is K.OBJECT


FLOOR = "floor"  # the category of floor nodes: what rests on one is under the room's furniture
ATTACH = "attach"  # the affordance of what things hang on or fasten to (a nail, a hook, a jar)


def _direct(c: GoalGrounding, x: str, y: str) -> Compiled:
    """x rests directly on or in y, as a formula over the grounded task."""
    if _kind(c, x) is not K.OBJECT:
        return c.const(False)
    spots = c.g.placements(x)
    return c.any_of(c.prop((r.value, x, s)) for s, r in spots if s == y)


@register_predicate
class Attached(GoalPredicate):
    """Hanging on or fastened to: a picture on a nail, a hanger on a wardrobe's rail, a lid
    on a jar, a bulb in a lamp. The graph has no fixings: x is attached to y when it rests
    directly on y and y is a thing things attach to (affordance `attach`). The `attach`
    action puts the held object there (so does putting it on top); picking it up takes it
    off. Nothing attaches to a node without `attach`."""

    name, params, placement, establishable = "attached", ("x", "y"), True, True
    doc = "x hangs on or is fastened to y (y affords attach: a nail, a hook, a rail, a jar)"

    def holds(self, state, x, y):
        return (
            state.parent(x) == y
            and state.relation(x) is Relation.ONTOP_OF
            and ATTACH in state.node(y).affordances
        )

    def establish(self, state, x, y):
        if state.node(x).kind is not K.OBJECT or ATTACH not in state.node(y).affordances:
            return f"only an object attaches, and only to a node that affords {ATTACH}"
        state.let_go(x)
        state.move(x, y, Relation.ONTOP_OF)
        return None

    def pddl(self, t, x, y):
        if x[1] is not K.OBJECT or y[1] not in (K.ASSET, K.OBJECT):
            return FALSE
        return And(atom("ontop_of", x[0], y[0]), atom(pddl_affordance(ATTACH), y[0]))

    def compile(self, c, x, y):
        if ATTACH not in c.g.graph.nodes[y].affordances or _kind(c, x) is not K.OBJECT:
            return c.const(False)
        placed = (y, Relation.ONTOP_OF) in c.g.placements(x)
        return c.prop(("ontop_of", x, y)) if placed else c.const(False)

    def achievable(self, graph, x, y):
        target = graph.nodes[y]
        return graph.nodes[x].kind is K.OBJECT and {ATTACH, "release"} <= set(target.affordances)


@register_predicate
class Touching(GoalPredicate):
    """In contact. With no geometry, two things touch when one rests directly on or in
    the other (a clove on the duck, a sandal on the shoe rack), or when two objects rest
    side by side (`nextto`: directly on or in the same thing; letters in one pile).
    Nothing touches itself, and two pieces of fixed furniture never come to touch."""

    name, params, placement = "touching", ("x", "y"), True
    doc = (
        "x and y are in contact: one rests directly on or in the other, or both objects "
        "rest side by side"
    )

    def holds(self, state, x, y):
        if x == y:
            return False
        for a, b in ((x, y), (y, x)):
            on = state.relation(a) in (Relation.ONTOP_OF, Relation.INSIDE_OF)
            if state.node(a).kind is K.OBJECT and state.parent(a) == b and on:
                return True
        both = state.node(x).kind is K.OBJECT and state.node(y).kind is K.OBJECT
        return both and NextTo().holds(state, x, y)

    def pddl(self, t, x, y):
        if x[0] == y[0]:
            return FALSE
        things = (K.ASSET, K.OBJECT)
        parts: list[Expr] = [
            atom(r.value, a[0], b[0])
            for a, b in ((x, y), (y, x))
            if a[1] is K.OBJECT and b[1] in things
            for r in (Relation.ONTOP_OF, Relation.INSIDE_OF)
        ]
        if x[1] is K.OBJECT and y[1] is K.OBJECT:
            parts.append(NextTo().pddl(t, x, y))
        if not parts:
            return FALSE
        return parts[0] if len(parts) == 1 else Or(*parts)

    def compile(self, c, x, y):
        if x == y:
            return c.const(False)
        parts = [_direct(c, x, y), _direct(c, y, x)]
        if _kind(c, x) is K.OBJECT and _kind(c, y) is K.OBJECT:
            parts.append(NextTo().compile(c, x, y))
        return c.any_of(parts)

    def achievable(self, graph, x, y):
        kinds = {graph.nodes[x].kind, graph.nodes[y].kind}
        return x != y and K.OBJECT in kinds and kinds <= {K.OBJECT, K.ASSET}


@register_predicate
class Under(SharedSupport):
    """Beneath. With no heights, what rests directly on a floor (a node of category
    `floor`) is under the furniture of the floor's room: x is under a piece of fixed
    furniture y when it rests directly on a floor in y's room (a modem under the table,
    shoes under the bed), and under an object y when both rest directly on the same floor
    (a present under the Christmas tree). A thing on a table is not under anything."""

    name, params, placement = "under", ("x", "y"), True
    doc = (
        "x is beneath y: x rests directly on a floor in fixed furniture y's room, or on "
        "the floor that object y stands on"
    )

    def rests(self, relation, support, y_kind):
        return relation is Relation.ONTOP_OF and support.category == FLOOR

    def pddl(self, t, x, y):
        if x[1] is not K.OBJECT or x[0] == y[0]:
            return FALSE
        t.need_category(FLOOR)
        s = t.fresh("s")
        floor = atom(pddl_category(FLOOR), s)
        if y[1] is K.ASSET:
            r = t.fresh("r")
            rooms = (atom("asset_in_room", s, r), atom("asset_in_room", y[0], r))
            return Exists({s: "asset", r: "room"}, And(atom("ontop_of", x[0], s), floor, *rooms))
        if y[1] is not K.OBJECT:
            return FALSE
        both = (atom("ontop_of", x[0], s), atom("ontop_of", y[0], s))
        return Exists({s: "asset"}, And(*both, floor))

    def achievable(self, graph, x, y):
        if x == y or graph.nodes[x].kind is not K.OBJECT:
            return False
        floors = [n for n in graph.nodes.values() if n.category == FLOOR]
        if graph.nodes[y].kind is K.ASSET:
            room = graph.room_of(y)
            return any(graph.room_of(f.id) == room for f in floors)
        return graph.nodes[y].kind is K.OBJECT and bool(floors)


@register_predicate
class Within(GoalPredicate):
    name, params, placement = "within", ("x", "y"), True
    doc = "y is among x's ancestors: on or in it at any depth, held by it, or in its room/floor"

    def holds(self, state, x, y):
        current = state.parent(x)
        while current is not None:
            if current == y:
                return True
            current = state.parent(current)
        return False

    def pddl(self, t, x, y):
        kind, target = x[1], y[1]
        if kind is K.OBJECT:
            if target in (K.OBJECT, K.ASSET):
                return atom("below", x[0], y[0])
            if target is K.AGENT:
                return _held_chain(t, x[0])
            if target in STATIC_KINDS:
                carried = And(_held_chain(t, x[0]), _agent_within_pddl(t, y[0]))
                return Or(_rests_within(t, x[0], y), carried)
            return FALSE
        if kind is K.AGENT:
            return _agent_within_pddl(t, y[0]) if target in STATIC_KINDS else FALSE
        if target in STATIC_KINDS and kind in STATIC_KINDS:
            return atom("static_within", x[0], y[0])
        return FALSE

    def compile(self, c, x, y):
        kind, target = _kind(c, x), _kind(c, y)
        if kind is K.AGENT:
            return agent_within(c, y) if target in STATIC_KINDS else c.const(False)
        if kind is not K.OBJECT:
            return c.const(self.holds(c.g.state, x, y))

        def through(chain: Chain) -> Compiled:
            if y in chain.parents:
                return _links(c, chain.prefix_to(y))
            if chain.asset is None:
                if target is K.AGENT:
                    return _links(c, chain.links)
                if target in STATIC_KINDS:
                    return c.all_of([_links(c, chain.links), agent_within(c, y)])
                return c.const(False)
            ancestors = c.g.graph.ancestors(chain.asset)
            return _links(c, chain.links) if y in ancestors else c.const(False)

        return c.any_of(through(chain) for chain in c.g.chains(x))


@register_predicate
class InRoom(GoalPredicate):
    name, params, placement = "in_room", ("x", "r"), True
    doc = "x is in room r (an object on an asset there, or held while the agent is there)"

    def holds(self, state, x, r):
        return state.room_of(x) == r

    def pddl(self, t, x, r):
        if r[1] is not K.ROOM:
            return FALSE
        kind = x[1]
        if kind is K.OBJECT:
            carried = And(_held_chain(t, x[0]), atom("agent_at", r[0]))
            return Or(atom("located", x[0], r[0]), carried)
        if kind is K.ASSET:
            return atom("asset_in_room", x[0], r[0])
        if kind is K.AGENT:
            return atom("agent_at", r[0])
        if kind is K.ROOM:
            return atom("=", x[0], r[0])
        return FALSE

    def compile(self, c, x, r):
        kind = _kind(c, x)
        if kind is K.AGENT:
            return agent_at(c, r) if _kind(c, r) is K.ROOM else c.const(False)
        if kind is not K.OBJECT:
            return c.const(c.g.state.room_of(x) == r)
        if _kind(c, r) is not K.ROOM:
            return c.const(False)

        def through(chain: Chain) -> Compiled:
            if chain.asset is None:
                return c.all_of([_links(c, chain.links), agent_at(c, r)])
            in_r = c.g.graph.room_of(chain.asset) == r
            return _links(c, chain.links) if in_r else c.const(False)

        return c.any_of(through(chain) for chain in c.g.chains(x))


@register_predicate
class Held(GoalPredicate):
    name, params, placement, establishable = "held", ("x",), True, True
    doc = "the agent holds x"

    def holds(self, state, x):
        return state.holds(x)

    def establish(self, state, x):
        if not state.holds(x) and not state.hand_free:
            return f"the agent already holds {state.held_text()}"
        state.take(x)
        return None

    def pddl(self, t, x):
        return atom("holding", x[0]) if x[1] is K.OBJECT else FALSE

    def compile(self, c, x):
        return c.prop(("holding", x)) if _kind(c, x) is K.OBJECT else c.const(False)


@register_predicate
class HandEmpty(GoalPredicate):
    name, params, subject = "handempty", (), None
    doc = "the agent holds nothing"

    def holds(self, state):
        return not state.held

    def pddl(self, t):
        return atom("handempty")

    def compile(self, c):
        return c.prop(("handempty",))


@register_predicate
class AgentAt(GoalPredicate):
    name, params, subject, establishable = "agent_at", ("p",), None, True
    doc = "the agent is at room or pose p"

    def holds(self, state, p):
        return state.agent_at == p

    def establish(self, state, p):
        if state.node(p).kind not in (K.ROOM, K.POSE):
            return "the agent stands in a room or at a pose"
        state.move(state.agent_id, p, None)
        return None

    def pddl(self, t, p):
        return atom("agent_at", p[0]) if p[1] in (K.ROOM, K.POSE) else FALSE

    def compile(self, c, p):
        return agent_at(c, p)


@register_predicate
class Attr(GoalPredicate):
    name, params, arg_kinds = "attr", ("x", "word"), ("node", "word")
    static, subject = True, None
    doc = "x has the attribute word (attributes never change)"

    def holds(self, state, x, word):
        return word in state.node(x).attributes

    def pddl(self, t, x, word):
        t.need_attribute(word[0])
        return atom(pddl_attribute(word[0]), x[0])

    def compile(self, c, x, word):
        return c.const(self.holds(c.g.state, x, word))


@register_predicate
class Is(GoalPredicate):
    name, params, static, subject = "is", ("x", "y"), True, None
    doc = "x and y are the same node (useful with quantifiers)"

    def holds(self, state, x, y):
        return x == y

    def pddl(self, t, x, y):
        return atom("=", x[0], y[0])

    def compile(self, c, x, y):
        return c.const(x == y)


class StateWord(GoalPredicate):
    """Any other one-argument name: a state word, e.g. `open(fridge)`, `hot(soup)`."""

    params, state_word, establishable = ("x",), True, True
    doc = "x is in state WORD (open, closed, on, off, hot, cold, clean, dirty, full, empty, ...)"

    def __init__(self, word: str = "WORD"):
        self.name = word  # type: ignore[misc]

    def holds(self, state, x):
        return self.name in state.states(x)

    def word_of(self, args):
        return self.name, args[0]

    def establish(self, state, x):
        state.set_state(x, self.name)
        return None

    def pddl(self, t, x):
        t.need_word(self.name)
        return atom(pddl_word(self.name), x[0])

    def compile(self, c, x):
        if x in c.g.objects or x in c.g.assets or c.g.graph.nodes[x].kind is K.AGENT:
            return c.prop(("state", self.name, x))
        return c.const(self.holds(c.g.state, x))

    def achievable(self, graph, x):
        node = graph.nodes[x]
        affordances, by_appliance = setters(self.name)
        if affordances is None:
            return True  # no action sets or clears this word: it is what it is
        return bool(affordances & {None, *node.affordances}) or (
            by_appliance and node.kind is K.OBJECT
        )


# -- substances (world/substances.py): the substance state words as goal predicates --------


class _Substance(GoalPredicate):
    """x is in this relation to the substance (a state word of x)."""

    params, arg_kinds, establishable = ("x", "substance"), ("node", "substance"), True
    relation: str

    def holds(self, state, x, substance):
        return substance_word(self.relation, substance) in state.states(x)

    def word_of(self, args):
        return substance_word(self.relation, args[1]), args[0]

    def establish(self, state, x, substance):
        state.set_state(x, substance_word(self.relation, substance))
        return None

    def pddl(self, t, x, substance):
        word = substance_word(self.relation, substance[0])
        t.need_word(word)
        return atom(pddl_word(word), x[0])

    def compile(self, c, x, substance):
        word = substance_word(self.relation, substance)
        if x in c.g.objects or x in c.g.assets:
            return c.prop(("state", word, x))
        return c.const(self.holds(c.g.state, x, substance))

    def achievable(self, graph, x, substance):
        """Only what some node holds or gives at the start can go anywhere."""
        words = {substance_word(r, substance) for r in (FILLED, CONTAINS, INSOURCE)}
        return any(words & set(n.state) for n in graph)


def _plain(relation: str, doc: str, static: bool = False) -> type[GoalPredicate]:
    """A substance predicate with nothing of its own but its relation (it is named after
    it), its doc, and whether it is static (no action changes it)."""
    fields = {"name": relation, "relation": relation, "doc": doc, "static": static}
    return type(relation.capitalize(), (_Substance,), fields)


register_predicate(
    _plain(FILLED, "x is filled with the substance (fill it from a source, or pour into it)")
)


@register_predicate
class Contains(_Substance):
    """Some of it: x contains the substance, or is filled with it."""

    name, relation = "contains", CONTAINS
    doc = "x holds some of the substance (filled with it, or some poured in)"

    def holds(self, state, x, substance):
        words = state.states(x)
        return bool({substance_word(r, substance) for r in (FILLED, CONTAINS)} & words)

    def pddl(self, t, x, substance):
        parts: list[Expr] = []
        for relation in (FILLED, CONTAINS):
            word = substance_word(relation, substance[0])
            t.need_word(word)
            parts.append(atom(pddl_word(word), x[0]))
        return Or(*parts)

    def compile(self, c, x, substance):
        if x in c.g.objects or x in c.g.assets:
            return c.any_of(
                c.prop(("state", substance_word(r, substance), x)) for r in (FILLED, CONTAINS)
            )
        return c.const(self.holds(c.g.state, x, substance))


@register_predicate
class Covered(_Substance):
    name, relation = "covered", COVERED
    doc = "x is covered with the substance (sprinkle puts it on, scrub takes it off)"

    def achievable(self, graph, x, substance):
        return True  # scrubbing takes any covering off; `not covered(...)` is the usual goal


register_predicate(_plain(SATURATED, "x (a cloth) is soaked with the substance"))
register_predicate(
    _plain(
        INSOURCE, "x gives the substance (a sink water, a shaker salt); no action changes it", True
    )
)


# -- ALFWorld's "examine in light" (world/alfworld.py) -------------------------------------


@register_predicate
class AgentNear(GoalPredicate):
    name, params, placement = "agent_near", ("x",), True
    doc = "the agent is at x, or at the receptacle where x is, or holds x (ALFWorld)"

    def holds(self, state, x):
        if state.holds(x):
            return True
        asset = x if state.node(x).kind is K.ASSET else state.support_asset(x)
        return asset is not None and asset == state.accessed

    def pddl(self, t, x):
        if x[1] is K.ASSET:
            return atom("accessed", x[0])
        if x[1] is not K.OBJECT:
            return FALSE
        a = t.fresh("a")
        at = Exists({a: "asset"}, And(atom("accessed", a), atom("below", x[0], a)))
        return Or(atom("holding", x[0]), at)

    def compile(self, c, x):
        kind = c.g.graph.nodes[x].kind
        if kind is K.ASSET:
            return c.prop(("accessed", x)) if x in c.g.assets else c.const(False)
        if kind is not K.OBJECT:
            return c.const(False)

        def through(chain) -> object:
            facts = [c.prop(f) for f in chain.links]  # a held chain ends in ("holding", x)
            if chain.asset is not None:
                facts.append(c.prop(("accessed", chain.asset)))
            return c.all_of(facts)

        return c.any_of(through(chain) for chain in c.g.chains(x))
