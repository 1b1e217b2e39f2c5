"""h_add over numpy arrays: the costs and supporters `gbfs.CompiledTask._add_costs` gives.

The pure-Python h_add is a Dijkstra over facts that reads, for each fact
reached, every relaxed action that needs it: on a BEHAVIOR task with 8,000
relaxed actions, most of the solver's time. Here the same fixpoint is reached
by rounds over arrays (a Bellman-Ford: each round, every relaxed action costs
the sum of its preconditions' costs plus its own, and each fact the cheapest
of its achievers), as many rounds as the longest chain of cheapest supports
(six or seven on the packaged tasks), each a few numpy calls over the whole task.

Supporters are chosen as the Dijkstra chooses them, so that h_FF's relaxed
plan, and with it the search and its plans, stay the same: among the
achievers of a fact at its cost, the one that fires first. With every relaxed
action costing at least 1, facts are reached in the order of (cost, number),
an action fires when its last precondition in that order is reached (actions
without preconditions first), and actions that fire together do so in their
order in the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class RelaxedArrays:
    """The relaxed actions of a task (preconditions, adds, costs) as flat arrays."""

    def __init__(self, pres: Sequence[Sequence[int]], adds: Sequence[Sequence[int]], task: Any):
        self.n_facts = n_facts = task.n_facts
        self.n_relaxed = len(pres)
        with_pre = [r for r, pre in enumerate(pres) if pre]
        self.with_pre = np.array(with_pre, dtype=np.intp)
        self.pre_flat = np.array([f for r in with_pre for f in pres[r]], dtype=np.intp)
        sizes = np.array([len(pres[r]) for r in with_pre], dtype=np.intp)
        self.pre_start = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
        pairs = sorted((q, r) for r, added in enumerate(adds) for q in added)
        self.add_fact = np.array([q for q, _ in pairs], dtype=np.intp)
        self.add_action = np.array([r for _, r in pairs], dtype=np.intp)
        self.achieved, self.achiever_start = np.unique(self.add_fact, return_index=True)
        self.relaxed_cost = np.array(task.relaxed_cost, dtype=np.float64)
        # a fact's place in the order facts are reached in, for a cost: cost * n_facts + fact
        self.pre_rank = self.pre_flat.astype(np.float64)
        self._n = float(n_facts)

    def add_costs(self, reached: list[int]) -> tuple[list[float], list[int]]:
        """h_add cost of every fact from the state holding the facts `reached`, and the
        relaxed action supporting each (-1: none, as for the facts of the state)."""
        cost = np.full(self.n_facts, np.inf)
        cost[reached] = 0.0
        action = np.zeros(self.n_relaxed)
        achieved, start = self.achieved, self.achiever_start
        while True:
            if len(self.with_pre):
                action[self.with_pre] = np.add.reduceat(cost[self.pre_flat], self.pre_start)
            offered = (action + self.relaxed_cost)[self.add_action]
            best = np.minimum.reduceat(offered, start) if len(start) else offered
            better = best < cost[achieved]
            if not better.any():
                break
            cost[achieved[better]] = best[better]
        # when each action fires: the rank of its last precondition reached (-1: none)
        fires = np.full(self.n_relaxed, -1.0)
        if len(self.with_pre):
            rank = cost[self.pre_flat] * self._n + self.pre_rank
            fires[self.with_pre] = np.maximum.reduceat(rank, self.pre_start)
        wins = offered == cost[self.add_fact]
        wins &= np.isfinite(offered)
        order = np.where(wins, fires[self.add_action] * self.n_relaxed + self.add_action, np.inf)
        first = np.minimum.reduceat(order, start) if len(start) else order
        support = np.full(self.n_facts, -1, dtype=np.int64)
        found = np.isfinite(first)
        support[achieved[found]] = np.mod(first[found], self.n_relaxed).astype(np.int64)
        support[reached] = -1
        return cost.tolist(), support.tolist()
