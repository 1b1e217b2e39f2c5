"""SCLPlan (symbolically constrained language planning): an LLM goal, a global plan, ReAct + PV.

The architecture is the paper's Fig. 4 (003, the method section).
Phase 1: the model writes the goal state in PDDL, given what the paper and
its public code give it: the task, the domain's predicates, and the object
types with their names (`categories_text`); no scene graph, robot state or
observation. In ALFWorld the predicates are ALFWorld's (`inReceptacle`,
`isClean`, ...); elsewhere the goal language's written the PDDL way
(`(inside_of ?x ?y)`). `symbolic.goal_reader` reads it into the goal object
(a goal-language formula is accepted too) and checks it against the graph;
an unusable goal is fed back once with the reader's message. The problem
is built from that goal and the current state (`PlanningProblem`).
Phase 2: the global symbolic planner solves it; its plan runs step by step
in the simulator (source "planner"), and when every step runs the task is
complete. Phase 3: when there is no valid goal, no plan (unsolvable or
timeout), or a step fails, a zero-shot ReAct model takes over with the whole
history, until it says `done()`, the written goal holds, or the step cap is
reached (in ALFWorld: until the task's goal holds, `Execution.reached`).
Phase 4: each action it proposes goes through precondition verification
(`react_loop`).

Every iteration starts at Phase 1 again, as in the paper: the problem is
built from the goal and the state as it is now, and the global symbolic
planner (GSP) tries it; only when it finds no plan (or its plan fails) does
ReAct predict one action, with PV, and the next iteration begins. The goal
itself is asked for once, as the public code does: what Phase 1 shows the
model (task, predicates, types and names) does not change between
iterations, so asking again would repeat the request. `loop=once` is the
older form: the problem is solved once, then ReAct goes on alone (in a
deterministic, fully known world a goal that is unsolvable from the start
stays so). Either way the Episode counts the goal calls (`goal_calls`), the GSP calls
(`gsp_calls`) and all LLM calls (`llm_calls`).

SCLPlan plans tasks that change the world; search tasks are refused.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from pydantic import Field

from sceneplan.errors import GoalParseError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.dialogue import Dialogue, render
from sceneplan.planners.execution import Execution
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.react_loop import PVOptions, ReactTurns
from sceneplan.planners.react_replies import GoalReply
from sceneplan.planners.records import solve_record
from sceneplan.planners.scene import Scene
from sceneplan.planners.search import unusable_reply_feedback
from sceneplan.planners.supports import Supports
from sceneplan.symbolic.goal_reader import alfworld_predicates_text, read_goal
from sceneplan.symbolic.solver import (
    PlanningProblem,
    solve,
)
from sceneplan.world.goals import Formula
from sceneplan.world.predicates import PREDICATES, StateWord
from sceneplan.world.vocabularies import SAYPLAN


def predicates_text() -> str:
    """The goal language's predicates written the PDDL way, one line each, for the goal
    prompt outside ALFWorld (`read_goal` reads them back).

    >>> predicates_text().splitlines()[0]
    '- (ontop_of ?x ?y): x rests directly on top of y'
    """
    table = [*PREDICATES.values(), StateWord()]
    return "\n".join(f"- {_pddl_signature(p.signature)}: {p.doc}" for p in table)


def _pddl_signature(signature: str) -> str:
    """`inside_of(x, y)` as `(inside_of ?x ?y)`."""
    name, _, args = signature.rstrip(")").partition("(")
    return "(" + " ".join([name, *(f"?{a.strip()}" for a in args.split(",") if a.strip())]) + ")"


def categories_text(graph: SceneGraph, rooms: list[str] | None = None) -> str:
    """Each category of the scene's assets and objects with its nodes, for quantifiers
    (only those in `rooms` when the scene shows some rooms only).

    >>> from sceneplan.datasets import load_environment
    >>> categories_text(load_environment("coffee")).split("; ")[:2]
    ['bed: bed1, bed2', 'coffee_machine: coffee_machine']
    """
    members = categories(graph, rooms)
    return "; ".join(f"{c}: {', '.join(ids)}" for c, ids in sorted(members.items()))


def categories(graph: SceneGraph, rooms: list[str] | None = None) -> dict[str, list[str]]:
    """The scene's asset and object ids by category (in `rooms` only, when given)."""
    members: dict[str, list[str]] = {}
    for node in graph:
        shown = rooms is None or graph.room_of(node.id) in rooms
        if node.kind in (NodeKind.ASSET, NodeKind.OBJECT) and node.category and shown:
            members.setdefault(node.category, []).append(node.id)
    return members


class SCLPlan(Planner):
    """SCLPlan: an LLM goal, the global symbolic plan, then ReAct with PV."""

    name = "sclplan"
    vocabulary = SAYPLAN
    scene_actions = True
    supports = Supports(tasks={"planning"})  # a goal to reach: no search tasks

    class Options(PVOptions):
        """ReAct with PV's options, the global plan's symbolic planner and time limit, and
        how often the goal is written."""

        timeout: float = Field(
            30.0, gt=0, description="seconds for the global plan (the same symbolic planner)"
        )
        loop: Literal["per_step", "once"] = Field(
            "per_step",
            description="per_step: the global plan again, from the state as it is, before "
            "every ReAct step (the paper's loop); once: solved once, then ReAct alone",
        )

    options: Options

    async def _run(self, run: Run) -> None:
        """Phases 1-4: the goal, the global plan, then ReAct with PV (`loop`: how often)."""
        execution = Execution.start(run, pv=True)
        execution.info.update(
            goal=None, goal_valid=False, goal_attempts=0, goal_calls=0, gsp_calls=0
        )
        execution.info["global_plan_found"] = False
        execution.info["solver"] = self.options.planner  # of the GSP and PV (the report names it)
        ended = False
        try:
            turns = await ReactTurns.start(run, execution, self.options, pv=self.options)
            scene = turns.scene
            if self.options.loop == "once":
                ended = await self._once(run, scene, execution, turns)
            else:
                ended = await self._per_step(run, scene, execution, turns)
        finally:
            execution.info["llm_calls"] = len(run.episode.llm_calls)
            execution.finish(ended)

    async def _once(self, run: Run, scene: Scene, execution: Execution, turns: ReactTurns) -> bool:
        """Phases 1-2 once, then Phases 3-4 until the run ends or the step cap."""
        goal = await self._write_goal(run, scene, execution)
        observation = await self._global_plan(run, goal, execution)
        if observation is None:
            return True
        return await turns.until_done(observation, goal)

    async def _per_step(
        self, run: Run, scene: Scene, execution: Execution, turns: ReactTurns
    ) -> bool:
        """The goal once, then Phases 1-4 at every iteration (the problem built from the
        goal and the state as it is), until the global plan completes the task, ReAct ends
        it, or ReAct's step cap is reached."""
        goal = await self._write_goal(run, scene, execution)
        observation = turns.first_observation("none yet")
        while not execution.reached:
            planned = await self._global_plan(run, goal, execution)
            if planned is None:
                return True
            if turns.exhausted:
                return False
            first = turns.step == 0
            told = planned if first else f"{observation}; {planned}"
            ended, observation = await turns.turn(told, goal)
            if ended:
                return True
        return True  # ALFWorld ended the episode: its goal holds

    async def _write_goal(self, run: Run, scene: Scene, execution: Execution) -> Formula | None:
        """Phase 1: the model's PDDL goal from the task, the domain's predicates and the
        object types with their names; read and checked against the graph, one retry with
        the reader's message."""
        if run.simulator.vocabulary.pddl_goals:  # the environment's own predicates (ALFWorld's)
            system = render("sclplan_goal_pddl.md", predicates=alfworld_predicates_text())
        else:
            system = render("sclplan_goal.md", predicates=predicates_text())
        dialogue = Dialogue(system)
        dialogue.user(
            render(
                "sclplan_goal_turn.md",
                instruction=run.instruction,
                categories=categories_text(run.graph, scene.rooms),
            )
        )
        scene.observed.update(i for ids in categories(run.graph, scene.rooms).values() for i in ids)
        info = execution.info
        info.update(goal=None, goal_valid=False)
        for attempt in (1, 2):
            run.emit(PlanEvent("ask", "goal", attempt, "waiting for the goal"))
            reply = await run.ask("goal", dialogue.snapshot(), GoalReply)
            info["goal_attempts"] = attempt
            info["goal_calls"] += 1
            if reply.text:
                dialogue.assistant(reply.text)
            if reply.parsed is None:
                error = unusable_reply_feedback(reply.text, GoalReply)
            else:
                info["goal"] = text = reply.parsed.goal
                try:
                    formula = read_goal(text, run.graph)
                except GoalParseError as exc:
                    error = str(exc)
                else:
                    reply.call.command = "goal"
                    info["goal_valid"] = True
                    run.emit(PlanEvent("plan", "goal", attempt, str(formula)))
                    return formula
            run.emit(PlanEvent("verify", "goal", attempt, error, ok=False))
            if attempt == 1:
                dialogue.user(render("sclplan_goal_retry.md", error=error))
        return None

    async def _global_plan(
        self, run: Run, goal: Formula | None, execution: Execution
    ) -> str | None:
        """Phase 2: solve and run the goal; None when it is reached, else what to tell ReAct."""
        if goal is None:
            return "no valid goal could be written, so there is no global plan: act step by step"
        problem = PlanningProblem(
            run.graph, goal, state=execution.state, vocabulary=run.simulator.vocabulary
        )
        options = self.options
        execution.info["gsp_calls"] += 1
        result = await asyncio.to_thread(solve, problem, options.timeout, options.planner)
        execution.symbolic_s += result.total_s
        run.episode.symbolic = solve_record(result)
        if not result.ok:
            return (
                f"the symbolic planner found no plan for the goal {goal} ({result.status.value}): "
                "act step by step"
            )
        execution.info["global_plan_found"] = True
        plan = " > ".join(map(str, result.plan)) or "nothing to do"
        run.emit(PlanEvent("plan", "planner", 1, plan))
        failure = execution.steps(result.plan, "planner")
        verdict = failure.message if failure else "global plan executed"
        run.emit(PlanEvent("verify", "planner", 1, verdict, ok=failure is None))
        if failure is None:
            return None
        done = run.episode.plan
        return (
            f"the symbolic planner's plan for the goal {goal} ran {', '.join(done) or 'no step'}, "
            f"then {failure.action} failed: {failure.reason}; continue step by step"
        )
