"""The domain of a vocabulary as PDDL: each action built from its schema, each
precondition and effect the PDDL face (a tree) of its primitive, simplified for a
problem's scene (`simplify.SceneTypes`) and written by `write`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import SceneGraph
from sceneplan.symbolic.pddl import write
from sceneplan.symbolic.pddl.hidden import HIDDEN_BY_NAME, Hidden, hidden_terms
from sceneplan.symbolic.pddl.node_types import param_type, type_tree
from sceneplan.symbolic.pddl.simplify import SceneTypes
from sceneplan.world.domain import ActionSchema
from sceneplan.world.pddl_expr import And, Expr, Or, Predicate, atom, effects_of
from sceneplan.world.primitives import (
    EFFECTS,
    TESTS,
    Effect,
    Primitive,
    Test,
    pddl_affordance,
    pddl_attribute,
    pddl_category,
    pddl_word,
)
from sceneplan.world.rules import appliance_functions, appliance_words
from sceneplan.world.state import EXCLUSIVE_STATES
from sceneplan.world.substances import RELATIONS as SUBSTANCE_RELATIONS
from sceneplan.world.substances import substance_word, substances_in
from sceneplan.world.vocabularies import SAYPLAN, native_vocabulary
from sceneplan.world.vocabulary import Vocabulary


def _object(*names: str) -> dict[str, str]:
    return {f"?{n}": "object" for n in names}


# Fixed predicates of the domain; state words, categories and attributes are added per problem.
# Their arguments are typed `object` so that a variable of any node type may fill them
# (validators type-check strictly; the action parameters carry the real types).
PREDICATES = (
    Predicate("agent_at", _object("p")),
    Predicate("linked", _object("p", "q")),
    Predicate("accessed", _object("a")),
    Predicate("holding", _object("o")),
    Predicate("handempty"),
    Predicate("hand_free"),
    Predicate("two_handed"),
    Predicate("ontop_of", _object("o", "y")),
    Predicate("inside_of", _object("o", "y")),
    Predicate("below", _object("o", "y")),
    Predicate("enclosed", _object("o", "y")),
    Predicate("asset_in_room", _object("a", "r")),
    Predicate("located", _object("o", "r")),
    Predicate("shut", _object("o")),
    Predicate("static_within", _object("n", "y")),
    # x and y are one node (places, assets, the agent): a static fact, not `=`, which costs Fast
    # Downward's invariant synthesis seconds when it relates an action's parameters
    Predicate("same", _object("x", "y")),
    Predicate("container", _object("x")),
    Predicate("finished"),
)

_NAME = re.compile(r"^[a-z][a-z0-9_\-]*$")
_PDDL_KEYWORDS = {"and", "or", "not", "imply", "forall", "exists", "when", "either", "object"}


def check_name(name: str, what: str) -> None:
    """Raise UnsupportedError when `name` cannot be a PDDL name."""
    if not _NAME.match(name) or name in _PDDL_KEYWORDS:
        raise UnsupportedError(f"{what} '{name}' is not a valid PDDL name")


def export_vocabulary(graph: SceneGraph, vocabulary: Vocabulary | None) -> Vocabulary:
    """The vocabulary of an export: the one given, else the one planners use in the graph
    (the scene's own, `world.vocabularies.native_vocabulary`, else SayPlan's), in its
    two-handed form for an agent with two hands (`Vocabulary.in_graph`)."""
    return (vocabulary or native_vocabulary(graph) or SAYPLAN).in_graph(graph)


def _hidden_conditions(schema: ActionSchema, hidden: list[Hidden]) -> list[Expr]:
    """The preconditions that bind the schema's hidden parameters."""
    first = f"?{schema.params[0].name}" if schema.params else "?x"
    conditions = [h.condition(h.var, first) for h in hidden]
    names = {h.name for h in hidden}
    for asset in names & {"acc", "base", "slot"}:
        if names & {"here", "room"}:
            # the asset is in the agent's room: a grounder pairs each asset with its room only
            place = HIDDEN_BY_NAME["room" if "room" in names else "here"].var
            in_room: Expr = atom("asset_in_room", HIDDEN_BY_NAME[asset].var, place)
            if asset == "slot" and "me" in names:
                in_room = Or(atom("same", "?at_slot", "?at_me"), in_room)
            conditions.append(in_room)
    return conditions


def action_tree(
    schema: ActionSchema, substances: tuple[str, ...] = (), hidden: list[Hidden] | None = None
) -> tuple[Expr, Expr]:
    """A schema's precondition and effect: each its primitive's PDDL face.

    A face that moves "whatever substance" (`world.substances`) takes the problem's
    `substances` and writes them out. `hidden`: the schema's `hidden_terms`, if known.
    """
    hidden = hidden_terms(schema) if hidden is None else hidden
    terms = {p.name: f"?{p.name}" for p in schema.params}
    # effects that act on the held object get a bound term (the schema's parameter, or the
    # hidden `held`), not a quantified one, which a grounder crosses with every other term
    held = schema.held_param
    given: dict[str, Any] = {h.name: h.var for h in hidden}
    given |= {"held": f"?{held}"} if held is not None else {}
    given["substances"] = substances

    def face(primitive: Test | Effect, names: tuple[str, ...]) -> Expr:
        kw = {k: v for k, v in given.items() if k in primitive.pddl_keywords}
        return primitive.pddl(*(terms.get(a, a) for a in names), **kw)

    conditions = _hidden_conditions(schema, hidden)
    conditions += [
        atom(pddl_affordance(p.affordance), f"?{p.name}") for p in schema.params if p.affordance
    ]
    conditions += [face(TESTS[pre.test], pre.args) for pre in schema.pre]
    effects = [e for eff in schema.effects for e in effects_of(face(EFFECTS[eff.op], eff.args))]
    return And(*conditions), And(*effects)


def _action(
    schema: ActionSchema, scene: SceneTypes | None = None, substances: tuple[str, ...] = ()
) -> str:
    """A schema as a PDDL action; with `scene`, simplified for one problem
    (`SceneTypes.simplify`)."""
    hidden = hidden_terms(schema)
    precondition, effect = action_tree(schema, substances, hidden)
    if scene is not None:
        precondition, effect = scene.simplify(schema, precondition, effect)
    params = tuple((f"?{p.name}", param_type(schema, p.kinds)) for p in schema.params)
    params += tuple((h.var, h.type) for h in hidden)
    return write.action(schema.name, params, precondition, effect)


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


def primitive_predicates(schemas: Iterable[ActionSchema]) -> set[Predicate]:
    """Extra predicate declarations the primitives of these schemas need."""
    return {d for primitive in primitives_of(schemas) for d in primitive.pddl_predicates}


def domain_affordances(schemas: Iterable[ActionSchema]) -> set[str]:
    """The affordances the schemas' parameters ask for (and `release`)."""
    return {p.affordance for s in schemas for p in s.params if p.affordance} | {"release"}


def domain_pddl(
    vocabulary: Vocabulary = SAYPLAN,
    words: Iterable[str] = (),
    categories: Iterable[str] = (),
    attributes: Iterable[str] = (),
    scene: SceneTypes | None = None,
) -> str:
    """The domain of a vocabulary, with predicates for extra state words, categories, attributes.

    With `scene`, the actions are simplified for one problem (see `SceneTypes`).
    """
    schemas = list(vocabulary.actions.values())
    words = set(words)
    substances = tuple(substances_in(words))
    actions = [_action(s, scene, substances) for s in schemas]
    words |= {substance_word(r, m) for r in SUBSTANCE_RELATIONS for m in substances}
    all_words = sorted(domain_words(schemas) | words)
    for word in all_words:
        check_name(word, "state word")
    functions = appliance_functions()
    predicates = [
        *PREDICATES,
        *(Predicate(pddl_affordance(a), _object("x")) for a in sorted(domain_affordances(schemas))),
        *(Predicate(f.makes, _object("x")) for f in functions),
        *(Predicate(f.takes, _object("o")) for f in functions if f.targets is not None),
        *(Predicate(pddl_word(w), _object("x")) for w in all_words),
        *sorted(primitive_predicates(schemas), key=write.declaration),
        *(Predicate(pddl_category(c), _object("x")) for c in sorted(set(categories))),
        *(Predicate(pddl_attribute(a), _object("x")) for a in sorted(set(attributes))),
    ]
    return write.domain(f"sceneplan_{vocabulary.name}", type_tree(), predicates, actions)
