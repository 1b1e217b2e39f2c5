"""SayPlan Lite (LookPlanGraph App. A.2): SayPlan's two stages as two separate, shorter dialogues.

The search dialogue only explores (its prompt knows nothing of actions); the
planning dialogue starts afresh from the explored subgraph and only plans,
with the room-level vocabulary (go_to, pick_up, put_on, put_inside, ...),
so there are no poses to show or insert. With `observe=partial` it is
`SayPlanLiteOnMemory`: SayPlan's stages on memory with these two dialogues.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from sceneplan.graph.views import GraphView
from sceneplan.planners.base import Run
from sceneplan.planners.dialogue import render
from sceneplan.planners.sayplan import SayPlan, SayPlanOnMemory
from sceneplan.planners.search import view_mode
from sceneplan.planners.shared import actions_text
from sceneplan.world.partial import LOOKS
from sceneplan.world.vocabularies import LOOKPLANGRAPH


class SayPlanLite(SayPlan):
    """SayPlan Lite: SayPlan's search and planning as two dialogues, room-level actions."""

    name = "sayplan_lite"
    vocabulary = LOOKPLANGRAPH
    # the actions the planning prompt leaves out: looking is for graphs that are not fully
    # known; fully observing, the search shows everything
    unplanned: ClassVar[frozenset[str]] = frozenset(LOOKS)

    class Options(SayPlan.Options):
        """SayPlan's options; the actions are always the room-level ones."""

        actions: Literal["lookplangraph"] = Field(
            "lookplangraph",
            description="lookplangraph only: SayPlan Lite plans with the room-level actions "
            "(go_to/pick_up/put_on/put_inside, no poses)",
        )

    def search_prompt(self, run: Run, find: bool, view: GraphView) -> str:
        """The search dialogue's prompt: exploring only, nothing of actions."""
        return search_prompt(view, render("sayplan_answer.md") if find else "")

    def planning_prompt(self, run: Run) -> str:
        """The planning dialogue's prompt: the actions (looks only on memory)."""
        return render("sayplan_lite_plan.md", actions=actions_text(run.simulator, self.unplanned))


class SayPlanLiteOnMemory(SayPlanOnMemory, SayPlanLite):
    """SayPlan Lite on the robot's memory (`observe=partial`): SayPlan's stages on memory
    (`SayPlanOnMemory`) with SayPlan Lite's two dialogues, whose plans may look."""

    unplanned: ClassVar[frozenset[str]] = frozenset()


SayPlanLite.on_memory = SayPlanLiteOnMemory  # observe=partial


def search_prompt(view: GraphView, answer: str) -> str:
    """The search dialogue's system prompt, for the view the search starts from."""
    return render(
        "sayplan_lite_search.md",
        view=render(f"sayplan_lite_view_{view_mode(view)}.md"),
        answer=answer,
    )
