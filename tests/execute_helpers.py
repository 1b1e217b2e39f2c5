"""Robots and tasks shared by the executor tests."""

from __future__ import annotations

from sceneplan.execute import Robot, SimulatedRobot, SkillCall, SkillResult
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task


class ReportingRobot(Robot):
    """A simulated robot seen as a real one: no true world to judge the goal in (unless
    `truth`), and, with `surfaces` False, no surfaces reported as seen whole."""

    name = "reporting"

    def __init__(self, inner: SimulatedRobot, *, truth: bool = False, surfaces: bool = True):
        self.inner, self.truth, self.surfaces = inner, truth, surfaces

    async def _perform(self, call: SkillCall) -> SkillResult:
        result = await self.inner.perform(call)
        if not self.surfaces:
            result.surfaces = []
        return result

    def true_state(self) -> WorldState | None:
        return self.inner.truth if self.truth else None


def stale_task(goal: str, moved: str, initial: tuple[str, ...] = ()) -> Task:
    """A task in the ring whose world script moved the box after the robot mapped it."""
    return Task(
        initial=list(initial),
        id="ring-stale",
        suite="mine",
        family="simple_planning",
        environment="ring",
        instruction="Leave the box where it belongs.",
        goal=goal,
        world_script=[moved],
        memory="prior",
    )
