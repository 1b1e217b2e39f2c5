"""PDDL export of the one world domain, of a problem (scene + state + goal), and of plans.

The domain is written from the same action schemas the simulator runs
(`world.domain`): each precondition and effect is the PDDL face of the
primitive it names (`world.rules`), defined beside the simulator's face of
the same primitive. The tests in `tests/symbolic/test_pddl_differential.py`
hold the two to the same verdicts, for every primitive of every vocabulary.

The domain is ADL (`forall`/`when`/`exists`, negative and disjunctive
conditions, equality). Derived facts the simulator computes by walking the
containment tree are fluents here, maintained by the effects (containment
changes only by picking up and putting down):
- `(below ?d ?y)`: d rests on or in y at any depth (y an asset or object);
- `(enclosed ?d ?c)`: d is below c and the link into c is `inside_of`; an
  object is accessible when no enclosing container is closed;
- `(located ?d ?r)`: d rests, at any depth, on an asset of room r;
- `(accessed ?a)`: a is the accessed asset; `(accessed AGENT)` (the agent's
  own node): none is;
- `(shut ?d)`: a closed container encloses d (kept by opening and closing).

What the simulator's action leaves implicit but its PDDL needs (the place the
agent leaves, the room it is in, the accessed asset) is a hidden parameter of
the PDDL action, bound by a precondition (`HIDDEN`): a grounder makes one
operator per value where a quantified effect would make a conditional effect
per object, and a validator reads one atom where it would walk every object.
`plan_pddl` fills them in by running the plan; `plan_from_pddl` drops them.

The problem stays linear in the building and cheap to ground: appliance
functions are unary static facts by category (`(makes_hot microwave)`,
`(takes_full mug)`), not one per appliance and object; and what an action
still quantifies over (what a carried object carries, appliance functions)
ranges over the narrowest type that can hold it. When no object takes things
(`release`), objects are only ever put on assets, so only objects nested in or
carrying objects at the start (type `nest`) can ever be below an object (with
object receptacles, every object that may be nested or carry is a `nest`);
assets are `surface` (no container, no appliance), `device` (containers) or
`F_appliance` (appliances of function F).
`export_pddl(..., scope=...)` writes the problem of a focused scope
(`symbolic.scope`): its nodes only, with a macro move between any two of its
places, as the solver itself plans.

>>> from sceneplan.datasets import load_environment
>>> files = export_pddl(load_environment("coffee"), "full(coffee_mug)")
>>> "(:action pickup" in files.domain and "(:goal (is_full coffee_mug))" in files.problem
True
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.symbolic.pddl_goal import PDDL_TYPE, translate_goal
from sceneplan.symbolic.scope import Scope, focused_scope
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.alfworld import vocabulary_for
from sceneplan.world.domain import ActionSchema, get_vocabulary, vocabulary_in
from sceneplan.world.goal_forms import ground, literals, map_leaves, wrong_literals
from sceneplan.world.goals import Atom, Const, Formula, parse_goal
from sceneplan.world.primitives import (
    EFFECTS,
    TESTS,
    Effect,
    Primitive,
    Test,
    pddl_attribute,
    pddl_category,
    pddl_word,
)
from sceneplan.world.rules import appliance_function, appliance_functions, appliance_words
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState, holds_inside
from sceneplan.world.substances import RELATIONS as SUBSTANCE_RELATIONS
from sceneplan.world.substances import substance_word, substances_in

K = NodeKind

# Parameter kinds -> PDDL type (the type hierarchy is in `_TYPES`).
PARAM_TYPE: dict[frozenset[NodeKind], str] = {
    frozenset({K.ROOM, K.POSE}): "place",
    frozenset({K.ROOM}): "room",
    frozenset({K.ASSET}): "asset",
    frozenset({K.OBJECT}): "item",
    frozenset({K.ASSET, K.OBJECT}): "thing",
}
_TYPES = (
    "room pose - place surface device - asset nest - item asset item - thing "
    "place thing site storey robot - object"
)


def _types() -> str:
    appliances = " ".join(f.pddl_type for f in appliance_functions())
    return f"{appliances} - device {_TYPES}" if appliances else _TYPES


# Fixed predicates of the domain; state words, categories and attributes are added per problem.
# Their arguments are typed `object` so that a variable of any node type may fill them
# (validators type-check strictly; the action parameters carry the real types).
_PREDICATES = (
    "(agent_at ?p - object)",
    "(linked ?p - object ?q - object)",
    "(accessed ?a - object)",
    "(holding ?o - object)",
    "(handempty)",
    "(hand_free)",
    "(two_handed)",
    "(ontop_of ?o - object ?y - object)",
    "(inside_of ?o - object ?y - object)",
    "(below ?o - object ?y - object)",
    "(enclosed ?o - object ?y - object)",
    "(asset_in_room ?a - object ?r - object)",
    "(located ?o - object ?r - object)",
    "(shut ?o - object)",
    "(static_within ?n - object ?y - object)",
    # x and y are one node (places, assets, the agent): a static fact, not `=`, which costs Fast
    # Downward's invariant synthesis seconds when it relates an action's parameters
    "(same ?x - object ?y - object)",
    "(container ?x - object)",
    "(finished)",
)

# -- the domain -------------------------------------------------------------------------


def _param_type(schema: ActionSchema, kinds: frozenset[NodeKind]) -> str:
    try:
        return PARAM_TYPE[kinds]
    except KeyError:
        raise UnsupportedError(
            f"action {schema.signature}: no PDDL type for parameters of kinds "
            + ", ".join(sorted(k.value for k in kinds))
        ) from None


@dataclass(frozen=True)
class Hidden:
    """A term of the state an action leaves implicit, which a PDDL face may take as a
    keyword argument (`name`): an extra parameter of the PDDL action, of `type`, bound
    by a precondition; `value` reads it in the state before the action (and its
    arguments)."""

    name: str
    type: str
    condition: str
    value: Callable[[WorldState, tuple[str, ...]], str | None]

    @property
    def var(self) -> str:
        """The PDDL variable that stands for the hidden parameter."""
        return f"?at_{self.name}"


def _base(state: WorldState, args: tuple[str, ...]) -> str | None:
    return state.support_asset(args[0]) if args and args[0] in state.graph.nodes else None


HIDDEN = (
    Hidden("here", "place", "(agent_at ?at_here)", lambda s, _: s.agent_at),
    Hidden("room", "room", "(agent_at ?at_room)", lambda s, _: s.agent_at),
    Hidden("acc", "asset", "(accessed ?at_acc)", lambda s, _: s.accessed),
    # what `accessed` points at: the accessed asset, or the agent itself when none is
    Hidden("slot", "object", "(accessed ?at_slot)", lambda s, _: s.accessed or s.agent_id),
    Hidden("me", "robot", "(and)", lambda s, _: s.agent_id),
    # the asset the action's first argument rests on, at any depth
    Hidden("base", "asset", "(below ?x ?at_base)", _base),
    # the held object, for an action that acts on it without naming it (LookPlanGraph's
    # put_on(a)); an action with a `holding(o)` precondition binds its own parameter instead
    Hidden("held", "item", "(holding ?at_held)", lambda s, _: s.held[0] if s.held else None),
)
HIDDEN_BY_NAME = {h.name: h for h in HIDDEN}


def _keywords(face: Callable) -> set[str]:
    return {p.name for p in inspect.signature(face).parameters.values() if p.kind is p.KEYWORD_ONLY}


def hidden_terms(schema: ActionSchema) -> list[Hidden]:
    """The hidden parameters of a schema's PDDL action, in order (after its own)."""
    used = set().union(
        *(_keywords(TESTS[p.test].pddl) for p in schema.pre),
        *(_keywords(EFFECTS[e.op].pddl) for e in schema.effects),
    )
    if "slot" in used:
        used.add("me")  # the slot is the agent's node when nothing is accessed
    if schema.held_param is not None:
        used.discard("held")  # bound by the schema's own parameter
    return [h for h in HIDDEN if h.name in used]


def _action(
    schema: ActionSchema, scene: SceneTypes | None = None, substances: tuple[str, ...] = ()
) -> str:
    """A schema in PDDL: each precondition and effect is its primitive's PDDL face.

    With `scene`, the action is simplified for one problem (`SceneTypes.simplify`).
    A face that moves "whatever substance" (`world.substances`) takes the problem's
    `substances` and writes them out.
    """
    terms = {p.name: f"?{p.name}" for p in schema.params}
    hidden = hidden_terms(schema)
    # effects that act on the held object get a bound term (the schema's parameter, or the
    # hidden `held`), not a quantified one, which a grounder crosses with every other term
    held = schema.held_param
    given: dict[str, Any] = {h.name: h.var for h in hidden}
    given |= {"held": f"?{held}"} if held is not None else {}
    given["substances"] = substances

    def face(primitive: Test | Effect, names: tuple[str, ...]) -> str:
        keywords = {k: v for k, v in given.items() if k in _keywords(primitive.pddl)}
        return primitive.pddl(*(terms.get(a, a) for a in names), **keywords)

    first = f"?{schema.params[0].name}" if schema.params else "?x"
    conditions = [h.condition.replace("?x", first) for h in hidden]
    names = {h.name for h in hidden}
    for asset in names & {"acc", "base", "slot"}:
        if names & {"here", "room"}:
            # the asset is in the agent's room: a grounder pairs each asset with its room only
            place = HIDDEN_BY_NAME["room" if "room" in names else "here"].var
            in_room = f"(asset_in_room {HIDDEN_BY_NAME[asset].var} {place})"
            if asset == "slot" and "me" in names:
                in_room = f"(or (same ?at_slot ?at_me) {in_room})"
            conditions.append(in_room)
    conditions += [f"(can_{p.affordance} ?{p.name})" for p in schema.params if p.affordance]
    conditions += [face(TESTS[pre.test], pre.args) for pre in schema.pre]
    effects = [face(EFFECTS[e.op], e.args) for e in schema.effects]
    params = " ".join(
        [f"?{p.name} - {_param_type(schema, p.kinds)}" for p in schema.params]
        + [f"{h.var} - {h.type}" for h in hidden]
    )
    precondition = f"(and {' '.join(conditions)})"
    effect = f"(and {' '.join(e for e in effects if e)})"
    if scene is not None:
        precondition, effect = scene.simplify(schema, precondition, effect)
    return (
        f"  (:action {schema.name}\n"
        f"    :parameters ({params})\n"
        f"    :precondition {precondition}\n"
        f"    :effect {effect})"
    )


# Fluents whose first argument is always an object (`item`): the domain's invariant.
_ITEM_FLUENTS = frozenset(
    {"holding", "ontop_of", "inside_of", "below", "enclosed", "located", "shut"}
)
# The PDDL types an object (`item`) can have, and those of its supertypes.
_ITEM_TYPES = frozenset({"item", "nest", "thing", "object"})

Sexp = str | list["Sexp"]


def parse_sexp(text: str) -> Sexp:
    """PDDL text as nested lists of tokens: `(and (p a) b)` is `["and", ["p", "a"], "b"]`."""
    stack: list[list[Sexp]] = [[]]
    for token in re.findall(r"\(|\)|[^\s()]+", text):
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0][0]


def show_sexp(x: Sexp) -> str:
    """Nested lists of tokens as PDDL text (the inverse of `parse_sexp`)."""
    return x if isinstance(x, str) else "(" + " ".join(show_sexp(p) for p in x) + ")"


def _typed(items: list[Sexp]) -> list[tuple[str, str]]:
    """`?a ?b - t ?c - u` as [(?a, t), (?b, t), (?c, u)]."""
    out, pending, i = [], list[str](), 0
    while i < len(items):
        if items[i] == "-":
            out += [(v, str(items[i + 1])) for v in pending]
            pending, i = [], i + 2
        else:
            pending.append(str(items[i]))
            i += 1
    return out + [(v, "object") for v in pending]


TRUE: Sexp = ["and"]
FALSE: Sexp = ["or"]


@dataclass(frozen=True)
class SceneTypes:
    """What a problem fixes that lets its domain be simplified for grounders.

    `empty`: the PDDL types no object of the problem has; `items`: whether any
    object affords each affordance (so that an action parameter that needs it
    may be an object). A quantifier over an empty type is dropped (a `forall`
    effect or condition over nothing, an `exists` that cannot hold), and so is a
    conditional effect whose condition asks a fluent about objects (`below`,
    `located`, ...) of a term that cannot be an object: Fast Downward explores
    conditional effects without the types of their variables, joined with the
    action's parameters, so such effects cost it the product of their atoms.
    `two_handed`: whether the agent has two hands; the static `(two_handed)` is
    folded to true or false (with one hand, `(hand_free)` drops out).
    """

    empty: frozenset[str]
    object_affordances: frozenset[str]
    two_handed: bool = False

    def simplify(self, schema: ActionSchema, precondition: str, effect: str) -> tuple[str, str]:
        """The precondition and effect without the type tests this scene's types make true."""
        not_items = {
            f"?{p.name}"
            for p in schema.params
            if K.OBJECT not in p.kinds
            or (p.affordance is not None and p.affordance not in self.object_affordances)
        }
        pre = self._condition(parse_sexp(precondition), not_items)
        eff = self._effect(parse_sexp(effect), not_items)
        return show_sexp(pre), show_sexp(eff if eff is not None else TRUE)

    def simplify_goal(self, goal: str) -> str:
        """A goal condition simplified for this problem: quantifiers over empty types
        dropped and constants folded; and when the goal asks for an empty hand at its
        top level, every `holding` atom in it is false (one hand: `(handempty)` and
        `(holding x)` never hold together), so that "x within the room" need not ask
        whether the robot carries x there."""
        x = parse_sexp(goal)
        hand: list[Sexp] = ["handempty"]
        if isinstance(x, list) and x[:1] == ["and"] and hand in x[1:]:
            x = ["and", hand, *(_without_holding(p) for p in x[1:] if p != hand)]
        return show_sexp(self._condition(x, set()))

    def _scope(self, variables: list[Sexp], not_items: set[str]) -> set[str] | None:
        """Names that cannot be objects inside a quantifier (None: over an empty type)."""
        typed = _typed(variables)
        if any(t in self.empty for _, t in typed):
            return None
        inner = not_items - {v for v, _ in typed}
        return inner | {v for v, t in typed if t not in _ITEM_TYPES}

    def _condition(self, x: Sexp, not_items: set[str]) -> Sexp:
        if isinstance(x, str) or not x:
            return x
        head = x[0]
        if head in ("and", "or"):
            parts = [self._condition(p, not_items) for p in x[1:]]
            unit, zero = (TRUE, FALSE) if head == "and" else (FALSE, TRUE)
            if zero in parts:
                return zero
            parts = [p for p in parts if p != unit]
            return parts[0] if len(parts) == 1 else [head, *parts]
        if head == "not":
            body = self._condition(x[1], not_items)
            return FALSE if body == TRUE else TRUE if body == FALSE else ["not", body]
        if head == "imply":
            return self._condition(["or", ["not", x[1]], x[2]], not_items)
        if head in ("forall", "exists"):
            inner = self._scope(list(x[1]), not_items)
            if inner is None:
                return TRUE if head == "forall" else FALSE
            body = self._condition(x[2], inner)
            if body in (TRUE, FALSE):
                return body
            return [head, x[1], body]
        if head in _ITEM_FLUENTS and len(x) > 1 and x[1] in not_items:
            return FALSE
        if head == "two_handed":
            return TRUE if self.two_handed else FALSE
        return x

    def _effect(self, x: Sexp, not_items: set[str]) -> Sexp | None:
        """The effect simplified; None when it does nothing."""
        if isinstance(x, str) or not x:
            return x
        head = x[0]
        if head == "and":
            parts = [p for p in (self._effect(p, not_items) for p in x[1:]) if p is not None]
            return None if not parts else ["and", *parts]
        if head == "forall":
            inner = self._scope(list(x[1]), not_items)
            body = None if inner is None else self._effect(x[2], inner)
            return None if body is None else ["forall", x[1], body]
        if head == "when":
            condition = self._condition(x[1], not_items)
            if condition == FALSE:
                return None
            body = self._effect(x[2], not_items)
            if body is None:
                return None
            return body if condition == TRUE else ["when", condition, body]
        return x


def _without_holding(x: Sexp) -> Sexp:
    if isinstance(x, str) or not x:
        return x
    return FALSE if x[0] == "holding" else [_without_holding(p) for p in x]


def domain_words(schemas: Iterable[ActionSchema]) -> set[str]:
    """State words the domain's own conditions and effects use."""
    words = appliance_words() | {"open", "closed", "on"}
    for schema in schemas:
        words.update(*(TESTS[p.test].words(p.args) for p in schema.pre))
        words.update(*(EFFECTS[e.op].words(e.args) for e in schema.effects))
    return words | {EXCLUSIVE_STATES[w] for w in words if w in EXCLUSIVE_STATES}


def primitives_of(schemas: Iterable[ActionSchema]) -> list[Primitive]:
    """The tests and effects these schemas name, each once, in order of first use."""
    out: dict[str, Primitive] = {}
    for schema in schemas:
        for p in schema.pre:
            out.setdefault(f"test {p.test}", TESTS[p.test])
        for e in schema.effects:
            out.setdefault(f"effect {e.op}", EFFECTS[e.op])
    return list(out.values())


def primitive_predicates(schemas: Iterable[ActionSchema]) -> set[str]:
    """Extra predicate declarations the primitives of these schemas need."""
    return {d for primitive in primitives_of(schemas) for d in primitive.pddl_predicates}


def domain_affordances(schemas: Iterable[ActionSchema]) -> set[str]:
    """The affordances the schemas' parameters ask for (and `release`)."""
    return {p.affordance for s in schemas for p in s.params if p.affordance} | {"release"}


def domain_pddl(
    vocabulary: str = "sayplan",
    words: Iterable[str] = (),
    categories: Iterable[str] = (),
    attributes: Iterable[str] = (),
    scene: SceneTypes | None = None,
) -> str:
    """The domain of a vocabulary, with predicates for extra state words, categories, attributes.

    With `scene`, the actions are simplified for one problem (see `SceneTypes`).
    """
    schemas = list(get_vocabulary(vocabulary).values())
    words = set(words)
    substances = tuple(substances_in(words))
    actions = [_action(s, scene, substances) for s in schemas]
    words |= {substance_word(r, m) for r in SUBSTANCE_RELATIONS for m in substances}
    all_words = sorted(domain_words(schemas) | words)
    for word in all_words:
        _check_name(word, "state word")
    predicates = [
        *_PREDICATES,
        *(f"(can_{a} ?x - object)" for a in sorted(domain_affordances(schemas))),
        *(f"(makes_{f.name} ?x - object)" for f in appliance_functions()),
        *(f"(takes_{f.name} ?o - object)" for f in appliance_functions() if f.targets is not None),
        *(f"({pddl_word(w)} ?x - object)" for w in all_words),
        *sorted(primitive_predicates(schemas)),
        *(f"({pddl_category(c)} ?x - object)" for c in sorted(set(categories))),
        *(f"({pddl_attribute(a)} ?x - object)" for a in sorted(set(attributes))),
    ]
    return (
        f"(define (domain sceneplan_{vocabulary})\n"
        "  (:requirements :adl :equality)\n"
        f"  (:types {_types()})\n"
        "  (:predicates\n    " + "\n    ".join(predicates) + ")\n" + "\n".join(actions) + ")\n"
    )


# -- the problem ------------------------------------------------------------------------

_NAME = re.compile(r"^[a-z][a-z0-9_\-]*$")
_PDDL_KEYWORDS = {"and", "or", "not", "imply", "forall", "exists", "when", "either", "object"}


def _check_name(name: str, what: str) -> None:
    if not _NAME.match(name) or name in _PDDL_KEYWORDS:
        raise UnsupportedError(f"{what} '{name}' is not a valid PDDL name")


def static_facts(
    graph: SceneGraph,
    vocabulary: str = "sayplan",
    nodes: Collection[str] | None = None,
    links: Iterable[tuple[str, str]] | None = None,
) -> list[str]:
    """Facts that no action changes: topology, rooms, ancestry, affordances, appliances,
    and the static facts of the vocabulary's own primitives (`Primitive.pddl_static`,
    e.g. ALFWorld's `alfworld_fits`).

    `nodes` limits them to a set of nodes (a focused problem), `links` replaces
    the topology's edges (each written both ways).
    """
    facts = ["(two_handed)"] if graph.hands == 2 else []
    members = [n.id for n in graph] if nodes is None else list(nodes)
    for primitive in primitives_of(get_vocabulary(vocabulary).values()):
        facts += primitive.pddl_static(graph, members)
    for a, b in graph.topology.edges if links is None else links:
        facts += [f"(linked {a} {b})", f"(linked {b} {a})"]
    affordances = domain_affordances(get_vocabulary(vocabulary).values())
    functions = appliance_functions()
    for node in graph if nodes is None else (graph.nodes[n] for n in nodes):
        if node.kind in (K.ASSET, K.ROOM, K.POSE, K.FLOOR):
            facts += [f"(static_within {node.id} {y})" for y in graph.ancestors(node.id)]
        if node.kind in (K.ASSET, K.ROOM, K.POSE, K.AGENT):
            facts.append(f"(same {node.id} {node.id})")
        if node.kind is K.ASSET and (room := graph.room_of(node.id)) is not None:
            facts.append(f"(asset_in_room {node.id} {room})")
        if node.kind not in (K.ASSET, K.OBJECT):
            continue
        facts += [f"(can_{a} {node.id})" for a in node.affordances if a in affordances]
        if holds_inside(node):
            facts.append(f"(container {node.id})")
        facts += [f"(makes_{f.name} {node.id})" for f in functions if node.category in f.categories]
        if node.kind is K.OBJECT:
            facts += [
                f"(takes_{f.name} {node.id})"
                for f in functions
                if f.targets is not None and node.category in f.targets
            ]
    return facts


def state_facts(state: WorldState, nodes: Collection[str] | None = None) -> list[str]:
    """Facts of one world state: agent, hand, containment (with its closure), state words.

    `nodes` limits them to a set of nodes that holds, with each object, its parents.
    """
    graph = state.graph
    facts = [f"(agent_at {state.agent_at})"]
    facts.append(f"(accessed {state.accessed or state.agent_id})")
    facts += [f"(holding {o})" for o in state.held] or ["(handempty)"]
    if state.hands == 2 and state.hand_free:
        facts.append("(hand_free)")
    if state.done:
        facts.append("(finished)")
    for node in graph if nodes is None else (graph.nodes[n] for n in nodes):
        facts += [f"({pddl_word(w)} {node.id})" for w in sorted(state.states(node.id))]
        if node.kind is not K.OBJECT:
            continue
        relation = state.relation(node.id)
        if relation in (Relation.ONTOP_OF, Relation.INSIDE_OF):
            facts.append(f"({relation.value} {node.id} {state.parent(node.id)})")
        child, parent = node.id, state.parent(node.id)
        shut = False
        while parent is not None and graph.nodes[parent].kind in (K.ASSET, K.OBJECT):
            facts.append(f"(below {node.id} {parent})")
            if state.relation(child) is Relation.INSIDE_OF:
                facts.append(f"(enclosed {node.id} {parent})")
                shut = shut or "closed" in state.states(parent)
            if graph.nodes[parent].kind is K.ASSET:
                room = graph.room_of(parent)
                if room is not None:
                    facts.append(f"(located {node.id} {room})")
            child, parent = parent, state.parent(parent)
        if shut:
            facts.append(f"(shut {node.id})")
    return facts


def pddl_type(state: WorldState, node_id: str, receptacles: bool = False) -> str:
    """The PDDL type of a node in a problem starting from `state` (see the module's doc).

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


def scene_types(
    by_type: dict[str, list[str]], members: Iterable, two_handed: bool = False
) -> SceneTypes:
    """The empty types of a problem (its objects by PDDL type), the object affordances, and
    whether the agent has two hands."""
    parent: dict[str, str] = {}
    for group in re.findall(r"([^-]+?) - (\S+)", _types()):
        for name in group[0].split():
            parent[name] = group[1]
    used: set[str] = set()
    for name in (t for t, ids in by_type.items() if ids):
        while name not in used:
            used.add(name)
            name = parent.get(name, "object")
    empty = frozenset((set(parent) | set(parent.values())) - used - {"object"})
    affordances = frozenset(a for n in members if n.kind is K.OBJECT for a in n.affordances)
    return SceneTypes(empty, affordances, two_handed)


def has_receptacles(nodes: Iterable) -> bool:
    """Whether any object among the nodes affords `release` (things go on or in it)."""
    return any(n.kind is K.OBJECT and "release" in n.affordances for n in nodes)


FILE_NAMES = ("domain.pddl", "problem.pddl")  # what PDDLFiles.write writes into a folder


@dataclass(frozen=True)
class PDDLFiles:
    """The text of an exported domain and problem."""

    domain: str
    problem: str

    def write(self, folder: str | Path) -> tuple[Path, Path]:
        """Write `domain.pddl` and `problem.pddl` into a folder (created if missing)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = folder / FILE_NAMES[0], folder / FILE_NAMES[1]
        paths[0].write_text(self.domain, encoding="utf-8")
        paths[1].write_text(self.problem, encoding="utf-8")
        return paths


def _vocabulary(graph: SceneGraph, vocabulary: str | None) -> str:
    """The vocabulary of an export: the one given, else the one planners use in the graph
    (`world.alfworld.vocabulary_for`), in its two-handed form for an agent with two hands
    (`world.domain.vocabulary_in`)."""
    return vocabulary_in(vocabulary or vocabulary_for(graph, "sayplan"), graph)


def export_pddl(
    graph: SceneGraph,
    goal: Formula | str | None = None,
    state: WorldState | None = None,
    vocabulary: str | None = None,
    scope: Scope | None = None,
) -> PDDLFiles:
    """Domain and problem text: objects are the nodes, init the state, goal the formula.

    Without a goal the problem's goal is empty (true), which still lets a
    validator check that a plan is executable. With a `scope` (see
    `focused_problem`), only its nodes are written, and a macro scope links
    every two of its places, so a plan's moves are the solver's macro moves.
    The vocabulary is, unless given, the one planners use in the graph
    (`world.alfworld.vocabulary_for`: ALFWorld's in an ALFWorld room, else SayPlan's).
    """
    vocabulary = _vocabulary(graph, vocabulary)
    get_vocabulary(vocabulary)  # an unknown name is an error listing the known ones
    if isinstance(goal, str):
        goal = parse_goal(goal, graph)
    state = state if state is not None else WorldState(graph)
    nodes: list[str] | None = None
    links: list[tuple[str, str]] | None = None
    if scope is not None:
        goal, nodes = _focus(graph, state, scope, goal)
        places = [p for p in scope.places if p in nodes]
        if scope.macro_moves:
            links = [(a, b) for i, a in enumerate(places) for b in places[i + 1 :]]
        else:
            kept = set(places)
            links = [(a, b) for a, b in graph.topology.edges if a in kept and b in kept]
    translated = translate_goal(goal, graph) if goal is not None else None
    members = list(graph) if nodes is None else [graph.nodes[n] for n in nodes]
    words = {w for n in members for w in n.state} | (translated.words if translated else set())
    by_type: dict[str, list[str]] = {}
    receptacles = has_receptacles(members)
    for node in members:
        _check_name(node.id, "node id")
        by_type.setdefault(pddl_type(state, node.id, receptacles), []).append(node.id)
    scene = scene_types(by_type, members, graph.hands == 2)
    domain = domain_pddl(
        vocabulary,
        words,
        translated.categories if translated else (),
        translated.attributes if translated else (),
        scene,
    )
    objects = "\n    ".join(f"{' '.join(ids)} - {t}" for t, ids in by_type.items())
    init = static_facts(graph, vocabulary, nodes, links) + state_facts(state, nodes)
    if translated is not None:
        for category in sorted(translated.categories):
            init += [
                f"({pddl_category(category)} {n.id})" for n in members if n.category == category
            ]
        for word in sorted(translated.attributes):
            init += [f"({pddl_attribute(word)} {n.id})" for n in members if word in n.attributes]
    name = re.sub(r"[^a-z0-9_]", "_", (graph.name or "scene").lower()) or "scene"
    problem = (
        f"(define (problem {name})\n"
        f"  (:domain sceneplan_{vocabulary})\n"
        f"  (:objects\n    {objects})\n"
        "  (:init\n    " + "\n    ".join(init) + ")\n"
        f"  (:goal {scene.simplify_goal(translated.text) if translated else '(and)'}))\n"
    )
    return PDDLFiles(domain, problem)


def focused_problem(
    graph: SceneGraph,
    goal: Formula | str,
    state: WorldState | None = None,
    vocabulary: str | None = None,
) -> PDDLFiles:
    """The problem the solver plans on first: the goal's focused scope (`symbolic.scope`).

    Its moves are macro moves between the scope's places (`Navigator.expand_plan`
    turns a plan's moves into pose-level steps).
    """
    if isinstance(goal, str):
        goal = parse_goal(goal, graph)
    vocabulary = _vocabulary(graph, vocabulary)
    state = state if state is not None else WorldState(graph)
    grounded = ground(goal, graph)
    seeds = [atom for atom, _ in wrong_literals(grounded, state)]
    scope = focused_scope(state, seeds, literals(grounded), vocabulary=vocabulary)
    return export_pddl(graph, goal, state, vocabulary, scope)


def _focus(
    graph: SceneGraph, state: WorldState, scope: Scope, goal: Formula | None
) -> tuple[Formula | None, list[str]]:
    """The goal with atoms about objects outside the scope decided now (nothing in the
    plan can change them, as in `goal_compile`), and the nodes to declare: the scope's,
    the agent, the parents of its objects, the goal's nodes and their static ancestors."""
    keep: dict[str, None] = {}

    def add(node_id: str) -> None:
        if node_id in keep or node_id not in graph.nodes:
            return
        keep[node_id] = None
        kind = graph.nodes[node_id].kind
        if kind is K.OBJECT and (parent := state.parent(node_id)) is not None:
            add(parent)  # what holds it (the agent's place, for a held one)
        elif kind is K.AGENT:
            add(state.agent_at)
        else:
            for ancestor in graph.ancestors(node_id):
                add(ancestor)

    for node_id in (*sorted(scope.objects), *sorted(scope.assets), *scope.places):
        add(node_id)
    add(graph.agent.id)
    if state.accessed is not None:
        add(state.accessed)
    if goal is None:
        return None, list(keep)

    def decide(leaf):
        if not isinstance(leaf, Atom):
            return leaf
        movable = [a for a in leaf.args if a in graph.nodes and graph.nodes[a].kind is K.OBJECT]
        if movable and movable[0] not in scope.objects:
            return Const(leaf.holds(state))
        for node_id in leaf.nodes():
            add(node_id)
        return leaf

    focused = map_leaves(ground(goal, graph), decide)
    return focused, list(keep)


def plan_pddl(
    plan: str | Iterable[str | Action],
    graph: SceneGraph,
    state: WorldState | None = None,
    vocabulary: str | None = None,
) -> str:
    """A plan as PDDL plan text, one `(name args)` per line; `done` ends it, as in the simulator.

    The hidden parameters (`HIDDEN`) are filled in from the state before each step,
    running the plan from `state` (the graph's, by default) in the simulator. A step
    the simulator refuses is still run where it can be (a focused problem's macro
    move); after one it cannot run, the hidden terms are what they were (a validator
    rejects the plan at that step anyway). A term that is not there (nothing is
    accessed, the agent is at a pose, not in a room) is written as a node of its
    type for which the binding precondition is false, so a validator rejects the
    step as the simulator does.
    """
    simulator = Simulator(graph, _vocabulary(graph, vocabulary))
    schemas = simulator.schemas
    hidden = {name: hidden_terms(schema) for name, schema in schemas.items()}
    state = (state if state is not None else WorldState(graph)).copy()
    running, lines = True, []
    for action in parse_plan(plan):
        schema = schemas.get(action.name)
        extra = []
        if schema is not None and len(action.args) == len(schema.params):
            extra = [_hidden_value(h, state, action.args) for h in hidden[action.name]]
        lines.append(f"({' '.join((action.name, *action.args, *extra))})")
        if simulator.ends_plan(action):
            break
        if running:
            running = _advance(simulator, state, action)
    return "\n".join(lines) + ("\n" if lines else "")


_HIDDEN_KINDS = {
    "place": (K.ROOM, K.POSE),
    "room": (K.ROOM,),
    "asset": (K.ASSET,),
    "robot": (K.AGENT,),
    "item": (K.OBJECT,),
    "object": tuple(K),
}


def _hidden_value(hidden: Hidden, state: WorldState, args: tuple[str, ...]) -> str:
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


def _advance(simulator: Simulator, state: WorldState, action: Action) -> bool:
    """Run one step in place, its preconditions unchecked where it fails only on them
    (a macro move); False when it cannot be run at all."""
    if simulator.check(state, action) is None:
        simulator.apply(state, action)
        return True
    if simulator.schemas.get(action.name) is None or not all(
        a in simulator.graph.nodes for a in action.args
    ):
        return False
    try:
        simulator.apply(state, action)
    except (AssertionError, KeyError, ValueError):
        return False
    return True


def plan_from_pddl(text: str, graph: SceneGraph, vocabulary: str | None = None) -> list[str]:
    """A PDDL plan (a planner's output: `(name args)` lines, `;` comments) as sceneplan
    actions, without the hidden parameters."""
    schemas = get_vocabulary(_vocabulary(graph, vocabulary))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("("):
            continue
        name, *args = line.strip("()").split()
        schema = schemas.get(name)
        if schema is not None:
            args = args[: len(schema.params)]
        out.append(f"{name}({', '.join(args)})")
    return out
