"""The pure-Python back end: lazy greedy best-first search with h_FF and preferred operators.

States are integers used as bit sets over the task's facts. The heuristic is
the cost of a relaxed plan extracted from h_add supporters (conditional
effects relax to separate actions; an action's cost is the number of steps it
stands for, see `symbolic.travel`); actions of that relaxed plan applicable
in the state are preferred, and a second open list holds only their
successors (boosted when progress is made), as in Fast Downward's lazy GBFS.
The search keeps a closed list, so it is complete: an exhausted search
proves the task unsolvable. Given `max_stall`, it gives up (status `limit`)
after that many evaluations in a row without a better heuristic value: the
solver then tries the task another way (see `symbolic.solver`).
"""

from __future__ import annotations

import copy
import heapq
import time
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from sceneplan.symbolic.task import GroundTask

if TYPE_CHECKING:
    from sceneplan.symbolic.relaxed_arrays import RelaxedArrays

INF = float("inf")
# h_max works out once what reading the SHARED_FACTS facts with the most readers (at
# least SHARED_READERS) does, per set of them that holds (`CompiledTask._read`).
SHARED_FACTS = 6
SHARED_READERS = 8
# From this many relaxed actions on, h_FF's costs are worked out over numpy arrays
# (`symbolic.relaxed_arrays`): the same costs and supporters, several times faster on
# large tasks, while on small ones numpy's import and per-call overhead cost more.
ARRAYS_MIN_RELAXED = 2000


def fact_mask(ids) -> int:
    """The state (a bit set) holding the facts numbered `ids`."""
    out = 0
    for i in ids:
        out |= 1 << i
    return out


def _bits(state: int) -> list[int]:
    out = []
    while state:
        low = state & -state
        out.append(low.bit_length() - 1)
        state ^= low
    return out


@dataclass
class SearchOutcome:
    """What a back end found: `status` is plan, unsolvable or timeout; `plan` action indices."""

    status: str
    plan: list[int]
    expanded: int = 0
    evaluated: int = 0


class CompiledTask:
    """Bit masks of a task, and its delete relaxation: what the searches here and in
    `symbolic.astar` expand and evaluate (h_FF), and `symbolic.solver` costs facts with."""

    def __init__(self, task: GroundTask):
        self.actions = []
        for a in task.actions:
            self.actions.append(
                (
                    fact_mask(a.pre),
                    fact_mask(a.neg),
                    fact_mask(a.add),
                    fact_mask(a.delete),
                    tuple(
                        (fact_mask(e.pre), fact_mask(e.neg), fact_mask(e.add), fact_mask(e.delete))
                        for e in a.effects
                    ),
                    a.cost,
                )
            )
        self.goal = fact_mask(task.goal)
        self.goal_neg = fact_mask(task.goal_neg)
        self.goal_facts = sorted(task.goal)
        self.is_goal_fact = [False] * len(task.facts)
        for f in task.goal:
            self.is_goal_fact[f] = True
        self.n_goal_neg = len(task.goal_neg)
        self.costs = [a.cost for a in task.actions]
        # relaxed actions: (origin, preconditions, adds); one per action and per conditional effect
        self.relaxed: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        for index, a in enumerate(task.actions):
            self.relaxed.append((index, tuple(a.pre), tuple(a.add)))
            for e in a.effects:
                self.relaxed.append((index, tuple(a.pre | e.pre), tuple(e.add)))
        self.relaxed_cost = [self.costs[origin] for origin, _, _ in self.relaxed]
        self.relaxed_adds = [adds for _, _, adds in self.relaxed]
        self.readers: list[list[int]] = [[] for _ in task.facts]
        for r, (_, pre, _) in enumerate(self.relaxed):
            for f in pre:
                self.readers[f].append(r)
        self.free = [r for r, (_, pre, _) in enumerate(self.relaxed) if not pre]
        self.pre_count = [len(pre) for _, pre, _ in self.relaxed]  # copied per evaluation
        # the facts that most relaxed actions read (`playing`, the free hand): what reading
        # those of a state does to the counts is worked out once per set of them (`_read`)
        shared = sorted(range(len(task.facts)), key=lambda f: (-len(self.readers[f]), f))
        self.shared = [f for f in shared[:SHARED_FACTS] if len(self.readers[f]) >= SHARED_READERS]
        self.shared_mask = fact_mask(self.shared)
        self._read_cache: dict[int, tuple[list[int], list[int], list[tuple[float, int]]]] = {}
        self.n_facts = len(task.facts)
        # each action under its precondition that the fewest actions share (its anchor):
        # `applicable` checks only the actions whose anchor holds, not every action
        share = [0] * self.n_facts
        for a in task.actions:
            for f in a.pre:
                share[f] += 1
        self.anchored: dict[int, list[int]] = {}
        self.unanchored: list[int] = []
        for index, a in enumerate(task.actions):
            if a.pre:
                anchor = min(a.pre, key=lambda f: (share[f], f))
                self.anchored.setdefault(anchor, []).append(index)
            else:
                self.unanchored.append(index)

    def set_costs(self, costs: list[int]) -> None:
        """Give the actions these costs (the relaxed actions their origin's)."""
        self.costs = costs
        self.relaxed_cost = [costs[origin] for origin, _, _ in self.relaxed]
        # the caches that hold costs of relaxed actions
        self._read_cache.clear()
        self.__dict__.pop("_arrays", None)

    def with_costs(self, costs: list[int]) -> CompiledTask:
        """This task with the actions costing `costs` (sharing everything else)."""
        other = copy.copy(self)
        other._read_cache = {}  # its own, not this task's, for `set_costs` to clear
        other.set_costs(costs)
        return other

    def successor(self, state: int, index: int) -> int:
        """The state after action `index` in `state` (its conditional effects included)."""
        _, _, add, delete, effects, _ = self.actions[index]
        for cp, cn, ca, cd in effects:
            if state & cp == cp and not state & cn:
                add |= ca
                delete |= cd
        return (state & ~delete) | add

    def applicable(self, state: int) -> list[int]:
        """The actions applicable in `state`, in task order."""
        actions, anchored = self.actions, self.anchored
        candidates = list(self.unanchored)
        for f in _bits(state):
            candidates += anchored.get(f, ())
        candidates.sort()
        out = []
        for i in candidates:
            pre, neg = actions[i][0], actions[i][1]
            if state & pre == pre and not state & neg:
                out.append(i)
        return out

    def is_goal(self, state: int) -> bool:
        """Whether `state` has every goal fact and no negative goal fact."""
        return state & self.goal == self.goal and not state & self.goal_neg

    def _read(self, shared: int) -> tuple[list[int], list[int], list[tuple[float, int]]]:
        """For the shared facts `shared` (a bit set) holding at cost 0: their numbers, the
        counts of preconditions left once they are read, and what the relaxed actions
        that need no more fire ((cost, fact) for each fact they add)."""
        found = self._read_cache.get(shared)
        if found is None:
            facts = _bits(shared)
            remaining = self.pre_count.copy()
            fired: list[tuple[float, int]] = []
            for f in facts:
                for r in self.readers[f]:
                    remaining[r] -= 1
                    if not remaining[r]:
                        fired += [(self.relaxed_cost[r], q) for q in self.relaxed_adds[r]]
            found = self._read_cache[shared] = (facts, remaining, fired)
        return found

    def h_max(self, state: int) -> float:
        """h_max: the relaxed cost of the costliest goal fact (admissible, consistent).

        A Dijkstra over facts with a bucket per cost: a relaxed action fires when
        its last precondition is reached, at that fact's cost (the costliest of its
        preconditions, as facts are reached in order of cost) plus its own; the
        search stops at the last goal fact reached, whose cost is the answer.
        """
        goals = self.goal_facts
        if not goals:
            return 0
        cost = [INF] * self.n_facts
        is_goal = self.is_goal_fact
        left = len(goals)
        shared, remaining, fired = self._read(state & self.shared_mask)
        for f in shared:  # read already: their effect on the counts is `remaining`
            cost[f] = -1
            if is_goal[f]:
                left -= 1
        if not left:
            return 0
        remaining = remaining.copy()
        reached = _bits(state & ~self.shared_mask)
        for f in reached:
            cost[f] = 0
        buckets: dict[float, list[int]] = {0: reached}
        relaxed_cost, adds = self.relaxed_cost, self.relaxed_adds
        for c, q in fired:
            if c < cost[q]:
                cost[q] = c
                buckets.setdefault(c, []).append(q)
        for r in self.free:
            c = relaxed_cost[r]
            for q in adds[r]:
                if c < cost[q]:
                    cost[q] = c
                    buckets.setdefault(c, []).append(q)
        levels = sorted(buckets)
        readers = self.readers
        push = heapq.heappush
        while levels:
            c = levels[0]
            for f in buckets[c]:  # (grows while read: actions of cost 0 add to it)
                if cost[f] != c:
                    continue  # reached more cheaply, or already read at this cost
                cost[f] = -1  # read: (a cost no action gives)
                if is_goal[f]:
                    left -= 1
                    if not left:
                        return c
                for r in readers[f]:
                    n = remaining[r] - 1
                    remaining[r] = n
                    if not n:
                        t = c + relaxed_cost[r]
                        for q in adds[r]:
                            if t < cost[q]:
                                cost[q] = t
                                if t in buckets:
                                    buckets[t].append(q)
                                else:
                                    buckets[t] = [q]
                                    push(levels, t)
            heapq.heappop(levels)
            del buckets[c]
        return INF  # a goal fact no relaxed plan reaches

    def fact_costs(self, state: int) -> list[float]:
        """h_add cost of every fact from `state` (INF: unreachable even when deletes are
        ignored, so never true in a state reachable from `state`)."""
        return self._add_costs(state, until=None)[0]

    def _add_costs(self, state: int, until: set[int] | None) -> tuple[list[float], list[int]]:
        """h_add costs of the facts from `state` and the relaxed action that supports each
        (-1: none), exploring until every fact in `until` has its cost (all: None)."""
        cost = [INF] * self.n_facts
        support = [-1] * self.n_facts
        heap: list[tuple[float, int]] = []
        for f in _bits(state):
            cost[f] = 0
            heap.append((0, f))
        remaining = self.pre_count.copy()
        total: list[float] = [0] * len(self.relaxed)

        def fire(r: int, c: float) -> None:
            for q in self.relaxed[r][2]:
                if c < cost[q]:
                    cost[q] = c
                    support[q] = r
                    heapq.heappush(heap, (c, q))

        for r in self.free:
            fire(r, self.relaxed_cost[r])
        open_goals = None if until is None else {g for g in until if cost[g] == INF}
        done = [False] * self.n_facts
        # the loop below runs once per fact and reader per evaluation: names are local and
        # `fire` is written out (the same exploration, in the same order)
        readers, adds, relaxed_cost = self.readers, self.relaxed_adds, self.relaxed_cost
        pop, push = heapq.heappop, heapq.heappush
        while heap and (open_goals is None or open_goals):
            c, f = pop(heap)
            if done[f]:
                continue
            done[f] = True
            if open_goals is not None:
                open_goals.discard(f)
            for r in readers[f]:
                left = remaining[r] - 1
                remaining[r] = left
                t = total[r] + c
                total[r] = t
                if left == 0:
                    t += relaxed_cost[r]
                    for q in adds[r]:
                        if t < cost[q]:
                            cost[q] = t
                            support[q] = r
                            push(heap, (t, q))
        return cost, support

    @cached_property
    def _arrays(self) -> RelaxedArrays | None:
        """The relaxation as numpy arrays, on a task large enough for them to pay
        (`ARRAYS_MIN_RELAXED`) whose relaxed actions all cost something; else None."""
        if len(self.relaxed) < ARRAYS_MIN_RELAXED or min(self.relaxed_cost, default=0) <= 0:
            return None
        from sceneplan.symbolic.relaxed_arrays import RelaxedArrays

        return RelaxedArrays([pre for _, pre, _ in self.relaxed], self.relaxed_adds, self)

    def h_ff(self, state: int) -> tuple[float, set[int]]:
        """Relaxed plan cost, and the actions of that plan (for preferred operators)."""
        arrays = self._arrays
        if arrays is not None:
            cost, support = arrays.add_costs(_bits(state))
        else:
            cost, support = self._add_costs(state, until=set(self.goal_facts))
        if any(cost[g] == INF for g in self.goal_facts):
            return INF, set()
        chosen: set[int] = set()
        stack = [g for g in self.goal_facts if cost[g] > 0]
        seen = set(stack)
        while stack:
            f = stack.pop()
            r = support[f]
            if r in chosen:
                continue
            chosen.add(r)
            for p in self.relaxed[r][1]:
                if cost[p] > 0 and p not in seen:
                    seen.add(p)
                    stack.append(p)
        unmet_neg = bin(state & self.goal_neg).count("1")
        plan = {self.relaxed[r][0] for r in chosen}
        return sum(self.costs[a] for a in plan) + unmet_neg, plan


def gbfs(task: GroundTask, timeout: float, max_stall: int | None = None) -> SearchOutcome:
    """Search for a plan within `timeout` seconds of this thread's CPU; with `max_stall`,
    stop (status `limit`) once that many evaluations in a row have not improved on the best
    heuristic value (a count, not a time: the outcome does not depend on the machine's load)."""
    deadline = time.thread_time() + timeout
    c = CompiledTask(task)
    start = fact_mask(task.init)
    if c.is_goal(start):
        return SearchOutcome("plan", [])
    parents: dict[int, tuple[int, int] | None] = {}
    counter = 0
    regular: list = [(0, counter, start, None, -1)]
    preferred: list = []
    boost = turn = 0
    best = INF
    expanded = evaluated = pops = improved_at = 0
    while regular or preferred:
        turn += 1
        use_preferred = bool(preferred) and (boost > 0 or turn % 2 == 0 or not regular)
        queue = preferred if use_preferred else regular
        if use_preferred and boost > 0:
            boost -= 1
        _, _, state, parent, via = heapq.heappop(queue)
        counter += 1
        pops += 1
        if state in parents:
            continue
        parents[state] = (parent, via) if parent is not None else None
        if c.is_goal(state):
            return SearchOutcome("plan", plan_to(parents, state), expanded, evaluated)
        if pops % 64 == 0 and time.thread_time() > deadline:  # every 64 pops, not pushes
            return SearchOutcome("timeout", [], expanded, evaluated)
        if max_stall is not None and evaluated - improved_at >= max_stall:
            return SearchOutcome("limit", [], expanded, evaluated)
        h, helpful = c.h_ff(state)
        evaluated += 1
        if h == INF:
            continue
        if h < best:
            best = h
            improved_at = evaluated
            boost += 1000
        expanded += 1
        for index in c.applicable(state):
            child = c.successor(state, index)
            if child in parents:
                continue
            counter += 1
            entry = (h, counter, child, state, index)
            heapq.heappush(regular, entry)
            if index in helpful:
                heapq.heappush(preferred, entry)
    return SearchOutcome("unsolvable", [], expanded, evaluated)


def plan_to(parents: dict[int, tuple[int, int] | None], state: int) -> list[int]:
    """The action indices that lead from the search's start to `state`, following `parents`
    (each state's parent state and the action from it; None for the start)."""
    plan = []
    link = parents[state]
    while link is not None:
        parent, via = link
        plan.append(via)
        link = parents[parent]
    return plan[::-1]
