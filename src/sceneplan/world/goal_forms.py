"""Functions over the goal tree (`world.goals`): simplification, negation normal form,
quantifier expansion, grounding and literal listing.

Everything that reads a goal (the symbolic planner's goal compilation, the
PDDL export, the metrics' annotations) uses these on the one tree that
`parse_goal` returns; there is no second representation. In negation normal
form `Not` wraps only leaves (`Atom`, `Prop`) and `Implies` is gone (or kept,
on request, where it is positive: the metrics read a guard as a guard).

>>> from sceneplan.world.goals import parse_goal
>>> str(nnf(parse_goal("not (open(fridge) and exists m in mug: full(m))")))
'not open(fridge) or (forall m in mug: not full(m))'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.goals import (
    And,
    Atom,
    Const,
    Counted,
    Formula,
    Implies,
    Not,
    Or,
    Paired,
    Prop,
    Quantified,
    Then,
)
from sceneplan.world.state import WorldState

TRUE, FALSE = Const(True), Const(False)
Leaf = Atom | Prop


def fold_junction(
    parts: Iterable[Any],
    kind: type[Any],
    unit: Any,
    zero: Any,
    make: Callable[[list[Any]], Any],
    key: Callable[[Any], str] | None = None,
) -> Any:
    """An `and` / `or` of a tree's parts, folded: `zero` absorbs, `unit` drops out, parts
    of the same `kind` are flattened, duplicates dropped, and (with `key`) the parts
    sorted; `make` builds the junction of two or more. For the goal tree here and the
    PDDL goal tree (`symbolic.pddl.goal`), whose junctions both keep `parts`."""
    flat: list[Any] = []
    for part in parts:
        if part == zero:
            return zero
        if isinstance(part, kind):
            flat.extend(part.parts)
        elif part != unit:
            flat.append(part)
    flat = list(dict.fromkeys(flat))
    if key is not None:
        flat.sort(key=key)
    return unit if not flat else flat[0] if len(flat) == 1 else make(flat)


def _join(parts: Iterable[Formula], kind: type[And | Or], unit: Const, zero: Const) -> Formula:
    return fold_junction(parts, kind, unit, zero, lambda flat: kind(tuple(flat)))


def conjoin(parts: Iterable[Formula]) -> Formula:
    """`and` of the parts, flattened, without duplicates or constants."""
    return _join(parts, And, TRUE, FALSE)


def disjoin(parts: Iterable[Formula]) -> Formula:
    """`or` of the parts, flattened, without duplicates or constants."""
    return _join(parts, Or, FALSE, TRUE)


def negate(f: Formula) -> Formula:
    """The negation, pushed to the leaves (`f` in negation normal form stays so)."""
    return nnf(f, positive=False)


def nnf(f: Formula, positive: bool = True, keep_implies: bool = False) -> Formula:
    """Negation normal form; quantifiers stay (flipped under negation).

    With `keep_implies`, a positive `a implies b` stays an implication (of
    normal forms); a negated one becomes `a and not b` either way.
    """
    if isinstance(f, Const):
        return Const(f.value == positive)
    if isinstance(f, Atom | Prop):
        return f if positive else Not(f)
    if isinstance(f, Not):
        return nnf(f.body, not positive, keep_implies)
    if isinstance(f, Implies):
        if positive and keep_implies:
            return Implies(nnf(f.left, True, keep_implies), nnf(f.right, True, keep_implies))
        return nnf(Or((Not(f.left), f.right)), positive, keep_implies)
    if isinstance(f, And | Or):
        parts = [nnf(p, positive, keep_implies) for p in f.parts]
        return conjoin(parts) if isinstance(f, And) == positive else disjoin(parts)
    if isinstance(f, Quantified):
        body = nnf(f.body, positive, keep_implies)
        return Quantified(f.universal == positive, f.var, f.selector, body)
    if isinstance(f, Counted | Paired):
        # counting does not flip under negation: the negation stays above it, and
        # `expand` turns both into and/or over the members
        inner = _with_body(f, nnf(f.body, True, keep_implies))
        return inner if positive else Not(inner)
    if isinstance(f, Then):
        if not positive:
            raise UnsupportedError("an ordered goal ('then') cannot be negated")
        return Then(tuple(nnf(p, True, keep_implies) for p in f.parts))
    raise TypeError(f"not a goal formula: {f!r}")


def _with_body(f: Counted | Paired, body: Formula) -> Counted | Paired:
    if isinstance(f, Counted):
        return Counted(f.n, f.var, f.selector, body)
    return Paired(f.n, f.var1, f.selector1, f.var2, f.selector2, body)


def substitute(f: Formula, env: dict[str, str]) -> Formula:
    """The formula with variables replaced by node ids."""
    if not env:
        return f
    if isinstance(f, Atom):
        return f.bind(env)
    if isinstance(f, Not):
        return Not(substitute(f.body, env))
    if isinstance(f, And | Or):
        return type(f)(tuple(substitute(p, env) for p in f.parts))
    if isinstance(f, Implies):
        return Implies(substitute(f.left, env), substitute(f.right, env))
    if isinstance(f, Quantified):
        inner = {k: v for k, v in env.items() if k != f.var}
        return Quantified(f.universal, f.var, f.selector, substitute(f.body, inner))
    if isinstance(f, Counted):
        inner = {k: v for k, v in env.items() if k != f.var}
        return _with_body(f, substitute(f.body, inner))
    if isinstance(f, Paired):
        inner = {k: v for k, v in env.items() if k not in (f.var1, f.var2)}
        return _with_body(f, substitute(f.body, inner))
    if isinstance(f, Then):
        return Then(tuple(substitute(p, env) for p in f.parts))
    return f


# `forn` and `forpairs` are expanded into and/or over the ways to choose their members;
# beyond this many ways, a goal is refused rather than compiled into a huge formula.
MAX_CHOICES = 5000


def _choices(count: int, what: Formula) -> None:
    if count > MAX_CHOICES:
        raise UnsupportedError(
            f"'{what}' has {count:,} ways to choose its members, more than {MAX_CHOICES:,}: "
            "too many to plan for; write the goal with fewer members or as forall/exists"
        )


def expand_counted(f: Counted, graph: SceneGraph) -> Formula:
    """`forn n x in C: body` as the `or` over every n members of C of their bodies' `and`."""
    domain = f.domain(graph)
    if f.n <= 0:
        return TRUE
    _choices(math.comb(len(domain), f.n), f)
    bodies = {x: expand(substitute(f.body, {f.var: x}), graph) for x in domain}
    return disjoin(
        conjoin(bodies[x] for x in chosen) for chosen in itertools.combinations(domain, f.n)
    )


def expand_paired(f: Paired, graph: SceneGraph) -> Formula:
    """`forpairs` as the `or` over every one-to-one pairing of the required size of the
    `and` of its pairs' bodies (a node is never paired with itself)."""
    first, second = f.domains(graph)
    size = f.required(graph)
    if size <= 0:
        return TRUE
    _choices(math.comb(len(first), size) * math.perm(len(second), size), f)
    body: dict[tuple[str, str], Formula] = {}

    def pair(x: str, y: str) -> Formula:
        if (x, y) not in body:
            env = {f.var1: x, f.var2: y}
            body[x, y] = FALSE if x == y else expand(substitute(f.body, env), graph)
        return body[x, y]

    return disjoin(
        conjoin(pair(x, y) for x, y in zip(xs, ys, strict=True))
        for xs in itertools.combinations(first, size)
        for ys in itertools.permutations(second, size)
    )


def expand(f: Formula, graph: SceneGraph) -> Formula:
    """Quantifiers replaced by the `and`/`or` of their bodies over the graph's members."""
    if isinstance(f, Quantified):
        parts = [expand(substitute(f.body, {f.var: x}), graph) for x in f.domain(graph)]
        return conjoin(parts) if f.universal else disjoin(parts)
    if isinstance(f, Not):
        return Not(expand(f.body, graph))
    if isinstance(f, Implies):
        return Implies(expand(f.left, graph), expand(f.right, graph))
    if isinstance(f, Counted):
        return expand_counted(f, graph)
    if isinstance(f, Paired):
        return expand_paired(f, graph)
    return _map_parts(f, lambda p: expand(p, graph))


def _map_parts(f: Formula, fn: Callable[[Formula], Formula]) -> Formula:
    """An and / or / then with `fn` applied to each part (and / or simplified); any other
    formula as it is."""
    if isinstance(f, And):
        return conjoin(fn(p) for p in f.parts)
    if isinstance(f, Or):
        return disjoin(fn(p) for p in f.parts)
    if isinstance(f, Then):
        return Then(tuple(fn(p) for p in f.parts))
    return f


def map_leaves(f: Formula, fn: Callable[[Leaf], Formula]) -> Formula:
    """A quantifier-free formula in negation normal form with each leaf replaced by
    `fn(leaf)` (negated where the leaf was), simplified."""
    if isinstance(f, Atom | Prop):
        return fn(f)
    if isinstance(f, Not):
        return negate(map_leaves(f.body, fn))
    return _map_parts(f, lambda p: map_leaves(p, fn))


def ground(f: Formula, graph: SceneGraph) -> Formula:
    """The goal over node ids only, in negation normal form, with what no action can
    change decided by the graph: static predicates, and placements of fixed nodes."""
    initial = WorldState(graph)

    def decide(leaf: Leaf) -> Formula:
        fixed = isinstance(leaf, Atom) and _fixed(leaf, graph)
        return Const(leaf.holds(initial)) if fixed else leaf

    return map_leaves(expand(nnf(f), graph), decide)


def _fixed(atom: Atom, graph: SceneGraph) -> bool:
    predicate = atom.predicate
    if predicate.static:
        return True
    movable = (NodeKind.OBJECT, NodeKind.AGENT)
    return predicate.placement and graph.nodes[atom.args[0]].kind not in movable


def literals(f: Formula) -> Iterator[tuple[Leaf, bool]]:
    """Every leaf of a formula in negation normal form, with its polarity."""
    if isinstance(f, Atom | Prop):
        yield f, True
    elif isinstance(f, Not) and isinstance(f.body, Atom | Prop):
        yield f.body, False
    else:
        for child in f.children():
            yield from literals(child)


def wrong_literals(f: Formula, state: WorldState) -> list[tuple[Atom, bool]]:
    """Literals of a ground goal a plan may need to change: false ones it could make
    true (by the predicates' `achievable`), and true ones it must undo."""
    seen = dict.fromkeys((a, pos) for a, pos in literals(f) if isinstance(a, Atom))
    return [
        (atom, positive)
        for atom, positive in seen
        if atom.holds(state) != positive
        and (not positive or atom.predicate.achievable(state.graph, *atom.args))
    ]
