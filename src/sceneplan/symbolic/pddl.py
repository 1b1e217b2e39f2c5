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
  object is accessible when no enclosing container is closed.
Appliance functions are static `(makes_WORD ?appliance ?item)` facts.

>>> from sceneplan.datasets import load_environment
>>> files = export_pddl(load_environment("coffee"), "full(coffee_mug)")
>>> "(:action pickup" in files.domain and "(:goal (is_full coffee_mug))" in files.problem
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.symbolic.pddl_goal import PDDL_TYPE, translate_goal
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.domain import ActionSchema, get_vocabulary
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.primitives import (
    EFFECTS,
    TESTS,
    pddl_attribute,
    pddl_category,
    pddl_word,
)
from sceneplan.world.rules import APPLIANCE_FUNCTIONS, APPLIANCE_TARGETS, appliance_words
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

K = NodeKind

# Parameter kinds -> PDDL type (the type hierarchy is in `_TYPES`).
PARAM_TYPE: dict[frozenset[NodeKind], str] = {
    frozenset({K.ROOM, K.POSE}): "place",
    frozenset({K.ROOM}): "room",
    frozenset({K.ASSET}): "asset",
    frozenset({K.OBJECT}): "item",
    frozenset({K.ASSET, K.OBJECT}): "thing",
}
_TYPES = "room pose - place asset item - thing place thing site storey robot - object"

# Fixed predicates of the domain; state words, categories and attributes are added per problem.
# Their arguments are typed `object` so that a variable of any node type may fill them
# (validators type-check strictly; the action parameters carry the real types).
_PREDICATES = (
    "(agent_at ?p - object)",
    "(linked ?p - object ?q - object)",
    "(accessed ?a - object)",
    "(holding ?o - object)",
    "(handempty)",
    "(ontop_of ?o - object ?y - object)",
    "(inside_of ?o - object ?y - object)",
    "(below ?o - object ?y - object)",
    "(enclosed ?o - object ?y - object)",
    "(asset_in_room ?a - object ?r - object)",
    "(static_within ?n - object ?y - object)",
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


def _action(schema: ActionSchema) -> str:
    """A schema in PDDL: each precondition and effect is its primitive's PDDL face."""
    terms = {p.name: f"?{p.name}" for p in schema.params}

    def args(names: tuple[str, ...]) -> list[str]:
        return [terms.get(a, a) for a in names]

    conditions = [f"(can_{p.affordance} ?{p.name})" for p in schema.params if p.affordance]
    conditions += [TESTS[pre.test].pddl(*args(pre.args)) for pre in schema.pre]
    effects = [EFFECTS[e.op].pddl(*args(e.args)) for e in schema.effects]
    params = " ".join(f"?{p.name} - {_param_type(schema, p.kinds)}" for p in schema.params)
    return (
        f"  (:action {schema.name}\n"
        f"    :parameters ({params})\n"
        f"    :precondition (and {' '.join(conditions)})\n"
        f"    :effect (and {' '.join(e for e in effects if e)}))"
    )


def domain_words(schemas: Iterable[ActionSchema]) -> set[str]:
    """State words the domain's own conditions and effects use."""
    words = appliance_words() | {"open", "closed", "on"}
    for schema in schemas:
        words.update(*(TESTS[p.test].words(p.args) for p in schema.pre))
        words.update(*(EFFECTS[e.op].words(e.args) for e in schema.effects))
    return words | {EXCLUSIVE_STATES[w] for w in words if w in EXCLUSIVE_STATES}


def primitive_predicates(schemas: Iterable[ActionSchema]) -> set[str]:
    """Extra predicate declarations the primitives of these schemas need."""
    out: set[str] = set()
    for schema in schemas:
        for p in schema.pre:
            out.update(TESTS[p.test].pddl_predicates)
        for e in schema.effects:
            out.update(EFFECTS[e.op].pddl_predicates)
    return out


def domain_affordances(schemas: Iterable[ActionSchema]) -> set[str]:
    return {p.affordance for s in schemas for p in s.params if p.affordance} | {"release"}


def domain_pddl(
    vocabulary: str = "sayplan",
    words: Iterable[str] = (),
    categories: Iterable[str] = (),
    attributes: Iterable[str] = (),
) -> str:
    """The domain of a vocabulary, with predicates for extra state words, categories, attributes."""
    schemas = list(get_vocabulary(vocabulary).values())
    actions = [_action(s) for s in schemas]
    all_words = sorted(domain_words(schemas) | set(words))
    for word in all_words:
        _check_name(word, "state word")
    predicates = [
        *_PREDICATES,
        *(f"(can_{a} ?x - object)" for a in sorted(domain_affordances(schemas))),
        *(
            f"(makes_{w} ?a - object ?o - object)"
            for w in sorted(set(APPLIANCE_FUNCTIONS.values()))
        ),
        *(f"({pddl_word(w)} ?x - object)" for w in all_words),
        *sorted(primitive_predicates(schemas)),
        *(f"({pddl_category(c)} ?x - object)" for c in sorted(set(categories))),
        *(f"({pddl_attribute(a)} ?x - object)" for a in sorted(set(attributes))),
    ]
    return (
        f"(define (domain sceneplan_{vocabulary})\n"
        "  (:requirements :adl :equality)\n"
        f"  (:types {_TYPES})\n"
        "  (:predicates\n    " + "\n    ".join(predicates) + ")\n" + "\n".join(actions) + ")\n"
    )


# -- the problem ------------------------------------------------------------------------

_NAME = re.compile(r"^[a-z][a-z0-9_\-]*$")
_PDDL_KEYWORDS = {"and", "or", "not", "imply", "forall", "exists", "when", "either", "object"}


def _check_name(name: str, what: str) -> None:
    if not _NAME.match(name) or name in _PDDL_KEYWORDS:
        raise UnsupportedError(f"{what} '{name}' is not a valid PDDL name")


def static_facts(graph: SceneGraph, vocabulary: str = "sayplan") -> list[str]:
    """Facts that no action changes: topology, rooms, ancestry, affordances, appliances."""
    facts = []
    for a, b in graph.topology.edges:
        facts += [f"(linked {a} {b})", f"(linked {b} {a})"]
    affordances = domain_affordances(get_vocabulary(vocabulary).values())
    for node in graph:
        if node.kind in (K.ASSET, K.ROOM, K.POSE, K.FLOOR):
            facts += [f"(static_within {node.id} {y})" for y in graph.ancestors(node.id)]
        if node.kind is K.ASSET and (room := graph.room_of(node.id)) is not None:
            facts.append(f"(asset_in_room {node.id} {room})")
        if node.kind in (K.ASSET, K.OBJECT):
            facts += [f"(can_{a} {node.id})" for a in node.affordances if a in affordances]
            if "open" in node.affordances:
                facts.append(f"(container {node.id})")
    objects = [n for n in graph if n.kind is K.OBJECT]
    for node in graph:
        word = APPLIANCE_FUNCTIONS.get(node.category)
        if word is None or node.kind not in (K.ASSET, K.OBJECT):
            continue
        targets = APPLIANCE_TARGETS.get(node.category)
        facts += [
            f"(makes_{word} {node.id} {o.id})"
            for o in objects
            if o.id != node.id and (targets is None or o.category in targets)
        ]
    return facts


def state_facts(state: WorldState) -> list[str]:
    """Facts of one world state: agent, hand, containment (with its closure), state words."""
    graph = state.graph
    facts = [f"(agent_at {state.agent_at})"]
    if state.accessed is not None:
        facts.append(f"(accessed {state.accessed})")
    facts.append(f"(holding {state.holding})" if state.holding else "(handempty)")
    if state.done:
        facts.append("(finished)")
    for node in graph:
        facts += [f"({pddl_word(w)} {node.id})" for w in sorted(state.states(node.id))]
        if node.kind is not K.OBJECT:
            continue
        relation = state.relation(node.id)
        if relation in (Relation.ONTOP_OF, Relation.INSIDE_OF):
            facts.append(f"({relation.value} {node.id} {state.parent(node.id)})")
        child, parent = node.id, state.parent(node.id)
        while parent is not None and graph.nodes[parent].kind in (K.ASSET, K.OBJECT):
            facts.append(f"(below {node.id} {parent})")
            if state.relation(child) is Relation.INSIDE_OF:
                facts.append(f"(enclosed {node.id} {parent})")
            child, parent = parent, state.parent(parent)
    return facts


@dataclass(frozen=True)
class PDDLFiles:
    """The text of an exported domain and problem."""

    domain: str
    problem: str

    def write(self, folder: str | Path) -> tuple[Path, Path]:
        """Write `domain.pddl` and `problem.pddl` into a folder (created if missing)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = folder / "domain.pddl", folder / "problem.pddl"
        paths[0].write_text(self.domain, encoding="utf-8")
        paths[1].write_text(self.problem, encoding="utf-8")
        return paths


def export_pddl(
    graph: SceneGraph,
    goal: Formula | str | None = None,
    state: WorldState | None = None,
    vocabulary: str = "sayplan",
) -> PDDLFiles:
    """Domain and problem text: objects are the nodes, init the state, goal the formula.

    Without a goal the problem's goal is empty (true), which still lets a
    validator check that a plan is executable.
    """
    get_vocabulary(vocabulary)  # an unknown name is an error listing the known ones
    if isinstance(goal, str):
        goal = parse_goal(goal, graph)
    state = state if state is not None else WorldState(graph)
    translated = translate_goal(goal, graph) if goal is not None else None
    words = {w for n in graph for w in n.state} | (translated.words if translated else set())
    domain = domain_pddl(
        vocabulary,
        words,
        translated.categories if translated else (),
        translated.attributes if translated else (),
    )
    by_type: dict[str, list[str]] = {}
    for node in graph:
        _check_name(node.id, "node id")
        by_type.setdefault(PDDL_TYPE[node.kind], []).append(node.id)
    objects = "\n    ".join(f"{' '.join(ids)} - {t}" for t, ids in by_type.items())
    init = static_facts(graph, vocabulary) + state_facts(state)
    if translated is not None:
        for category in sorted(translated.categories):
            init += [f"({pddl_category(category)} {n.id})" for n in graph if n.category == category]
        for word in sorted(translated.attributes):
            init += [f"({pddl_attribute(word)} {n.id})" for n in graph if word in n.attributes]
    name = re.sub(r"[^a-z0-9_]", "_", (graph.name or "scene").lower()) or "scene"
    problem = (
        f"(define (problem {name})\n"
        f"  (:domain sceneplan_{vocabulary})\n"
        f"  (:objects\n    {objects})\n"
        "  (:init\n    " + "\n    ".join(init) + ")\n"
        f"  (:goal {translated.text if translated else '(and)'}))\n"
    )
    return PDDLFiles(domain, problem)


def plan_pddl(plan: str | Iterable[str | Action]) -> str:
    """A plan as PDDL plan text, one `(name args)` per line; `done` ends it, as in the simulator."""
    lines = []
    for action in parse_plan(plan):
        lines.append(f"({' '.join((action.name, *action.args))})")
        if action.name == "done":
            break
    return "\n".join(lines) + ("\n" if lines else "")
