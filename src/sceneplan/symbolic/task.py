"""The grounded planning task: propositional facts, actions with conditional effects.

Facts are tuples (`("holding", "mug")`, `("state", "open", "fridge")`)
interned to integers. An action has positive and negative preconditions,
add and delete lists, and conditional effects whose conditions are read in
the state before the action (deletes apply before adds). This is the STRIPS
fragment with negation and conditional effects that LAPKT and our own search
take as input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sceneplan.world.actions import Action

Fact = tuple


@dataclass(frozen=True, slots=True)
class CondEffect:
    """`when pre and not neg: add, delete` (condition read before the action)."""

    pre: frozenset[int]
    neg: frozenset[int]
    add: frozenset[int]
    delete: frozenset[int]


@dataclass(frozen=True, slots=True)
class GroundAction:
    """One ground action; `action` is its plan step, None for goal-phase bookkeeping."""

    name: str
    action: Action | None
    pre: frozenset[int]
    neg: frozenset[int]
    add: frozenset[int]
    delete: frozenset[int]
    effects: tuple[CondEffect, ...] = ()
    cost: int = 1

    def applicable(self, state: frozenset[int]) -> bool:
        return self.pre <= state and self.neg.isdisjoint(state)

    def apply(self, state: frozenset[int]) -> frozenset[int]:
        add, delete = set(self.add), set(self.delete)
        for eff in self.effects:
            if eff.pre <= state and eff.neg.isdisjoint(state):
                add |= eff.add
                delete |= eff.delete
        return (state - delete) | add


class FactTable:
    """Interns facts to consecutive integers."""

    def __init__(self) -> None:
        self.index: dict[Fact, int] = {}
        self.facts: list[Fact] = []

    def __call__(self, fact: Fact) -> int:
        found = self.index.get(fact)
        if found is None:
            found = self.index[fact] = len(self.facts)
            self.facts.append(fact)
        return found

    def many(self, facts: Iterable[Fact]) -> frozenset[int]:
        return frozenset(map(self, facts))


@dataclass
class GroundTask:
    """Facts, initial state, goal (positive and negative facts) and actions."""

    facts: list[Fact]
    init: frozenset[int]
    goal: frozenset[int]
    goal_neg: frozenset[int]
    actions: list[GroundAction]
    stats: dict[str, int | float | str] = field(default_factory=dict)

    def is_goal(self, state: frozenset[int]) -> bool:
        return self.goal <= state and self.goal_neg.isdisjoint(state)

    def describe(self, state: Iterable[int]) -> list[Fact]:
        return sorted(self.facts[i] for i in state)
