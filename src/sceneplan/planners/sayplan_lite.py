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
from sceneplan.planners.replanning import iterative_replanning
from sceneplan.planners.sayplan import SayPlan, actions_text
from sceneplan.planners.search import is_search, semantic_search, view_mode

# Looking is for graphs that are not fully known; fully observing, the search shows everything.
_NOT_PLANNED = frozenset({"look_on", "look_inside"})


class SayPlanLite(SayPlan):
    """SayPlan Lite: SayPlan's search and planning as two dialogues, room-level actions."""

    name = "sayplan_lite"
    vocabulary = "lookplangraph"

    async def _run(self, run: Run) -> None:
        if self.partial:  # looks are for a graph that is not fully known: here they are planned
            answer = render("sayplan_answer.md") if is_search(run) else ""
            await self._on_memory(
                run,
                lambda view: search_prompt(view, answer),
                render("sayplan_lite_plan.md", actions=actions_text(run.simulator)),
            )
            return
        find = is_search(run)
        answer = render("sayplan_answer.md") if find else ""
        view = self.start_view(run, topology=False)
        search = self.dialogue(search_prompt(view, answer))
        result = await semantic_search(
            run,
            search,
            find=find,
            max_turns=self.options.max_search_turns,
            topology=False,
            view=view,
            on_event=self.on_event,
        )
        if find:
            run.episode.answer = result.answer
            return
        planning = self.dialogue(
            render("sayplan_lite_plan.md", actions=actions_text(run.simulator, _NOT_PLANNED))
        )
        await iterative_replanning(
            run,
            planning,
            result.view,
            max_replans=self.max_replans,
            path_planner=False,
            topology=False,
            on_event=self.on_event,
        )


def search_prompt(view: GraphView, answer: str) -> str:
    """The search dialogue's system prompt, for the view the search starts from."""
    return render(
        "sayplan_lite_search.md",
        view=render(f"sayplan_lite_view_{view_mode(view)}.md"),
        answer=answer,
    )
