"""The improvement step: a cheaper plan than the first search's, within a budget of work.

The back end's first plan (greedy search: fast, not always short) is improved
in three steps, each tried only when the one before has not settled it:

1. **A proof.** LM-cut of the start (`landmarks.lm_cut`, admissible) already
   reaches the plan's cost: nothing is cheaper, no state is evaluated.
2. **Anytime search** (`bounded_search`): A* ordered by h_FF (not admissible,
   so it reaches a good plan in few evaluations), pruning every state whose
   cost so far plus h_max (admissible) reaches the best plan's cost; each plan
   it finds is cheaper than the last and becomes the new bound.
3. **A* with h_max** (`astar.astar`) with that bound: an exhausted search
   proves the plan in hand shortest, or it finds the cheapest. h_max is weak
   on long plans (3 of 21 steps at the start of planting_trees), so A*'s
   f-layers grow geometrically; below a plan of the anytime search, A* stops
   as soon as their growth says it cannot reach the bound within its budget
   (`astar.hopeless`).

Budgets count evaluations, never time, so that a plan does not depend on the
machine's load (datasets store solver plans); an evaluation reads every
relaxed action, so on large tasks the budgets shrink with the task's size.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

from sceneplan.symbolic.astar import astar, cheaper_successors, plan_cost, step_costs
from sceneplan.symbolic.gbfs import CompiledTask, SearchOutcome, fact_mask, plan_to
from sceneplan.symbolic.landmarks import lm_cut
from sceneplan.symbolic.task import GroundTask

# A*'s budget (h_max evaluations): IMPROVE_FACTOR times the first search's evaluations, at
# least IMPROVE_EVALS and at most IMPROVE_MAX_EVALS, and no more than IMPROVE_MAX_WORK /
# (the task's relaxed actions, `GroundTask.size`: an evaluation reads every action and
# conditional effect; a BEHAVIOR task with 11,000 actions took 60 s without it). After a
# first search that took more than LARGE_SEARCH_WORK (its evaluations x relaxed actions),
# the cap is IMPROVE_MAX_WORK_LARGE: on every packaged task over 5 s the improvement was
# most of the time and found no cheaper plan, while every improvement the packaged
# reference plans hold followed a first search under 0.6 million.
IMPROVE_EVALS = 10000
IMPROVE_FACTOR = 5
IMPROVE_MAX_EVALS = 20000
IMPROVE_MAX_WORK = 10_000_000
LARGE_SEARCH_WORK = 1_000_000
IMPROVE_MAX_WORK_LARGE = 2_000_000
# The anytime search's budget: ANYTIME_EVALS evaluations (each an h_max and an h_FF), at
# most ANYTIME_SHARE of A*'s. A* keeps its whole budget: taking off it what the anytime
# search spent lengthened planting_plants (11 -> 12 steps) and unloading_shopping_from_car.
ANYTIME_EVALS = 2000
ANYTIME_SHARE = 0.25
# A round of LM-cut costs about LM_CUT_ROUND_EVALS evaluations of h_max, and it has at most
# as many rounds as the bound (each pays at least one step): it is computed only when that
# is at most a tenth of A*'s budget (freeze_lasagna, 8,474 relaxed actions and a budget of
# 236 evaluations: 0.25 s of a 3 s solve, for a bound that proved nothing).
LM_CUT_ROUND_EVALS = 4


@dataclass
class Improvement:
    """What the improvement step found: the plan (the first one when nothing cheaper was
    found), whether it is known to be a cheapest one, and the evaluations it cost."""

    outcome: SearchOutcome
    optimal: bool
    evaluated: int = 0
    anytime_evaluated: int = 0

    @property
    def stats(self) -> dict[str, object]:
        """The solver's `SolveResult.stats` entries for this step."""
        return {
            "improve_evaluated": self.evaluated,
            "anytime_evaluated": self.anytime_evaluated,
        }


def budget(task: GroundTask, first: SearchOutcome) -> int:
    """A*'s evaluations after a first search that took `first.evaluated` (see above)."""
    size = max(1, task.size)
    large = first.evaluated * size > LARGE_SEARCH_WORK
    return min(
        IMPROVE_MAX_EVALS,
        max(IMPROVE_EVALS, IMPROVE_FACTOR * first.evaluated),
        (IMPROVE_MAX_WORK_LARGE if large else IMPROVE_MAX_WORK) // size,
    )


def improve(task: GroundTask, first: SearchOutcome, timeout: float) -> Improvement:
    """A plan cheaper than `first`'s (see the module's docstring), or `first`;
    `timeout` (seconds of this thread's CPU) only guards against a runaway budget."""
    deadline = time.thread_time() + timeout
    evaluations = budget(task, first)
    bound = plan_cost(task, first.plan)
    guide = CompiledTask(task)
    # free bookkeeping for the bounds (h_FF, which guides, is better guided when it counts
    # those steps too)
    exact = guide.with_costs(step_costs(task))
    start = fact_mask(task.init)
    floor = exact.h_max(start)
    if floor < bound and 10 * LM_CUT_ROUND_EVALS * bound <= evaluations:
        floor = lm_cut(exact, start, exact.costs)
    if floor >= bound:
        return Improvement(first, True)  # landmarks prove that nothing is cheaper
    anytime = min(ANYTIME_EVALS, int(ANYTIME_SHARE * evaluations))
    found, exhausted = bounded_search(guide, exact, start, bound, anytime, deadline)
    if exhausted and not found.plan:
        # every state below the plan's cost was pruned by h_max or expanded: A* with the
        # same admissible bound could only prove it again
        return Improvement(first, True, 0, found.evaluated)
    best = found if found.plan else first
    # A* looks below the best plan, or at its cost when the anytime search found it (costs
    # are whole steps): of the cheapest plans, A* returns the one it finds alone, below
    # the greedy plan, so its plans stay the same where it finishes. It may give up early
    # only then, below a plan that is probably the optimum: below a greedy plan it may find
    # a far cheaper one late (planning-long-07: 33 steps after 9,116 evaluations, below 51).
    cost = plan_cost(task, best.plan)
    left = max(deadline - time.thread_time(), 0.001)
    give_up_at = cost if found.plan else None
    bound = cost + 1 if found.plan else cost
    proof = astar(
        task, left, bound=bound, max_evaluated=evaluations, compiled=exact, give_up_at=give_up_at
    )
    if proof.status == "plan":
        return Improvement(proof, True, proof.evaluated, found.evaluated)
    # unsolvable: the bounded space exhausted, nothing cheaper exists
    optimal = exhausted or proof.status == "unsolvable"
    return Improvement(best, optimal, proof.evaluated, found.evaluated)


def bounded_search(
    guide: CompiledTask,
    exact: CompiledTask,
    start: int,
    bound: float,
    max_evaluated: int,
    deadline: float,
) -> tuple[SearchOutcome, bool]:
    """The cheapest plan below `bound` that anytime A* ordered by h_FF (on `guide`'s
    costs) finds within `max_evaluated` evaluations, costs counted on `exact`'s; and
    whether the search ran out of states, which proves that plan (or, with none, the
    bound) cheapest.

    A state whose cost plus h_max (on `exact`: admissible) reaches the bound is pruned;
    each plan found lowers the bound and the search goes on; a state reached more
    cheaply is reopened. Status `plan` when a plan was found, else `limit`."""
    costs = exact.costs
    best: dict[int, float] = {start: 0}
    parents: dict[int, tuple[int, int] | None] = {start: None}
    lower: dict[int, float] = {start: 0}  # h_max of each state evaluated
    guess: dict[int, float] = {}  # h_FF, computed only for a state not pruned
    heap = [(guide.h_ff(start)[0], 0.0, 0, start)]
    plan: list[int] = []
    counter = expanded = evaluated = 0
    searching = True  # until out of evaluations or time
    while heap and searching:
        _, negative_g, _, state = heapq.heappop(heap)
        g = -negative_g
        if g > best[state] or g + lower[state] >= bound:
            continue  # reached more cheaply since, or a plan found since makes it too dear
        if guide.is_goal(state):
            plan, bound = plan_to(parents, state), g
            continue
        expanded += 1
        if expanded % 64 == 0 and time.thread_time() > deadline:
            break
        for index, child, cost in cheaper_successors(guide, state, g, costs, best):
            floor = lower.get(child)
            if floor is None:
                if evaluated >= max_evaluated:
                    searching = False
                    break
                evaluated += 1
                floor = lower[child] = exact.h_max(child)
            if cost + floor >= bound:
                continue
            estimate = guess.get(child)
            if estimate is None:
                estimate = guess[child] = guide.h_ff(child)[0]
            best[child] = cost
            parents[child] = (state, index)
            counter += 1
            heapq.heappush(heap, (cost + estimate, -cost, counter, child))
    outcome = SearchOutcome("plan" if plan else "limit", plan, expanded, evaluated)
    return outcome, searching and not heap
