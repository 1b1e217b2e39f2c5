"""Replanning from the executor's belief: the symbolic solver on a formal goal, or the planner.

A `Replanner` returns a plan from the believed state (or None, and why not).
`SymbolicReplanner` solves the task's goal on the belief graph and state;
`PlannerReplanner` runs the planner again on the belief as a scene graph
(the robot where it is, objects where last seen), and adds its LLM calls to
the execution's Episode. `make_replanner("auto", ...)` takes the solver when
the task has a formal goal, the planner otherwise.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from sceneplan.errors import BadInputError, GoalParseError, SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.planners.base import Planner
from sceneplan.planners.episode import Episode
from sceneplan.plugins import unknown_name
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.goals import parse_goal
from sceneplan.world.task import Task

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient

REPLANNERS = ("auto", "symbolic", "planner")
# Seconds for one symbolic replan: a goal a blocked room or a stuck container made
# unreachable can take the solver its whole timeout to prove so.
TIMEOUT_S = 15.0


class Replanner(Protocol):
    """Plans again from what the executor believes now."""

    name: str

    async def replan(self, belief: Belief, episode: Episode) -> tuple[list[Action] | None, str]:
        """A plan from the believed state, or None; and a note (what was done, or why not)."""
        ...


class SymbolicReplanner:
    """Solves a formal goal on the belief with the symbolic planner."""

    name = "symbolic"

    def __init__(self, goal: str, timeout: float = TIMEOUT_S, planner: str | None = None):
        self.goal = goal
        self.timeout = timeout
        self.planner = planner

    async def replan(self, belief: Belief, episode: Episode) -> tuple[list[Action] | None, str]:
        try:
            goal = parse_goal(self.goal, belief.graph)
        except GoalParseError as exc:
            return None, f"the goal names what the scene graph lost: {exc}"
        problem = PlanningProblem(
            belief.graph, goal, belief.state.copy(), vocabulary=belief.vocabulary
        )
        kwargs: dict[str, Any] = {"planner": self.planner} if self.planner else {}
        try:
            result = await asyncio.to_thread(solve, problem, self.timeout, **kwargs)
        except SceneplanError as exc:  # a blocked room cut the building in two
            return None, str(exc)
        if not result.ok:
            return None, f"the symbolic planner found no plan ({result.status.value})"
        return list(result.plan), f"solved in {result.total_s:.3f} s"


class PlannerReplanner:
    """Runs the planner again on the belief: the scene graph as the robot now knows it."""

    name = "planner"

    def __init__(self, planner: Planner, target: Task | str, llm: LLMClient | None = None):
        self.planner = planner
        self.target = target
        self.llm = llm

    async def replan(self, belief: Belief, episode: Episode) -> tuple[list[Action] | None, str]:
        graph = belief.state.to_graph()
        again = await self.planner.aplan(self.target, graph, self.llm)
        episode.llm_calls += again.llm_calls
        episode.sim_calls += again.sim_calls
        if not again.executable:
            why = again.error or (again.failure or {}).get("message") or again.status.value
            return None, f"{self.planner.name} found no executable plan: {why}"
        plan = parse_plan(again.full_plan or again.plan)
        return plan, f"{self.planner.name} planned {len(plan)} step(s)"


def make_replanner(
    how: str,
    planner: Planner,
    target: Task | str,
    llm: LLMClient | None = None,
    *,
    timeout: float = TIMEOUT_S,
) -> Replanner:
    """`auto` (the solver when the task has a formal goal, else the planner), `symbolic`
    or `planner`."""
    if how not in REPLANNERS:
        raise unknown_name("replanner", how, REPLANNERS)
    goal = target.goal if isinstance(target, Task) else None
    if how == "symbolic" and goal is None:
        raise BadInputError("--replan symbolic needs a task with a formal goal (--task ID)")
    if how == "planner" or (how == "auto" and goal is None):
        return PlannerReplanner(planner, target, llm)
    return SymbolicReplanner(goal, timeout)  # type: ignore[arg-type]
