"""Closed-loop execution: run a plan on a robot, correct the graph from what it sees, replan.

`Executor.run(plan, episode)` sends the plan to the robot step by step.
After every step it compares what the robot observed with its belief (the
scene graph, `belief.py`) and updates it; when the step failed, or the rest
of the plan no longer runs or no longer reaches the goal on the updated
belief, it replans from the current state (`replan.py`: the symbolic solver
on the task's formal goal, or the planner again), until the goal holds or
the replan budget is spent. When the goal names an object the robot
lost sight of (not where the graph had it, and not seen elsewhere), it
searches first (`search.py`, `worth.py`: where finding it is likeliest for
the cost, with a budget of its own). Before it declares the goal reached,
it looks at the goal's nodes that no call of the run saw or handled (what holds of them rests on the
map alone) and checks the goal again. The belief starts from the graph it
is given: the map the robot remembers, which the true world may have left
behind (`run.py`). Open loop (`closed_loop=False`) sends the same plan and
stops at its first failed step.

Everything is recorded in the Episode (docs/execute.md, "The trace"):
`steps` holds one `WorldStep` per skill call (the plan action, the skill
call, its result, the observations, what the belief expected to see there
and what changed), `extra["execute"]` the rounds of planning, the updates,
the faults the simulated robot injected and the counts; `plan`/`full_plan`
become the actions the robot carried out, and `goal_reached` is judged in
the true world when the robot has one (the simulator), on the belief
otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sceneplan.errors import BadInputError, GoalParseError, SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.execute.replan import TIMEOUT_S, Replanner
from sceneplan.execute.robot import Robot, skill_for
from sceneplan.execute.search import (
    CALLS_PER_PLACE,
    check_search,
    llm_rooms,
    look_actions,
    rooms_to_search,
    search_budget,
    search_order,
    seen_whole,
)
from sceneplan.execute.skills import Skill, SkillCall, SkillResult
from sceneplan.execute.worth import greedy_look, last_places, surface_weights, sweep_look
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, Status, WorldStep
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.reconcile import Change
from sceneplan.world.state import WorldState

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient

# Skills on a thing the robot reaches through the asset it is on (or is): SayPlan's access.
_REACHING = frozenset({Skill.PICK, Skill.OPEN, Skill.CLOSE, Skill.SWITCH_ON, Skill.SWITCH_OFF})
FORMAT = "sceneplan-execution"
VERSION = 1
MAX_REPLANS = 10  # rounds of replanning after the first plan
# Skill calls at most for the plan being run (the first, or the last replan's), as a
# multiple of its length (plus a floor): a stop for a robot that keeps failing in a way no
# replan budget counts. Searching and confirming the goal by looking are not counted.
CALLS_PER_STEP, MIN_CALLS = 4, 50
CONFIRM_TRIES = 2  # looks at a goal's node before the run stops for want of confirming it
# Kinds of belief updates that correct the map (not the robot's own moves and grasps).
CORRECTIONS = frozenset({"moved", "missing", "found", "new", "state", "locked", "blocked"})


@dataclass(frozen=True)
class ExecutionSettings:
    """How the executor runs a plan: what `run.run_plan` takes, and `run.execute` (as an object
    or as keywords: `execute(..., closed_loop=False)`); the `Executor`'s defaults too.

    >>> ExecutionSettings(max_replans=2)
    ExecutionSettings(closed_loop=True, replan='auto', max_replans=2, replan_timeout=15.0, search='greedy')
    """  # noqa: E501

    closed_loop: bool = True  # correct the belief and replan (False: send the plan as it is)
    replan: str = "auto"  # who replans: auto, symbolic or planner (`make_replanner`)
    max_replans: int = MAX_REPLANS  # rounds of replanning after the first plan
    replan_timeout: float = TIMEOUT_S  # seconds for each symbolic replan
    search: str = "greedy"  # how to search (search.ORDERS): greedy, likely, nearest or sweep


DEFAULT_SETTINGS = ExecutionSettings()


class _Stop(Exception):
    """The run cannot go on: `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Executor:
    """Runs plans on a robot; with `closed_loop`, corrects its belief and replans."""

    robot: Robot
    graph: SceneGraph
    goal: str | None = None
    replanner: Replanner | None = None
    vocabulary: str = "sayplan"
    closed_loop: bool = DEFAULT_SETTINGS.closed_loop
    max_replans: int = DEFAULT_SETTINGS.max_replans
    search: str = DEFAULT_SETTINGS.search  # how to search (search.ORDERS)
    confirm: bool = True  # look at the goal's facts that rest only on memory before done
    llm: LLMClient | None = None  # names likely rooms for a greedy or likely search
    belief: Belief = field(init=False)
    _budget: int = field(init=False, default=0)  # skill calls the plan being run may make
    _plan_size: int = field(init=False, default=0)  # the steps of the plan being run
    _since: tuple = field(init=False, default=(0, 0))  # (calls, failures) when it came
    _calls: int = field(init=False, default=0)  # skill calls made (searches excluded)
    _failures: int = field(init=False, default=0)  # of which failed
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
        record = self._start(episode, planned)
        self._first = len(episode.steps)  # a partially observing planner's own, before
        queue = list(plan)
        stopped: str | None = None
        dirty = True  # the belief changed or a new plan came: check the plan on it
        self._size(queue)
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
                self._check_budget(queue)
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
                        raise _Stop(problem)
                    if self._lost():  # the step found a goal's object gone: search first
                        dirty = True
                        continue
                    queue, dirty = await self._replan(problem, episode), True
        except _Stop as stop:
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
            raise _Stop(str(exc)) from None
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
                self._record(episode, action, reach, result, [], updates)
                return result
            belief.state.accessed = asset
            reached.append((reach, result))
        result = await self._perform(call)
        if result.ok:
            belief.apply(action)
        expected = belief.expected(result.surfaces) if self.closed_loop else []
        if self.closed_loop:  # open loop: the plan goes on whatever the robot sees
            updates += belief.observe(call, result)
        self._record(episode, action, call, result, expected, updates, reached)
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
            self._calls += 1
            self._failures += not result.ok
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

    def _record(
        self,
        episode: Episode,
        action: Action,
        call: SkillCall,
        result: SkillResult,
        expected: list[dict[str, Any]],
        updates: list[Change],
        reached: Iterable[tuple[SkillCall, SkillResult]] = (),
    ) -> None:
        index = len(episode.steps)
        kinds: dict[str, list[str]] = {"added": [], "forgotten": [], "corrected": []}
        for update in updates:
            key = {"new": "added", "found": "added", "missing": "forgotten"}.get(
                update.kind, "corrected"
            )
            if update.node not in kinds[key]:
                kinds[key].append(update.node)
        episode.steps.append(
            WorldStep(
                index=index,
                action=str(action),
                executed=str(call) if result.ok else None,
                ok=result.ok,
                feedback=result.message or ("ok" if result.ok else "failed"),
                cause=result.reason.value if result.reason else None,
                agent_at=result.at,
                observations=[s.to_observation().to_dict() for s in result.seen],
                expected=expected,
                **kinds,
            )
        )
        extra = episode.extra["execute"]
        for made, answer in (*reached, (call, result)):
            extra["calls"].append(
                {"step": index, "call": made.to_dict(), "result": answer.to_dict()}
            )
        extra["updates"] += [{"step": index, **u.to_dict()} for u in updates]
        if result.ok:
            episode.plan.append(str(action))

    # -- searching -----------------------------------------------------------------------

    def _lost(self) -> list[str]:
        """The objects the goal names, by id or by the category it quantifies over, that
        the belief dropped as missing."""
        if self.goal is None or not self.belief.lost:
            return []
        goal = parse_goal(self.goal)
        selectors, todo = set(), [goal]
        while todo:
            formula = todo.pop()
            if isinstance(selector := getattr(formula, "selector", None), str):
                selectors.add(selector)
            todo += formula.children()
        lost = self.belief.lost
        return sorted(
            n
            for n in lost
            if n in goal.nodes()
            or lost[n].category in selectors
            or f"kind:{lost[n].kind.value}" in selectors
        )

    async def _search(self, lost: list[str], episode: Episode) -> str:
        """Look at assets, likely ones first, until every lost object is seen again (one
        replan round), within the search's own budget of skill calls."""
        rounds = episode.extra["execute"]["rounds"]
        reason = f"lost sight of {', '.join(lost)}, which the goal names"
        if episode.replans >= self.max_replans:
            raise _Stop(f"the replan budget ({self.max_replans}) is spent; last: {reason}")
        episode.replans += 1
        rounds.append(
            {"round": len(rounds), "source": "search", "at_step": len(episode.steps)}
            | {"reason": reason, "plan": None, "note": None, "time_s": 0.0}
        )
        started, calls_before = time.perf_counter(), self._looking
        self._search_calls_before = calls_before
        budget = search_budget(self.belief)
        self._ranked, asked = [], None
        if self.search in ("greedy", "likely") and self.llm is not None:
            self._ranked, asked = await llm_rooms(self.llm, self.belief, lost, episode)
        looked = self._looked = []  # assets the robot saw while searching, in order
        visited = 0  # assets the search went to look at
        metres_before = self._search_metres
        self._tried = set()
        self._weights = surface_weights(self.belief, lost, self._ranked)

        def missing() -> bool:
            return any(n in self.belief.lost for n in lost)

        self._searching = True
        try:
            for room, asset in self._looks(lost):
                if not missing():
                    break
                if self._skips(asset):
                    continue  # seen whole already (arriving in its room, say)
                try:
                    actions = look_actions(self.belief, room, asset)
                except SceneplanError:  # cut off since the order was made
                    continue
                visited += asset is not None
                for action in actions:
                    if self._looking - calls_before >= budget:
                        raise _Stop(
                            f"the search for {', '.join(n for n in lost if n in self.belief.lost)}"
                            f" spent its budget of {budget} skill calls ({CALLS_PER_PLACE} per "
                            f"asset and room of the map), {self._cost(metres_before)}"
                        )
                    result = await self._step(action, episode)
                    self._tried.add((self.belief.state.room_of(self.belief.state.agent_id), None))
                    if result is not None and not result.ok:
                        break
                    if not missing():
                        break
                    if self._skips(asset):
                        break  # arriving showed it whole: no need to reach it
        finally:
            self._searching = False
        still = [n for n in lost if n in self.belief.lost]
        episode.extra["execute"]["searches"].append(
            {
                "lost": list(lost),
                "order": self.search,
                "llm_rooms": list(self._ranked) if self.llm is not None else None,
                "llm_note": asked,
                "looked": visited,
                "seen": len(looked),
                "calls": self._looking - calls_before,
                "metres": round(self._search_metres - metres_before, 2),
                "found": not still,
            }
        )
        rounds[-1]["time_s"] = round(time.perf_counter() - started, 4)
        rounds[-1]["note"] = self._cost(metres_before) + (
            f"; not found: {', '.join(still)}" if still else ""
        )
        if still:
            raise _Stop(
                f"searched every place the robot can reach ({self._cost(metres_before)}) "
                f"and did not find {', '.join(still)}"
            )
        return ", ".join(lost)

    def _cost(self, metres_before: float) -> str:
        """What the search under way cost the robot, as its messages say it."""
        calls = self._looking - self._search_calls_before
        metres = self._search_metres - metres_before
        return f"{calls} skill call(s), {metres:.0f} m, {len(self._looked)} asset(s) seen"

    def _skips(self, asset: str | None) -> bool:
        """Whether the search need not look at an asset: seen whole already. (The nearest
        search visits every asset.)"""
        if self.search == "nearest" or asset is None:
            return False
        return seen_whole(self.belief, asset, self._surfaces)

    def _looks(self, lost: list[str]) -> Iterator[tuple[str, str | None]]:
        """The search's (room, asset) looks, one at a time, each chosen from where the
        robot is now and what it has seen since (the nearest order: made once)."""
        if self.search == "nearest":
            yield from self._order(lost)
            return
        while True:
            item = self._next(lost)
            if item is None:
                return
            self._tried.add(item)
            yield item

    def _next(self, lost: list[str]) -> tuple[str, str | None] | None:
        """The search's next look, or None when nothing is left to look at."""
        if self.search == "likely":
            return next((i for i in self._order(lost) if i not in self._tried), None)
        seen = self._surfaces | last_places(self.belief, lost)
        if self.search == "sweep":
            return sweep_look(self.belief, seen, self._tried)
        return greedy_look(self.belief, self._weights, seen, self._tried)

    def _order(self, lost: list[str]) -> list[tuple[str, str | None]]:
        """(room, asset) pairs in the search's order."""
        belief, graph = self.belief, self.belief.graph
        if self.search == "nearest":
            return [
                (room, c)
                for room in rooms_to_search(belief, lost)
                for c in graph.children(room)
                if graph.nodes[c].kind is NodeKind.ASSET
            ]
        seen = [a for a in (n.id for n in graph) if seen_whole(belief, a, self._surfaces)]
        return search_order(belief, lost, seen, self._ranked)

    async def _confirm(self, episode: Episode) -> bool:
        """Before done: look at the goal's nodes that the robot has neither seen nor
        handled in this run (what holds of them rests only on memory), one look per
        node's asset. Whether it looked (then the goal is checked again).

        A node counts as confirmed only when a call of the run saw or handled it; a
        look that cannot be made (a blocked room, a stuck container) or that does not
        show it is tried again once (the belief may have learnt a way round), then the
        run stops with the reason: the goal is not declared reached on memory alone.
        """
        goal = self._goal() if self.confirm else None
        if goal is None:
            return False
        state, graph = self.belief.state, self.belief.graph
        todo: dict[str, list[str]] = {}  # asset to look at -> the nodes it confirms
        for node in sorted(goal.nodes()):
            if node in self._observed or node not in graph:  # not in graph: lost, searched
                continue
            kind = graph.nodes[node].kind
            asset = node if kind is NodeKind.ASSET else None
            if kind is NodeKind.OBJECT and not state.holds(node):
                asset = state.support_asset(node)
            if asset is None:
                continue
            tries = self._tries.get(node, 0)
            if tries >= CONFIRM_TRIES:
                raise _Stop(
                    f"could not confirm the goal: no look showed {node} "
                    f"({self._unconfirmed.get(node, 'not seen')})"
                )
            self._tries[node] = tries + 1
            todo.setdefault(asset, []).append(node)
        if not todo:
            return False
        record = episode.extra["execute"]
        self._searching = True
        try:
            for asset, nodes in todo.items():
                why = await self._look_at(asset, nodes[0], record, episode)
                for node in nodes:
                    missed = node not in self._observed and node in self.belief.graph
                    if missed and (why or node not in self._unconfirmed):  # keep a failure's
                        self._unconfirmed[node] = why or f"the look at {asset} did not show it"
        finally:
            self._searching = False
        return True

    async def _look_at(self, asset: str, node: str, record: dict, episode: Episode) -> str | None:
        """Look at `asset` to confirm `node`; why the look could not be made, or None."""
        room = self.belief.graph.room_of(asset)
        if room is None:
            return f"{asset} is in no room"
        try:
            actions = look_actions(self.belief, room, asset)
        except SceneplanError as exc:  # cut off (a blocked room)
            return str(exc)
        record["confirmed"].append({"node": node, "asset": asset, "step": len(episode.steps)})
        for action in actions:
            result = await self._step(action, episode)
            if result is not None and not result.ok:
                return f"{episode.steps[-1].action}: {result.message or result.reason}"
        return None

    # -- checking and replanning ---------------------------------------------------------

    def _goal(self) -> Formula | None:
        if self.goal is None:
            return None
        try:
            return parse_goal(self.goal, self.belief.graph)
        except GoalParseError as exc:
            why = f"the goal cannot be stated on the robot's scene graph any more: {exc}"
            raise _Stop(why) from None

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
        extra = episode.extra["execute"]
        rounds = extra["rounds"]
        if self.replanner is None or not self.closed_loop:
            raise _Stop(problem)
        if episode.replans >= self.max_replans:
            raise _Stop(f"the replan budget ({self.max_replans}) is spent; last: {problem}")
        episode.replans += 1
        started = time.perf_counter()
        plan, note = await self.replanner.replan(self.belief, episode)
        rounds.append(
            {
                "round": len(rounds),
                "source": self.replanner.name,
                "at_step": len(episode.steps),
                "reason": problem,
                "plan": [str(a) for a in plan] if plan is not None else None,
                "note": note,
                "time_s": round(time.perf_counter() - started, 4),
            }
        )
        if plan is None:
            raise _Stop(f"no plan from the current state ({note}); after: {problem}")
        self._size(plan)
        return plan

    def _size(self, plan: list[Action]) -> None:
        """Give the plan now being run its budget of skill calls (`CALLS_PER_STEP` per step,
        at least `MIN_CALLS`), counted from the calls made so far."""
        steps = sum(not self.belief.simulator.ends_plan(a) for a in plan)
        self._budget = max(MIN_CALLS, CALLS_PER_STEP * steps)
        self._plan_size, self._since = steps, (self._calls, self._failures)

    def _check_budget(self, queue: list[Action]) -> None:
        """Stop when the plan being run has used its budget of skill calls; say how many
        failed (a robot that keeps failing) or that none did."""
        calls, failed = self._calls - self._since[0], self._failures - self._since[1]
        if calls < self._budget:
            return
        made = f"{calls} skill calls made on a plan of {self._plan_size} step(s)"
        if failed:
            raise _Stop(f"{made}, {failed} of them failed: the robot keeps failing")
        raise _Stop(f"{made}, none failed, and {len(queue)} step(s) are still to run")

    # -- start and end -------------------------------------------------------------------

    def _start(self, episode: Episode, planned: list[Action]) -> dict[str, Any]:
        record = {
            "format": FORMAT,
            "version": VERSION,
            **self.robot.describe(),
            "closed_loop": self.closed_loop,
            "replanner": self.replanner.name if self.replanner else None,
            "max_replans": self.max_replans,
            "planned": {
                "plan": list(episode.plan),
                "full_plan": list(episode.full_plan),
                "replans": episode.replans,
                "executable": episode.executable,
                "status": episode.status.value,
                "goal_reached": episode.goal_reached,
            },
            "rounds": [
                {
                    "round": 0,
                    "source": "planner",
                    "at_step": 0,
                    "reason": None,
                    "plan": [str(a) for a in planned],
                }
            ],
            "calls": [],
            "updates": [],
            "searches": [],
            "confirmed": [],
            "fault_free_steps": len(planned),
        }
        episode.extra["execute"] = record
        episode.plan, episode.full_plan, episode.action_sources = [], [], []
        episode.replans = 0
        episode.error, episode.error_type, episode.failure = None, None, None
        return record

    def _finish(self, episode: Episode, record: dict, stopped: str | None, took: float) -> None:
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
        record.update(
            stopped=stopped,
            goal_believed=believed,
            judged_in="truth" if truth is not None else "belief",
            steps=len(episode.steps) - self._first,
            skill_calls=len(record["calls"]),
            looks=self._looking,
            metres=round(self._metres, 2),
            search_calls=sum(s["calls"] for s in record["searches"]),
            search_metres=round(sum(s["metres"] for s in record["searches"]), 2),
            search_seen=sum(s["seen"] for s in record["searches"]),
            corrections=sum(u["kind"] in CORRECTIONS for u in record["updates"]),
            extra_steps=len(episode.steps) - self._first - record["fault_free_steps"],
            failed_steps=sum(not c["result"]["ok"] for c in record["calls"]),
            injected=list(injected) if injected is not None else None,
            time_s=round(took, 4),
        )
        if episode.status is Status.ERROR:
            return
        done = episode.goal_reached if self.goal is not None else stopped is None
        if self.closed_loop and stopped is not None:
            done = False  # the executor gave up: a goal that holds anyway is not its success
        episode.status = Status.SUCCESS if done else Status.FAILED
