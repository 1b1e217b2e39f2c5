"""The ReAct baselines of SCLPlan: the model alone, step by step, and with PV.

- react: the model proposes each next action, sees the simulator's feedback,
  and goes on until it says `done()`; an action that cannot run is rejected
  (the world stays as it was) and the rejection is its next observation.
- react_pv: the same, with precondition verification (the paper's "ReAct +
  PV" ablation): the symbolic planner inserts the steps that make a
  proposed action executable.

Both plan tasks that change the world (`supports`: search tasks are refused). See
`react_loop` for the loop and `execution` for the metrics in `Episode.sclplan`.
"""

from __future__ import annotations

from sceneplan.planners.base import Planner, Run
from sceneplan.planners.execution import Execution
from sceneplan.planners.react_loop import PVOptions, ReactOptions, ReactTurns
from sceneplan.planners.supports import Supports
from sceneplan.world.vocabularies import SAYPLAN


class React(Planner):
    """ReAct: the model proposes each next action and sees what happened."""

    name = "react"
    vocabulary = SAYPLAN
    scene_actions = True
    supports = Supports(tasks={"planning"})

    class Options(ReactOptions):
        """ReAct's options: its step cap, the path planner, how much of the scene it shows."""

    options: ReactOptions

    async def _run(self, run: Run) -> None:
        """Ask for an action, run it, show what happened, until done() or the step cap."""
        pv = self.options if isinstance(self.options, PVOptions) else None
        execution = Execution.start(run, pv=pv is not None)
        if pv is not None:
            execution.info["solver"] = pv.planner  # PV's symbolic planner (the report names it)
        ended = False
        try:
            turns = await ReactTurns.start(run, execution, self.options, pv=pv)
            ended = await turns.until_done()
        finally:
            execution.finish(ended)


class ReactPV(React):
    """ReAct + PV: precondition verification makes each proposed action executable."""

    name = "react_pv"

    class Options(PVOptions):
        """ReAct's options, and precondition verification's symbolic planner and time limit."""
