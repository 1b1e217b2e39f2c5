"""A domain's actions and a goal simplified for one problem, on the expression trees
(`world.pddl_expr`): quantifiers over types no object has dropped, conditional effects
that cannot fire dropped, and the static `(two_handed)` folded (see `SceneTypes`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.pddl.node_types import ITEM_TYPES, supertypes
from sceneplan.world import pddl_expr as tree
from sceneplan.world.domain import ActionSchema
from sceneplan.world.pddl_expr import FALSE, TRUE

K = NodeKind

# Fluents whose first argument is always an object (`item`): the domain's invariant.
ITEM_FLUENTS = frozenset(
    {"holding", "ontop_of", "inside_of", "below", "enclosed", "located", "shut"}
)


@dataclass(frozen=True)
class SceneTypes:
    """What a problem fixes that lets its domain be simplified for grounders.

    `empty`: the PDDL types no object of the problem has; `items`: whether any
    object affords each affordance (so that an action parameter that needs it
    may be an object). A quantifier over an empty type is dropped (a `forall`
    effect or condition over nothing, an `exists` that cannot hold), and so is a
    conditional effect whose condition asks a fluent about objects (`below`,
    `located`, ...) of a term that cannot be an object: Fast Downward explores
    conditional effects without the types of their variables, joined with the
    action's parameters, so such effects cost it the product of their atoms.
    `two_handed`: whether the agent has two hands; the static `(two_handed)` is
    folded to true or false (with one hand, `(hand_free)` drops out).
    """

    empty: frozenset[str]
    object_affordances: frozenset[str]
    two_handed: bool = False

    def simplify(
        self, schema: ActionSchema, precondition: tree.Expr, effect: tree.Expr
    ) -> tuple[tree.Expr, tree.Expr]:
        """The precondition and effect without the type tests this scene's types make true."""
        not_items = {
            f"?{p.name}"
            for p in schema.params
            if K.OBJECT not in p.kinds
            or (p.affordance is not None and p.affordance not in self.object_affordances)
        }
        pre = self._condition(precondition, not_items)
        eff = self._effect(effect, not_items)
        return pre, eff if eff is not None else TRUE

    def simplify_goal(self, goal: tree.Expr) -> tree.Expr:
        """A goal condition simplified for this problem: quantifiers over empty types
        dropped and constants folded; and when the goal asks for an empty hand at its
        top level, every `holding` atom in it is false (one hand: `(handempty)` and
        `(holding x)` never hold together), so that "x within the room" need not ask
        whether the robot carries x there."""
        hand = tree.atom("handempty")
        if isinstance(goal, tree.And) and hand in goal.parts:
            goal = tree.And(hand, *(_without_holding(p) for p in goal.parts if p != hand))
        return self._condition(goal, set())

    def _scope(self, params: tree.Params, not_items: set[str]) -> set[str] | None:
        """Names that cannot be objects inside a quantifier (None: over an empty type)."""
        if any(t in self.empty for _, t in params):
            return None
        inner = not_items - {v for v, _ in params}
        return inner | {v for v, t in params if t not in ITEM_TYPES}

    def _condition(self, x: tree.Expr, not_items: set[str]) -> tree.Expr:
        if isinstance(x, tree.And | tree.Or):
            parts = [self._condition(p, not_items) for p in x.parts]
            unit, zero = (TRUE, FALSE) if isinstance(x, tree.And) else (FALSE, TRUE)
            if zero in parts:
                return zero
            parts = [p for p in parts if p != unit]
            return parts[0] if len(parts) == 1 else type(x)(*parts)
        if isinstance(x, tree.Not):
            body = self._condition(x.body, not_items)
            return FALSE if body == TRUE else TRUE if body == FALSE else tree.Not(body)
        if isinstance(x, tree.Imply):
            return self._condition(tree.Or(tree.Not(x.left), x.right), not_items)
        if isinstance(x, tree.Forall | tree.Exists):
            inner = self._scope(x.params, not_items)
            if inner is None:
                return TRUE if isinstance(x, tree.Forall) else FALSE
            body = self._condition(x.body, inner)
            if body in (TRUE, FALSE):
                return body
            return type(x)(x.params, body)
        if isinstance(x, tree.Atom):
            if x.predicate in ITEM_FLUENTS and x.args and x.args[0] in not_items:
                return FALSE
            if x.predicate == "two_handed":
                return TRUE if self.two_handed else FALSE
        return x

    def _effect(self, x: tree.Expr, not_items: set[str]) -> tree.Expr | None:
        """The effect simplified; None when it does nothing."""
        if isinstance(x, tree.And):
            parts = [p for p in (self._effect(p, not_items) for p in x.parts) if p is not None]
            return None if not parts else tree.And(*parts)
        if isinstance(x, tree.Forall):
            inner = self._scope(x.params, not_items)
            body = None if inner is None else self._effect(x.body, inner)
            return None if body is None else tree.Forall(x.params, body)
        if isinstance(x, tree.When):
            condition = self._condition(x.condition, not_items)
            if condition == FALSE:
                return None
            body = self._effect(x.effect, not_items)
            if body is None:
                return None
            return body if condition == TRUE else tree.When(condition, body)
        return x


def _without_holding(x: tree.Expr) -> tree.Expr:
    return tree.map_atoms(x, lambda a: FALSE if a.predicate == "holding" else a)


def scene_types(
    by_type: dict[str, list[str]], members: Iterable, two_handed: bool = False
) -> SceneTypes:
    """The empty types of a problem (its objects by PDDL type), the object affordances, and
    whether the agent has two hands."""
    parent = supertypes()
    used: set[str] = set()
    for name in (t for t, ids in by_type.items() if ids):
        while name not in used:
            used.add(name)
            name = parent.get(name, "object")
    empty = frozenset((set(parent) | set(parent.values())) - used - {"object"})
    affordances = frozenset(a for n in members if n.kind is K.OBJECT for a in n.affordances)
    return SceneTypes(empty, affordances, two_handed)
