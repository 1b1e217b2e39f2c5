"""Reading BDDL problem files (BEHAVIOR-1K): objects, initial facts and the goal expression.

A small s-expression reader, so that importing needs no `bddl` package (only
the synset taxonomy does). BDDL is PDDL-like:

>>> p = parse_problem('''(define (problem demo-0) (:domain omnigibson)
...   (:objects apple.n.01_1 - apple.n.01 table.n.02_1 - table.n.02 agent.n.01_1 - agent.n.01)
...   (:init (ontop apple.n.01_1 table.n.02_1) (inroom table.n.02_1 kitchen))
...   (:goal (and (inside apple.n.01_1 table.n.02_1))))''')
>>> p.name, p.objects["apple.n.01_1"], p.init[1]
('demo', 'apple.n.01', ('inroom', 'table.n.02_1', 'kitchen'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.textinput import too_deep

__all__ = ["Problem", "parse_problem", "read_sexpr"]

SExpr = str | list[Any]

_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_INSTANCE = re.compile(r"^[\w-]+\.n\.\d+_(\d+|\*)$")  # an object instance: apple.n.01_1
MAX_NESTING = 100  # levels of brackets; the test suite's BEHAVIOR problems need 6


@dataclass
class Problem:
    """One BDDL problem: `objects` maps each instance to its synset (in file order)."""

    name: str
    objects: dict[str, str]
    init: list[tuple[str, ...]]
    negated_init: list[tuple[str, ...]]
    goal: SExpr
    source: str = "<bddl>"
    raw: dict[str, Any] = field(default_factory=dict)


def read_sexpr(text: str, source: str = "<bddl>") -> SExpr:
    """The one s-expression of `text` (comments after `;` dropped), as nested lists."""
    text = re.sub(r";[^\n]*", "", text)
    stack: list[list[Any]] = [[]]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "(":
            stack.append([])
            if len(stack) > MAX_NESTING:  # what reads the expression recurses once a level
                raise too_deep(source, "BDDL", MAX_NESTING)
        elif token == ")":
            if len(stack) == 1:
                raise BadInputError(f"{source}: not BDDL: unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token.lower())
    if len(stack) != 1:
        raise BadInputError(f"{source}: not BDDL: {len(stack) - 1} unclosed '('")
    top = stack[0]
    if len(top) != 1 or not isinstance(top[0], list):
        raise BadInputError(
            f"{source}: not BDDL: expected one (define (problem NAME) ...) expression"
        )
    return top[0]


def parse_problem(text: str, source: str = "<bddl>") -> Problem:
    """A BDDL problem from its text; anything else is one BadInputError naming what is missing."""
    expr = read_sexpr(text, source)
    if not (
        len(expr) >= 2
        and expr[0] == "define"
        and isinstance(expr[1], list)
        and len(expr[1]) == 2
        and expr[1][0] == "problem"
    ):
        raise BadInputError(
            f"{source}: not BDDL: a problem file starts with (define (problem NAME) ...)"
        )
    sections = {part[0]: part[1:] for part in expr[2:] if isinstance(part, list) and part}
    missing = [s for s in (":objects", ":init", ":goal") if s not in sections]
    if missing:
        raise BadInputError(f"{source}: not a BDDL problem: no {', '.join(missing)} section")
    name = re.sub(r"-\d+$", "", expr[1][1])
    objects = _objects(sections[":objects"], source)
    init: list[Any] = []
    negated: list[Any] = []
    for fact in sections[":init"]:
        negative = isinstance(fact, list) and len(fact) == 2 and fact[0] == "not"
        atom = fact[1] if negative else fact
        if not (isinstance(atom, list) and atom and all(isinstance(a, str) for a in atom)):
            raise BadInputError(f"{source}: :init: {_show(fact)} is not a fact")
        undeclared = [a for a in atom[1:] if _INSTANCE.match(a) and a not in objects]
        if undeclared:
            raise BadInputError(
                f"{source}: :init: {_show(fact)} names {undeclared[0]}, which :objects does "
                "not declare; declare it there, or correct the name"
            )
        (negated if negative else init).append(tuple(atom))
    goals = sections[":goal"]
    if not goals:
        raise BadInputError(f"{source}: :goal is empty")
    goal = goals[0] if len(goals) == 1 else ["and", *goals]  # several: all of them
    return Problem(name, objects, init, negated, goal, source, sections)


def _objects(tokens: list[Any], source: str) -> dict[str, str]:
    objects: dict[str, str] = {}
    pending: list[str] = []
    it = iter(tokens)
    for token in it:
        if not isinstance(token, str):
            raise BadInputError(f"{source}: :objects: unexpected {_show(token)}")
        if token == "-":
            synset = next(it, None)
            if not isinstance(synset, str) or not pending:
                raise BadInputError(
                    f"{source}: :objects: '-' must follow instances and name a type"
                )
            for instance in pending:
                objects[instance] = synset
            pending = []
        else:
            pending.append(token)
    if pending:
        raise BadInputError(f"{source}: :objects: {' '.join(pending)} have no type")
    return objects


def _show(expr: SExpr) -> str:
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(_show(e) for e in expr) + ")"
