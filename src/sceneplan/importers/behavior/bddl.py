"""Reading BDDL problem files (BEHAVIOR-1K): objects, initial facts and the goal expression.

The text is read by sceneplan's one s-expression reader (`textinput.parse_sexp`),
not by bddl's `parsing.parse_problem`: that one raises bare `Exception`s, prints
sections it does not know to stdout, and fails with an IndexError on an empty
`()`, so a malformed file would need a catch-all to become one clear message.
The checks here (sections, typed objects, facts naming declared objects) are
what bddl's parser leaves to its callers. BDDL is PDDL-like:

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
from sceneplan.textinput import Sexp, parse_sexp, show_sexp

__all__ = ["Problem", "parse_problem"]

_INSTANCE = re.compile(r"^[\w-]+\.n\.\d+_(\d+|\*)$")  # an object instance: apple.n.01_1


@dataclass
class Problem:
    """One BDDL problem: `objects` maps each instance to its synset (in file order)."""

    name: str
    objects: dict[str, str]
    init: list[tuple[str, ...]]
    negated_init: list[tuple[str, ...]]
    goal: Sexp
    source: str = "<bddl>"
    raw: dict[str, Any] = field(default_factory=dict)


def parse_problem(text: str, source: str = "<bddl>") -> Problem:
    """A BDDL problem from its text; anything else is one BadInputError naming what is missing."""
    expr: list[Any] = parse_sexp(text.lower(), f"{source}: not BDDL")
    if not (
        len(expr) >= 2
        and expr[0] == "define"
        and isinstance(expr[1], list)
        and len(expr[1]) == 2
        and expr[1][0] == "problem"
        and isinstance(expr[1][1], str)
    ):
        raise BadInputError(
            f"{source}: not BDDL: a problem file starts with (define (problem NAME) ...)"
        )
    sections = {
        part[0]: part[1:]
        for part in expr[2:]
        if isinstance(part, list) and part and isinstance(part[0], str)
    }
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
            raise BadInputError(f"{source}: :init: {show_sexp(fact)} is not a fact")
        undeclared = [a for a in atom[1:] if _INSTANCE.match(a) and a not in objects]
        if undeclared:
            raise BadInputError(
                f"{source}: :init: {show_sexp(fact)} names {undeclared[0]}, which :objects does "
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
            raise BadInputError(f"{source}: :objects: unexpected {show_sexp(token)}")
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
