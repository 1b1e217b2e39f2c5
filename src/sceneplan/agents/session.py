"""One agent's work on one scene: the view it explores, the plans it checks, and its Episode.

The operations are SayPlan's scene-graph simulator API (Sec. 3.2, Algorithm 1)
over sceneplan's own parts: the view starts as the planners' does
(`planners.search.initial_view`: rooms, or the top of the place hierarchy when
the rooms would not fit a prompt), `expand` and `contract` change it and keep
its memory, `verify_plan` fills in the poses with the path planner and
forward-simulates, `solve` runs the symbolic planner, `execute` the
closed-loop executor. Each raises a `SceneplanError` with the CLI's message for
bad input; the server turns it into a tool error.

Everything is recorded as a planner's run is: expand and contract as search
turns and simulator calls, each verified plan as the Episode's plan, and every
tool call with its result (`record_call`, in the Episode's `mcp`). `episode()`
builds the Episode from that record and judges it as every planner's is
(`planners.outcome.finish_episode`), so `report` scores an agent beside the
planners, as the planner `mcp-agent`.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sceneplan.agents.models import (
    Answered,
    Execution,
    Found,
    GoalCheck,
    NodeMatch,
    Solution,
    Verdict,
    View,
)
from sceneplan.errors import BadInputError, UnknownNodeError
from sceneplan.eval.runner import task_hash
from sceneplan.eval.store import Store
from sceneplan.execute.executor import DEFAULT_SETTINGS
from sceneplan.execute.run import believed, get_robot, run_plan, stream_of
from sceneplan.graph.model import NodeKind
from sceneplan.graph.tokens import count_tokens
from sceneplan.graph.views import GraphView
from sceneplan.nav import Navigator
from sceneplan.planners.base import get_planner
from sceneplan.planners.dialogue import graph_text
from sceneplan.planners.episode import Episode, SearchTurn, SimCall
from sceneplan.planners.outcome import finish_episode
from sceneplan.planners.records import McpRecord, plain
from sceneplan.planners.search import initial_view
from sceneplan.runs import Setup
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, solve
from sceneplan.world import Action, Cause, Simulator, WorldState, parse_goal, parse_plan
from sceneplan.world.vocabularies import get_vocabulary
from sceneplan.world.vocabulary import Vocabulary
from sceneplan.world.why import why_no_plan

PLANNER = "mcp-agent"  # the planner name an agent's runs are stored and reported under
MAX_FOUND = 50  # matches `find` returns; the rest are counted
MAX_LOGGED = 500  # characters of a tool call's arguments kept in the Episode


class AgentSession:
    """The scene a server serves and the agent's work on it; thread-safe.

    `setup` is the task (or instruction) and the graph it starts in
    (`runs.resolve`). `robot` (`sim` or a robot server's URL) offers
    `execute`; without it, nothing is sent to any robot. With `store`, the
    Episode is stored after every call, under (task, `mcp-agent`, `model`,
    `run`): a task is needed for that.
    """

    def __init__(
        self,
        setup: Setup,
        *,
        vocabulary: str = "sayplan",
        model: str = "agent",
        robot: str | None = None,
        faults: str = "none",
        seed: int = 0,
        store: str | None = None,
        run: int = 1,
    ) -> None:
        self.setup = setup
        self.graph = setup.graph
        self.task = setup.task
        self.simulator = Simulator(self.graph, get_vocabulary(vocabulary))
        self.navigator = Navigator(self.graph, self.simulator.vocabulary)
        self.robot, self.faults, self.seed = robot, faults, seed
        self.model, self.run = model, run
        if store is not None and (self.task is None or not self.task.id):
            raise BadInputError("--out stores an agent's run of a task: give --task ID")
        self.store = Store(store) if store is not None else None
        self._lock = threading.RLock()
        self._view = initial_view(self.graph)
        self._started = time.perf_counter()
        self._sim_calls: list[SimCall] = []
        self._search: list[SearchTurn] = []
        self._calls: list[dict[str, Any]] = []
        self._verified: Verdict | None = None
        self._written: list[str] = []  # the last verified plan as the agent wrote it
        self._final: WorldState | None = None
        self._rounds = 0
        self._answer: list[str] | None = None
        self._executed: Episode | None = None

    @property
    def vocabulary(self) -> Vocabulary:
        return self.simulator.vocabulary

    @property
    def instruction(self) -> str:
        return self.task.instruction if self.task is not None else str(self.setup.target)

    # -- the scene graph ------------------------------------------------------------------

    def view(self) -> View:
        """The current view: collapsed as the planners start, with the agent's expansions."""
        with self._lock:
            return self._shown()

    def expand(self, node: str) -> View:
        """Show what is under a room, floor or zone; SayPlan's expand."""
        return self._change("expand", node)

    def contract(self, node: str) -> View:
        """Hide what is under an expanded node; SayPlan's contract."""
        return self._change("contract", node)

    def _change(self, command: str, node: str) -> View:
        with self._lock:
            tokens = count_tokens(graph_text(self._view))
            turn = SearchTurn(len(self._search) + 1, command, node, False, "", tokens)
            self._search.append(turn)
            try:
                if command == "expand":
                    changed, verb = self._view.expand(node), "shows"
                else:
                    changed, verb = self._view.contract(node), "hides"
            except BadInputError as exc:
                cause = Cause.UNKNOWN_NODE.value if isinstance(exc, UnknownNodeError) else None
                turn.feedback, turn.memory = str(exc), self._view.memory
                self._sim_calls.append(SimCall(command, node, False, str(exc), cause))
                raise
            message = f"{command}({node}) done: it {verb} {len(changed)} node(s)"
            turn.ok, turn.feedback, turn.memory = True, message, self._view.memory
            self._sim_calls.append(SimCall(command, node, True, message))
            return self._shown(message)

    def _shown(self, message: str = "") -> View:
        view: GraphView = self._view
        data = graph_text(view)
        return View(
            graph=self.graph.name or "graph",
            level=view.level if view.hierarchy is None else "hierarchy",
            expanded=view.expanded,
            memory=view.memory,
            visible=len(view),
            tokens=count_tokens(data),
            view=json.loads(data),
            message=message,
        )

    def find(self, query: str, kind: str | None = None) -> Found:
        """Nodes whose id contains `query`, or whose category is `query` (case aside);
        only of `kind` (room, asset, object, pose, floor) when given."""
        text = query.strip().lower()
        if not text:
            raise BadInputError("find needs a name or category, e.g. 'mug' or 'fridge'")
        if kind is not None and kind not in NodeKind.__members__.values():
            kinds = ", ".join(k.value for k in NodeKind)
            raise BadInputError(f"unknown node kind '{kind}'; expected one of {kinds}")
        matches = [
            node
            for node in self.graph
            if (kind is None or node.kind.value == kind)
            and (text in node.id.lower() or node.category.lower() == text)
        ]
        return Found(
            query=query,
            matches=[
                NodeMatch(
                    id=node.id,
                    kind=node.kind.value,
                    category=node.category,
                    room=self.graph.room_of(node.id),
                    parent=node.parent,
                    state=list(node.state),
                    affordances=list(node.affordances),
                    description=node.description,
                )
                for node in matches[:MAX_FOUND]
            ],
            more=max(0, len(matches) - MAX_FOUND),
        )

    # -- the simulator and the planner ----------------------------------------------------

    def verify_plan(self, plan: str | Sequence[str]) -> Verdict:
        """Fill in the poses, forward-simulate, and keep the plan as the agent's latest."""
        with self._lock:
            target = plan if isinstance(plan, str) else " > ".join(plan)
            try:
                written, full = self._expanded(plan)
            except BadInputError as exc:
                self._sim_calls.append(SimCall("verify", target[:MAX_LOGGED], False, str(exc)))
                raise
            result = self.simulator.verify_plan(full)
            verdict = _verdict(result)
            cause = result.failure.cause.value if result.failure else None
            self._sim_calls.append(
                SimCall("verify", " > ".join(verdict.plan), result.ok, result.feedback, cause)
            )
            self._rounds += 1
            self._verified, self._written = verdict, [str(a) for a in written]
            self._final, self._executed = result.final_state, None
            return verdict

    def _expanded(self, plan: str | Sequence[str]) -> tuple[list[Action], list[Action]]:
        """The plan's actions and the plan with the path planner's poses filled in."""
        actions = parse_plan(plan if isinstance(plan, str) else list(plan))
        if not actions:
            raise BadInputError(
                "the plan is empty: give actions separated by '>', "
                "e.g. 'goto(kitchen) > access(fridge) > done()'"
            )
        if not self.navigator.moves:  # a vocabulary whose moves need no poses
            return actions, actions
        return actions, self.navigator.expand_plan(actions)

    def solve(self, goal: str | None = None, timeout: float = 10.0) -> Solution:
        """A plan for `goal` (default: the task's) found by the symbolic planner, verified."""
        text = self._goal_text(goal)
        formula = parse_goal(text, self.graph)
        result = solve(PlanningProblem(self.graph, formula), timeout=timeout)
        verification = self.simulator.verify_plan(result.plan)
        reached = result.ok and formula.holds(verification.final_state)
        reason = ""
        if result.status is SolveStatus.UNSOLVABLE:
            why = why_no_plan(self.graph, formula, self.simulator.vocabulary)
            reason = "no plan exists: " + (
                "; ".join(why) if why else "the goal cannot be reached from this state"
            )
        elif result.status is SolveStatus.TIMEOUT:
            reason = f"no plan found within {timeout:g} s; try a larger timeout"
        return Solution.model_validate(
            result.to_dict()
            | {
                "goal": str(formula),
                "verification": _verdict(verification),
                "goal_reached": reached,
                "reason": reason,
            }
        )

    def check_goal(
        self, goal: str | None = None, plan: str | Sequence[str] | None = None
    ) -> GoalCheck:
        """Whether `goal` (default: the task's) holds at the start, or after `plan`."""
        formula = parse_goal(self._goal_text(goal), self.graph)
        if plan is None or not plan:
            state = self.simulator.initial_state()
            return GoalCheck(
                goal=str(formula),
                holds=formula.holds(state),
                unmet=formula.explain(state),
                after=[],
            )
        _, full = self._expanded(plan)
        result = self.simulator.verify_plan(full)
        state = result.final_state
        return GoalCheck(
            goal=str(formula),
            holds=formula.holds(state),
            unmet=formula.explain(state),
            after=[str(a) for a in full],
            verification=_verdict(result),
        )

    def _goal_text(self, goal: str | None) -> str:
        if goal is not None and goal.strip():
            return goal
        if self.task is not None and self.task.goal is not None:
            return self.task.goal
        raise BadInputError("give a goal, e.g. 'closed(fridge)': this server has no task goal")

    def answer(self, nodes: Sequence[str]) -> Answered:
        """Name the answer of a search task (the nodes the instruction asks for)."""
        with self._lock:
            self._answer = list(dict.fromkeys(nodes))
            return Answered(
                answer=self._answer, unknown=[n for n in self._answer if n not in self.graph]
            )

    async def execute(self, plan: str | Sequence[str] | None = None) -> Execution:
        """Run a plan (default: the last verified one) on the robot, closed loop when the
        task has a goal to replan for; the executor's record."""
        if self.robot is None:
            raise BadInputError("this server has no robot: start it with --robot sim or a URL")
        if plan is not None and plan:
            self.verify_plan(plan)
        with self._lock:
            if self._verified is None:
                raise BadInputError("no plan to execute: verify one first, or pass a plan")
            if not self._verified.ok:
                raise BadInputError(
                    f"the plan is not executable ({self._verified.feedback}): fix it first"
                )
            episode = self.episode()
        goal = self.task.goal if self.task is not None else None
        robot = get_robot(
            self.robot,
            self.graph,
            self.faults,
            self.seed,
            stream_of(self.setup),
            believed(self.setup),
        )
        executed = await run_plan(
            episode,
            self.setup,
            robot,
            get_planner("oracle"),
            settings=replace(DEFAULT_SETTINGS, closed_loop=goal is not None),
        )
        with self._lock:
            self._executed = executed
        return Execution(
            status=executed.status.value,
            error=executed.error,
            goal_reached=executed.goal_reached,
            steps=[
                {"action": s.action, "ok": s.ok, "feedback": s.feedback, "cause": s.cause}
                for s in executed.steps
            ],
            record=plain(executed.execute) if executed.execute is not None else {},
        )

    # -- the record -----------------------------------------------------------------------

    def record_call(self, tool: str, arguments: Any, ok: bool, result: Any) -> None:
        """Keep one tool call and its result (the error's message when not `ok`) and, with
        a store, store the Episode as it is now."""
        shown = repr(arguments)
        with self._lock:
            self._calls.append(
                {
                    "tool": tool,
                    "arguments": arguments if len(shown) <= MAX_LOGGED else shown[:MAX_LOGGED],
                    "ok": ok,
                    "result": result,
                    "at_s": round(time.perf_counter() - self._started, 4),
                }
            )
            if self.store is not None and self.task is not None:
                self.store.put(self.task.suite, self.run, self.episode(), task_hash(self.task))

    def episode(self) -> Episode:
        """The agent's run so far as an Episode, judged as every planner's is."""
        with self._lock:
            if self._executed is not None:
                episode = Episode.from_dict(self._executed.to_dict())
            else:
                episode = self._planned()
            episode.mcp = McpRecord(calls=copy.deepcopy(self._calls), robot=self.robot)
            episode.wall_time_s = round(time.perf_counter() - self._started, 4)
            return episode

    def _planned(self) -> Episode:
        task = self.task
        episode = Episode(
            planner=PLANNER,
            model=self.model,
            environment=self.graph.name or (task.environment if task else "graph"),
            instruction=self.instruction,
            task_id=task.id if task else None,
            family=task.family.value if task else None,
            goal=task.goal if task else None,
            sim_calls=list(self._sim_calls),
            search=list(self._search),
            explored=self._view.memory,
            answer=list(self._answer or []),
        )
        verified = self._verified
        if verified is not None:
            episode.plan, episode.full_plan = list(self._written), list(verified.plan)
            episode.executable = verified.ok
            episode.failure = verified.failure.model_dump() if verified.failure else None
            episode.replans = max(0, self._rounds - 1)
        finish_episode(episode, task, self.graph, self._final, self.vocabulary)
        return episode

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def _verdict(result: Any) -> Verdict:
    """A simulator `Verification` as the tools return it."""
    return Verdict.model_validate(result.to_dict() | {"feedback": result.feedback})
