"""PDDL text read back as nested lists of tokens: only for text that comes from outside
(a user's PDDL goal, `symbolic.goal_reader`; a planner's output in the benchmarks).
What sceneplan writes is built as trees (`world.pddl_expr`), never parsed back."""

from __future__ import annotations

import re

Sexp = str | list["Sexp"]


def parse_sexp(text: str) -> Sexp:
    """PDDL text as nested lists of tokens: `(and (p a) b)` is `["and", ["p", "a"], "b"]`."""
    stack: list[list[Sexp]] = [[]]
    for token in re.findall(r"\(|\)|[^\s()]+", text):
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0][0]


def show_sexp(x: Sexp) -> str:
    """Nested lists of tokens as PDDL text (the inverse of `parse_sexp`)."""
    return x if isinstance(x, str) else "(" + " ".join(show_sexp(p) for p in x) + ")"
