"""Why no plan reaches a goal, when the scene itself says so before any search.

A planner that finds no plan can only say that none exists. Four reasons are
plain from the scene graph and the domain, and each is worth saying instead:

- **fixed**: the goal needs a thing in the hand, or moved, that no action of
  the vocabulary picks up (a radiator, an asset; an object without `pickup`);
- **nothing accepts it**: the goal puts a thing on or in a node the predicate
  says can never take it (`achievable` is False: no `release`);
- **unreachable**: a node the goal names is in a room no path of rooms and
  poses joins to the robot's start;
- **in no room**: a node the goal names hangs under no room (a floor, a
  building), so no action can reach it.

Only the atoms every way to the goal needs are read (a conjunction's, not a
disjunction's alternatives); a reason found is certain, and no reason found
says nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.actions import Action
from sceneplan.world.domain import Param
from sceneplan.world.goals import And, Atom, Formula
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

__all__ = ["start_place", "unreachable_rooms", "why_no_plan", "why_step_fails"]

TAKE = "grab"  # the effect primitive that puts a thing in the hand (world.rules.Grab)


def start_place(graph: SceneGraph) -> str | None:
    """The room or pose the robot starts at (its parent, or the nearest place above it)."""
    if not graph.has_agent:
        return None
    node: str | None = graph.agent.parent
    while node is not None and not graph.is_place(node):
        node = graph.node(node).parent
    return node


def unreachable_rooms(graph: SceneGraph) -> list[str]:
    """The rooms no path of links joins to the robot's start (all of them if it has none)."""
    import networkx as nx

    start = start_place(graph)
    reached = nx.node_connected_component(graph.topology, start) if start is not None else set()
    return sorted(r.id for r in graph.of_kind(NodeKind.ROOM) if r.id not in reached)


def why_no_plan(graph: SceneGraph, goal: Formula, vocabulary: Vocabulary = SAYPLAN) -> list[str]:
    """The reasons, one sentence each, why the scene can never satisfy `goal` (maybe none)."""
    reasons: list[str] = []
    apart = set(unreachable_rooms(graph))
    for atom in _needed_atoms(goal):
        predicate, args = atom.predicate, atom.args
        nodes = [a for a in predicate.node_args(args) if a in graph]
        subject = predicate.subject_of(args)
        if predicate.placement and subject is not None and subject in graph:
            fixed = _fixed(graph, subject, vocabulary)
            if fixed:
                reasons.append(fixed)
            if len(nodes) == 2 and not predicate.achievable(graph, *args):
                target = graph.node(nodes[1])
                reasons.append(
                    f"nothing there accepts it: {target.id} takes nothing put on or in it "
                    f"(its affordances: {', '.join(target.affordances) or 'none'})"
                )
        reasons += _placed(graph, nodes, apart)
    return list(dict.fromkeys(reasons))


def why_step_fails(
    graph: SceneGraph, action: Action, vocabulary: Vocabulary = SAYPLAN
) -> list[str]:
    """What the scene says about a failing step's nodes: fixed, unreachable, in no room."""
    schema = vocabulary.actions.get(action.name)
    nodes = [a for a in action.args if a in graph]
    reasons = []
    if schema is not None and len(schema.params) == len(action.args):
        taken = {e.args[0] for e in schema.effects if e.op == TAKE}
        for param, arg in zip(schema.params, action.args, strict=True):
            if param.name in taken and arg in graph:
                reasons.append(_fixed(graph, arg, vocabulary))
    reasons += _placed(graph, nodes, set(unreachable_rooms(graph)))
    return list(dict.fromkeys(r for r in reasons if r))


def _needed_atoms(goal: Formula) -> Iterator[Atom]:
    """The positive atoms every way to the goal needs: the goal's own, or its conjuncts'."""
    if isinstance(goal, Atom):
        yield goal
    elif isinstance(goal, And):
        for part in goal.children():
            yield from _needed_atoms(part)


def _takers(vocabulary: Vocabulary) -> list[Param]:
    """The parameters the vocabulary's actions put in the hand (pickup's `o`)."""
    return [
        param
        for schema in vocabulary.actions.values()
        for effect in schema.effects
        if effect.op == TAKE
        for param in schema.params
        if param.name == effect.args[0]
    ]


def _fixed(graph: SceneGraph, node_id: str, vocabulary: Vocabulary) -> str:
    """Why no action picks the node up, or "" when one can."""
    node = graph.node(node_id)
    takers = _takers(vocabulary)
    if any(
        node.kind in p.kinds and (p.affordance is None or p.affordance in node.affordances)
        for p in takers
    ):
        return ""
    needs = sorted({p.affordance for p in takers if p.affordance})
    return (
        f"{node.id} is fixed: it is {node.kind.with_article} with affordances "
        f"{', '.join(node.affordances) or 'none'}, and "
        f"picking up needs an object that affords {' or '.join(needs) or 'it'}"
    )


def _placed(graph: SceneGraph, nodes: list[str], apart: set[str]) -> list[str]:
    """Nodes in no room, and rooms (of the nodes) the robot cannot reach."""
    reasons = []
    for node_id in nodes:
        if graph.node(node_id).kind in (NodeKind.BUILDING, NodeKind.FLOOR, NodeKind.AGENT):
            continue
        if "agent" in graph.ancestors(node_id):  # held: where the robot is
            continue
        room = graph.room_of(node_id)
        if room is None and not graph.is_place(node_id):
            reasons.append(f"{node_id} is in no room: no room holds it, so nothing reaches it")
        elif room in apart:
            reasons.append(
                f"{room} cannot be reached: no path of rooms and poses joins it to the "
                f"robot's start ({start_place(graph)})"
            )
    return reasons
