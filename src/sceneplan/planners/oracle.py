"""The oracle: a task solved from its ground truth, no LLM.

A planning task's formal goal is solved by the symbolic planner: this shows
that every planning task of a suite is solvable in the simulator, and gives
the reference plan length and planning time. With `observe=partial` the
oracle knows where things truly are but its memory does not: it goes and
looks where the task's objects are (opening containers to look inside),
then solves the goal on its memory and runs that plan through the true
world, re-solving from memory when the world refuses a step (a noisy
perception can make it fail: that failure rate measures the perception):
that is `OracleOnMemory`, the class `observe=partial` picks.

A search task is answered from its answer set after expanding the rooms
that hold the answer and those the task says must be searched, so that it
scores on every search measure.
"""

from __future__ import annotations

import asyncio

from pydantic import Field

from sceneplan.errors import BadInputError, GoalParseError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.graph.views import collapse
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.observing import Observer, PartialOptions
from sceneplan.planners.options import SYMBOLIC_PLANNERS, SymbolicPlanner
from sceneplan.planners.records import solve_record
from sceneplan.planners.shared import action_doing
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, SolveStatus, solve
from sceneplan.world.actions import Action
from sceneplan.world.goals import parse_goal
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.why import why_no_plan

LOOKS_PER_ASSET = 3  # a noisy perception may miss an object: look again, up to this often
RESOLVES = 5  # looks and re-solves after the world refused a step (as SayPlan's replans)


class Oracle(Planner):
    """Plans to the task's goal with `symbolic.solve`; answers a search task from its answer set."""

    name = "oracle"
    vocabulary = SAYPLAN  # on memory (`observe=partial`): LookPlanGraph's, which looks
    scene_actions = True
    needs_llm = False
    cpu_bound = True  # the symbolic planner: `eval` runs its episodes in parallel processes

    class Options(PartialOptions):
        """The symbolic planner and its time limit, and observing the world partially."""

        planner: SymbolicPlanner = Field(
            DEFAULT_PLANNER, description=f"symbolic planner, one of: {SYMBOLIC_PLANNERS}"
        )
        timeout: float = Field(60.0, gt=0, description="seconds for the symbolic planner")

    options: Options

    async def _run(self, run: Run) -> None:
        """Solve the task's goal, or answer a search task from its answer set."""
        task = run.task
        if task is not None and task.is_search:
            self._answer(run, task)
            return
        if task is None or task.goal is None:
            raise BadInputError("the oracle plans to a task's goal: give a planning task")
        await self._solve(run, task)

    async def _solve(self, run: Run, task: Task) -> None:
        """Solve the goal on the whole graph and verify the plan."""
        problem = PlanningProblem(run.graph, task.goal, vocabulary=run.simulator.vocabulary)
        options = self.options
        result = await asyncio.to_thread(solve, problem, options.timeout, options.planner)
        episode = run.episode
        seen = (NodeKind.ASSET, NodeKind.OBJECT)  # it plans on the whole graph: it sees it all
        episode.observed = [n.id for n in run.graph if n.kind in seen]
        episode.symbolic = solve_record(result)
        if not result.ok:
            why = []
            if result.status is SolveStatus.UNSOLVABLE and task.goal:  # what the scene says
                why = why_no_plan(
                    run.graph, parse_goal(task.goal, run.graph), run.simulator.vocabulary
                )
            episode.error = f"the symbolic planner found no plan ({result.status.value})" + (
                ": " + "; ".join(why) if why else ""
            )
            return
        plan = [str(a) for a in result.plan]
        episode.plan = episode.full_plan = plan
        episode.action_sources = ["planner"] * len(plan)
        verification = run.verify(plan)
        episode.executable = verification.ok
        run.final_state = verification.final_state

    def _answer(self, run: Run, task: Task) -> None:
        """Expand the answer's rooms and the rooms to search, then name the answer nodes."""
        graph = run.graph
        holding = task.answer_rooms or sorted(
            {room for node in task.answers if (room := graph.room_of(node)) is not None}
        )
        view = collapse(graph)
        try:
            for room in dict.fromkeys([*holding, *task.must_explore]):
                shown = view.expand(room)
                run.record_sim("expand", room, True, f"expand({room}) shows {len(shown)} node(s)")
        finally:
            run.episode.explored = view.memory
        run.episode.answer = sorted(task.answers)[: task.needed]


class OracleOnMemory(Oracle):
    """The oracle on the robot's memory (`observe=partial`): it knows where things truly are,
    goes and looks there, then solves the goal on memory and acts the plan out, re-solving
    when the world refuses a step."""

    async def _solve(self, run: Run, task: Task) -> None:
        """Look where the task's objects truly are, then plan on memory and act."""
        options = self.options
        observer = Observer.start(run, options, self.perception)
        episode = run.episode
        try:
            truth = await asyncio.to_thread(
                solve,
                PlanningProblem(run.graph, task.goal, vocabulary=self.actions),
                options.timeout,
                options.planner,
            )
            if not truth.ok:
                episode.error = f"the symbolic planner found no plan ({truth.status.value})"
                return
            wanted = _objects(run, truth.plan, task)
            for _ in range(RESOLVES + 1):
                lost = [node for node in wanted if not await _find(observer, node)]
                if lost:
                    episode.failure = {"cause": None, "message": f"looked, never saw {lost[0]}"}
                if await self._act_on_memory(run, observer, task):
                    return
            episode.executable = False
        finally:
            observer.finish()

    async def _act_on_memory(self, run: Run, observer: Observer, task: Task) -> bool:
        """Solve the goal on memory and run the plan; whether every step ran, done included
        (False: memory cannot state or reach the goal yet, or the world refused a step)."""
        episode = run.episode
        goal = parse_goal(task.goal or "true", run.graph)  # its words are the world's
        missing = sorted(n for n in goal.nodes() if not observer.memory.knows(n))
        if missing:  # memory lacks (or misnamed) a node the goal names
            episode.executable = False
            episode.failure = {"cause": None, "message": f"memory lacks {', '.join(missing)}"}
            return False
        problem = PlanningProblem(
            observer.memory.graph, goal, observer.state.copy(), vocabulary=self.actions
        )
        result = await asyncio.to_thread(solve, problem, self.options.timeout, self.options.planner)
        if not result.ok:
            episode.executable = False
            episode.failure = {"cause": None, "message": f"no plan on memory ({result.status})"}
            return False
        for action in result.plan:
            outcome = await observer.act(action)
            if not outcome.ok:
                episode.failure = outcome.failure.to_dict() if outcome.failure else None
                return False
        if await _confirm(observer, sorted(goal.nodes())) and not _holds(observer, task):
            episode.failure = {"cause": None, "message": "looked: memory had the goal wrong"}
            return False
        outcome = await observer.act(run.simulator.end_action())
        if not outcome.ok:
            episode.failure = outcome.failure.to_dict() if outcome.failure else None
            return False
        episode.executable, episode.failure = True, None
        return True


Oracle.on_memory = OracleOnMemory  # observe=partial


def _objects(run: Run, plan: list[Action], task: Task) -> list[str]:
    """The movable objects the task is about: those its plan touches or changes (a mug a
    coffee machine fills) and those its goal names."""
    graph = run.graph
    named = [a for step in plan for a in step.args]
    changes = run.simulator.verify_plan(plan).final_state.changes()
    named += [*changes["moved"], *changes["state"]]
    named += sorted(parse_goal(task.goal or "true", graph).nodes())
    return [
        n for n in dict.fromkeys(named) if n in graph and graph.nodes[n].kind is NodeKind.OBJECT
    ]


async def _find(observer: Observer, node: str) -> bool:
    """Go to where `node` truly is and look there until memory knows it."""
    truth: WorldState = observer.world.truth
    for _ in range(LOOKS_PER_ASSET):
        if observer.memory.memory_id(node) is not None:
            return True
        asset = truth.support_asset(node)
        if asset is None:  # held: the robot knows what it holds
            return observer.memory.memory_id(node) is not None
        top = node
        while truth.parent(top) != asset:
            top = truth.parent(top)  # type: ignore[assignment]
        room = truth.room_of(asset)
        if room is not None and observer.state.agent_at != room:
            await _stand(observer)
            await observer.act(action_doing(observer.run.simulator, "move_agent", room))
        await _open_known_boxes(observer, node, asset)
        if truth.relation(top) is Relation.INSIDE_OF:
            if "closed" in observer.state.states(asset):
                await observer.act(_opening(observer, asset))
            await observer.act(_look(observer, asset, Relation.INSIDE_OF))
        else:
            await observer.act(_look(observer, asset, Relation.ONTOP_OF))
    return observer.memory.memory_id(node) is not None


async def _confirm(observer: Observer, nodes: list[str]) -> bool:
    """Confirm before done: look where memory has each object the goal names that no look
    of this run saw and no step handled (what holds of it rests on memory alone), one look
    per object; whether it looked."""
    episode = observer.run.episode
    seen = {o.get("truth") or o.get("id") for step in episode.steps for o in step.observations}
    seen |= {observer.memory.true_id(n) for n in observer.touched}
    state, looked = observer.state, False
    for node in nodes:
        mine = observer.memory.memory_id(node)
        if node in seen or mine is None or state.graph.nodes[mine].kind is not NodeKind.OBJECT:
            continue
        asset = state.support_asset(mine)
        if asset is None:  # held: the robot knows what it holds
            continue
        top = mine
        while state.parent(top) != asset:
            top = state.parent(top)  # type: ignore[assignment]
        room = state.room_of(asset)
        if room is not None and state.agent_at != room:
            await _stand(observer)
            await observer.act(action_doing(observer.run.simulator, "move_agent", room))
        if state.relation(top) is Relation.INSIDE_OF:
            if "closed" in state.states(asset):
                await observer.act(_opening(observer, asset))
            await observer.act(_look(observer, asset, Relation.INSIDE_OF))
        else:
            await observer.act(_look(observer, asset, Relation.ONTOP_OF))
        state, looked = observer.state, True
    return looked


def _holds(observer: Observer, task: Task) -> bool:
    """Whether the task's goal holds on memory."""
    try:
        return parse_goal(task.goal or "true", observer.memory.graph).holds(observer.state)
    except GoalParseError:  # memory lost a node the goal names
        return False


async def _stand(observer: Observer) -> None:
    """Stand up first when the agent sits or lies (VirtualHome scenes may start so)."""
    state = observer.state
    if state.graph.has_agent and {"sitting", "lying"} & state.states(state.agent_id):
        await observer.act(action_doing(observer.run.simulator, "set_posture", "standing"))


async def _open_known_boxes(observer: Observer, node: str, asset: str) -> None:
    """Open the closed objects (a carton, a lidded box) that truly enclose `node` below
    `asset` and that memory knows already: a look sees into no closed object."""
    truth: WorldState = observer.world.truth
    child, parent = node, truth.parent(node)
    while parent is not None and parent != asset:
        known = observer.memory.memory_id(parent)
        enclosed = truth.relation(child) is Relation.INSIDE_OF
        if enclosed and known is not None and "closed" in observer.state.states(known):
            await observer.act(_opening(observer, known))
        child, parent = parent, truth.parent(parent)


def _opening(observer: Observer, node: str) -> Action:
    """The action that opens `node` (LookPlanGraph's open)."""
    return action_doing(observer.run.simulator, "set_state", node, "open")


def _look(observer: Observer, asset: str, relation: Relation) -> Action:
    """The action that looks on or inside `asset` (LookPlanGraph's look_on, look_inside)."""
    return action_doing(observer.run.simulator, "observe", asset, relation.value)
