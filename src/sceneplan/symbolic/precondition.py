"""Precondition verification (SCLPlan Phase 4): make a proposed action executable.

If the action's preconditions hold, nothing is inserted; otherwise the
symbolic planner plans to a state where they hold, and those steps come first.
"""

from __future__ import annotations

from dataclasses import dataclass

from sceneplan.graph.model import SceneGraph
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, SolveResult, solve
from sceneplan.world.actions import Action
from sceneplan.world.simulator import Failure, Simulator
from sceneplan.world.state import WorldState


@dataclass
class Verified:
    """The steps to insert before the action (empty when it can run now), or why there are none."""

    action: Action
    failure: Failure | None  # why the action could not run as proposed
    inserted: list[Action]
    result: SolveResult | None  # the planner's run, when one was needed

    @property
    def executable(self) -> bool:
        """The action can run after the inserted steps."""
        return self.failure is None or (self.result is not None and self.result.ok)


def verify_preconditions(
    graph: SceneGraph,
    state: WorldState,
    action: Action,
    timeout: float = 10.0,
    planner: str = DEFAULT_PLANNER,
) -> Verified:
    """Check `action` in `state`; if it fails, plan the steps that make it executable."""
    failure = Simulator(graph).check(state, action)
    if failure is None:
        return Verified(action, None, [], None)
    if not failure.cause.repairable:
        return Verified(action, failure, [], None)  # about the action itself: no state helps
    result = solve(PlanningProblem(graph, state=state, target=action), timeout, planner)
    return Verified(action, failure, list(result.plan), result)
