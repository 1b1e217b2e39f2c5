"""SayPlan Lite (LookPlanGraph App. A.2): SayPlan's two stages as two separate, shorter dialogues.

The search dialogue only explores (its prompt knows nothing of actions); the
planning dialogue starts afresh from the explored subgraph and only plans,
with the room-level vocabulary (go_to, pick_up, put_on, put_inside, ...),
so there are no poses to show or insert.
"""

from __future__ import annotations

from sceneplan.graph.views import GraphView
from sceneplan.planners.base import Run
from sceneplan.planners.dialogue import render
from sceneplan.planners.sayplan import SayPlan
from sceneplan.planners.search import view_mode
from sceneplan.planners.shared import actions_text
from sceneplan.world.partial import LOOKS

# Looking is for graphs that are not fully known; fully observing, the search shows everything.
_NOT_PLANNED = frozenset(LOOKS)


class SayPlanLite(SayPlan):
    """SayPlan Lite: SayPlan's search and planning as two dialogues, room-level actions."""

    name = "sayplan_lite"
    vocabulary = "lookplangraph"

    class Options(SayPlan.Options):
        """SayPlan's options; the actions are always the room-level ones (`actions` is moot)."""

        def vocabulary(self, declared: str) -> str:
            """LookPlanGraph's actions, declared, whatever `actions` says."""
            return declared

    def search_prompt(self, run: Run, find: bool, view: GraphView) -> str:
        """The search dialogue's prompt: exploring only, nothing of actions."""
        return search_prompt(view, render("sayplan_answer.md") if find else "")

    def planning_prompt(self, run: Run) -> str:
        """The planning dialogue's prompt: the actions (looks only on memory)."""
        skip = frozenset() if self.options.partial else _NOT_PLANNED
        return render("sayplan_lite_plan.md", actions=actions_text(run.simulator, skip))


def search_prompt(view: GraphView, answer: str) -> str:
    """The search dialogue's system prompt, for the view the search starts from."""
    return render(
        "sayplan_lite_search.md",
        view=render(f"sayplan_lite_view_{view_mode(view)}.md"),
        answer=answer,
    )
