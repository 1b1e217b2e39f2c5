"""The problem of a scene as PDDL: its objects by type, its static facts and state, and
a goal translated from the goal language (`goal`); `export_pddl` writes the domain
(`domain`) and the problem together, each simplified for the other."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.symbolic.pddl import write
from sceneplan.symbolic.pddl.domain import (
    check_name,
    domain_affordances,
    domain_pddl,
    export_vocabulary,
    primitives_of,
)
from sceneplan.symbolic.pddl.focus import focus, goal_scope, scope_links
from sceneplan.symbolic.pddl.goal import translate_goal
from sceneplan.symbolic.pddl.node_types import has_receptacles, pddl_type
from sceneplan.symbolic.pddl.simplify import scene_types
from sceneplan.symbolic.scope import Scope
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.pddl_expr import TRUE, Atom, atom
from sceneplan.world.primitives import pddl_affordance, pddl_attribute, pddl_category, pddl_word
from sceneplan.world.rules import appliance_functions
from sceneplan.world.state import WorldState, holds_inside
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

K = NodeKind


def static_facts(
    graph: SceneGraph,
    vocabulary: Vocabulary = SAYPLAN,
    nodes: Collection[str] | None = None,
    links: Iterable[tuple[str, str]] | None = None,
) -> list[Atom]:
    """Facts that no action changes: topology, rooms, ancestry, affordances, appliances,
    and the static facts of the vocabulary's own primitives (`Primitive.pddl_static`,
    e.g. ALFWorld's `alfworld_fits`).

    `nodes` limits them to a set of nodes (a focused problem), `links` replaces
    the topology's edges (each written both ways).
    """
    facts = [atom("two_handed")] if graph.hands == 2 else []
    members = [n.id for n in graph] if nodes is None else list(nodes)
    for primitive in primitives_of(vocabulary.actions.values()):
        facts += primitive.pddl_static(graph, members)
    for a, b in graph.topology.edges if links is None else links:
        facts += [atom("linked", a, b), atom("linked", b, a)]
    affordances = domain_affordances(vocabulary.actions.values())
    functions = appliance_functions()
    for node in graph if nodes is None else (graph.nodes[n] for n in nodes):
        if node.kind in (K.ASSET, K.ROOM, K.POSE, K.FLOOR):
            facts += [atom("static_within", node.id, y) for y in graph.ancestors(node.id)]
        if node.kind in (K.ASSET, K.ROOM, K.POSE, K.AGENT):
            facts.append(atom("same", node.id, node.id))
        if node.kind is K.ASSET and (room := graph.room_of(node.id)) is not None:
            facts.append(atom("asset_in_room", node.id, room))
        if node.kind not in (K.ASSET, K.OBJECT):
            continue
        facts += [atom(pddl_affordance(a), node.id) for a in node.affordances if a in affordances]
        if holds_inside(node):
            facts.append(atom("container", node.id))
        facts += [atom(f.makes, node.id) for f in functions if node.category in f.categories]
        if node.kind is K.OBJECT:
            facts += [
                atom(f.takes, node.id)
                for f in functions
                if f.targets is not None and node.category in f.targets
            ]
    return facts


def state_facts(state: WorldState, nodes: Collection[str] | None = None) -> list[Atom]:
    """Facts of one world state: agent, hand, containment (with its closure), state words.

    `nodes` limits them to a set of nodes that holds, with each object, its parents.
    """
    graph = state.graph
    facts = [atom("agent_at", state.agent_at)]
    facts.append(atom("accessed", state.accessed or state.agent_id))
    facts += [atom("holding", o) for o in state.held] or [atom("handempty")]
    if state.hands == 2 and state.hand_free:
        facts.append(atom("hand_free"))
    if state.done:
        facts.append(atom("finished"))
    for node in graph if nodes is None else (graph.nodes[n] for n in nodes):
        facts += [atom(pddl_word(w), node.id) for w in sorted(state.states(node.id))]
        if node.kind is not K.OBJECT:
            continue
        relation = state.relation(node.id)
        parent = state.parent(node.id)
        if relation in (Relation.ONTOP_OF, Relation.INSIDE_OF) and parent is not None:
            facts.append(atom(relation.value, node.id, parent))
        child, shut = node.id, False
        while parent is not None and graph.nodes[parent].kind in (K.ASSET, K.OBJECT):
            facts.append(atom("below", node.id, parent))
            if state.relation(child) is Relation.INSIDE_OF:
                facts.append(atom("enclosed", node.id, parent))
                shut = shut or "closed" in state.states(parent)
            if graph.nodes[parent].kind is K.ASSET:
                room = graph.room_of(parent)
                if room is not None:
                    facts.append(atom("located", node.id, room))
            child, parent = parent, state.parent(parent)
        if shut:
            facts.append(atom("shut", node.id))
    return facts


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


def export_pddl(
    graph: SceneGraph,
    goal: Formula | str | None = None,
    state: WorldState | None = None,
    vocabulary: Vocabulary | None = None,
    scope: Scope | None = None,
    goal_comment: Iterable[str] = (),
) -> PDDLFiles:
    """Domain and problem text: objects are the nodes, init the state, goal the formula.

    Without a goal the problem's goal is empty (true), which still lets a
    validator check that a plan is executable. `goal_comment`: lines written as
    `;` comments above the goal. With a `scope` (see
    `focused_problem`), only its nodes are written, and a macro scope links
    every two of its places, so a plan's moves are the solver's macro moves.
    The vocabulary is, unless given, the one planners use in the graph
    (`export_vocabulary`: ALFWorld's in an ALFWorld room, else SayPlan's).
    """
    vocabulary = export_vocabulary(graph, vocabulary)
    if isinstance(goal, str):
        goal = parse_goal(goal, graph)
    state = state if state is not None else WorldState(graph)
    nodes: list[str] | None = None
    links: list[tuple[str, str]] | None = None
    if scope is not None:
        goal, nodes = focus(graph, state, scope, goal)
        links = scope_links(graph, scope, nodes)
    translated = translate_goal(goal, graph) if goal is not None else None
    members = list(graph) if nodes is None else [graph.nodes[n] for n in nodes]
    words = {w for n in members for w in n.state} | (translated.words if translated else set())
    by_type: dict[str, list[str]] = {}
    receptacles = has_receptacles(members)
    for node in members:
        check_name(node.id, "node id")
        by_type.setdefault(pddl_type(state, node.id, receptacles), []).append(node.id)
    scene = scene_types(by_type, members, graph.hands == 2)
    domain = domain_pddl(
        vocabulary,
        words,
        translated.categories if translated else (),
        translated.attributes if translated else (),
        scene,
    )
    init = static_facts(graph, vocabulary, nodes, links) + state_facts(state, nodes)
    if translated is not None:
        for category in sorted(translated.categories):
            predicate = pddl_category(category)
            init += [atom(predicate, n.id) for n in members if n.category == category]
        for word in sorted(translated.attributes):
            predicate = pddl_attribute(word)
            init += [atom(predicate, n.id) for n in members if word in n.attributes]
    name = re.sub(r"[^a-z0-9_]", "_", (graph.name or "scene").lower()) or "scene"
    goal_tree = scene.simplify_goal(translated.tree) if translated else TRUE
    problem = write.problem(
        name, f"sceneplan_{vocabulary.name}", by_type, init, goal_tree, goal_comment
    )
    return PDDLFiles(domain, problem)


def focused_problem(
    graph: SceneGraph,
    goal: Formula | str,
    state: WorldState | None = None,
    vocabulary: Vocabulary | None = None,
) -> PDDLFiles:
    """The problem the solver plans on first: the goal's focused scope (`symbolic.scope`).

    Its moves are macro moves between the scope's places (`Navigator.expand_plan`
    turns a plan's moves into pose-level steps).
    """
    if isinstance(goal, str):
        goal = parse_goal(goal, graph)
    vocabulary = export_vocabulary(graph, vocabulary)
    state = state if state is not None else WorldState(graph)
    scope = goal_scope(graph, goal, state, vocabulary)
    return export_pddl(graph, goal, state, vocabulary, scope)
