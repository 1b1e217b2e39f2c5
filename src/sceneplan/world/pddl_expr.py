"""PDDL conditions and effects as expression trees: what every PDDL face returns.

A primitive's PDDL face (`world.rules`, `world.substances`, `world.alfworld`)
and a goal predicate's (`world.predicates`) build a tree of these nodes; the
export (`symbolic.pddl`) simplifies the tree for one problem and its writer
(`symbolic.pddl.write`) prints it, once. No face writes PDDL text.

A term is a string: a node id or literal word (`fridge`, `is_on`), or a
variable (`?x`). The nodes are frozen and hashable, so equal trees compare
equal and the goal translation can drop duplicates.

>>> Not(atom("can_open", "?x"))
Not(body=Atom(predicate='can_open', args=('?x',)))
>>> Or(atom("is_open", "?x")) == Or(atom("is_open", "?x"))
True
>>> Forall({"?d": "item"}, When(atom("enclosed", "?d", "?x"), atom("shut", "?d"))).params
(('?d', 'item'),)

Libraries considered: unified-planning's and tarski's expression trees are
built against a declared problem or language (fluents, sorts, objects), which
a face that knows only its arguments' terms does not have, and
unified-planning pulls numpy and scipy into the default install; the `pddl`
package (MIT) builds formulas standalone, but from typed `Variable` and
`Constant` objects, and its writer would have had to reproduce the exported
files byte for byte. These few frozen classes are all a face needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

Term = str  # a node id, a literal word, or a variable `?name`
Params = tuple[tuple[str, str], ...]  # a quantifier's variables and their PDDL types


@dataclass(frozen=True)
class Atom:
    """`(predicate arg ...)`: a fact, a condition, or (as an effect) an added fact."""

    predicate: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, init=False)
class And:
    """`(and part ...)`; with no parts, true (and, as an effect, nothing)."""

    parts: tuple[Expr, ...]

    def __init__(self, *parts: Expr) -> None:
        object.__setattr__(self, "parts", tuple(parts))


@dataclass(frozen=True, init=False)
class Or:
    """`(or part ...)`; with no parts, false."""

    parts: tuple[Expr, ...]

    def __init__(self, *parts: Expr) -> None:
        object.__setattr__(self, "parts", tuple(parts))


@dataclass(frozen=True)
class Not:
    """`(not body)`: a negated condition, or (as an effect) a deleted fact."""

    body: Expr


@dataclass(frozen=True)
class Imply:
    """`(imply left right)`."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class When:
    """`(when condition effect)`: a conditional effect."""

    condition: Expr
    effect: Expr


def _params(params: Mapping[str, str] | Iterable[tuple[str, str]]) -> Params:
    items = params.items() if isinstance(params, Mapping) else params
    return tuple((var, type_) for var, type_ in items)


@dataclass(frozen=True, init=False)
class Quantifier:
    """What `Forall` and `Exists` share: typed variables (`params`, in order, given as a
    mapping `{"?d": "nest"}` or as pairs) and a body."""

    params: Params
    body: Expr

    def __init__(self, params: Mapping[str, str] | Iterable[tuple[str, str]], body: Expr) -> None:
        object.__setattr__(self, "params", _params(params))
        object.__setattr__(self, "body", body)


class Forall(Quantifier):
    """`(forall (?v - type ...) body)`, a condition or an effect."""


class Exists(Quantifier):
    """`(exists (?v - type ...) body)`."""


@dataclass(frozen=True, init=False)
class Predicate:
    """A predicate's declaration in a domain, `(name ?v - type ...)`; `params` as for
    `Forall`."""

    name: str
    params: Params

    def __init__(
        self, name: str, params: Mapping[str, str] | Iterable[tuple[str, str]] = ()
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", _params(params))


Expr = Atom | And | Or | Not | Imply | When | Forall | Exists

TRUE: Expr = And()
FALSE: Expr = Or()


def atom(predicate: str, *args: Term) -> Atom:
    """`atom("is_on", x)` is `(is_on x)`."""
    return Atom(predicate, args)


def effects_of(expr: Expr) -> tuple[Expr, ...]:
    """The effects an effect face returns: the parts of a top-level `And` (spliced into
    the action's effect), else the one effect."""
    return expr.parts if isinstance(expr, And) else (expr,)


def map_atoms(expr: Expr, change: Callable[[Atom], Expr]) -> Expr:
    """The tree with every atom replaced by `change(atom)`."""
    if isinstance(expr, Atom):
        return change(expr)
    if isinstance(expr, And | Or):
        return type(expr)(*(map_atoms(p, change) for p in expr.parts))
    if isinstance(expr, Not):
        return Not(map_atoms(expr.body, change))
    if isinstance(expr, Imply):
        return Imply(map_atoms(expr.left, change), map_atoms(expr.right, change))
    if isinstance(expr, When):
        return When(map_atoms(expr.condition, change), map_atoms(expr.effect, change))
    return type(expr)(expr.params, map_atoms(expr.body, change))
