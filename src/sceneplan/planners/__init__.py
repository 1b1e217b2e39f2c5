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
    register_planner,
)
from sceneplan.planners.episode import Episode, ErrorType, Status
from sceneplan.planners.options import PlannerOptions

register_planner("sayplan", "sceneplan.planners.sayplan", "SayPlan")
register_planner("sayplan_lite", "sceneplan.planners.sayplan_lite", "SayPlanLite")
register_planner("llm_as_planner", "sceneplan.planners.baselines", "LLMAsPlanner")
register_planner("llm_plus_p", "sceneplan.planners.baselines", "LLMPlusP")
register_planner("oracle", "sceneplan.planners.oracle", "Oracle")
register_planner("lookplangraph", "sceneplan.planners.lookplangraph", "LookPlanGraph")
register_planner("sclplan", "sceneplan.planners.sclplan", "SCLPlan")
register_planner("react", "sceneplan.planners.react", "React")
register_planner("react_pv", "sceneplan.planners.react", "ReactPV")

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
    "register_planner",
]
