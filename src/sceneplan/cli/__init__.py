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
from typer.core import TyperArgument, TyperGroup, TyperOption

from sceneplan.errors import SceneplanError

err_console = Console(stderr=True, highlight=False, soft_wrap=True)


# Help text in click's words: this typer shows every type as `<bool>`, `<str>`,
# `<float range>` and required arguments in the usage line as `{env}`, which
# read as unfilled template placeholders. Flags get no type, other values an
# upper-case one (TEXT, FLOAT RANGE, PATH), arguments their upper-case name.
_TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "bool": "BOOLEAN"}
_typer_display_type = TyperOption.display_type


def _display_type(self, ctx):
    if isinstance(self, TyperOption) and (self.is_flag or self.count):
        return None
    label = _typer_display_type(self, ctx).removeprefix("<").removesuffix(">")
    if "|" in label:  # choices
        return f"[{label}]"
    first, _, rest = label.partition(" ")
    return " ".join(filter(None, (_TYPE_WORDS.get(first, first).upper(), rest.upper())))


def _usage_display_name(self) -> str:
    name = self.display_name_raw.upper()
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


TyperOption.display_type = TyperArgument.display_type = _display_type  # type: ignore[method-assign]
if hasattr(TyperArgument, "_usage_display_name"):
    TyperArgument._usage_display_name = _usage_display_name  # type: ignore[method-assign]


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
_TOPICS = ("graph", "verify", "tasks", "llm", "plan", "planners", "eval", "pddl", "solve", "view")

for _name in _TOPICS:
    importlib.import_module(f"sceneplan.cli.{_name}").register(app)


def main() -> None:
    """Entry point of the `sceneplan` console script."""
    app()
