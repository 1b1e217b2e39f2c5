"""The baselines of SayPlan Sec. 4: the same semantic search, then one open-loop plan.

- LLM-As-Planner writes the whole plan, every pose-level move included: no
  path planner, no replanning. Skipped poses fail as `not_adjacent`, which
  counts as a missing pose.
- LLM+P (SayPlan without iterative replanning): the path planner fills in
  the navigation, and the plan is verified once.
"""

from __future__ import annotations

from sceneplan.planners.progress import OnEvent
from sceneplan.planners.sayplan import SayPlan


class LLMAsPlanner(SayPlan):
    """LLM-As-Planner. Options: `max_search_turns` (25), `on_event`."""

    name = "llm_as_planner"
    path_planner = False

    def __init__(self, max_search_turns: int = 25, on_event: OnEvent | None = None):
        super().__init__(max_search_turns, max_rounds=1, on_event=on_event)


class LLMPlusP(SayPlan):
    """LLM+P. Options: `max_search_turns` (25), `on_event`."""

    name = "llm_plus_p"
    path_planner = True

    def __init__(self, max_search_turns: int = 25, on_event: OnEvent | None = None):
        super().__init__(max_search_turns, max_rounds=1, on_event=on_event)
