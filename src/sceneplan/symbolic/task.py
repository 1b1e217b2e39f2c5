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
        """Whether the action can run in `state`."""
        return self.pre <= state and self.neg.isdisjoint(state)

    def apply(self, state: frozenset[int]) -> frozenset[int]:
        """The state after the action (its conditional effects included)."""
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
        """The numbers of the facts (interning new ones)."""
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
        """Whether `state` has every goal fact and no negative goal fact."""
        return self.goal <= state and self.goal_neg.isdisjoint(state)

    def describe(self, state: Iterable[int]) -> list[Fact]:
        """The facts of a state, sorted."""
        return sorted(self.facts[i] for i in state)

    @property
    def size(self) -> int:
        """The actions of the delete relaxation (one per action and per conditional
        effect): what one heuristic evaluation reads, so the solver's budgets of work
        count these. A substance task's actions have ten such effects on average."""
        return len(self.actions) + sum(len(a.effects) for a in self.actions)


def complementary_pairs(task: GroundTask, candidates: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Candidate pairs (p, q) of which exactly one fact holds in every reachable state,
    as a map both ways (p -> q, q -> p).

    A pair is kept when exactly one of its facts holds initially and every action
    that may add or delete one of them keeps it so: adding p deletes q; deleting p
    (when p may hold) adds q; and the same the other way round. Effects that may
    fire together are checked together, conservatively (two conditional effects
    that touch the pair reject it). Sound: a kept pair is an invariant.
    """
    touching: dict[int, list[GroundAction]] = {}
    for a in task.actions:
        facts = a.add | a.delete
        for e in a.effects:
            facts |= e.add | e.delete
        for f in facts:
            touching.setdefault(f, []).append(a)
    out: dict[int, int] = {}
    for p, q in candidates:
        pair = {p, q}
        if len(pair & task.init) != 1:
            continue
        actions = {id(a): a for f in pair for a in touching.get(f, ())}.values()
        if all(_keeps_exactly_one(a, p, q) for a in actions):
            out[p], out[q] = q, p
    return out


def _keeps_exactly_one(action: GroundAction, p: int, q: int) -> bool:
    pair = {p, q}
    effects = [e for e in action.effects if (e.add | e.delete) & pair]
    if len(effects) > 1:
        return False
    sites = [(action.pre, action.add, action.delete)] + [
        (action.pre | e.pre, action.add | e.add, (action.delete | e.delete) - e.add)
        for e in effects
    ]
    for pre, add, delete in sites:
        for f, other in ((p, q), (q, p)):
            if f in add and (other in add or other not in delete):
                return False
            if f in delete and f not in add and other not in add and other not in pre:
                return False
    return True


def positive_conditions(task: GroundTask, complement: dict[int, int]) -> GroundTask:
    """The same task with each negative condition `not p` (of a precondition, an effect's
    condition, the goal) written as the positive `q` where p has a complement q
    (`complementary_pairs`): in every reachable state the two say the same, so the
    task's plans are unchanged, but the delete relaxation, which ignores negative
    conditions, now sees them: a closed fridge costs its opening."""

    def split(pos: frozenset[int], neg: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        moved = {f for f in neg if f in complement}
        return pos | {complement[f] for f in moved}, neg - moved

    actions = []
    for a in task.actions:
        pre, neg = split(a.pre, a.neg)
        effects = []
        for e in a.effects:
            e_pre, e_neg = split(e.pre, e.neg)
            effects.append(CondEffect(e_pre, e_neg, e.add, e.delete))
        actions.append(
            GroundAction(a.name, a.action, pre, neg, a.add, a.delete, tuple(effects), a.cost)
        )
    goal, goal_neg = split(task.goal, task.goal_neg)
    return GroundTask(task.facts, task.init, goal, goal_neg, actions, dict(task.stats))
