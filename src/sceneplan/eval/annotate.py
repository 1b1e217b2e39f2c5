"""What the metrics need from the scene graph, added to each Episode when it is stored.

Metrics are computed from stored Episodes alone, so the runner records here,
with the task's graph at hand, the node sets of LookPlanGraph App. D and the
rooms among the explored nodes, in `episode.eval` (an `EvalFacts`):

- `explored_rooms`: the room nodes of `episode.explored`, in order.
- `important`: nodes that must change to reach the goal: the subjects (first
  argument) of the goal literals that are false in the initial state. The
  papers diff an initial and a goal *graph*; a goal formula stands in for the
  goal graph, and of its alternatives (`or`, `exists`) the one needing the
  fewest changes counts.
- `right`: changed nodes whose goal literals all hold in the final state (the
  alternative that holds there, if any).
- `observed`: assets and objects the planner saw: its own `observed`
  list when it records one, else those inside the rooms it expanded; absent
  when neither is known (NRR is then undefined, as "-" in the paper).

The goal graph (LookPlanGraph 004, Sec. 6.3 and App. D): the initial graph
after the task's reference plan, run in the simulator. With it:

- `goal_changed`: the assets and objects whose configuration (parent,
  relation, state words) differs between the initial and the goal graph:
  the paper's important nodes, NRR's denominator.
- `run_changed`: the assets and objects whose configuration the run changed;
  `goal_right`: those of them whose final configuration is the
  goal graph's; `goal_mismatch`: the nodes whose final configuration is not
  the goal graph's (a node the run changed that the reference plan leaves
  alone, or one it should have changed). Success is an empty mismatch.
- `goal_graph_error`: why there is no goal graph (no reference plan, or it
  does not run), in which case the metrics fall back to the formula.
"""

from __future__ import annotations

from typing import Any

from sceneplan.datasets.tasks import Task
from sceneplan.errors import SceneplanError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode
from sceneplan.planners.records import EvalFacts
from sceneplan.world.actions import parse_plan
from sceneplan.world.goal_forms import nnf
from sceneplan.world.goals import And, Atom, Formula, Implies, Not, Or, Quantified, parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import ALFWORLD, LOOKPLANGRAPH, SAYPLAN

_SEEN_KINDS = (NodeKind.ASSET, NodeKind.OBJECT)

Literal = tuple[str | None, bool]  # (the node it is about, whether it holds)


def annotate(episode: Episode, task: Task, graph: SceneGraph) -> None:
    """Record in `episode.eval` the graph facts the metrics need.

    `graph` is the graph the run started from: the environment with the task's
    `initial` facts applied (`sceneplan.runs.resolve`), as the planner got it.
    """
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
    info |= goal_graph_scores(episode, task, graph)
    episode.eval = EvalFacts(**info)


# The vocabularies a reference plan may be written in, tried in this order.
_PLAN_VOCABULARIES = (LOOKPLANGRAPH, SAYPLAN, ALFWORLD)


def goal_state(task: Task, graph: SceneGraph) -> WorldState | str:
    """The goal graph as a world state: `graph` after the task's reference plan; or why
    there is none.

    The plan is run in the first vocabulary that has all its actions (in SayPlan's,
    after the path planner adds the poses its room-level moves need).
    """
    if not task.reference_plan:
        return "the task has no reference plan"
    try:
        plan = parse_plan(task.reference_plan)
    except SceneplanError as exc:
        return f"its reference plan does not parse: {exc}"
    names = {a.name for a in plan}
    for declared in _PLAN_VOCABULARIES:
        vocabulary = declared.in_graph(graph)
        if not names <= set(vocabulary.actions):
            continue
        try:
            steps = Navigator(graph, vocabulary).expand_plan(plan)  # poses where it moves by them
        except SceneplanError as exc:
            return f"its reference plan does not run: {exc}"
        result = Simulator(graph, vocabulary).verify_plan(steps)
        if result.failure is not None:
            return f"its reference plan does not run: {result.failure.message}"
        return result.final_state
    return "its reference plan uses actions of no known vocabulary"


def node_config(state: WorldState, node: str) -> tuple[str | None, str | None, frozenset[str]]:
    """What the paper compares of a node: where it is (parent, relation) and its state."""
    relation = state.relation(node)
    return state.parent(node), relation.value if relation else None, state.states(node)


def differing(a: WorldState, b: WorldState) -> set[str]:
    """The assets and objects whose configuration differs between two states of one graph.

    Only a node that either state changed can differ (`WorldState.touched`), so the
    cost is the size of the changes, not of the building.
    """
    graph = a.graph
    return {
        n
        for n in a.touched() | b.touched()
        if n in graph.nodes
        and graph.nodes[n].kind in _SEEN_KINDS
        and node_config(a, n) != node_config(b, n)
    }


def goal_graph_scores(episode: Episode, task: Task, graph: SceneGraph) -> dict[str, Any]:
    """`goal_changed`, `goal_right` and `goal_mismatch` against the goal graph (see above),
    or `goal_graph_error`."""
    if task.goal is None or task.is_search:
        return {}
    goal = goal_state(task, graph)
    if isinstance(goal, str):
        return {"goal_graph_error": goal}
    start = WorldState(graph)
    final = final_state(graph, episode.final_changes)
    changed = differing(start, final)
    wrong = differing(final, goal)
    return {
        "goal_changed": sorted(differing(start, goal)),
        "run_changed": sorted(changed),
        "goal_right": sorted(changed - wrong),
        "goal_mismatch": sorted(wrong),
    }


def changed_nodes(changes: dict[str, Any]) -> set[str]:
    """Nodes that differ from the initial graph: moved objects and changed states.

    The agent's own moves (the only moves without a relation) are not node changes.
    """
    moved = {n for n, m in changes.get("moved", {}).items() if m.get("relation") is not None}
    return moved | set(changes.get("state", {}))


def observed_nodes(episode: Episode, graph: SceneGraph) -> list[str] | None:
    """The assets and objects the planner saw, or None when it is not known."""
    recorded = episode.observed
    if recorded is not None:
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
        state.held = tuple(c for c in state.children(agent) if state.relation(c) is Relation.HELD)
    return state


def literals(formula: Formula, state: WorldState) -> list[Literal]:
    """The ground literals that decide `formula` in `state`, with whether each holds.

    Conjunctions and `forall` keep every part; of the parts of a disjunction
    or an `exists`, the first that holds, else the one with the fewest false
    literals; an implication counts only where its condition holds (a guard).
    Negations are pushed down to the literals (`goal_forms.nnf`).
    """
    return _deciding(nnf(formula, keep_implies=True), state, {})


def _deciding(f: Formula, state: WorldState, env: dict[str, str]) -> list[Literal]:
    """`literals` of `f` with its free variables bound as in `env` (as if substituted)."""
    match f:
        case Atom():
            return [_literal(f, state, env, True)]
        case Not(body=Atom() as atom):
            return [_literal(atom, state, env, False)]
        case And(parts=parts):
            return [lit for part in parts for lit in _deciding(part, state, env)]
        case Or(parts=parts):
            return _choose([_deciding(part, state, env) for part in parts])
        case Implies(left=left, right=right):
            return _deciding(right, state, env) if left.holds(state, env) else []
        case Quantified(universal=universal, var=var, body=body):
            options = [_deciding(body, state, {**env, var: x}) for x in f.domain(state.graph)]
            return [lit for option in options for lit in option] if universal else _choose(options)
    return []  # true / false name no node


def _literal(atom: Atom, state: WorldState, env: dict[str, str], positive: bool) -> Literal:
    """The node an atom is about and whether it holds (`positive`) or not, under `env`."""
    args = tuple(env.get(a, a) for a in atom.args)
    predicate = atom.predicate
    holds = predicate.holds(state, *args)
    return predicate.subject_of(args), holds if positive else not holds


def _choose(options: list[list[Literal]]) -> list[Literal]:
    for option in options:
        if all(holds for _, holds in option):
            return option
    return min(options, key=lambda o: sum(not holds for _, holds in o), default=[])
