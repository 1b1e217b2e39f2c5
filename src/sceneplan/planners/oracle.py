"""The oracle: a task solved from its ground truth, no LLM.

A planning task's formal goal is solved by the symbolic planner: this shows
that every planning task of a suite is solvable in the simulator, and gives
the reference plan length and planning time. A search task is answered from
its answer set after expanding the rooms that hold the answer and those the
task says must be searched, so that it scores on every search measure.
"""

from __future__ import annotations

import asyncio

from pydantic import Field

from sceneplan.errors import BadInputError
from sceneplan.graph.views import collapse
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.options import SYMBOLIC_PLANNERS, PlannerOptions, SymbolicPlanner
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, solve
from sceneplan.world.task import Task


class Oracle(Planner):
    """Plans to the task's goal with `symbolic.solve`; answers a search task from its answer set."""

    name = "oracle"
    needs_llm = False

    class Options(PlannerOptions):
        planner: SymbolicPlanner = Field(
            DEFAULT_PLANNER, description=f"symbolic planner, one of: {SYMBOLIC_PLANNERS}"
        )
        timeout: float = Field(60.0, gt=0, description="seconds for the symbolic planner")

    options: Options

    async def _run(self, run: Run) -> None:
        task = run.task
        if task is not None and task.is_search:
            self._answer(run, task)
            return
        if task is None or task.goal is None:
            raise BadInputError("the oracle plans to a task's goal: give a planning task")
        problem = PlanningProblem(run.graph, task.goal)
        options = self.options
        result = await asyncio.to_thread(solve, problem, options.timeout, options.planner)
        episode = run.episode
        episode.extra["symbolic"] = result.to_dict() | {"plan": None}
        if not result.ok:
            episode.error = f"the symbolic planner found no plan ({result.status.value})"
            return
        plan = [str(a) for a in result.plan]
        episode.plan = episode.full_plan = plan
        episode.action_sources = ["planner"] * len(plan)
        verification = run.verify(plan)
        episode.executable = verification.ok
        run.final_state = verification.final_state

    def _answer(self, run: Run, task: Task) -> None:
        """Expand the answer's rooms and the rooms to search, then name the answer nodes."""
        graph = run.graph
        holding = task.answer_rooms or sorted(
            {room for node in task.answers if (room := graph.room_of(node)) is not None}
        )
        view = collapse(graph)
        try:
            for room in dict.fromkeys([*holding, *task.must_explore]):
                shown = view.expand(room)
                run.record_sim("expand", room, True, f"expand({room}) shows {len(shown)} node(s)")
        finally:
            run.episode.explored = view.memory
        run.episode.answer = sorted(task.answers)[: task.needed]
