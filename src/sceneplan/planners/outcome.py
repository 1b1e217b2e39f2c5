"""Judging a run the same way for every planner: goal check, answer check, error type."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sceneplan.errors import GoalParseError
from sceneplan.planners.episode import ErrorType, Status
from sceneplan.world.domain import Cause
from sceneplan.world.goals import parse_goal

if TYPE_CHECKING:
    from sceneplan.planners.base import Run

# SayPlan Table 3 (right): which simulator causes count as which plan error.
ERROR_TYPES: dict[Cause, ErrorType] = {
    Cause.UNKNOWN_NODE: ErrorType.HALLUCINATED_NODE,
    Cause.NOT_ADJACENT: ErrorType.MISSING_POSE,
    Cause.NOT_IN_ROOM: ErrorType.MISSING_ACTION,
    Cause.NOT_ACCESSED: ErrorType.MISSING_ACTION,
    Cause.NOTHING_ACCESSED: ErrorType.MISSING_ACTION,
    Cause.HAND_FULL: ErrorType.MISSING_ACTION,
    Cause.NOT_HOLDING: ErrorType.MISSING_ACTION,
    Cause.CONTAINER_CLOSED: ErrorType.MISSING_ACTION,
    Cause.IS_CLOSED: ErrorType.MISSING_ACTION,
    Cause.MUST_CLOSE_FIRST: ErrorType.MISSING_ACTION,
    Cause.UNKNOWN_ACTION: ErrorType.WRONG_ACTION,
    Cause.WRONG_ARITY: ErrorType.WRONG_ACTION,
    Cause.WRONG_KIND: ErrorType.WRONG_ACTION,
    Cause.NO_AFFORDANCE: ErrorType.WRONG_ACTION,
    Cause.ALREADY_OPEN: ErrorType.WRONG_ACTION,
    Cause.ALREADY_CLOSED: ErrorType.WRONG_ACTION,
    Cause.ALREADY_ON: ErrorType.WRONG_ACTION,
    Cause.ALREADY_OFF: ErrorType.WRONG_ACTION,
    Cause.NOT_A_CONTAINER: ErrorType.WRONG_ACTION,
}


def classify(cause: Cause | str) -> ErrorType:
    """The plan error type of a simulator failure cause."""
    return ERROR_TYPES[Cause(cause)]


def finish_episode(run: Run) -> None:
    """Fill in the goal check, the answer check, the error type and the status."""
    episode, task = run.episode, run.task
    if run.final_state is not None:
        episode.final_changes = run.final_state.changes()
        if task is not None and task.goal is not None:
            try:
                goal = parse_goal(task.goal, run.graph)
            except GoalParseError as exc:
                episode.status, episode.error = Status.ERROR, f"task {task.id}: {exc}"
                return
            episode.goal_reached = goal.holds(run.final_state)
            episode.goal_unmet = goal.explain(run.final_state)
    if task is not None and task.is_search:
        _judge_answer(run)
    _classify_error(run)
    if episode.status is Status.ERROR:
        return
    if task is not None and task.is_search:
        ok = bool(episode.answer_correct)
    elif task is None and not episode.plan:
        ok = bool(episode.answer)  # a free search: nothing to judge the answer against
    else:
        ok = bool(episode.executable) and episode.goal_reached is not False
    episode.status = Status.SUCCESS if ok else Status.FAILED


def _judge_answer(run: Run) -> None:
    episode, task = run.episode, run.task
    assert task is not None
    given = set(episode.answer)
    if task.has_no_answer:
        episode.answer_correct = not given
    else:
        needed = task.answer_count or 1
        episode.answer_correct = bool(given) and given <= task.answers and len(given) >= needed
    targets = set(task.answer_rooms) or {
        room for node in task.answers if (room := run.graph.room_of(node)) is not None
    }
    if targets:
        episode.answer_room_explored = targets <= set(episode.explored)


def _classify_error(run: Run) -> None:
    episode = run.episode
    if episode.executable is False and episode.failure is not None:
        episode.error_type = classify(episode.failure["cause"])
    elif episode.executable and episode.goal_reached is False:
        explored = set(episode.explored)
        goal_rooms = {
            room
            for node in parse_goal(episode.goal or "true").nodes()
            if node in run.graph and (room := run.graph.room_of(node)) is not None
        }
        searched = bool(episode.search)
        if searched and goal_rooms - explored:
            episode.error_type = ErrorType.INCOMPLETE_SEARCH
        else:
            episode.error_type = ErrorType.MISSING_ACTION
