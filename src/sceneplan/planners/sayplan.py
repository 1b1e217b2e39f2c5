"""SayPlan (Rana et al., CoRL 2023): semantic search, then iterative replanning, in one dialogue.

Algorithm 1: the model explores the collapsed scene graph with expand and
contract until it switches to planning; it then writes a high-level plan,
the path planner inserts the poses, the simulator verifies it, and its
feedback goes back to the model, for a first plan and at most `max_replans`
replans (5, as in the paper). Both stages are one dialogue. As in the paper it
is Markovian by default: each request carries the static prompt and one turn
with the instruction, the current graph, the memory of explored nodes and the
last feedback (`dialogue=chat` sends the whole exchange instead, the graph
only in the newest message). For a search task the run ends with the answer
the model names.

`sayplan[actions=lookplangraph]` is LookPlanGraph's SayPlan* (§6.1, its
Tables 2-3): the same method on the graph without its pose nodes, with the
room-level actions (go_to, pick_up, put_on, put_inside) instead of access
and release. With `observe=partial` it is `SayPlanOnMemory`: the search and
the plans work on the robot's memory (`planners/observing.py`), with the
room-level actions (go_to, pick_up, put_on, put_inside, and looks), and each
plan runs in the true world, which may refuse a step memory had wrong.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator

from sceneplan.graph.views import GraphView
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.dialogue import Dialogue, render
from sceneplan.planners.observing import (
    LOOKING,
    Observer,
    PartialOptions,
    on_memory,
    plan_and_act,
)
from sceneplan.planners.options import ViewOptions
from sceneplan.planners.replanning import iterative_replanning
from sceneplan.planners.search import (
    SearchResult,
    initial_view,
    is_search,
    semantic_search,
    view_mode,
)
from sceneplan.planners.shared import actions_text
from sceneplan.world.vocabularies import SAYPLAN, get_vocabulary
from sceneplan.world.vocabulary import Vocabulary


class SearchOptions(ViewOptions):
    """The options of semantic search, and of the dialogue the SayPlan family holds."""

    # above the Office's 37 rooms, so that a search may look everywhere
    max_search_turns: int = Field(40, ge=1, description="cap on semantic-search turns")
    dialogue: Literal["markov", "chat"] = Field(
        "markov",
        description="markov: each request is the static prompt and the latest turn "
        "(instruction, graph, memory, feedback), as in the paper; chat: the whole exchange",
    )


class ReplanOptions(SearchOptions):
    """Semantic search, then iterative replanning."""

    max_replans: int = Field(
        5, ge=0, description="replans after the first plan, each with the simulator's feedback"
    )


class SayPlan(Planner):
    """SayPlan: semantic search, then iterative replanning with the simulator's feedback."""

    name = "sayplan"
    vocabulary = SAYPLAN
    path_planner: ClassVar[bool] = True  # the path planner inserts the poses between rooms
    # the search's reply that switches to planning carries the first plan (one dialogue that
    # sees the whole graph; on memory, the plans come after the switch)
    plans_at_switch: ClassVar[bool] = True

    class Options(PartialOptions, ReplanOptions):
        """SayPlan's options: search, replanning, the actions, observing the world partially."""

        actions: Literal["sayplan", "lookplangraph"] = Field(
            "sayplan",
            description="sayplan: goto/access/release with the poses (the SayPlan paper); "
            "lookplangraph: SayPlan* of LookPlanGraph §6.1, no poses, go_to/pick_up/put_on/"
            "put_inside (`sayplan[actions=lookplangraph]`, the paper's Tables 2-3)",
        )

        @field_validator("actions")
        @classmethod
        def _applies(cls, actions: str, info: ValidationInfo) -> str:
            """Actions given with observe=partial must be the ones that look: on memory,
            those are the actions a run plans with."""
            if info.data.get("observe") == "partial" and actions != LOOKING.name:
                raise ValueError(
                    f"cannot be {actions} with observe=partial: plans on memory use "
                    f"{LOOKING.name}'s actions, which look"
                )
            return actions

        def vocabulary(self, declared: Vocabulary) -> Vocabulary:
            """The vocabulary `actions` names; on memory, the one that looks."""
            return super().vocabulary(get_vocabulary(self.actions))

    options: Options

    @property
    def max_replans(self) -> int:
        """Replans after the first plan: the option, or 0 for the open-loop baselines."""
        return self.options.max_replans

    def dialogue(self, system: str) -> Dialogue:
        """A dialogue with this system prompt, Markovian or whole as the `dialogue` option says."""
        return Dialogue(system, markov=self.options.dialogue == "markov")

    def start_view(self, run: Run, *, topology: bool = True) -> GraphView:
        """The view the search starts from, as the `collapse` option says."""
        options = self.options
        return initial_view(run.graph, options.collapse, options.collapse_budget, topology=topology)

    def poses(self, run: Run) -> bool:
        """Whether the graph keeps its pose nodes: whether the run's actions move through
        them (SayPlan* and SayPlan Lite go from room to room, on the graph without them)."""
        return bool(run.simulator.vocabulary.pose_moves)

    def search_prompt(self, run: Run, find: bool, view: GraphView) -> str:
        """The system prompt of the dialogue that searches, for the view it starts from."""
        return self.system_prompt(run, find, view)

    def planning_prompt(self, run: Run) -> str | None:
        """The system prompt of a second, planning dialogue; None: the search's dialogue plans."""
        return None

    async def _run(self, run: Run) -> None:
        """Algorithm 1: search the collapsed graph, then plan, verify and replan."""
        find = is_search(run)
        poses = self.poses(run)
        view = self.start_view(run, topology=poses)
        search = self.dialogue(self.search_prompt(run, find, view))
        planning = self.planning_prompt(run)
        result = await self._search(run, search, view, find, poses, planning is None)
        if find:
            run.episode.answer = result.answer
            return
        await iterative_replanning(
            run,
            search if planning is None else self.dialogue(planning),
            result.view,
            max_replans=self.max_replans,
            path_planner=self.path_planner and poses,
            topology=poses,
            first_plan=result.plan,
        )

    async def _search(
        self, run: Run, dialogue: Dialogue, view: GraphView, find: bool, poses: bool, plans: bool
    ) -> SearchResult:
        """Semantic search from `view`; `plans`: this dialogue plans too, and a planning
        task's reply that switches carries the first plan (SayPlan's one dialogue)."""
        return await semantic_search(
            run,
            dialogue,
            find=find,
            max_turns=self.options.max_search_turns,
            topology=poses,
            view=view,
            with_plan=plans and not find,
        )

    def system_prompt(self, run: Run, find: bool, view: GraphView | None = None) -> str:
        """The static prompt: role, the view, actions, states, API, output format, example.

        `view` is the one the search starts from (default: collapsed to rooms).
        """
        with_plan = "_with_plan" if self.plans_at_switch and not find else ""
        if not self.poses(run):
            navigation, example = "sayplan_nav_rooms.md", "sayplan_example_plan_rooms.md"
        elif self.path_planner:
            navigation, example = "sayplan_nav_path_planner.md", "sayplan_example_plan.md"
        else:
            navigation, example = "sayplan_nav_poses.md", "sayplan_example_plan_poses.md"
        return render(
            "sayplan_system.md",
            view=render(f"sayplan_view_{view_mode(view) if view else 'rooms'}.md"),
            actions=actions_text(run.simulator),
            navigation=render(navigation),
            answer=render("sayplan_answer.md") if find else "",
            switch=render(f"sayplan_switch{with_plan}.md"),
            example_switch=render(f"sayplan_example_switch{with_plan}.md"),
            example_plan=render(example),
        )


class SayPlanOnMemory(SayPlan):
    """SayPlan* on the robot's memory (LookPlanGraph §6.1, `observe=partial`): the search and
    the plans on memory, each plan acted out in the true world."""

    plans_at_switch = False

    async def _run(self, run: Run) -> None:
        """SayPlan's stages on memory, on the graph without poses: search memory, then plan
        on it and act each plan out, replanning from what the world refused or a look found."""
        observer = Observer.start(run, self.options, self.perception)
        find = is_search(run)
        note = render("partial_memory_note.md")
        try:
            remembered = on_memory(run, observer)
            view = self.start_view(remembered, topology=False)
            search = self.dialogue(f"{self.search_prompt(run, find, view)}\n\n{note}")
            result = await self._search(remembered, search, view, find, False, False)
            if find:
                run.episode.answer = [observer.memory.true_id(n) for n in result.answer]
                return
            planning = self.planning_prompt(run)
            dialogue = search if planning is None else self.dialogue(f"{planning}\n\n{note}")
            await plan_and_act(
                run,
                observer,
                dialogue,
                result.view.memory,
                max_replans=self.max_replans,
                collapse=view_mode(result.view),
            )
        finally:
            observer.finish()


SayPlan.on_memory = SayPlanOnMemory  # observe=partial
