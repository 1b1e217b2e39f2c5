"""`sceneplan planners`: every planner, built-in or from a plugin, with its options."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.text import Text

from sceneplan.cli.common import JsonOpt, console, err_console
from sceneplan.errors import SceneplanError
from sceneplan.planners import PLANNERS, planner_class, planner_names


def planners_command(
    as_json: JsonOpt = False,
) -> None:
    """List the planners with their options (set them with `plan -o KEY=VALUE`)."""
    described, broken = [], []
    for name in planner_names():
        try:
            described.append(describe(name))
        except SceneplanError as exc:  # a plugin that cannot be loaded: list the others
            broken.append(str(exc))
    if as_json:
        print(json.dumps(described, indent=2))
    else:
        for entry in described:
            _show(entry)
    for message in broken:
        err_console().print(Text("error: ", style="bold red") + Text(message))
    if broken:
        raise typer.Exit(2)


def describe(name: str) -> dict[str, Any]:
    """A planner as plain data: where it comes from, what it does, its options."""
    cls = planner_class(name)
    doc = (cls.__doc__ or "").strip().splitlines()
    return {
        "name": name,
        "source": PLANNERS.source(name),
        "needs_llm": cls.needs_llm,
        "summary": doc[0] if doc else "",
        "options": cls.Options.describe(),
    }


def _show(entry: dict[str, Any]) -> None:
    """The planner's line, then one aligned line per option: name, type, default, description."""
    llm = "needs an LLM" if entry["needs_llm"] else "no LLM"
    console().print(
        Text.assemble((entry["name"], "bold"), f"  ({entry['source']}; {llm})  ", entry["summary"])
    )
    if not entry["options"]:
        console().print("  no options\n")
        return
    rows = [("option", "type", "default", "description")]
    for r in entry["options"]:
        default = "(required)" if r["required"] else _value(r["default"])
        rows.append((r["name"], r["type"], default, r["description"]))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for index, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        line = "  " + "  ".join([*cells, row[3]])
        console().print(Text(line, style="dim" if index == 0 else ""))
    console().print()


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def register(app: typer.Typer) -> None:
    app.command("planners")(planners_command)
