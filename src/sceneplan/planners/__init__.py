"""Planners: one interface (`plan(task_or_instruction, graph, llm) -> Episode`), many methods.

Planners are registered by name and imported only when asked for; installed
packages add more through the `sceneplan.planners` entry-point group. Each
declares its options (`Planner.Options`). To plan by environment name or
packaged task, see `sceneplan.runs`.
"""

from sceneplan.planners.base import (
    PLANNERS,
    Planner,
    Reply,
    Run,
    get_planner,
    planner_class,
    planner_names,
)
from sceneplan.planners.episode import Episode, ErrorType, Status
from sceneplan.planners.options import PlannerOptions

__all__ = [
    "PLANNERS",
    "Episode",
    "ErrorType",
    "Planner",
    "PlannerOptions",
    "Reply",
    "Run",
    "Status",
    "get_planner",
    "planner_class",
    "planner_names",
]
