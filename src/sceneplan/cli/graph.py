"""`sceneplan graph`: sizes, token counts and prompt views of a scene graph."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sceneplan.datasets import load_environment
from sceneplan.graph import (
    NodeKind,
    collapse,
    count_tokens,
    token_report,
    view_to_dict,
    view_to_text,
)

console = Console(highlight=False)

graph_app = typer.Typer(
    help="Inspect a scene graph: node counts, tokens, and the views an LLM sees.",
    no_args_is_help=True,
)


class LevelChoice(StrEnum):
    """The values of --level: see `sceneplan.graph.GraphView`."""

    BUILDING = "building"
    FLOOR = "floor"
    ROOM = "room"
    FULL = "full"


EnvArg = Annotated[
    str,
    typer.Argument(metavar="ENV_OR_FILE", help="A packaged environment name or a graph file."),
]
LevelOpt = Annotated[
    LevelChoice, typer.Option(help="How far down the collapsed view shows the hierarchy.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def register(app: typer.Typer) -> None:
    """Add the `graph` commands to the root app."""
    app.add_typer(graph_app, name="graph")


@graph_app.command()
def stats(env: EnvArg, level: LevelOpt = LevelChoice.ROOM, as_json: JsonOpt = False) -> None:
    """Node counts per kind, edge counts, and tokens of the full vs the collapsed graph."""
    graph = load_environment(env)
    report = token_report(graph, level=level.value)
    counts = graph.counts()
    nodes = {kind.value: counts[kind.value] for kind in NodeKind}
    edges = {"hierarchy": graph.tree.number_of_edges(), "topology": counts["links"]}
    if as_json:
        data: dict[str, Any] = {"graph": graph.name, "nodes": nodes, "edges": edges}
        typer.echo(json.dumps({**data, "tokens": report.to_dict()}, indent=2))
        return
    console.print(
        f"[bold]{escape(graph.name or env)}[/]: {len(graph)} nodes, "
        f"{edges['hierarchy']} hierarchy edges, {edges['topology']} topology links"
    )
    table = Table("entity", "number", "tokens", "average", title=f"tokens ({report.encoding})")
    for row in report.kinds:
        table.add_row(row.entity, str(row.count), str(row.tokens), f"{row.average:.2f}")
    table.add_section()
    for row in (report.full, report.collapsed):
        table.add_row(f"{row.entity} graph", str(row.count), str(row.tokens), f"{row.average:.2f}")
    console.print(table)
    console.print(
        f"collapsed to {report.level} level: {report.collapsed.tokens} of {report.full.tokens} "
        f"tokens, {report.reduction_percent:.1f}% fewer"
    )


@graph_app.command()
def show(
    env: EnvArg,
    expand: Annotated[
        list[str] | None,
        typer.Option("--expand", "-e", metavar="NODE", help="Expand this node (repeatable)."),
    ] = None,
    level: LevelOpt = LevelChoice.ROOM,
    positions: Annotated[bool, typer.Option(help="Include node positions.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print the view an LLM would see: collapsed, then with the given nodes expanded."""
    graph = load_environment(env)
    view = collapse(graph, level.value)
    for node_id in expand or ():
        view.expand(node_id)
    text = view_to_text(view, positions=positions)
    if not as_json:
        typer.echo(text)
        return
    data = {
        "graph": graph.name,
        "level": view.level,
        "expanded": view.expanded,
        "memory": view.memory,
        "visible": len(view),
        "tokens": count_tokens(text),
        "view": view_to_dict(view, positions=positions),
    }
    typer.echo(json.dumps(data, indent=2))
