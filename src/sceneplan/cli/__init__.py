"""The `sceneplan` command.

Each topic lives in its own module (`cli/graph.py`, `cli/llm.py`, ...) that
exposes `register(app)`. Library errors become one-line messages and exit
status 2 here, and nowhere else.
"""

from __future__ import annotations

import importlib

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from sceneplan.errors import SceneplanError

err_console = Console(stderr=True, highlight=False, soft_wrap=True)


class _Group(TyperGroup):
    """The root group: turns a SceneplanError from any command into one line."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SceneplanError as exc:
            err_console.print(Text("error: ", style="bold red") + Text(str(exc)))
            raise typer.Exit(2) from None


app = typer.Typer(
    name="sceneplan",
    cls=_Group,
    help="Plan robot tasks over 3D scene graphs and verify the plans before the robot moves.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Topic modules, registered in this order (their commands appear in --help in it).
_TOPICS = ("graph", "verify", "tasks", "llm", "plan", "planners", "eval", "pddl", "solve")

for _name in _TOPICS:
    importlib.import_module(f"sceneplan.cli.{_name}").register(app)


def main() -> None:
    """Entry point of the `sceneplan` console script."""
    app()
