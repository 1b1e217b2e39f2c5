"""BDDL goals as sceneplan goal formulas, with the quantifiers written out over the instances.

BDDL quantifies over synsets (`forall (?c - candle.n.01) ...`); a problem
declares every instance, so each quantifier is written out over the
declared instances of that synset or its descendants: `forall` as `and`,
`exists` as `or`, `forn (k)` as `or` over the k-subsets, and `forpairs` as
bddl evaluates it (each of the smaller set has a partner, and as many of the
larger set have one; for equal sets paired by `ontop`, only "every place has
something", which implies
the rest since a thing rests on one place; not for `inside`, which is
spatial: a thing in a box in a bin is inside both), `fornpairs (k)` likewise
with k. The result is exact and needs no quantifier of the goal language.

Ground goals are tuples: `("atom", predicate, *node_ids)`, `("not", g)`,
`("and", [g, ...])`, `("or", [g, ...])`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.textinput import Sexp

__all__ = ["MAX_ATOMS", "atoms", "ground_goal", "render"]

Ground = tuple[Any, ...]
MAX_ATOMS = 600  # a written-out goal larger than this is not taken


class GoalTooLarge(Exception):
    pass


def ground_goal(
    expr: Sexp, members: Callable[[str], list[str]], known: set[str], source: str = "<bddl>"
) -> Ground:
    """The goal over instances; `members(synset)` lists the instances of a synset."""
    count = [0]

    def go(e: Sexp, env: dict[str, str]) -> Ground:
        if not isinstance(e, list) or not e:
            raise BadInputError(f"{source}: :goal: {e!r} is not an expression")
        head = e[0]
        if head in ("and", "or"):
            return (head, [go(sub, env) for sub in e[1:]])
        if head == "not":
            return ("not", go(e[1], env))
        if head == "imply":
            return ("or", [("not", go(e[1], env)), go(e[2], env)])
        if head in ("forall", "exists"):
            var, insts = _binding(e[1], members, source)
            parts = [go(e[2], {**env, var: i}) for i in insts]
            return ("and" if head == "forall" else "or", parts)
        if head == "forn":
            n = _number(e[1], source)
            var, insts = _binding(e[2], members, source)
            return _at_least(n, [go(e[3], {**env, var: i}) for i in insts])
        if head in ("forpairs", "fornpairs"):
            pairs = _number(e[1], source) if head == "fornpairs" else None
            rest = e[2:] if head == "fornpairs" else e[1:]
            var_a, insts_a = _binding(rest[0], members, source)
            var_b, insts_b = _binding(rest[1], members, source)
            table = [[go(rest[2], {**env, var_a: a, var_b: b}) for b in insts_b] for a in insts_a]
            need = pairs if pairs is not None else min(len(insts_a), len(insts_b))
            rows = [("or", row) for row in table]
            cols = [("or", [row[j] for row in table]) for j in range(len(insts_b))]
            body = rest[2]
            if (
                pairs is None
                and len(insts_a) == len(insts_b)
                and isinstance(body, list)
                and len(body) == 3
                and body[0] == "ontop"  # overlaid / draped may wrap either way round
                and {body[1], body[2]} == {var_a, var_b}
            ):
                # A thing rests on one place only: when every place of as many has
                # something, all the things are placed. The other half is implied.
                return ("and", rows if body[2] == var_a else cols)
            return ("and", [_at_least(need, rows), _at_least(need, cols)])
        args = []
        for arg in e[1:]:
            if not isinstance(arg, str):
                raise BadInputError(f"{source}: :goal: bad argument {arg!r} of {head}")
            value = env.get(arg, arg)
            if value.startswith("?") and value[1:] in known:
                value = value[1:]  # BDDL writes some constants like variables
            if value.startswith("?"):
                raise BadInputError(f"{source}: :goal: variable {value} is not bound")
            if value not in known:
                raise BadInputError(f"{source}: :goal: {value} is not declared in :objects")
            args.append(value)
        count[0] += 1
        if count[0] > MAX_ATOMS:
            raise GoalTooLarge
        return ("atom", head, *args)

    return go(expr, {})


def _binding(spec: Sexp, members: Callable[[str], list[str]], source: str) -> tuple[str, list[str]]:
    if not (isinstance(spec, list) and len(spec) == 3 and spec[1] == "-"):
        raise BadInputError(f"{source}: :goal: a quantifier binds (?var - synset), got {spec!r}")
    return spec[0], members(spec[2])


def _number(spec: Sexp, source: str) -> int:
    text = spec[0] if isinstance(spec, list) and len(spec) == 1 else spec
    if not (isinstance(text, str) and text.isdigit()):
        raise BadInputError(f"{source}: :goal: expected a count like (2), got {spec!r}")
    return int(text)


def _at_least(n: int, parts: list[Ground]) -> Ground:
    if n <= 0:
        return ("and", [])
    if n >= len(parts):
        return ("and", parts) if n == len(parts) else ("or", [])
    subsets = list(combinations(parts, n))
    if len(subsets) * n > MAX_ATOMS:
        raise GoalTooLarge
    return ("or", [("and", list(s)) for s in subsets])


def atoms(goal: Ground, negated: bool = False) -> Iterator[tuple[Ground, bool]]:
    """Every atom of a ground goal, with whether it appears under an odd number of `not`."""
    if goal[0] == "atom":
        yield goal, negated
    elif goal[0] == "not":
        yield from atoms(goal[1], not negated)
    else:
        for part in goal[1]:
            yield from atoms(part, negated)


def render(goal: Ground, atom_text: Callable[[Ground], str], top: bool = True) -> str:
    """The goal in sceneplan's goal language; `atom_text` writes one atom."""
    kind = goal[0]
    if kind == "atom":
        return atom_text(goal)
    if kind == "not":
        return "not " + render(goal[1], atom_text, top=False)
    parts = _flatten(goal)
    if not parts:
        return "true" if kind == "and" else "false"
    if len(parts) == 1:
        return render(parts[0], atom_text, top)
    text = f" {kind} ".join(render(p, atom_text, top=False) for p in parts)
    return text if top and kind == "and" else f"({text})"


def _flatten(goal: Ground) -> list[Ground]:
    out: list[Ground] = []
    for part in goal[1]:
        if part[0] == goal[0]:
            out.extend(_flatten(part))
        else:
            out.append(part)
    # the same sub-goal twice (forpairs rows and columns share atoms) says nothing more
    seen, unique = set(), []
    for part in out:
        key = repr(part)
        if key not in seen:
            seen.add(key)
            unique.append(part)
    return unique
