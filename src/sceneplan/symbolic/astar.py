"""Best-first search on path cost: A* with h_max (optimal) and weighted A* with h_FF.

Costs are the task's action costs: a macro move costs the steps the Navigator
expands it into (`symbolic.travel`), every other step 1 (goal-phase
bookkeeping 0 for the optimal search); so the cheapest plan is the shortest
plan a robot executes.
`h_max` never overestimates (it is admissible and consistent), so A* with it
returns a cheapest plan of the task it is given; `h_ff` does overestimate,
and with it the search is much faster and its plans are rarely longer.
Duplicates reached more cheaply are reopened.

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.symbolic.solver import PlanningProblem, solve
>>> result = solve(PlanningProblem(load_environment("coffee"), "full(coffee_mug)"), optimal=True)
>>> result.status.value, len(result.plan), result.stats["optimal"]
('plan', 10, True)
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterator

from sceneplan.symbolic.gbfs import INF, CompiledTask, SearchOutcome, fact_mask, plan_to
from sceneplan.symbolic.task import GroundAction, GroundTask


def astar(
    task: GroundTask,
    timeout: float,
    weight: float = 1.0,
    heuristic: str = "hmax",
    bound: float = INF,
    max_evaluated: int | None = None,
    compiled: CompiledTask | None = None,
    give_up_at: float | None = None,
) -> SearchOutcome:
    """Search for a cheapest plan (`weight` 1 and h_max) within `timeout` seconds of this
    thread's CPU.

    With a `bound`, only plans cheaper than it are looked for: with h_max,
    `unsolvable` then proves that no plan is cheaper than the bound. After
    `max_evaluated` heuristic evaluations the search stops (status `limit`): a
    budget that, unlike time, gives the same answer on every machine. With
    `give_up_at` (and h_max) it also stops (status `limit`) as soon as the
    growth of its f-layers says that the budget cannot reach that f (`hopeless`):
    the cost of a plan in hand that is probably the optimum, as the growth to a
    cheaper plan far below it is not known. `compiled` is the task
    compiled with the costs to search on.
    """
    deadline = time.thread_time() + timeout
    c = compiled
    if c is None:
        c = CompiledTask(task)
        if heuristic == "hmax":
            # free bookkeeping for the optimal search (a satisficing heuristic is better
            # guided when it counts those steps too)
            c.set_costs(step_costs(task))
    if heuristic == "hmax":
        h = c.h_max
    else:

        def h(state: int) -> float:
            return c.h_ff(state)[0]

    start = fact_mask(task.init)
    best: dict[int, float] = {start: 0}
    parents: dict[int, tuple[int, int] | None] = {start: None}
    h_start = h(start)
    if h_start == INF or h_start >= bound:
        return SearchOutcome("unsolvable", [])
    # (f, evaluations spent) when each f-layer is first reached: how fast the layers grow
    watch = give_up_at is not None and heuristic == "hmax" and weight == 1
    watch = watch and max_evaluated is not None
    layers: list[tuple[float, int]] = [(-1, 0)]
    counter = 0
    heap: list[tuple[float, float, int, int]] = [(weight * h_start, 0, counter, start)]
    estimates: dict[int, float] = {start: h_start}
    expanded = evaluated = 0
    costs = c.costs
    while heap:
        f, negative_g, _, state = heapq.heappop(heap)
        g = -negative_g
        if g > best[state]:
            continue  # reached more cheaply since it was queued
        if c.is_goal(state):
            return SearchOutcome("plan", plan_to(parents, state), expanded, evaluated)
        if watch and f > layers[-1][0]:
            layers.append((f, evaluated))
            if hopeless(layers, give_up_at, max_evaluated):  # type: ignore[arg-type]
                return SearchOutcome("limit", [], expanded, evaluated)
        expanded += 1
        if expanded % 64 == 0 and time.thread_time() > deadline:
            return SearchOutcome("timeout", [], expanded, evaluated)
        for index, child, cost in cheaper_successors(c, state, g, costs, best):
            estimate = estimates.get(child)
            if estimate is None:
                if max_evaluated is not None and evaluated >= max_evaluated:
                    return SearchOutcome("limit", [], expanded, evaluated)
                estimate = estimates[child] = h(child)
                evaluated += 1
            if estimate == INF or cost + estimate >= bound:
                continue
            best[child] = cost
            parents[child] = (state, index)
            counter += 1
            heapq.heappush(heap, (cost + weight * estimate, -cost, counter, child))
    return SearchOutcome("unsolvable", [], expanded, evaluated)


def cheaper_successors(
    c: CompiledTask, state: int, g: float, costs: list[int], best: dict[int, float]
) -> Iterator[tuple[int, int, float]]:
    """(action, successor, cost) for each successor of `state`, reached at cost `g`, that
    costs less than the cheapest way to it found so far (`best`)."""
    for index in c.applicable(state):
        child = c.successor(state, index)
        cost = g + costs[index]
        if cost < best.get(child, INF):
            yield index, child, cost


# A* with h_max spends most evaluations on states whose f is below the optimum, and their
# number grows geometrically with f (planting_trees, bound 21: 62, 129, 425, 945 and 2,235
# evaluations to reach f = 6, 7, 8, 9, 10). It gives up once HOPELESS_MIN_EVALS are spent
# and the growth of its last two layers, carried on to the bound, would need more than
# HOPELESS_MARGIN times its budget (planting_plants, bound 12: 26, 134 and 326 evaluations
# to reach f = 6, 7 and 8 would give 49,000 to reach 12, but the growth slows, and A* finds
# the 11-step optimum within 10,000).
HOPELESS_MIN_EVALS = 200
HOPELESS_MARGIN = 10


def hopeless(layers: list[tuple[float, int]], bound: float, max_evaluated: int) -> bool:
    """Whether A*, having reached the f-layers `layers` ((f, evaluations spent before it),
    in order, after a sentinel), cannot exhaust the states below `bound` in `max_evaluated`."""
    if len(layers) < 4:
        return False
    (f0, e0), (f1, e1) = layers[-3], layers[-1]
    if e1 < HOPELESS_MIN_EVALS:
        return False
    growth = (e1 / max(1, e0)) ** (1 / (f1 - f0))
    return e1 * growth ** (bound - f1) > HOPELESS_MARGIN * max_evaluated


def step_cost(action: GroundAction) -> int:
    """What an action costs as steps of a plan: goal-phase bookkeeping (no plan step) is free."""
    return 0 if action.action is None else action.cost


def step_costs(task: GroundTask) -> list[int]:
    """`step_cost` of each action of the task."""
    return [step_cost(a) for a in task.actions]


def plan_cost(task: GroundTask, plan: list[int]) -> int:
    """The steps a plan of the task stands for (`step_cost`)."""
    return sum(step_cost(task.actions[i]) for i in plan)


class AStar:
    """A* with h_max: an optimal plan of the task (the `--optimal` back end)."""

    name = "astar"
    optimal = True

    def search(self, task: GroundTask, timeout: float) -> SearchOutcome:
        """A cheapest plan of the task (A* with h_max), or why there is none (`timeout`:
        seconds of this thread's CPU)."""
        return astar(task, timeout)


class WeightedAStar:
    """A* on cost with h_FF (not admissible): travel-aware, fast, near-optimal plans."""

    name = "wastar"
    optimal = False

    def search(self, task: GroundTask, timeout: float) -> SearchOutcome:
        """A plan by A* on cost guided by h_FF (not always a cheapest one)."""
        return astar(task, timeout, weight=1.0, heuristic="hff")
