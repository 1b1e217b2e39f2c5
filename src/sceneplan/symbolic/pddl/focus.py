"""The focused problem's nodes: the goal's focused scope (`symbolic.scope`), with the
atoms about objects outside it decided now, and the nodes a problem must declare."""

from __future__ import annotations

from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.symbolic.scope import Scope, focused_scope
from sceneplan.world.goal_forms import ground, literals, map_leaves, wrong_literals
from sceneplan.world.goals import Atom, Const, Formula
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import Vocabulary

K = NodeKind


def goal_scope(
    graph: SceneGraph, goal: Formula, state: WorldState, vocabulary: Vocabulary
) -> Scope:
    """The scope the solver plans in first for this goal (`symbolic.scope.focused_scope`)."""
    grounded = ground(goal, graph)
    seeds = [atom for atom, _ in wrong_literals(grounded, state)]
    return focused_scope(state, seeds, literals(grounded), vocabulary=vocabulary)


def scope_links(graph: SceneGraph, scope: Scope, nodes: list[str]) -> list[tuple[str, str]]:
    """The links between the scope's places among `nodes`: every two of them with macro
    moves, else the topology's own edges between them."""
    places = [p for p in scope.places if p in nodes]
    if scope.macro_moves:
        return [(a, b) for i, a in enumerate(places) for b in places[i + 1 :]]
    kept = set(places)
    return [(a, b) for a, b in graph.topology.edges if a in kept and b in kept]


def focus(
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
