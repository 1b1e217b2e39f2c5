"""SCLPlan (symbolically constrained language planning): an LLM goal, a global plan, ReAct + PV.

Phase 1: the model writes the instruction as a goal of our goal language
(docs/goals.md), shown the scene (`scene`); the goal is checked against the
graph, and an invalid one is fed back once with the parser's message.
Phase 2: the global symbolic planner solves the goal from the current state;
its plan runs step by step in the simulator (source "planner"), and when
every step runs the task is complete. Phase 3: when there is no valid goal,
no plan (unsolvable or timeout), or a step fails, a zero-shot ReAct model
takes over with the whole history, until it says `done()`, the written goal
holds, or the step cap is reached. Phase 4: each action it proposes goes
through precondition verification (`react_loop`).

One departure from the paper, which starts every iteration at Phase 1 again:
the goal is written and solved once. The simulated world is deterministic
and fully known, so a goal unsolvable from the start stays unsolvable from
every state the robot reaches; asking again would only cost tokens.

SCLPlan plans tasks that change the world; search tasks are refused.
"""

from __future__ import annotations

import asyncio

from sceneplan.errors import BadInputError, GoalParseError
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.dialogue import Dialogue, render
from sceneplan.planners.execution import Execution
from sceneplan.planners.progress import OnEvent, PlanEvent, emit
from sceneplan.planners.react_loop import ReactSettings, react, refuse_search
from sceneplan.planners.react_replies import GoalReply
from sceneplan.planners.scene import DEFAULT_GRAPH_BUDGET, Scene, choose_scene, robot_text
from sceneplan.planners.search import unusable_reply_feedback
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, solve
from sceneplan.world.goals import Formula, parse_goal


class SCLPlan(Planner):
    """SCLPlan. Options: `max_steps` of ReAct (30), the symbolic `planner`, `timeout` of the
    global plan (s), `pv_timeout` (s), `graph_budget` (tokens of the full graph shown), `on_event`.
    """

    name = "sclplan"

    def __init__(
        self,
        max_steps: int = 30,
        planner: str = DEFAULT_PLANNER,
        timeout: float = 30.0,
        pv_timeout: float = 10.0,
        graph_budget: int = DEFAULT_GRAPH_BUDGET,
        on_event: OnEvent | None = None,
    ):
        self.settings = ReactSettings(max_steps, True, planner, pv_timeout, graph_budget)
        self.settings.check(self.name)
        if timeout <= 0:
            raise BadInputError(f"{self.name}: timeout must be positive, got {timeout}")
        self.timeout = timeout
        self.on_event = on_event

    async def _run(self, run: Run) -> None:
        refuse_search(run, self.name)
        execution = Execution.start(run, pv=True)
        ended = False
        try:
            scene = await choose_scene(run, self.settings.graph_budget, self.on_event)
            goal = await self._write_goal(run, scene, execution)
            observation = await self._global_plan(run, goal, execution)
            ended = observation is None or await react(
                run,
                execution,
                scene,
                self.settings,
                observation=observation,
                goal=goal,
                on_event=self.on_event,
            )
        finally:
            execution.finish(ended)

    async def _write_goal(self, run: Run, scene: Scene, execution: Execution) -> Formula | None:
        """Phase 1: the model's goal, checked against the graph; one retry with the error."""
        state = execution.state
        dialogue = Dialogue(render("sclplan_goal.md"))
        dialogue.user(
            render(
                "sclplan_goal_turn.md",
                instruction=run.instruction,
                graph=scene.text(state),
                robot=robot_text(state),
            )
        )
        info = execution.info
        info.update(goal=None, goal_valid=False, goal_attempts=0)
        for attempt in (1, 2):
            emit(self.on_event, PlanEvent("ask", "goal", attempt, "waiting for the goal"))
            reply = await run.ask("goal", dialogue.snapshot(), GoalReply)
            call = run.episode.llm_calls[-1]
            info["goal_attempts"] = attempt
            if call.reply:
                dialogue.assistant(call.reply)
            if reply is None or reply.parsed is None:
                error = unusable_reply_feedback(call.reply, GoalReply)
            else:
                info["goal"] = text = reply.parsed.goal
                try:
                    formula = parse_goal(text, run.graph)
                except GoalParseError as exc:
                    error = str(exc)
                else:
                    call.command = "goal"
                    info["goal_valid"] = True
                    emit(self.on_event, PlanEvent("plan", "goal", attempt, str(formula)))
                    return formula
            emit(self.on_event, PlanEvent("verify", "goal", attempt, error, ok=False))
            if attempt == 1:
                dialogue.user(render("sclplan_goal_retry.md", error=error))
        return None

    async def _global_plan(
        self, run: Run, goal: Formula | None, execution: Execution
    ) -> str | None:
        """Phase 2: solve and run the goal; None when it is reached, else what to tell ReAct."""
        execution.info["global_plan_found"] = False
        if goal is None:
            return "no valid goal could be written, so there is no global plan: act step by step"
        problem = PlanningProblem(run.graph, goal, state=execution.state)
        result = await asyncio.to_thread(solve, problem, self.timeout, self.settings.planner)
        execution.symbolic_s += result.total_s
        run.episode.extra["symbolic"] = result.to_dict() | {"plan": None}
        if not result.ok:
            return (
                f"the symbolic planner found no plan for the goal {goal} ({result.status.value}): "
                "act step by step"
            )
        execution.info["global_plan_found"] = True
        plan = " > ".join(map(str, result.plan)) or "nothing to do"
        emit(self.on_event, PlanEvent("plan", "planner", 1, plan))
        failure = execution.steps(result.plan, "planner")
        verdict = failure.message if failure else "global plan executed"
        emit(self.on_event, PlanEvent("verify", "planner", 1, verdict, ok=failure is None))
        if failure is None:
            return None
        done = run.episode.plan
        return (
            f"the symbolic planner's plan for the goal {goal} ran {', '.join(done) or 'no step'}, "
            f"then {failure.action} failed: {failure.reason}; continue step by step"
        )
