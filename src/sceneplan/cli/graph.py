"""`sceneplan graph`: sizes, token counts and prompt views of a scene graph."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from sceneplan.cli.common import JsonOpt
from sceneplan.cli.common import table_console as console
from sceneplan.cli.paths import ForceOpt
from sceneplan.datasets import load_environment
from sceneplan.errors import GraphValidationError
from sceneplan.graph import (
    GraphView,
    Node,
    NodeKind,
    collapse,
    count_tokens,
    token_report,
    view_to_dict,
    view_to_text,
    visible_links,
)

# `graph check`: valid, but some room cannot be reached from the robot's start.
EXIT_UNREACHABLE = 1

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
    console().print(
        f"[bold]{escape(graph.name or env)}[/]: {len(graph)} nodes, "
        f"{edges['hierarchy']} hierarchy edges, {edges['topology']} topology links"
    )
    table = Table("entity", "number", "tokens", "average", title=f"tokens ({report.encoding})")
    for row in report.kinds:
        table.add_row(row.entity, str(row.count), str(row.tokens), f"{row.average:.2f}")
    table.add_section()
    for row in (report.full, report.collapsed):
        table.add_row(f"{row.entity} graph", str(row.count), str(row.tokens), f"{row.average:.2f}")
    console().print(table)
    console().print(
        f"collapsed to {report.level} level: {report.collapsed.tokens} of {report.full.tokens} "
        f"tokens, {report.reduction_percent:.1f}% fewer"
    )


@graph_app.command()
def check(
    env: EnvArg,
    as_json: JsonOpt = False,
) -> None:
    """Load a scene graph and report every problem in it.

    A file passes when every planning command accepts it: e.g.
    `sceneplan graph check examples/two_rooms.json`. Exit status: 0 when it
    passes; 1 when it is valid but the robot cannot reach every room from its
    start (the rooms are named: no goal there can be planned); 2 when it has
    problems.
    """
    from sceneplan.graph.io import planning_problems
    from sceneplan.world.why import start_place, unreachable_rooms

    graph = load_environment(env)
    problems = planning_problems(graph)
    if problems:
        raise GraphValidationError(env, problems)
    counts = graph.counts()
    nodes = {kind.value: counts[kind.value] for kind in NodeKind if counts[kind.value]}
    apart = unreachable_rooms(graph) if graph.has_agent else []
    if as_json:
        data = {"ok": True, "graph": graph.name, "nodes": nodes, "links": counts["links"]}
        if apart:
            data["unreachable_rooms"] = apart
        typer.echo(json.dumps(data, indent=2))
    else:
        listed = ", ".join(f"{n} {kind}" for kind, n in nodes.items())
        console().print(
            f"[bold green]ok[/] {escape(env)}: a valid scene graph ({escape(listed)}, "
            f"{counts['links']} links)",
            soft_wrap=True,
        )
        if apart:
            shown = ", ".join(apart[:10]) + (" ..." if len(apart) > 10 else "")
            console().print(
                f"[bold yellow]warning[/]: the robot cannot reach {len(apart)} room(s) from "
                f"its start ({escape(str(start_place(graph)))}): {escape(shown)}; no path of "
                "rooms and poses joins them (link them, or import again)",
                soft_wrap=True,
            )
    if apart:
        raise typer.Exit(EXIT_UNREACHABLE)


@graph_app.command()
def show(
    env: EnvArg,
    expand: Annotated[
        list[str] | None,
        typer.Option("--expand", "-e", metavar="NODE", help="Expand this node (repeatable)."),
    ] = None,
    level: LevelOpt = LevelChoice.ROOM,
    positions: Annotated[bool, typer.Option(help="Include node positions.")] = False,
    tree: Annotated[
        bool, typer.Option("--tree", help="Draw the view as a tree of the hierarchy.")
    ] = False,
    compact: Annotated[
        bool,
        typer.Option("--compact", help="Print the exact one-line text the LLM gets."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print the view an LLM would see: collapsed, then with the given nodes expanded.

    Indented JSON by default; `--compact` prints it as the LLM gets it (one
    line), `--tree` as a tree, `--json` with its level, memory and tokens.
    """
    if sum((tree, compact, as_json)) > 1:
        raise typer.BadParameter("choose one of --tree, --compact and --json")
    graph = load_environment(env)
    view = collapse(graph, level.value)
    for node_id in expand or ():
        view.expand(node_id)
    text = view_to_text(view, positions=positions)
    if tree:
        console().print(_view_tree(view, graph.name or env, positions=positions))
        return
    if compact:
        typer.echo(text)
        return
    if not as_json:  # as the LLM reads it: names in any script stay readable
        typer.echo(json.dumps(json.loads(text), indent=2, ensure_ascii=False))
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


def _view_tree(view: GraphView, title: str, *, positions: bool) -> Tree:
    """The visible nodes under their parents, then the visible topology links."""
    nodes = view.graph.nodes
    visible = view.visible_nodes()
    shown = set(visible)
    root = Tree(f"[bold]{escape(title)}[/]")
    branches: dict[str, Tree] = {}
    for node_id in visible:  # parents come before their children
        node = nodes[node_id]
        parent = branches.get(node.parent) if node.parent in shown else None
        branches[node_id] = (parent or root).add(_node_label(node, positions=positions))
    links = visible_links(view)
    if links:
        linked = root.add(f"[dim]links ({len(links)})[/]")
        for a, b in links:
            linked.add(f"{escape(a)} <-> {escape(b)}")
    return root


def _node_label(node: Node, *, positions: bool) -> str:
    label = f"[bold]{escape(node.id)}[/] [dim]{node.kind.value}[/]"
    details = [
        f"{name}: {', '.join(values)}"
        for name, values in (
            ("state", node.state),
            ("attributes", node.attributes),
            ("affordances", node.affordances),
        )
        if values
    ]
    if positions and node.position is not None:
        details.append("position: " + ", ".join(f"{x:g}" for x in node.position))
    return label + (f"  {escape('; '.join(details))}" if details else "")


def _class_option(flag: str, what: str) -> Any:
    """A repeatable option of `graph import` naming object classes that are `what`."""
    return typer.Option(
        flag,
        metavar="CLASS",
        help=f"stanford3dsg, spark-dsg, mp3d: this class {what} (repeatable).",
    )


@graph_app.command("import")
def import_command(
    src: Annotated[Path, typer.Argument(metavar="IN", help="The file to import.")],
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The native graph file to write.")],
    source: Annotated[
        str,
        typer.Option(
            "--from",
            metavar="SOURCE",
            help="The format of IN: stanford3dsg, behavior, virtualhome, spark-dsg, mp3d, "
            "alfworld, or a plugin's importer (docs/importers.md).",
        ),
    ],
    tasks: Annotated[
        Path | None,
        typer.Option("--tasks", metavar="FILE", help="Also write the tasks IN sets (YAML)."),
    ] = None,
    as_json: JsonOpt = False,
    labelspace: Annotated[
        str | None,
        typer.Option(
            "--labelspace",
            metavar="NAME|FILE",
            help="spark-dsg: the object classes of a file without a labelspace: one of Hydra's "
            "label spaces by name (mpcat40, ade20k_mp3d, uhumans2, ...) or a label-space YAML "
            "(Hydra's, or a label: name mapping).",
        ),
    ] = None,
    movable: Annotated[list[str] | None, _class_option("--movable", "can be picked up")] = None,
    fixed: Annotated[list[str] | None, _class_option("--fixed", "stays where it is")] = None,
    force: ForceOpt = False,
) -> None:
    """Convert a scene graph from another format; print what was mapped, guessed and dropped.

    E.g. `sceneplan graph import --from behavior problem0.bddl bh.json --tasks bh.yaml`.
    """
    from sceneplan.cli.graph_import import run

    options = {"labelspace": labelspace, "movable": movable, "fixed": fixed}
    run(source, src, out, tasks, as_json, {k: v for k, v in options.items() if v}, force)
