"""`solve(problem, timeout) -> SolveResult`: ground, search, expand poses, validate.

Back ends are registered by name (`SOLVERS`) and imported when first asked for:
`gbfs` (pure Python, always available: lazy greedy best-first search),
`wastar` (A* on travel cost with h_FF), `astar` (A* with h_max: optimal;
`solve(..., optimal=True)`) and `bfsf` (LAPKT's BFS(f), the `lapkt` extra).
The relevant subgraph (`scope.focused_scope`) is tried first; when it has no
plan, or its plan does not survive the simulator, the rooms around it
(`scope.widened_scopes`), and last the whole graph are grounded (each only
then built), so `unsolvable` is always the whole graph's verdict.
A disjunctive goal on which greedy search stalls is committed to one disjunct
per disjunction and searched again (`_search`, `goal_compile.commit_goal`).
Every plan returned has been run in the Simulator from the problem's state and
reaches the goal (or makes the target action executable), and has no step or
detour whose removal keeps it so (`symbolic.postprocess`).

>>> from sceneplan.datasets import load_environment
>>> result = solve(PlanningProblem(load_environment("coffee"), "full(coffee_mug)"), planner="gbfs")
>>> result.status.value, [str(a) for a in result.plan][-2:]
('plan', ['release(coffee_mug)', 'turn_on(coffee_machine)'])
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, Protocol

from sceneplan.errors import BackendUnavailableError, BadInputError, PlanExecutionError
from sceneplan.graph.model import SceneGraph
from sceneplan.plugins import GROUPS, Registry
from sceneplan.symbolic.build import build_task
from sceneplan.symbolic.gbfs import CompiledTask, SearchOutcome, fact_mask, gbfs
from sceneplan.symbolic.goal_compile import (
    commit_goal,
    committed_task,
    compile_goal,
    task_goal,
)
from sceneplan.symbolic.grounding import Grounder, GroundingLimitError, exclusive_key
from sceneplan.symbolic.improve import improve as improve_plan
from sceneplan.symbolic.postprocess import PlanRun, eliminate_steps, remove_detours
from sceneplan.symbolic.regression import never_reached
from sceneplan.symbolic.scope import Scope, focused_scope, full_scope, widened_scopes
from sceneplan.symbolic.task import GroundTask, complementary_pairs, positive_conditions
from sceneplan.symbolic.travel import travel_for
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.goal_forms import ground, literals, wrong_literals
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary


class SolveStatus(StrEnum):
    """How a solve ended: a plan, a proof that there is none, or out of time."""

    PLAN = "plan"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"


@dataclass
class PlanningProblem:
    """A scene, the state to plan from (its initial state by default), and what to reach.

    Give a `goal` (a formula or its text), or a `target` action: then the
    plan leads to a state where the target can run (the target not included).
    """

    graph: SceneGraph
    goal: Formula | str | None = None
    state: WorldState | None = None
    target: Action | str | None = None
    vocabulary: Vocabulary = SAYPLAN

    def __post_init__(self) -> None:
        if (self.goal is None) == (self.target is None):
            raise BadInputError("a planning problem needs exactly one of a goal or a target action")
        if isinstance(self.goal, str):
            self.goal = parse_goal(self.goal, self.graph)
        if isinstance(self.target, str):
            self.target = parse_action(self.target)
        if self.state is None:
            self.state = WorldState(self.graph)
        # an agent with two hands plans in the vocabulary's two-handed form
        self.vocabulary = self.vocabulary.in_graph(self.graph)


@dataclass
class SolveResult:
    """The outcome of one solve, with where the time went."""

    status: SolveStatus
    plan: list[Action]
    planner: str
    scope: str = ""
    grounding_s: float = 0.0
    search_s: float = 0.0
    validation_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether a plan was found."""
        return self.status is SolveStatus.PLAN

    @property
    def total_s(self) -> float:
        """Grounding, search and validation time, in seconds."""
        return self.grounding_s + self.search_s + self.validation_s

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (actions as text, times rounded to microseconds)."""
        return {
            "status": self.status.value,
            "plan": [str(a) for a in self.plan],
            "planner": self.planner,
            "scope": self.scope,
            "grounding_s": round(self.grounding_s, 6),
            "search_s": round(self.search_s, 6),
            "validation_s": round(self.validation_s, 6),
            "stats": dict(self.stats),
        }


class Backend(Protocol):
    """A search back end over ground tasks."""

    name: str

    def search(self, task: GroundTask, timeout: float) -> SearchOutcome:
        """A plan for the task within `timeout` seconds, or why there is none."""


class GreedyBestFirst:
    """Lazy GBFS with h_FF and preferred operators, in this process; it can give up on a
    plateau (`max_stall`, see `_search`)."""

    name = "gbfs"
    stalls = True

    def search(
        self, task: GroundTask, timeout: float, max_stall: int | None = None
    ) -> SearchOutcome:
        """Lazy GBFS on the task; with `max_stall`, status `limit` on a plateau that long."""
        return gbfs(task, timeout, max_stall)


# The back ends, imported only when asked for; plugins add more through `sceneplan.solvers`:
# a class with a `name` and `search(task, timeout)`, built with no arguments.
SOLVERS: Registry[type[Backend]] = Registry(
    "symbolic planner",
    GROUPS["solvers"],
    {
        "gbfs": "sceneplan.symbolic.solver:GreedyBestFirst",
        "wastar": "sceneplan.symbolic.astar:WeightedAStar",
        "astar": "sceneplan.symbolic.astar:AStar",
        "bfsf": "sceneplan.symbolic.lapkt_backend:LapktBFSf",
    },
)
DEFAULT_PLANNER = "gbfs"


@cache
def get_backend(name: str) -> Backend:
    """The back end registered under `name` (one instance per process)."""
    return SOLVERS.load(name)()


def available_backends() -> list[str]:
    """Names of the back ends that can run here."""
    out = []
    for name in SOLVERS.names():
        try:
            get_backend(name)
        except BackendUnavailableError:
            continue
        out.append(name)
    return out


def solve(
    problem: PlanningProblem,
    timeout: float = 30.0,
    planner: str = DEFAULT_PLANNER,
    focus: bool = True,
    optimal: bool = False,
    improve: bool = True,
) -> SolveResult:
    """Plan for the problem within `timeout` seconds of this thread's CPU (grounding
    included; CPU, not wall time, so that a loaded machine does not cut a search short).

    Moves cost the steps a robot takes (`symbolic.travel`), and the plan
    found is shortened by removing every detour and step whose removal keeps
    it valid (`symbolic.postprocess`). `optimal=True` searches with A* and an
    admissible heuristic (the `astar` back end): the plan is then a shortest
    plan of the scope it was found in (`result.scope`; see `symbolic.scope`).
    Otherwise the back end's plan is improved: anytime search, then A* (h_max),
    look for a cheaper one within a budget of state evaluations
    (`symbolic.improve`); `improve=False` skips that. `result.stats["optimal"]`
    says whether the plan is known to be a shortest one of its scope. `focus=False`
    grounds the whole graph at once (for comparisons).

    A problem whose grounding would pass the solver's memory budget
    (`grounding.MAX_GROUNDING_SIZE`), or that runs out of the memory the process
    may use, raises `GroundingLimitError` (an `UnsupportedError`) saying so.
    """
    if not (isinstance(timeout, int | float) and 0 < timeout < math.inf):
        raise BadInputError(
            f"the planner's timeout must be a positive number of seconds, not {timeout}"
        )
    try:
        return _solve(problem, timeout, planner, focus, optimal, improve)
    except MemoryError:  # under a memory limit lower than the grounding budget
        pass  # raised below, out of the handler: the MemoryError's frames hold the grounding
    raise GroundingLimitError(
        "this problem is too large to plan in the memory this process may use "
        "(MemoryError while planning; docs/symbolic.md, 'Limits'): raise the limit, "
        "or give a goal that needs fewer objects"
    )


def _solve(
    problem: PlanningProblem,
    timeout: float,
    planner: str,
    focus: bool,
    optimal: bool,
    improve: bool,
) -> SolveResult:
    backend = get_backend("astar" if optimal else planner)
    started = time.thread_time()  # the timeout counts this thread's CPU, not wall time
    state = problem.state
    assert state is not None
    simulator = Simulator(problem.graph, problem.vocabulary)
    if isinstance(problem.target, Action):
        failure = simulator.check(state, problem.target)
        if failure is not None and not failure.cause.repairable:
            raise BadInputError(f"no plan can make {failure.message}")
    result = SolveResult(SolveStatus.UNSOLVABLE, [], backend.name)
    if _reached(problem, simulator, state):
        result.status = SolveStatus.PLAN
        return result
    goal = ground(problem.goal, problem.graph) if isinstance(problem.goal, Formula) else None
    travel = travel_for(problem.graph)
    for scope in _scopes(problem, state, goal, focus):
        result.stats.pop("proof", None)  # a narrower scope's
        t0 = time.perf_counter()
        task = build_task(
            state,
            scope,
            goal,
            problem.target,  # type: ignore[arg-type]
            problem.vocabulary,
            travel.steps,
        )
        t1 = time.perf_counter()
        result.grounding_s += t1 - t0
        result.scope = scope.level
        if isinstance(task, bool):
            continue  # decided False here: nothing in this scope can change it
        result.stats.update(task.stats)
        task, complement = positive_task(task)
        remaining = timeout - (time.thread_time() - started)
        outcome, searched = _search(backend, task, complement, max(remaining, 0.001), result.stats)
        result.search_s += time.perf_counter() - t1
        result.stats.update(expanded=outcome.expanded, evaluated=outcome.evaluated)
        if outcome.status == "timeout":
            result.status = SolveStatus.TIMEOUT
            return result
        if outcome.status == "unsolvable":
            impossible = result.stats.get("commitment") == "impossible"
            focused = impossible and scope.level == "focused"
            if focused and goal is not None and _never_holds(problem, state, goal):
                return result  # the whole graph's verdict too: no need to ground it
            continue
        optimal = getattr(backend, "optimal", False)
        if improve and not optimal:
            outcome, optimal = _improve(
                searched, outcome, result, timeout - (time.thread_time() - started)
            )
        optimal = optimal and searched is task  # a committed goal's best plan may not be
        plan = [searched.actions[i].action for i in outcome.plan]
        actions = [a for a in plan if a is not None]
        if scope.macro_moves:
            actions = travel.expand_plan(actions, start=state.agent_at)
        t2 = time.perf_counter()
        try:
            run = PlanRun(problem, state, actions, simulator)
        except PlanExecutionError as exc:
            result.validation_s += time.perf_counter() - t2
            if not scope.macro_moves:
                raise PlanExecutionError(
                    f"symbolic planner '{backend.name}' returned a plan the simulator rejects "
                    f"({exc}); this is a bug in the grounding"
                ) from None
            result.stats["focused_plan_rejected"] = str(exc)
            continue
        shorter = remove_detours(run)
        result.validation_s += time.perf_counter() - t2
        result.stats["eliminated"] = len(actions) - len(shorter)
        result.stats["optimal"] = optimal
        result.status, result.plan = SolveStatus.PLAN, shorter
        return result
    return result


# Greedy search on a disjunctive goal gives up after STALL_EVALS evaluations in a row
# without a better heuristic value (fewer on a large task: STALL_WORK / its relaxed actions, as
# an evaluation reads every relaxed action, at least STALL_MIN_EVALS), and the goal is committed.
# Counts, not a time (datasets store solver plans). No Office or VirtualHome task stalls
# that long (their longest plateau is 378 evaluations), so their plans are unchanged.
STALL_EVALS = 1000
STALL_MIN_EVALS = 50
STALL_WORK = 2_000_000


def _search(
    backend: Backend,
    task: GroundTask,
    complement: dict[int, int],
    timeout: float,
    stats: dict[str, Any],
) -> tuple[SearchOutcome, GroundTask]:
    """The back end's search, and the task its plan is for: on a disjunctive goal where
    search stalls, that of a committed goal. `task` is written with positive conditions
    (`positive_task`), whose `complement` pairs also rewrite a committed goal.

    A goal is first checked for a consistent choice of one disjunct per
    disjunction (`goal_compile.commit_goal`; a plain conjunction has one choice,
    itself, which wants no object in two places): when there is none,
    the goal can never hold and no search is needed. A plain conjunction is then
    regressed through every action that could complete it
    (`regression.never_reached`): when none can, no search is needed either. Otherwise greedy search
    runs as usual until it stalls (see STALL_EVALS); then it searches for the
    committed conjunction, whose heuristic counts every object that must move
    (h_FF undercounts disjunctions that compete for the same objects, or exclude
    each other, and greedy search wanders on the plateau). Any plan for the
    committed goal reaches the goal (the solver improves and checks it as any
    other). If the commitment has no plan (a choice that looked consistent but is
    not), the original search runs again, to the end.
    Optimal back ends, and those that cannot stop on a plateau, search as given.
    """
    deadline = time.thread_time() + timeout
    goal = task_goal(task)
    check = commit_goal(goal)  # any consistent choice (costs come later, if needed)
    if check is not None and not check.possible:
        stats["commitment"] = "impossible"
        return SearchOutcome("unsolvable", []), task
    if not goal.actions and not goal.milestones and never_reached(task):
        stats["proof"] = "no action reaches the goal"  # symbolic.regression
        return SearchOutcome("unsolvable", []), task
    if getattr(backend, "optimal", False) or not goal.actions or goal.milestones:
        return backend.search(task, timeout), task
    if not getattr(backend, "stalls", False):
        return backend.search(task, timeout), task
    stall = max(STALL_MIN_EVALS, min(STALL_EVALS, STALL_WORK // max(1, task.size)))
    first = backend.search(task, timeout, max_stall=stall)  # type: ignore[call-arg]
    if first.status != "limit":
        return first, task
    costs = CompiledTask(task).fact_costs(fact_mask(task.init))
    index = {fact: i for i, fact in enumerate(task.facts)}
    commitment = commit_goal(
        goal,
        cost=lambda fact: costs[index[fact]],
        holds=lambda fact: index[fact] in task.init,
    )
    if commitment is None or not commitment.possible:  # out of budget, or no reachable choice
        stats["commitment"] = "none"
        return backend.search(task, max(deadline - time.thread_time(), 0.001)), task
    committed = positive_conditions(committed_task(task, commitment), complement)
    second = backend.search(committed, max(deadline - time.thread_time(), 0.001))
    stats["commitment"] = second.status
    spent = (first.expanded + second.expanded, first.evaluated + second.evaluated)
    if second.status in ("plan", "timeout"):
        return SearchOutcome(second.status, second.plan, *spent), committed
    third = backend.search(task, max(deadline - time.thread_time(), 0.001))
    spent = (spent[0] + third.expanded, spent[1] + third.evaluated)
    return SearchOutcome(third.status, third.plan, *spent), task


def positive_task(task: GroundTask) -> tuple[GroundTask, dict[int, int]]:
    """The task with each negative condition that has a complement written positively
    (`task.positive_conditions`), and those complements (`task.complementary_pairs`): the
    same plans, but the delete relaxation now counts what a negative precondition asks (a
    closed cabinet costs its opening). Without it, greedy search wanders on plateaus:
    cleaning_up_after_an_event evaluated 14,651 states at h = 3, with the relaxed plan
    taking a cup out of a closed cabinet; with it, 152."""
    complement = complementary_pairs(task, _word_pairs(task))
    return positive_conditions(task, complement), complement


def _word_pairs(task: GroundTask) -> list[tuple[int, int]]:
    """The task's pairs of opposite state words of one node (open/closed, on/off)."""
    pairs: dict[tuple, list[int]] = {}
    for index, fact in enumerate(task.facts):
        key = exclusive_key(fact)
        if key is not None and key[0] == "word":
            pairs.setdefault(key, []).append(index)
    return [(p[0], p[1]) for p in pairs.values() if len(p) == 2]


def _never_holds(problem: PlanningProblem, state: WorldState, goal: Formula) -> bool:
    """Whether no choice of disjuncts of the goal, compiled over the whole graph, is
    consistent (`commit_goal`): then no plan reaches it, and no grounding is needed."""
    compiled = compile_goal(goal, Grounder(state, full_scope(problem.graph)))
    if compiled.constant is not None:
        return not compiled.constant
    commitment = commit_goal(compiled)
    return commitment is not None and not commitment.possible


def _improve(
    task: GroundTask, outcome: SearchOutcome, result: SolveResult, remaining: float
) -> tuple[SearchOutcome, bool]:
    """A cheaper plan than `outcome`'s within the improvement step's budget
    (`symbolic.improve`), or `outcome`; and whether the plan returned is a cheapest one."""
    t0 = time.perf_counter()
    if remaining <= 0:
        return outcome, False
    found = improve_plan(task, outcome, remaining)
    result.search_s += time.perf_counter() - t0
    result.stats["improved"] = found.outcome is not outcome
    result.stats.update(found.stats)
    return found.outcome, found.optimal


def eliminate_redundant(
    problem: PlanningProblem, simulator: Simulator, state: WorldState, plan: list[Action]
) -> list[Action]:
    """Greedy action elimination: drop actions whose removal keeps the plan valid, from the
    last backwards, until no single removal does.

    Satisficing search can leave useless steps (an `access` never used, a
    detour); each removal is checked in the simulator, so the result is valid.
    Each attempt replays only until the plan runs as before (`PlanRun.without`),
    not the whole plan. A plan that is not valid to begin with comes back as it is.
    """
    try:
        run = PlanRun(problem, state, plan, simulator)
    except PlanExecutionError:
        return list(plan)
    while eliminate_steps(run):  # again: a step may have been needed only by a removed one
        pass
    return list(run.plan)


def _reached(problem: PlanningProblem, simulator: Simulator, state: WorldState) -> bool:
    if isinstance(problem.target, Action):
        return simulator.check(state, problem.target) is None
    assert isinstance(problem.goal, Formula)
    return problem.goal.holds(state)


def _scopes(problem: PlanningProblem, state: WorldState, goal, focus: bool) -> Iterator[Scope]:
    """The focused scope, wider ones around it (`scope.widened_scopes`), then the whole
    graph; each built only if the one before it fails."""
    if focus:
        if isinstance(problem.target, Action):
            target = problem.target
            nodes = [a for a in target.args if a in problem.graph]
            focused = focused_scope(
                state,
                (),
                (),
                nodes,
                needs_release=problem.vocabulary.places_at_accessed(target),
                vocabulary=problem.vocabulary,
            )
        else:
            seeds = [atom for atom, _ in wrong_literals(goal, state)]
            focused = focused_scope(state, seeds, literals(goal), vocabulary=problem.vocabulary)
        yield focused
        yield from widened_scopes(state, focused, problem.vocabulary)
    yield full_scope(problem.graph)
