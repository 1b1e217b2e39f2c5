"""Judging a run the same way for every planner: goal check, answer check, error type.

A planning run gets three separate measures (SayPlan Table 3, docs/eval.md):
*executable* (the simulator accepts the plan, set by the planner), *correct*
(the goal holds after a relaxed execution of the plan, which applies every
step's effects and ignores the preconditions that fail) and the strict
*success* of the status (executable and the goal reached). A search run is
judged on its answer (`answer_correct`) and, apart from it, on whether the
rooms holding the answer were expanded (`answer_room_explored`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sceneplan.errors import GoalParseError, PlanParseError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.planners.episode import Episode, ErrorType, Status
from sceneplan.planners.records import RelaxedRecord
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.domain import Cause
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task
from sceneplan.world.vocabulary import Vocabulary


def classify(cause: Cause | str) -> ErrorType:
    """The plan error type (SayPlan Table 3, right) of a simulator failure cause.

    Each cause carries its error type where it is defined (`world.domain`).
    """
    return ErrorType(Cause(cause).error_type)


def finish_episode(
    episode: Episode,
    task: Task | None,
    graph: SceneGraph,
    final_state: WorldState | None,
    vocabulary: Vocabulary,
) -> None:
    """Fill in the goal check, correctness, the answer check, the error type and the status.

    `graph` is the world the run started in; `vocabulary` the planner's action vocabulary.
    """
    if final_state is not None:
        episode.final_changes = final_state.changes()
    if task is not None and task.goal is not None:
        try:
            goal = parse_goal(task.goal, graph)
        except GoalParseError as exc:
            if episode.status is not Status.ERROR:  # else keep what stopped the run
                episode.status, episode.error = Status.ERROR, f"task {task.id}: {exc}"
            return
        if final_state is not None:
            episode.goal_reached = goal.holds(final_state)
            episode.goal_unmet = goal.explain(final_state)
        episode.correct = _judge_correct(episode, goal, graph, vocabulary)
    if task is not None and task.is_search:
        _judge_answer(episode, task, graph)
    _classify_error(episode, graph)
    if episode.status is Status.ERROR:
        return
    if task is not None and task.is_search:
        ok = bool(episode.answer_correct)
    elif task is None and not episode.plan:
        ok = bool(episode.answer)  # a free search: nothing to judge the answer against
    else:
        ok = bool(episode.executable) and episode.goal_reached is not False
    episode.status = Status.SUCCESS if ok else Status.FAILED


def _judge_correct(
    episode: Episode, goal: Formula, graph: SceneGraph, vocabulary: Vocabulary
) -> bool:
    """Whether the goal holds after the plan's relaxed execution from the start graph."""
    actions = _parsed(episode.full_plan or episode.plan)
    simulator = Simulator(graph, vocabulary)
    relaxed = simulator.relaxed_run(actions)
    if relaxed.ignored or relaxed.skipped:
        episode.relaxed = RelaxedRecord(**relaxed.to_dict())
    return goal.holds(relaxed.final_state)


def _parsed(plan: Sequence[str]) -> list[Action]:
    """The steps that parse as actions (a step that does not is not applied)."""
    actions = []
    for step in plan:
        try:
            actions.append(parse_action(step))
        except PlanParseError:
            continue
    return actions


def _judge_answer(episode: Episode, task: Task, graph: SceneGraph) -> None:
    """Judge the answer (`answer_correct`) and, apart from it, the search
    (`answer_room_explored`, SayPlan Table 1's "found": every room holding the
    answer is in the subgraph the model switched to planning with, expanded
    then, and every room the task says must be searched was expanded at some
    turn). A room expanded and contracted again before the switch does not
    count; a run with no recorded subgraph (no search) is judged on `explored`.

    Nodes of another kind than the task's `answer_kind` are read as context and left
    out (a room question answered with the room and the object that identifies it
    names the right room); unknown ids are not. "Nothing" (an empty answer) is right
    only for a task without an answer, and only once its `must_explore` rooms were
    all expanded.
    """
    explored = set(episode.explored)
    searched = set(task.must_explore) <= explored
    if task.has_no_answer:
        episode.answer_correct = not episode.answer and searched
    else:
        named = {n for n in episode.answer if _of_kind(n, task.answer_kind, graph)}
        episode.answer_correct = searched and named <= task.answers and len(named) >= task.needed
    rooms = set(task.answer_rooms) or {
        room for node in task.answers if (room := graph.room_of(node)) is not None
    }
    subgraph = set(episode.subgraph if episode.subgraph is not None else explored)
    if rooms or task.must_explore:
        episode.answer_room_explored = searched and rooms <= subgraph


def _of_kind(node: str, kind: str | None, graph: SceneGraph) -> bool:
    """Whether an answered id counts as an answer: unknown ids always do."""
    if kind is None or node not in graph:
        return True
    return graph.nodes[node].kind is NodeKind(kind)


def _classify_error(episode: Episode, graph: SceneGraph) -> None:
    if episode.executable is False and episode.failure is not None:
        if episode.failure.get("cause"):  # else a stop no simulator cause explains (step cap)
            episode.error_type = classify(episode.failure["cause"])
    elif episode.executable and episode.goal_reached is False:
        explored = set(episode.explored)
        goal_rooms = {
            room
            for node in parse_goal(episode.goal or "true").nodes()
            if node in graph and (room := graph.room_of(node)) is not None
        }
        searched = bool(episode.search)
        if searched and goal_rooms - explored:
            episode.error_type = ErrorType.INCOMPLETE_SEARCH
        else:
            episode.error_type = ErrorType.MISSING_ACTION
