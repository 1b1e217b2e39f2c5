"""Build a ground task for a goal (or for making one action executable), and prune it.

Pruning keeps what can matter: actions whose preconditions are reachable
from the initial state when deletes are ignored, and, backwards from the
goal, actions that change a fact the goal or a kept action's condition reads.
Both are sound: every plan of the full task still has a counterpart.
"""

from __future__ import annotations

from collections.abc import Callable

from sceneplan.symbolic.goal_compile import PLAYING, compile_goal
from sceneplan.symbolic.grounding import Exclusion, Grounder
from sceneplan.symbolic.scope import Scope
from sceneplan.symbolic.task import CondEffect, FactTable, GroundAction, GroundTask
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

READY = ("ready",)


def build_task(
    state: WorldState,
    scope: Scope,
    goal: Formula | None = None,
    target: Action | None = None,
    vocabulary: Vocabulary = SAYPLAN,
    travel: Callable[[str, str], int] | None = None,
) -> GroundTask | bool:
    """The pruned task; True/False when the goal is decided without planning.

    With `target`, the goal is a state where that action can run: the plan
    found ends with a goal-phase copy of it, which the caller drops. `travel(a, b)`
    is the cost of a macro move (see `symbolic.travel`).
    """
    schemas = vocabulary.actions
    grounder = Grounder(state, scope, travel)
    facts = grounder.facts
    goal_actions: list[GroundAction] = []
    milestones: list[GroundAction] = []
    reached: set = set()
    if target is not None:
        schema = schemas[target.name]
        for variant in grounder.ground_schema(schema, target.args):
            goal_actions.append(
                GroundAction(
                    f"ready:{variant.name}",
                    None,
                    variant.pre,
                    variant.neg,
                    facts.many([READY]),
                    frozenset(),
                )
            )
        goal_pos, goal_neg, phase = {facts(READY)}, set(), False
    else:
        assert goal is not None, "a goal or a target action is needed"
        compiled = compile_goal(goal, grounder)
        if compiled.constant is not None:
            return compiled.constant
        phase = compiled.needs_phase
        for name, pos, neg, fact in compiled.actions:
            goal_actions.append(
                GroundAction(
                    name,
                    None,
                    facts.many(pos),
                    facts.many(neg),
                    facts.many([fact]),
                    facts.many([PLAYING]),
                )
            )
        goal_pos, goal_neg = set(map(facts, compiled.goal)), set(map(facts, compiled.goal_neg))
        milestones = [
            GroundAction(
                name, None, facts.many(pos), facts.many(neg), facts.many([fact]), frozenset()
            )
            for name, pos, neg, fact in compiled.milestones
        ]
        reached = compiled.reached
    actions: list[GroundAction] = list(milestones)
    for schema in schemas.values():
        for args in grounder.arguments(schema):
            actions.extend(grounder.ground_schema(schema, args))
    exclusion = Exclusion(facts.facts)
    actions = [p for a in actions if (p := _possible(a, exclusion)) is not None]
    init = set(map(facts, grounder.initial_facts() | reached))
    if phase:
        playing = facts(PLAYING)
        init.add(playing)
        actions = [_requiring(a, playing) for a in actions]
    grounded = len(actions) + len(goal_actions)
    kept = _prune(actions + goal_actions, init, goal_pos | goal_neg)
    task = _compact(facts, init, goal_pos, goal_neg, kept)
    task.stats.update(
        scope=scope.level,
        grounded_actions=grounded,
        actions=len(task.actions),
        facts=len(task.facts),
    )
    return task


def _possible(action: GroundAction, exclusion: Exclusion) -> GroundAction | None:
    """The action without its conditional effects that never fire; None if it never runs:
    its condition wants two facts that never hold together (`grounding.Exclusion`: an
    object held and on a table; a door open and closed), or a fact and its absence.

    The grounder builds one variant per way of reaching each argument, so a pour from
    a held plate onto kabobs gets variants in which the kabobs are reached through that
    plate resting on the grill. They never run, but the delete relaxation (h_FF) takes
    them for the cheapest way to its goal, and greedy search then wanders on a plateau
    (cook_kabobs: 16,000 evaluations at h = 3, 12 s).
    """
    if exclusion.contradicts(action.pre, action.neg):
        return None
    effects = [
        e
        for e in action.effects
        if not exclusion.contradicts(action.pre | e.pre, action.neg | e.neg)
    ]
    return _with_effects(action, effects)


def _requiring(action: GroundAction, fact: int) -> GroundAction:
    return GroundAction(
        action.name,
        action.action,
        action.pre | {fact},
        action.neg,
        action.add,
        action.delete,
        action.effects,
        action.cost,
    )


def _prune(actions: list[GroundAction], init: set[int], goal: set[int]) -> list[GroundAction]:
    # forward: relaxed reachability (deletes and negative conditions ignored)
    reached = set(init)
    pending = list(actions)
    changed = True
    while changed:
        changed = False
        rest = []
        for a in pending:
            if a.pre <= reached:
                new = a.add | frozenset().union(*(e.add for e in a.effects if e.pre <= reached))
                if not new <= reached:
                    reached |= new
                    changed = True
                if any(not e.pre <= reached for e in a.effects):
                    rest.append(a)
            else:
                rest.append(a)
        pending = rest
    reachable = [
        _with_effects(a, [e for e in a.effects if e.pre <= reached])
        for a in actions
        if a.pre <= reached
    ]
    # backward: actions that touch a fact the goal or a kept condition reads
    relevant = set(goal)
    kept: dict[int, GroundAction] = {}
    changed = True
    while changed:
        changed = False
        for index, a in enumerate(reachable):
            touching = [e for e in a.effects if not (e.add | e.delete).isdisjoint(relevant)]
            if index in kept and len(touching) == len(kept[index].effects):
                continue
            if touching or not (a.add | a.delete).isdisjoint(relevant):
                kept[index] = _with_effects(a, touching)
                needs = a.pre | a.neg | frozenset().union(*(e.pre | e.neg for e in touching))
                if not needs <= relevant:
                    relevant |= needs
                    changed = True
    return [kept[i] for i in sorted(kept)]


def _with_effects(a: GroundAction, effects: list[CondEffect]) -> GroundAction:
    if len(effects) == len(a.effects):
        return a
    return GroundAction(a.name, a.action, a.pre, a.neg, a.add, a.delete, tuple(effects), a.cost)


def _compact(
    facts: FactTable,
    init: set[int],
    goal: set[int],
    goal_neg: set[int],
    actions: list[GroundAction],
) -> GroundTask:
    """Renumber the facts that the kept actions and the goal use, densely from 0."""
    used = set(goal) | set(goal_neg)
    for a in actions:
        used |= a.pre | a.neg | a.add | a.delete
        for e in a.effects:
            used |= e.pre | e.neg | e.add | e.delete
    order = sorted(used)
    new = {old: i for i, old in enumerate(order)}

    def m(ids) -> frozenset[int]:
        return frozenset(new[i] for i in ids if i in new)

    return GroundTask(
        facts=[facts.facts[i] for i in order],
        init=m(init),
        goal=m(goal),
        goal_neg=m(goal_neg),
        actions=[
            GroundAction(
                a.name,
                a.action,
                m(a.pre),
                m(a.neg),
                m(a.add),
                m(a.delete),
                tuple(CondEffect(m(e.pre), m(e.neg), m(e.add), m(e.delete)) for e in a.effects),
                a.cost,
            )
            for a in actions
        ],
    )
