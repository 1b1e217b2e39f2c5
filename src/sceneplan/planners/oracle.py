"""The oracle: a task's formal goal solved by the symbolic planner, no LLM.

It shows that every planning task of a suite is solvable in the simulator,
and gives the reference plan length and planning time.
"""

from __future__ import annotations

import asyncio

from pydantic import Field

from sceneplan.errors import BadInputError
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.options import SYMBOLIC_PLANNERS, PlannerOptions, SymbolicPlanner
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, solve


class Oracle(Planner):
    """Plans to the task's goal with `symbolic.solve`."""

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
