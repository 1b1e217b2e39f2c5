"""The pieces every report table is made of: the papers' numbers, Markdown tables and
number formats. `report` and `sclplan_tables` both render with these (neither imports
the other's internals)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import yaml

__all__ = ["num", "pct", "published", "table"]


@cache
def published() -> dict[str, Any]:
    """The papers' numbers, with their sources (`published.yaml`)."""
    text = (resources.files("sceneplan.eval") / "published.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def pct(value: float | None) -> str:
    """A rate as a percentage; '-' when unknown.

    >>> pct(0.8666), pct(0.0017), pct(None)
    ('86.7%', '0.17%', '-')
    """
    if value is None:
        return "-"
    return f"{100 * value:.2f}%" if 0 < abs(value) < 0.01 else f"{100 * value:.1f}%"


def num(value: float | None, digits: int = 2) -> str:
    """A number with `digits` decimals; '-' when unknown."""
    return "-" if value is None else f"{value:,.{digits}f}"
