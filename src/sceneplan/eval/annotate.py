"""What the metrics need from the scene graph, added to each Episode when it is stored.

Metrics are computed from stored Episodes alone, so the runner records here,
with the task's graph at hand, the node sets of LookPlanGraph App. D and the
rooms among the explored nodes, under `episode.extra["eval"]`:

- `explored_rooms`: the room nodes of `episode.explored`, in order.
- `important`: nodes that must change to reach the goal: the subjects (first
  argument) of the goal literals that are false in the initial state. The
  papers diff an initial and a goal *graph*; a goal formula stands in for the
  goal graph, and of its alternatives (`or`, `exists`) the one needing the
  fewest changes counts.
- `right`: changed nodes whose goal literals all hold in the final state (the
  alternative that holds there, if any).
- `observed`: assets and objects the planner saw: its own `extra["observed"]`
  list when it records one, else those inside the rooms it expanded; absent
  when neither is known (NRR is then undefined, as "-" in the paper).
"""

from __future__ import annotations

from typing import Any

from sceneplan.datasets.tasks import Task
from sceneplan.errors import SceneplanError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.planners.episode import Episode
from sceneplan.world.goals import And, Atom, Formula, Implies, Not, Or, Quantified, parse_goal
from sceneplan.world.setup import with_facts
from sceneplan.world.state import WorldState

KEY = "eval"

# Predicates whose literals change no node of their own (the agent, static facts).
_NO_SUBJECT = {"handempty", "agent_at", "attr", "is"}
_SEEN_KINDS = (NodeKind.ASSET, NodeKind.OBJECT)

Literal = tuple[str | None, bool]  # (the node it is about, whether it holds)


def annotate(episode: Episode, task: Task, graph: SceneGraph) -> None:
    """Record in `episode.extra["eval"]` the graph facts the metrics need.

    `graph` is the environment's graph; the task's `initial` facts are applied
    to it, as the planner did, so that it is the state the run started from.
    """
    if task.initial:
        graph = with_facts(graph, task.initial)
    info: dict[str, Any] = {
        "explored_rooms": [
            n for n in episode.explored if n in graph and graph.nodes[n].kind is NodeKind.ROOM
        ]
    }
    observed = observed_nodes(episode, graph)
    if observed is not None:
        info["observed"] = observed
    if task.goal is not None:
        try:
            goal = parse_goal(task.goal, graph)
        except SceneplanError:  # the Episode already carries this error
            goal = None
        if goal is not None:
            info["important"] = sorted(
                {s for s, holds in literals(goal, WorldState(graph)) if s and not holds}
            )
            final = final_state(graph, episode.final_changes)
            judged = literals(goal, final)
            wrong = {s for s, holds in judged if not holds}
            good = {s for s, _ in judged if s} - wrong
            info["right"] = sorted(good & changed_nodes(episode.final_changes))
    episode.extra[KEY] = info


def changed_nodes(changes: dict[str, Any]) -> set[str]:
    """Nodes that differ from the initial graph: moved objects and changed states.

    The agent's own moves (the only moves without a relation) are not node changes.
    """
    moved = {n for n, m in changes.get("moved", {}).items() if m.get("relation") is not None}
    return moved | set(changes.get("state", {}))


def observed_nodes(episode: Episode, graph: SceneGraph) -> list[str] | None:
    """The assets and objects the planner saw, or None when it is not known."""
    recorded = episode.extra.get("observed")
    if isinstance(recorded, list):
        return sorted({n for n in recorded if n in graph and graph.nodes[n].kind in _SEEN_KINDS})
    rooms = [n for n in episode.explored if n in graph and graph.nodes[n].kind is NodeKind.ROOM]
    if not rooms:
        return None
    return sorted(
        {n for room in rooms for n in graph.descendants(room) if graph.nodes[n].kind in _SEEN_KINDS}
    )


def final_state(graph: SceneGraph, changes: dict[str, Any]) -> WorldState:
    """The world after a run, rebuilt from the initial graph and `Episode.final_changes`."""
    state = WorldState(graph)
    for node, move in changes.get("moved", {}).items():
        relation = Relation(move["relation"]) if move.get("relation") else None
        state.move(node, move["parent"], relation)
    for node, words in changes.get("state", {}).items():
        for word in words:
            state.set_state(node, word)
    if graph.has_agent:
        agent = graph.agent.id
        state.holding = next(
            (c for c in state.children(agent) if state.relation(c) is Relation.HELD), None
        )
    return state


def literals(
    formula: Formula, state: WorldState, env: dict[str, str] | None = None
) -> list[Literal]:
    """The ground literals that decide `formula` in `state`, with whether each holds.

    Conjunctions and `forall` keep every part; of the parts of a disjunction
    or an `exists`, the first that holds, else the one with the fewest false
    literals. Negations are pushed down to the literals.
    """
    env = env or {}
    match formula:
        case Atom(name=name, args=args):
            subject = None if name in _NO_SUBJECT or not args else env.get(args[0], args[0])
            return [(subject, formula.holds(state, env))]
        case Not(body=body):
            return _negated(body, state, env)
        case And(parts=parts):
            return [lit for part in parts for lit in literals(part, state, env)]
        case Or(parts=parts):
            return _choose([literals(part, state, env) for part in parts])
        case Implies(left=left, right=right):
            return literals(right, state, env) if left.holds(state, env) else []
        case Quantified(universal=universal, var=var, body=body):
            options = [literals(body, state, {**env, var: x}) for x in formula.domain(state.graph)]
            return [lit for option in options for lit in option] if universal else _choose(options)
    return []  # true / false name no node


def _negated(body: Formula, state: WorldState, env: dict[str, str]) -> list[Literal]:
    match body:
        case Atom():
            return [(s, not holds) for s, holds in literals(body, state, env)]
        case Not(body=inner):
            return literals(inner, state, env)
        case And(parts=parts):
            return literals(Or(tuple(Not(p) for p in parts)), state, env)
        case Or(parts=parts):
            return literals(And(tuple(Not(p) for p in parts)), state, env)
        case Implies(left=left, right=right):
            return literals(And((left, Not(right))), state, env)
        case Quantified(universal=universal, var=var, selector=selector, body=inner):
            return literals(Quantified(not universal, var, selector, Not(inner)), state, env)
    return []


def _choose(options: list[list[Literal]]) -> list[Literal]:
    for option in options:
        if all(holds for _, holds in option):
            return option
    return min(options, key=lambda o: sum(not holds for _, holds in o), default=[])
