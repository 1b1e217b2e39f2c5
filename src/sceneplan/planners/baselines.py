"""The baselines of SayPlan Sec. 4: the same semantic search, then one open-loop plan.

- LLM-As-Planner writes the whole plan, every pose-level move included: no
  path planner, no replanning. Skipped poses fail as `not_adjacent`, which
  counts as a missing pose.
- LLM+P (SayPlan without iterative replanning): the path planner fills in
  the navigation, and the plan is verified once.
"""

from __future__ import annotations

from sceneplan.planners.sayplan import SayPlan, SearchOptions
from sceneplan.world.vocabularies import SAYPLAN


class LLMAsPlanner(SayPlan):
    """LLM-As-Planner: one plan with every pose, no path planner, no replanning."""

    name = "llm_as_planner"
    vocabulary = SAYPLAN
    path_planner = False

    class Options(SearchOptions):
        """Semantic search's options: one open-loop plan follows, nothing to replan."""

    @property
    def max_replans(self) -> int:
        """No replanning: the one plan is verified once."""
        return 0


class LLMPlusP(LLMAsPlanner):
    """LLM+P: one plan, the path planner inserts the poses, no replanning."""

    name = "llm_plus_p"
    path_planner = True
