"""The ReAct baselines of SCLPlan: the model alone, step by step, and with PV.

- react: the model proposes each next action, sees the simulator's feedback,
  and goes on until it says `done()`; an action that cannot run is rejected
  (the world stays as it was) and the rejection is its next observation.
- react_pv: the same, with precondition verification (the paper's "ReAct +
  PV" ablation): the symbolic planner inserts the steps that make a
  proposed action executable.

Both plan tasks that change the world; search tasks are refused. See
`react_loop` for the loop and `execution` for the metrics in `Episode.extra`.
"""

from __future__ import annotations

from sceneplan.planners.base import Planner, Run
from sceneplan.planners.execution import Execution
from sceneplan.planners.progress import OnEvent
from sceneplan.planners.react_loop import ReactSettings, react, refuse_search
from sceneplan.planners.scene import DEFAULT_GRAPH_BUDGET, choose_scene
from sceneplan.symbolic.solver import DEFAULT_PLANNER


class React(Planner):
    """ReAct. Options: `max_steps` (30), `graph_budget` (see `scene`), `on_event`."""

    name = "react"

    def __init__(
        self,
        max_steps: int = 30,
        graph_budget: int = DEFAULT_GRAPH_BUDGET,
        on_event: OnEvent | None = None,
    ):
        self.settings = ReactSettings(max_steps, pv=False, graph_budget=graph_budget)
        self.settings.check(self.name)
        self.on_event = on_event

    async def _run(self, run: Run) -> None:
        refuse_search(run, self.name)
        execution = Execution.start(run, pv=self.settings.pv)
        ended = False
        try:
            scene = await choose_scene(run, self.settings.graph_budget, self.on_event)
            ended = await react(run, execution, scene, self.settings, on_event=self.on_event)
        finally:
            execution.finish(ended)


class ReactPV(React):
    """ReAct + PV. Options: those of react, plus the symbolic `planner` and `pv_timeout` (s)."""

    name = "react_pv"

    def __init__(
        self,
        max_steps: int = 30,
        planner: str = DEFAULT_PLANNER,
        pv_timeout: float = 10.0,
        graph_budget: int = DEFAULT_GRAPH_BUDGET,
        on_event: OnEvent | None = None,
    ):
        self.settings = ReactSettings(max_steps, True, planner, pv_timeout, graph_budget)
        self.settings.check(self.name)
        self.on_event = on_event
