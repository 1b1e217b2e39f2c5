"""A proof that a conjunctive goal is never reached: no action can be the one that reaches it.

A goal that does not hold at the start first holds right after some action,
which must add one of its facts (or delete one it wants false); everything else
the goal wants must hold before that action and survive it. `never_reached`
regresses the goal through every action that touches it this way, and through
each choice of which of the action's conditional effects on the goal fire (an
effect that does not fire has a condition false: when all but one fact of its
condition must hold, that one must not; when all must, the choice is out),
and looks for a contradiction in what must hold before: a fact wanted true and
false, two facts that never hold together (`grounding.Exclusion`: an
object in two places; a word and its opposite), or a fact that never changes
wanted otherwise (`static_facts`). If every case contradicts itself, no plan
reaches the goal. Sound, not complete: one regression step only.

It settles at once what search can only settle by exhausting every state:
"the noodles hot and in the fridge", where the fridge runs and cannot be turned
off (whatever is put in it gets cold) and nothing heats what is in the fridge.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from sceneplan.symbolic.grounding import Exclusion
from sceneplan.symbolic.task import CondEffect, GroundAction, GroundTask

# An action with more conditional effects on the goal than this is not regressed (2^n cases)
# and counts as one that may reach it.
MAX_GOAL_EFFECTS = 8


def static_facts(task: GroundTask) -> tuple[frozenset[int], frozenset[int]]:
    """Facts that hold in every reachable state (true at the start, deleted by nothing), and
    facts that hold in none (false at the start, added by nothing)."""
    added: set[int] = set()
    deleted: set[int] = set()
    for a in task.actions:
        added |= a.add
        deleted |= a.delete
        for e in a.effects:
            added |= e.add
            deleted |= e.delete
    every = frozenset(f for f in task.init if f not in deleted)
    never = frozenset(f for f in range(len(task.facts)) if f not in task.init and f not in added)
    return every, never


def never_reached(task: GroundTask) -> bool:
    """Whether the task's goal provably holds in no reachable state (see the module)."""
    goal, goal_neg = task.goal, task.goal_neg
    if task.is_goal(task.init):
        return False
    if goal & goal_neg:
        return True
    every, never = static_facts(task)
    exclusion = Exclusion(task.facts)

    def consistent(pos: set[int], neg: set[int]) -> bool:
        if pos & never or neg & every:
            return False
        return not exclusion.contradicts(pos, neg)

    touched = goal | goal_neg
    for a in task.actions:
        relevant = [e for e in a.effects if (e.add | e.delete) & touched]
        if not (a.add & goal or a.delete & goal_neg or relevant):
            continue
        if len(relevant) > MAX_GOAL_EFFECTS:
            return False
        for fires in product((True, False), repeat=len(relevant)):
            if _may_reach(a, relevant, fires, task, (every, never), consistent):
                return False
    return True


def _may_reach(
    action: GroundAction,
    effects: list[CondEffect],
    fires: tuple[bool, ...],
    task: GroundTask,
    static: tuple[frozenset[int], frozenset[int]],
    consistent: Callable[[set[int], set[int]], bool],
) -> bool:
    """Whether the action, with exactly these of its goal effects firing, may be the step
    into the goal: it changes the goal's value, and what must hold before is consistent."""
    before, before_neg = set(action.pre), set(action.neg)
    adds, dels = set(action.add), set(action.delete)
    for effect, fired in zip(effects, fires, strict=True):
        if fired:
            before |= effect.pre
            before_neg |= effect.neg
            adds |= effect.add
            dels |= effect.delete
    dels -= adds
    if not (adds & task.goal or dels & task.goal_neg):
        return False  # the goal held before this step already
    if dels & task.goal or adds & task.goal_neg:
        return False  # this step undoes part of the goal
    before |= task.goal - adds
    before_neg |= task.goal_neg - dels
    every, never = static
    quiet = [e for e, fired in zip(effects, fires, strict=True) if not fired]
    changed = True
    while changed:  # an effect that does not fire has a condition false before the step
        changed = False
        for effect in quiet:
            open_pos = [f for f in effect.pre if f not in before and f not in every]
            open_neg = [f for f in effect.neg if f not in before_neg and f not in never]
            if not open_pos and not open_neg:
                return False  # its whole condition holds: it fires
            if len(open_pos) + len(open_neg) == 1:  # that one fact decides it
                before_neg.update(open_pos)
                before.update(open_neg)
                quiet = [e for e in quiet if e is not effect]
                changed = True
                break
    return consistent(before, before_neg)
