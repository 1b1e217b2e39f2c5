"""The ReAct loop shared by react, react_pv and SCLPlan (its Phases 3 and 4).

Zero-shot ReAct (Yao et al., 2023) as SCLPlan uses it: each turn shows the
model the instruction, the scene graph as it is now, the robot's state and
the observation of its last action; the dialogue keeps every earlier
thought, action and observation (the full history), with the scene graph
only in the newest message. The model answers with a thought and one
action, until it says `done()` or the step cap is reached. In ALFWorld the
environment ends the episode the moment the task's goal holds
(`Execution.reached`), as ALFWorld does; `done()` is not needed there, and
said anyway it stops the run without an environment step.

Without precondition verification (PV) the action is attempted, and the
simulator's rejection is the next observation. With PV, an action whose
preconditions do not hold is not attempted as proposed: the symbolic planner
plans to a state where it can run, those steps run first (source "pv"), then
the action. When PV finds no such steps, the failure is the observation.
Either way, an action that could not run as proposed (or a reply with no
usable action) counts as an invalid ReAct prediction.

Navigation, as in SCLPlan's experiments, is not the model's job: with
`path_planner` on (the default) `goto(room)` takes the shortest path through
the poses, each move an environment step; off, the model moves pose by pose.
The step cap (72) is twice the longest room-level oracle plan of the Office
planning tasks (36 actions, planning-long-12), so no task is out of reach; in
ALFWorld it is SCLPlan's own, 25 (`Vocabulary.max_steps`).
"""

from __future__ import annotations

import asyncio
import time
from functools import cache

from pydantic import Field

from sceneplan.errors import (
    PlanExecutionError,
    PlanParseError,
    UnknownNodeError,
    UnreachableError,
)
from sceneplan.planners.base import Reply, Run
from sceneplan.planners.dialogue import Dialogue, has_template, render
from sceneplan.planners.execution import Execution
from sceneplan.planners.options import SYMBOLIC_PLANNERS, PlannerOptions, SymbolicPlanner
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.react_replies import ActionReply
from sceneplan.planners.scene import DEFAULT_GRAPH_BUDGET, Scene, choose_scene
from sceneplan.planners.search import unusable_reply_feedback
from sceneplan.planners.shared import MAX_STEPS, actions_text
from sceneplan.symbolic.precondition import Verified
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, available_backends, solve
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.goals import Formula
from sceneplan.world.vocabularies import ALFWORLD
from sceneplan.world.vocabulary import Vocabulary

TURN = "react_turn.md"


class ReactOptions(PlannerOptions):
    """The options of the ReAct loop: its step cap and how much of the scene it shows."""

    max_steps: int | None = Field(
        None,
        ge=1,
        description=f"cap on ReAct steps (model replies); default {ALFWORLD.max_steps} in "
        f"ALFWorld (SCLPlan's), else {MAX_STEPS} (2x the longest oracle plan)",
    )
    path_planner: bool = Field(
        True,
        description="goto(room) follows the shortest path through the poses; off: pose by pose",
    )
    graph_budget: int = Field(
        DEFAULT_GRAPH_BUDGET,
        ge=0,
        description="tokens up to which the whole scene graph is shown; above, chosen rooms",
    )


@cache
def paper_solver() -> str:
    """SCLPlan's symbolic planner, BFS(f) from LAPKT (`bfsf`), where the `lapkt` extra is
    installed; else the default back end. PV (react_pv, sclplan) and sclplan's global plan
    use it alike, so the ablation compares one solver."""
    return "bfsf" if "bfsf" in available_backends() else DEFAULT_PLANNER


class PVOptions(ReactOptions):
    """ReAct with precondition verification: its symbolic back end and time limit."""

    planner: SymbolicPlanner = Field(
        default_factory=paper_solver,
        description="symbolic planner of PV (and sclplan's global plan): bfsf (LAPKT's BFS(f), "
        f"the paper's) when the lapkt extra is installed, else {DEFAULT_PLANNER}; "
        f"{SYMBOLIC_PLANNERS}",
    )
    pv_timeout: float = Field(10.0, gt=0, description="seconds per precondition verification")


def step_cap(options: ReactOptions, vocabulary: Vocabulary) -> int:
    """The cap on ReAct steps in a vocabulary: the option, else the vocabulary's own
    (`Vocabulary.max_steps`: SCLPlan's in ALFWorld), else 72.

    >>> from sceneplan.world import SAYPLAN
    >>> step_cap(ReactOptions(), ALFWORLD), step_cap(ReactOptions(), SAYPLAN)
    (25, 72)
    """
    if options.max_steps is not None:
        return options.max_steps
    return vocabulary.max_steps or MAX_STEPS


def system_prompt(run: Run, path_planner: bool) -> str:
    """ReAct's system prompt for the run's vocabulary, from its faces: each offered action
    with what it needs (the schemas' preconditions), the vocabulary's own description of
    the scene (`react_world_<vocabulary>.md`, or a generic one), how to move between rooms
    only where the vocabulary moves through poses, and how the run ends (where the goal
    holding ends it, as in ALFWorld, by itself, with no `done()` offered)."""
    simulator = run.simulator
    poses = bool(run.navigator.moves)
    navigation = "react_nav_path_planner.md" if path_planner else "react_nav_poses.md"
    ending, skip = "react_ending.md", frozenset[str]()
    if simulator.vocabulary.ends_when_goal_holds:
        ending = "react_ending_alfworld.md"
        skip = frozenset(n for n, schema in simulator.schemas.items() if schema.ends_plan)
    return render(
        "react_system.md",
        world=render(_world_template(simulator.vocabulary)).strip(),
        actions=actions_text(simulator, skip, conditions=True),
        navigation="\n" + render(navigation) if poses else "",
        ending=render(ending),
    )


def _world_template(vocabulary: Vocabulary) -> str:
    name = f"react_world_{vocabulary.prompts}.md"
    return name if has_template(name) else "react_world.md"


class ReactTurns:
    """The ReAct dialogue, one turn at a time: SCLPlan's loop runs its goal and global plan
    between turns; react runs them back to back (`until_done`).

    The dialogue (the full history) and the step count last across turns.
    """

    def __init__(
        self,
        run: Run,
        execution: Execution,
        scene: Scene,
        options: ReactOptions,
        pv: PVOptions | None = None,
    ):
        self.run, self.execution, self.scene = run, execution, scene
        self.options, self.pv = options, pv  # the step cap and path planner; PV's, if it runs
        self.step = 0
        self.max_steps = step_cap(options, run.simulator.vocabulary)
        self.dialogue = Dialogue(system_prompt(run, options.path_planner))

    @classmethod
    async def start(
        cls,
        run: Run,
        execution: Execution,
        options: ReactOptions,
        *,
        pv: PVOptions | None = None,
    ) -> ReactTurns:
        """The turns of a run with these options, on the scene they show (the whole graph,
        or the rooms the model chooses: `choose_scene`), which the execution records."""
        scene = await choose_scene(run, options.graph_budget)
        execution.observed = scene.observed
        return cls(run, execution, scene, options, pv)

    @property
    def exhausted(self) -> bool:
        """Whether the step cap is reached."""
        return self.step >= self.max_steps

    def first_observation(self, observation: str) -> str:
        """What the first turn says happened: the environment's opening words, where it has
        them (ALFWorld's)."""
        if observation == "none yet":
            return self.run.simulator.vocabulary.voice.intro(self.execution.state) or observation
        return observation

    async def until_done(self, observation: str = "none yet", goal: Formula | None = None) -> bool:
        """Turns until the run ends (True: by `done()`, with `goal` holding, or in ALFWorld
        with the task's goal holding), or the step cap is reached (False); `observation` is
        the first turn's: what happened before."""
        observation = self.first_observation(observation)
        if self.execution.reached:
            return True
        while not self.exhausted:
            ended, observation = await self.turn(observation, goal)
            if ended:
                return True
        return False

    async def turn(self, observation: str, goal: Formula | None = None) -> tuple[bool, str]:
        """Ask for, check and run one action; whether the run ended, and the observation of
        that action.

        The run ends by `done()` (in ALFWorld without an environment step), and where
        the environment has no end of its own with `goal` holding; in ALFWorld when the
        task's goal holds (`Execution.reached`), whoever wrote which goal.
        """
        run, execution = self.run, self.execution
        self.step += 1
        step = self.step
        state = execution.state
        self.dialogue.user_turn(
            TURN,
            graph=self.scene.text(state),
            instruction=run.instruction,
            robot=self.scene.voice.robot(state),
            observation=observation,
            step=str(step),
            max_steps=str(self.max_steps),
        )
        self.run.emit(PlanEvent("ask", "react", step, "waiting for the next action"))
        reply = await run.ask("react", self.dialogue.snapshot(), ActionReply)
        if reply.text:
            self.dialogue.assistant(reply.text)
        execution.react_predictions += 1
        action, observation = _read(reply)
        ok = ended = False
        if action is None:
            execution.react_invalid += 1
        elif execution.end is not None and run.simulator.ends_plan(action):
            ok = ended = True  # ALFWorld has no done(): the agent stops, no step is sent
        else:
            ok, observation = await _act(run, execution, action, self.pv, self.options.path_planner)
            if execution.end is not None:
                ended = execution.reached
            else:
                reached = goal is not None and goal.holds(execution.state)
                ended = ok and (run.simulator.ends_plan(action) or reached)
        self.run.emit(PlanEvent("verify", "react", step, observation, ok))
        return ended, observation


def _read(reply: Reply[ActionReply]) -> tuple[Action | None, str]:
    """The action in a reply, or None and the feedback saying why there is none."""
    if reply.parsed is None:
        return None, unusable_reply_feedback(reply.text, ActionReply)
    try:
        action = parse_action(reply.parsed.action)
    except PlanParseError as exc:
        return None, str(exc)
    reply.call.command = str(action)
    return action, ""


async def _act(
    run: Run, execution: Execution, action: Action, pv: PVOptions | None, path_planner: bool
) -> tuple[bool, str]:
    """Run a proposed action (after PV's steps, with PV on); whether it ran, and the observation.

    An action that cannot run as proposed counts as an invalid prediction.
    """
    via = ""
    if path_planner and action.name in run.navigator.moves:
        try:
            route = run.navigator.expand_plan([action], start=execution.state.agent_at)
        except (UnreachableError, UnknownNodeError) as exc:
            execution.react_invalid += 1
            return False, f"{action} failed: {exc}"
        failure = execution.steps(route[:-1], "react")  # the poses on the way
        if failure is not None:
            execution.react_invalid += 1
            return False, f"{action} failed on the way: {failure.message}"
        via = f" (via {', '.join(a.args[0] for a in route[:-1])})" if len(route) > 1 else ""
    ok, observation = await _act_here(run, execution, action, pv)
    return ok, observation + via if ok else observation


async def _act_here(
    run: Run, execution: Execution, action: Action, pv: PVOptions | None
) -> tuple[bool, str]:
    text = _Texts(run, execution)
    if pv is None:
        failure = text.step(action, "react")
        if failure is not None:
            execution.react_invalid += 1
            return False, text.failed(action, failure.reason)
        return True, text.said()
    failure = run.simulator.check(execution.state, action)
    if failure is None:
        text.step(action, "react")
        return True, text.said()
    execution.react_invalid += 1
    execution.reject(failure, "check")
    started = time.perf_counter()
    verified = await asyncio.to_thread(
        _verify, run, execution.state, action, pv.pv_timeout, pv.planner
    )
    execution.symbolic_s += time.perf_counter() - started
    if not verified.executable:
        why = f" (symbolic planner: {verified.result.status.value})" if verified.result else ""
        return False, text.failed(
            action,
            f"{failure.reason}; precondition verification found no steps that make it "
            f"possible{why}",
        )
    sources = ["pv"] * len(verified.inserted) + ["react"]
    failed = None
    for step, source in zip([*verified.inserted, action], sources, strict=True):
        if failed is not None or execution.reached:  # ALFWorld: the episode is over
            break
        failed = text.step(step, source)
    if failed is not None:  # PV's steps were validated in the same simulator from this state
        raise PlanExecutionError(f"precondition verification gave failing steps: {failed.message}")
    execution.pv_corrected += 1
    if text.voice.environment_only:
        return True, text.said()
    inserted = ", ".join(map(str, verified.inserted))
    return True, (
        f"{action} could not run yet ({failure.reason}); precondition verification first ran "
        f"{inserted}; then {action} succeeded"
    )


def _verify(run: Run, state, action: Action, timeout: float, planner: str) -> Verified:
    """Precondition verification (`symbolic.precondition`) in the run's vocabulary
    (ALFWorld's in an ALFWorld room): the failure, and the steps that repair it."""
    vocabulary = run.simulator.vocabulary
    failure = run.simulator.check(state, action)
    if failure is None or not failure.cause.repairable:
        return Verified(action, failure, [], None)
    problem = PlanningProblem(run.graph, state=state, target=action, vocabulary=vocabulary)
    result = solve(problem, timeout, planner)
    return Verified(action, failure, list(result.plan), result)


class _Texts:
    """Steps through the execution, collecting what each one says in the vocabulary's
    voice: sceneplan's "ACTION succeeded", or in an ALFWorld room ALFWorld's own feedback."""

    def __init__(self, run: Run, execution: Execution):
        self.execution = execution
        self.schemas = run.simulator.schemas
        self.voice = run.simulator.vocabulary.voice
        self.lines: list[str] = []

    def step(self, action: Action, source: str):
        before = self.execution.state
        failure = self.execution.step(action, source)
        if failure is None:
            after = self.execution.state
            schema = self.schemas[action.name]
            self.lines.append(self.voice.succeeded(before, action, after, schema))
        return failure

    def said(self) -> str:
        return self.voice.said(self.lines)

    def failed(self, action: Action, reason: str) -> str:
        return self.voice.failed(action, reason)
