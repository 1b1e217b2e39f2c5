"""LM-cut: a lower bound on a task's cheapest plan from disjunctive action landmarks.

`lm_cut` is Helmert and Domshlak's landmark-cut heuristic over a compiled
task's delete relaxation (`gbfs.CompiledTask.relaxed`). Each round computes
h_max; picks for every relaxed action the precondition h_max reaches last; in
the graph that choice justifies, the facts from which the goal is reached at
no cost form the goal zone, and the actions that enter it from the part
reached from the state form a cut: every plan uses one of them (a landmark).
The cheapest action of the cut pays for it: its cost is added to the bound
and taken off each action of the cut; the rounds end when the goal costs
nothing. The sum never exceeds the cost of a cheapest plan (it is
admissible), and is often far above h_max (h_max counts only the costliest
goal, the cuts add up what independent goals need).

A conditional effect relaxes into an action of its own, but all relaxed
actions of one action share its remaining cost: a cut that holds several of
them takes its cost off that action once, so one step of a plan is never
counted twice, and the bound stays admissible. That sharing can leave the
sum below h_max (a step whose effect needs what the step itself adds is
paid once, where h_max, and a plan, count it twice): the bound returned is
the larger of the two, both admissible.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sceneplan.symbolic.gbfs import CompiledTask

INF = float("inf")


def lm_cut(task: CompiledTask, state: int, costs: Sequence[float]) -> float:
    """A lower bound on the cost of reaching the task's goal from `state` (a bit set),
    actions costing `costs` (by action); INF when even the relaxation cannot reach it."""
    n = task.n_facts
    goal_fact, init_fact = n, n + 1  # artificial: the goal reached; true in every state
    pres = [pre or (init_fact,) for _, pre, _ in task.relaxed]
    adds = [tuple(added) for added in task.relaxed_adds]
    origin = [o for o, _, _ in task.relaxed]
    pres.append(tuple(task.goal_facts) or (init_fact,))  # the goal as an action of cost 0
    adds.append((goal_fact,))
    origin.append(len(costs))
    left = [float(x) for x in costs] + [0.0]  # what each action's cost has not yet paid for
    readers: list[list[int]] = [[] for _ in range(n + 2)]
    achievers: list[list[int]] = [[] for _ in range(n + 2)]
    for r, pre in enumerate(pres):
        for f in pre:
            readers[f].append(r)
        for q in adds[r]:
            achievers[q].append(r)
    start = [f for f in range(n) if state >> f & 1] + [init_fact]
    total = 0.0
    h_max = None  # the first round's, with every cost whole
    while True:
        cost, chosen = _h_max(pres, adds, origin, left, readers, start, n + 2)
        if cost[goal_fact] == INF:
            return INF
        h_max = cost[goal_fact] if h_max is None else h_max
        if cost[goal_fact] == 0:
            return max(total, h_max)
        zone = _goal_zone(goal_fact, achievers, chosen, origin, left)
        cut = _cut(start, readers, chosen, adds, zone)
        paid = min(left[origin[r]] for r in cut)
        total += paid
        for o in {origin[r] for r in cut}:
            left[o] -= paid


def _h_max(pres, adds, origin, left, readers, start, size) -> tuple[list[float], list[int]]:
    """h_max of every fact under the costs `left`, and for each relaxed action the
    precondition reached last (-1: the action is never reached)."""
    cost = [INF] * size
    remaining = [len(pre) for pre in pres]
    chosen = [-1] * len(pres)
    heap = [(0.0, f) for f in start]
    for f in start:
        cost[f] = 0.0
    done = [False] * size
    while heap:
        c, f = heapq.heappop(heap)
        if done[f]:
            continue
        done[f] = True
        for r in readers[f]:
            remaining[r] -= 1
            if remaining[r]:
                continue
            chosen[r] = f  # facts are read in order of cost: f is the costliest precondition
            t = c + left[origin[r]]
            for q in adds[r]:
                if t < cost[q]:
                    cost[q] = t
                    heapq.heappush(heap, (t, q))
    return cost, chosen


def _goal_zone(goal_fact, achievers, chosen, origin, left) -> set[int]:
    """The facts from which the goal is reached along actions that cost nothing now."""
    zone = {goal_fact}
    stack = [goal_fact]
    while stack:
        q = stack.pop()
        for r in achievers[q]:
            f = chosen[r]
            if f >= 0 and left[origin[r]] == 0 and f not in zone:
                zone.add(f)
                stack.append(f)
    return zone


def _cut(start, readers, chosen, adds, zone) -> list[int]:
    """The relaxed actions that lead from the part reached from the state into the zone."""
    seen = set(start)
    stack = list(start)
    cut = []
    while stack:
        f = stack.pop()
        for r in readers[f]:
            if chosen[r] != f:
                continue
            if any(q in zone for q in adds[r]):
                cut.append(r)
            for q in adds[r]:
                if q not in zone and q not in seen:
                    seen.add(q)
                    stack.append(q)
    return cut
