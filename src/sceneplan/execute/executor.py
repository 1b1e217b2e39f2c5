"""Closed-loop execution: run a plan on a robot, correct the graph from what it sees, replan.

`Executor.run(plan, episode)` sends the plan to the robot step by step.
After every step it compares what the robot observed with its belief (the
scene graph, `belief.py`) and updates it; when the step failed, or the rest
of the plan no longer runs or no longer reaches the goal on the updated
belief, it replans from the current state (`replan.py`: the symbolic solver
on the task's formal goal, or the planner again), until the goal holds or
the replan budget is spent. When the goal names an object the robot
lost sight of (not where the graph had it, and not seen elsewhere), it
searches first (`looking.py`, with `search.py` and `worth.py`: where finding
it is likeliest for the cost, with a budget of its own). Before it declares the
goal reached, it looks at the goal's nodes that no call of the run saw or
handled (what holds of them rests on the map alone) and checks the goal again
(`looking.py`). A plan that keeps failing is stopped by its budget of skill
calls (`budget.py`). The belief starts from the graph it is given: the map the
robot remembers, which the true world may have left behind (`run.py`). Open
loop (`closed_loop=False`) sends the same plan and stops at its first failed
step.

Everything is recorded in the Episode (`trace.py`; docs/execute.md, "The
trace"): `steps` holds one `WorldStep` per action sent (the plan action, the
skill call, its result, the observations, what the belief expected to see
there and what changed), `execute` (an `ExecutionRecord`) the rounds of
planning, the skill calls, the updates, the searches, the faults the
simulated robot injected and the counts; `plan`/`full_plan` become the actions
the robot carried out, and `goal_reached` is judged in the true world when the
robot has one (the simulator), on the belief otherwise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sceneplan.errors import BadInputError, GoalParseError, SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.execute.budget import CallBudget
from sceneplan.execute.looking import Looking
from sceneplan.execute.replan import Replanner
from sceneplan.execute.robot import Robot, skill_for
from sceneplan.execute.search import check_search
from sceneplan.execute.settings import DEFAULT_SETTINGS, MAX_REPLANS, ExecutionSettings, Stop
from sceneplan.execute.skills import Skill, SkillCall, SkillResult
from sceneplan.execute.trace import record_of, record_step, start_record, tally
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, Status
from sceneplan.planners.records import ExecutionRecord, Round
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.reconcile import Change
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient

__all__ = [
    "DEFAULT_SETTINGS",
    "MAX_REPLANS",
    "ExecutionSettings",
    "Executor",
]

# Skills on a thing the robot reaches through the asset it is on (or is): SayPlan's access.
_REACHING = frozenset({Skill.PICK, Skill.OPEN, Skill.CLOSE, Skill.SWITCH_ON, Skill.SWITCH_OFF})


@dataclass
class Executor(Looking):
    """Runs plans on a robot; with `closed_loop`, corrects its belief and replans."""

    robot: Robot
    graph: SceneGraph
    goal: str | None = None
    replanner: Replanner | None = None
    vocabulary: Vocabulary = SAYPLAN
    closed_loop: bool = DEFAULT_SETTINGS.closed_loop
    max_replans: int = DEFAULT_SETTINGS.max_replans
    search: str = DEFAULT_SETTINGS.search  # how to search (search.ORDERS)
    confirm: bool = True  # look at the goal's facts that rest only on memory before done
    llm: LLMClient | None = None  # names likely rooms for a greedy or likely search
    belief: Belief = field(init=False)
    _budget: CallBudget = field(init=False, default_factory=CallBudget)  # of the plan run
    _looking: int = field(init=False, default=0)  # skill calls made to search or confirm
    _surfaces: set = field(init=False, default_factory=set)  # (asset, relation) seen whole
    _observed: set = field(init=False, default_factory=set)  # nodes seen or handled
    _tries: dict = field(init=False, default_factory=dict)  # goal node -> looks to confirm it
    _unconfirmed: dict = field(init=False, default_factory=dict)  # goal node -> why not seen
    _first: int = field(init=False, default=0)  # the episode's steps before the run's
    _search_calls_before: int = field(init=False, default=0)  # looks when the search began
    _searching: bool = field(init=False, default=False)  # calls now count as looking
    _ranked: list = field(init=False, default_factory=list)  # rooms the LLM named
    _looked: list = field(init=False, default_factory=list)  # assets seen by the last search
    _tried: set = field(init=False, default_factory=set)  # (room, asset) the search made
    _weights: dict = field(init=False, default_factory=dict)  # surface -> worth (greedy)
    _metres: float = field(init=False, default=0.0)  # travelled in the run
    _search_metres: float = field(init=False, default=0.0)  # of which while searching

    def __post_init__(self) -> None:
        if self.max_replans < 0:
            raise BadInputError("the replan budget must be 0 or more")
        check_search(self.search)
        self.belief = Belief(self.graph, self.vocabulary)

    async def run(self, plan: list[Action], episode: Episode) -> Episode:
        """Execute `plan` (the planner's, from `graph`'s state) and record it all in `episode`."""
        started = time.perf_counter()
        planned = [a for a in plan if not self.belief.simulator.ends_plan(a)]
        record = start_record(
            episode,
            self.robot,
            planned,
            closed_loop=self.closed_loop,
            replanner=self.replanner.name if self.replanner else None,
            max_replans=self.max_replans,
        )
        self._first = len(episode.steps)  # a partially observing planner's own, before
        queue = list(plan)
        stopped: str | None = None
        dirty = True  # the belief changed or a new plan came: check the plan on it
        self._give_budget(queue)
        try:
            while True:
                lost = self._lost() if self.closed_loop and dirty else []
                if lost:  # the goal names objects the robot no longer knows where to find
                    found = await self._search(lost, episode)
                    if not self._lost():  # else: lost more while searching, search again
                        queue = await self._replan(f"found {found} by searching", episode)
                    dirty = True
                    continue
                if self.closed_loop and dirty:
                    problem = self._problem(queue)
                    dirty = False
                    if problem:
                        queue, dirty = await self._replan(problem, episode), True
                        continue
                if not queue or self.belief.simulator.ends_plan(queue[0]):
                    if self.closed_loop and await self._confirm(episode):
                        dirty = True  # what the looks saw: check the goal again
                        continue
                    break
                self._budget.check(len(queue))
                action = queue.pop(0)
                result = await self._step(action, episode)
                if result is None:
                    continue
                dirty = dirty or bool(episode.steps[-1].added or episode.steps[-1].forgotten)
                dirty = dirty or bool(episode.steps[-1].corrected)
                if not result.ok:
                    step = episode.steps[-1]
                    problem = f"step {step.index + 1} {step.executed or step.action}: "
                    problem += result.message or (result.reason.value if result.reason else "")
                    if not self.closed_loop:
                        raise Stop(problem)
                    if self._lost():  # the step found a goal's object gone: search first
                        dirty = True
                        continue
                    queue, dirty = await self._replan(problem, episode), True
        except Stop as stop:
            stopped = stop.reason
        except SceneplanError as exc:  # the robot is unreachable or answers nonsense
            episode.status, episode.error = Status.ERROR, str(exc)
            stopped = str(exc)
        self._finish(episode, record, stopped, time.perf_counter() - started)
        return episode

    # -- one step ------------------------------------------------------------------------

    async def _step(self, action: Action, episode: Episode) -> SkillResult | None:
        """Send one action to the robot, update the belief, record the step."""
        belief = self.belief
        try:
            call = skill_for(action, belief.state, belief.vocabulary)
        except BadInputError as exc:
            raise Stop(str(exc)) from None
        if call is None:
            return None
        updates: list[Change] = []
        reached: list[tuple[SkillCall, SkillResult]] = []
        asset = self._reach(call)
        if asset is not None:  # the robot's skills reach things through an accessed asset
            reach = SkillCall(Skill.ACCESS, {"asset": asset})
            result = await self._perform(reach)
            if self.closed_loop:
                updates = belief.observe(reach, result)
            if not result.ok:
                record_step(episode, action, reach, result, [], updates)
                return result
            belief.state.accessed = asset
            reached.append((reach, result))
        result = await self._perform(call)
        if result.ok:
            belief.apply(action)
        expected = belief.expected(result.surfaces) if self.closed_loop else []
        if self.closed_loop:  # open loop: the plan goes on whatever the robot sees
            updates += belief.observe(call, result)
        record_step(episode, action, call, result, expected, updates, reached)
        return result

    async def _perform(self, call: SkillCall) -> SkillResult:
        """One skill call on the robot, counted (as looking, while searching or confirming);
        what it showed is remembered for the search and the confirmation."""
        before = self.belief.state.agent_at
        result = await self.robot.perform(call)
        metres = self._travelled(call, result, before)
        self._metres += metres
        if self._searching:
            self._search_metres += metres
            self._looking += 1
            for asset, _ in result.surfaces:
                if asset not in self._looked:
                    self._looked.append(asset)
        else:
            self._budget.count(result.ok)
        self._surfaces.update(result.surfaces)
        self._observed.update(s.id for s in result.seen)
        self._observed.update(asset for asset, _ in result.surfaces)
        if result.ok:
            handled = (call.args.get(k) for k in ("object", "target", "asset"))
            self._observed.update(n for n in handled if n is not None)
        return result

    def _travelled(self, call: SkillCall, result: SkillResult, before: str) -> float:
        """Metres a call moved the robot: the path on the map from where it was to where it
        says it is (the target, when it does not say)."""
        if call.skill is not Skill.NAVIGATE:
            return 0.0
        after = result.at or (call.target if result.ok else before)
        if after == before:
            return 0.0
        try:
            return Navigator(self.belief.graph).path_length(before, after)
        except SceneplanError:  # a place the map has no path to: not counted
            return 0.0

    def _reach(self, call: SkillCall) -> str | None:
        """The asset to access before a skill on a thing, in a vocabulary without `access`
        (LookPlanGraph's reaches anything in the agent's room): the thing itself, or the
        asset it rests on (always: a place or a look moves the robot's reach without the
        plan saying so); None otherwise."""
        if call.skill not in _REACHING or self.belief.reaches_by_access:
            return None
        state, node = self.belief.state, call.target
        if node not in state.graph.nodes:
            return None
        return node if state.graph.nodes[node].kind is NodeKind.ASSET else state.support_asset(node)

    # -- checking and replanning ---------------------------------------------------------

    def _goal(self) -> Formula | None:
        if self.goal is None:
            return None
        try:
            return parse_goal(self.goal, self.belief.graph)
        except GoalParseError as exc:
            why = f"the goal cannot be stated on the robot's scene graph any more: {exc}"
            raise Stop(why) from None

    def _problem(self, queue: list[Action]) -> str | None:
        """Why the rest of the plan will not do on the belief, or None when it will."""
        verdict = self.belief.verify(queue)
        if verdict.failure is not None:
            return f"the plan no longer runs on the updated scene graph: {verdict.feedback}"
        goal = self._goal()
        if goal is not None and not goal.holds(verdict.final_state):
            if not queue or all(self.belief.simulator.ends_plan(a) for a in queue):
                return "the plan ran out and the goal does not hold: " + "; ".join(
                    goal.explain(verdict.final_state)
                )
            return "the plan no longer reaches the goal: " + "; ".join(
                goal.explain(verdict.final_state)
            )
        return None

    async def _replan(self, problem: str, episode: Episode) -> list[Action]:
        rounds = record_of(episode).rounds
        if self.replanner is None or not self.closed_loop:
            raise Stop(problem)
        if episode.replans >= self.max_replans:
            raise Stop(f"the replan budget ({self.max_replans}) is spent; last: {problem}")
        episode.replans += 1
        started = time.perf_counter()
        plan, note = await self.replanner.replan(self.belief, episode)
        rounds.append(
            Round(
                round=len(rounds),
                source=self.replanner.name,
                at_step=len(episode.steps),
                reason=problem,
                plan=[str(a) for a in plan] if plan is not None else None,
                note=note,
                time_s=round(time.perf_counter() - started, 4),
            )
        )
        if plan is None:
            raise Stop(f"no plan from the current state ({note}); after: {problem}")
        self._give_budget(plan)
        return plan

    def _give_budget(self, plan: list[Action]) -> None:
        """Give the plan now being run its budget of skill calls (budget.py)."""
        self._budget.give(sum(not self.belief.simulator.ends_plan(a) for a in plan))

    # -- the end ---------------------------------------------------------------------------

    def _finish(
        self, episode: Episode, record: ExecutionRecord, stopped: str | None, took: float
    ) -> None:
        believed: bool | None = None
        if self.goal is not None and stopped is None:
            try:
                believed = parse_goal(self.goal, self.belief.graph).holds(self.belief.state)
            except GoalParseError:  # the belief lost a node the goal names
                believed = False
        truth: WorldState | None = self.robot.true_state()
        judged = truth if truth is not None else self.belief.state
        episode.full_plan = list(episode.plan)
        episode.action_sources = ["robot"] * len(episode.plan)
        episode.executable = stopped is None
        if stopped is not None:
            last = episode.steps[-1] if episode.steps else None
            episode.failure = {
                "cause": last.cause if last is not None and not last.ok else None,
                "message": stopped,
                "index": last.index if last is not None else None,
            }
        if self.goal is not None:
            try:
                goal = parse_goal(self.goal, judged.graph)
                episode.goal_reached = goal.holds(judged)
                episode.goal_unmet = goal.explain(judged)
            except GoalParseError:
                episode.goal_reached, episode.goal_unmet = False, [f"{self.goal} (lost nodes)"]
        episode.final_changes = judged.changes()
        injected = getattr(self.robot, "injected", None)
        record.stopped, record.goal_believed = stopped, believed
        record.judged_in = "truth" if truth is not None else "belief"
        record.steps = len(episode.steps) - self._first
        record.looks, record.metres = self._looking, round(self._metres, 2)
        tally(record)
        record.injected = list(injected) if injected is not None else None
        record.time_s = round(took, 4)
        if episode.status is Status.ERROR:
            return
        done = episode.goal_reached if self.goal is not None else stopped is None
        if self.closed_loop and stopped is not None:
            done = False  # the executor gave up: a goal that holds anyway is not its success
        episode.status = Status.SUCCESS if done else Status.FAILED
