"""The reference tables of docs/domain.md and docs/goals.md, rendered from the registries.

The documents hold the tables between `<!-- generated: NAME -->` and
`<!-- end generated -->` markers; a test fails when they differ from what
the registries say now. Regenerate them with

    python -m sceneplan.world.docs docs/domain.md docs/goals.md
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

from sceneplan.world.domain import ActionSchema
from sceneplan.world.predicates import PREDICATES, StateWord
from sceneplan.world.primitives import EFFECTS, TESTS, Cause, get_effect
from sceneplan.world.vocabularies import VOCABULARIES


def _param(p) -> str:
    kinds = " or ".join(sorted(k.value for k in p.kinds))
    return f"`{p.name}`: {kinds}" + (f" with `{p.affordance}`" if p.affordance else "")


def _effects(schema: ActionSchema) -> str:
    words = []
    for e in schema.effects:
        args = tuple(f"{a}" for a in e.args)
        words.append(get_effect(e.op).describe(args))
    return "; ".join(words) or "none"


def markdown_table(columns: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    """A Markdown table: the header row of `columns`, then one line a row."""
    lines = ["| " + " | ".join(cells) + " |" for cells in (columns, *rows)]
    return "\n".join([lines[0], "|" + "---|" * len(columns), *lines[1:]])


def vocabulary_table(name: str) -> str:
    """One row per action: parameters, preconditions (with the cause), effects."""
    return markdown_table(
        ("action", "parameters", "preconditions (cause when false)", "effects"),
        (
            (
                f"`{schema.signature}`",
                ", ".join(map(_param, schema.params)) or "none",
                "; ".join(f"{TESTS[p.test].describe(p.args)} (`{p.cause}`)" for p in schema.pre)
                or "none",
                _effects(schema),
            )
            for schema in VOCABULARIES[name].actions.values()
        ),
    )


def primitives_table() -> str:
    """One row per test and effect primitive: its arguments and how it reads."""
    return markdown_table(
        ("primitive", "kind", "arguments", "reads as"),
        (
            (f"`{name}`", kind, ", ".join(table[name].params) or "-", table[name].text)
            for kind, table in (("test", TESTS), ("effect", EFFECTS))
            for name in sorted(table)
        ),
    )


def causes_table() -> str:
    """One row per registered cause: error type, whether repairable, feedback sentence."""
    return markdown_table(
        ("cause", "error type", "repairable", "feedback"),
        (
            (f"`{c}`", c.error_type, "yes" if c.repairable else "no", c.feedback)
            for c in Cause.all()
        ),
    )


def predicates_table() -> str:
    """One row per goal predicate, and the state-word form, with when it is true."""
    return markdown_table(
        ("predicate", "true when"),
        ((f"`{p.signature}`", p.doc) for p in (*PREDICATES.values(), StateWord())),
    )


SECTIONS = {
    "sayplan-actions": lambda: vocabulary_table("sayplan"),
    "lookplangraph-actions": lambda: vocabulary_table("lookplangraph"),
    "primitives": primitives_table,
    "causes": causes_table,
    "goal-predicates": predicates_table,
}
_BLOCK = re.compile(r"(<!-- generated: ([\w-]+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def render(text: str) -> str:
    """The document with every generated section rendered anew."""

    def fill(match: re.Match) -> str:
        name = match.group(2)
        if name not in SECTIONS:
            raise KeyError(f"unknown generated section '{name}'")
        return f"{match.group(1)}{SECTIONS[name]()}\n{match.group(4)}"

    return _BLOCK.sub(fill, text)


def sections(text: str) -> list[str]:
    """Names of the generated sections a document holds."""
    return [m.group(2) for m in _BLOCK.finditer(text)]


def main(paths: list[str]) -> None:
    """Regenerate the generated sections of the documents at `paths`, in place."""
    for path in map(Path, paths):
        path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
