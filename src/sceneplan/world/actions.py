"""Actions as written in plans: `pickup(coffee_mug)`, and their parsing.

>>> parse_plan("goto(kitchen) > access(fridge) > done")
[Action(name='goto', args=('kitchen',)), Action(name='access', args=('fridge',)), \
Action(name='done', args=())]
>>> str(parse_action(" release( mug ,table ) "))
'release(mug, table)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sceneplan.errors import PlanParseError
from sceneplan.graph.model import is_node_id

_ACTION = re.compile(r"^\s*([A-Za-z_][\w]*)\s*(?:\(\s*(.*?)\s*\))?\s*$", re.DOTALL)
# One action's closing parenthesis followed by another action: a missing '>'.
_JOINED = re.compile(r"\)\s*[;|]?\s*(?=[A-Za-z_]\w*\s*(?:\(|$))")


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a plan: an action name and its node arguments."""

    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"

    def to_dict(self) -> dict:
        """The action as JSON: its name and arguments."""
        return {"name": self.name, "args": list(self.args)}


def parse_action(text: str) -> Action:
    """Parse `name(arg, ...)`; a bare `name` means no arguments."""
    if not isinstance(text, str):
        raise PlanParseError(f"an action must be a string like 'pickup(mug)', got {text!r}")
    joined = _JOINED.search(text)
    if joined is not None:
        fixed = _JOINED.sub(") > ", text.strip())
        raise PlanParseError(
            f"cannot parse action {text.strip()!r}: it holds more than one action; "
            f"separate the steps with '>', e.g. {fixed!r}"
        )
    match = _ACTION.match(text)
    if match is None and text.rstrip().endswith(("-", "=")):
        raise PlanParseError(
            f"cannot parse action {text.strip()!r}: separate the steps with '>' alone "
            "(not '->' or '=>'), e.g. 'goto(kitchen) > done'"
        )
    if match is None:
        raise PlanParseError(
            f"cannot parse action {text.strip()!r}: expected the form name(arg, ...), "
            "e.g. pickup(coffee_mug)"
        )
    name, inner = match.group(1), match.group(2)
    args: tuple[str, ...] = ()
    if inner:
        args = tuple(a.strip().strip("'\"") for a in inner.split(","))
        bad = [a for a in args if not is_node_id(a)]
        if bad:
            raise PlanParseError(
                f"cannot parse action {text.strip()!r}: argument {bad[0]!r} is not a node id"
            )
    return Action(name, args)


def parse_plan(plan: str | Iterable[str | Action | dict]) -> list[Action]:
    """A plan from a `>`- or comma-separated string, or a list of strings/Actions/dicts."""
    if isinstance(plan, str):
        items: list = _split(plan)
    else:
        items = list(plan)
    actions = []
    for position, item in enumerate(items, start=1):
        try:
            actions.append(_coerce(item))
        except PlanParseError as exc:
            raise PlanParseError(f"step {position}: {exc}") from None
    return actions


def _coerce(item: str | Action | dict) -> Action:
    if isinstance(item, Action):
        return item
    if isinstance(item, dict):
        name, args = item.get("name"), item.get("args", [])
        if not isinstance(name, str) or not isinstance(args, list):
            raise PlanParseError(f"a structured action needs 'name' and 'args', got {item!r}")
        return parse_action(f"{name}({', '.join(map(str, args))})")
    return parse_action(item)


def _split(text: str) -> list[str]:
    """Split on '>' or on commas outside parentheses; brackets around the plan are dropped."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    parts, depth, current = [], 0, list[str]()
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if depth == 0 and char in ">,\n":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p for p in (part.strip() for part in parts) if p]
