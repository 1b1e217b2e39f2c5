"""Judging a run the same way for every planner: goal check, answer check, error type."""

from __future__ import annotations

from sceneplan.errors import GoalParseError
from sceneplan.graph.model import SceneGraph
from sceneplan.planners.episode import Episode, ErrorType, Status
from sceneplan.world.domain import Cause
from sceneplan.world.goals import parse_goal
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task


def classify(cause: Cause | str) -> ErrorType:
    """The plan error type (SayPlan Table 3, right) of a simulator failure cause.

    Each cause carries its error type where it is defined (`world.domain`).
    """
    return ErrorType(Cause(cause).error_type)


def finish_episode(
    episode: Episode, task: Task | None, graph: SceneGraph, final_state: WorldState | None
) -> None:
    """Fill in the goal check, the answer check, the error type and the status."""
    if final_state is not None:
        episode.final_changes = final_state.changes()
        if task is not None and task.goal is not None:
            try:
                goal = parse_goal(task.goal, graph)
            except GoalParseError as exc:
                episode.status, episode.error = Status.ERROR, f"task {task.id}: {exc}"
                return
            episode.goal_reached = goal.holds(final_state)
            episode.goal_unmet = goal.explain(final_state)
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


def _judge_answer(episode: Episode, task: Task, graph: SceneGraph) -> None:
    given = set(episode.answer)
    if task.has_no_answer:
        episode.answer_correct = not given
    else:
        needed = task.answer_count or 1
        episode.answer_correct = bool(given) and given <= task.answers and len(given) >= needed
    targets = set(task.answer_rooms) or {
        room for node in task.answers if (room := graph.room_of(node)) is not None
    }
    if targets:
        episode.answer_room_explored = targets <= set(episode.explored)


def _classify_error(episode: Episode, graph: SceneGraph) -> None:
    if episode.executable is False and episode.failure is not None:
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
