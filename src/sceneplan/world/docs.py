"""The reference tables of docs/domain.md and docs/goals.md, rendered from the registries.

The documents hold the tables between `<!-- generated: NAME -->` and
`<!-- end generated -->` markers; a test fails when they differ from what
the registries say now. Regenerate them with

    python -m sceneplan.world.docs docs/domain.md docs/goals.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sceneplan.world.domain import VOCABULARIES, ActionSchema
from sceneplan.world.predicates import PREDICATES, StateWord
from sceneplan.world.primitives import EFFECTS, TESTS, Cause, get_effect


def _param(p) -> str:
    kinds = " or ".join(sorted(k.value for k in p.kinds))
    return f"`{p.name}`: {kinds}" + (f" with `{p.affordance}`" if p.affordance else "")


def _effects(schema: ActionSchema) -> str:
    words = []
    for e in schema.effects:
        args = tuple(f"{a}" for a in e.args)
        words.append(get_effect(e.op).describe(args))
    return "; ".join(words) or "none"


def vocabulary_table(name: str) -> str:
    """One row per action: parameters, preconditions (with the cause), effects."""
    rows = [
        "| action | parameters | preconditions (cause when false) | effects |",
        "|---|---|---|---|",
    ]
    for schema in VOCABULARIES[name].values():
        conditions = [f"{TESTS[p.test].describe(p.args)} (`{p.cause}`)" for p in schema.pre]
        rows.append(
            f"| `{schema.signature}` | {', '.join(map(_param, schema.params)) or 'none'} | "
            f"{'; '.join(conditions) or 'none'} | {_effects(schema)} |"
        )
    return "\n".join(rows)


def primitives_table() -> str:
    rows = ["| primitive | kind | arguments | reads as |", "|---|---|---|---|"]
    for kind, table in (("test", TESTS), ("effect", EFFECTS)):
        for name in sorted(table):
            p = table[name]
            rows.append(f"| `{name}` | {kind} | {', '.join(p.params) or '-'} | {p.text} |")
    return "\n".join(rows)


def causes_table() -> str:
    rows = ["| cause | error type | repairable | feedback |", "|---|---|---|---|"]
    for cause in Cause.all():
        rows.append(
            f"| `{cause}` | {cause.error_type} | {'yes' if cause.repairable else 'no'} | "
            f"{cause.feedback} |"
        )
    return "\n".join(rows)


def predicates_table() -> str:
    rows = ["| predicate | true when |", "|---|---|"]
    for predicate in PREDICATES.values():
        rows.append(f"| `{predicate.signature}` | {predicate.doc} |")
    word = StateWord()
    rows.append(f"| `{word.signature}` | {word.doc} |")
    return "\n".join(rows)


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
    for path in map(Path, paths):
        path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
