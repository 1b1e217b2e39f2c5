"""The `sceneplan` command.

Each topic lives in its own module (`cli/graph.py`, `cli/llm.py`, ...) that
exposes `register(app)`. Library errors become one-line messages and exit
status 2 here, and nowhere else.

Start-up is kept short: a topic module is imported only when one of its
commands runs (or its help is shown), so `sceneplan verify` does not load the
LLM layer and `sceneplan --help` loads no topic at all: the root help lists
the commands from `COMMANDS`, which a test keeps equal to what the topic
modules register.
"""

from __future__ import annotations

import errno
import gc
import io
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from sceneplan.errors import SceneplanError

if TYPE_CHECKING:
    from rich.console import Console

# typer 0.29, pinned in pyproject.toml: what follows overrides three public methods of its
# parameter classes (typer offers no hook to give a command parameter classes of one's own),
# and touches none of typer's private names.
_TYPER_DISPLAY_TYPE = TyperOption.display_type
_TYPER_PROCESS_VALUE = TyperOption.process_value

# Help text in click's words: this typer shows every type as `<bool>`, `<str>`,
# `<float range>` and required arguments in the usage line as `{env}`, which
# read as unfilled template placeholders. Flags get no type, other values an
# upper-case one (TEXT, FLOAT RANGE, PATH), arguments their upper-case name.
_TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "bool": "BOOLEAN"}


def _display_type(self: TyperOption | TyperArgument, ctx: Any) -> str | None:
    if isinstance(self, TyperOption) and (self.is_flag or self.count):
        return None
    label = _TYPER_DISPLAY_TYPE(self, ctx).removeprefix("<").removesuffix(">")
    if "|" in label:  # choices
        return f"[{label}]"
    first, _, rest = label.partition(" ")
    return " ".join(filter(None, (_TYPE_WORDS.get(first, first).upper(), rest.upper())))


def _usage_pieces(self: TyperArgument, ctx: Any) -> list[str]:
    name = str(self.name if self.metavar is None else self.metavar).upper()
    name = name if self.required else f"[{name}]"
    return [name + ("..." if self.nargs != 1 else "")]


# Text, flag and number values without pydantic. This typer coerces each value of a command
# that runs with a pydantic TypeAdapter built on first use, so every command with a text value
# imported pydantic: about 0.1 s of start-up. The adapter of a single `str`, `bool`, `int` or
# `float` value returns a value of exactly that type unchanged (a flag, a text, a number
# option's default), and typer passes None (an optional value not given) as it is; neither
# is a missing required value: of typer's processing only the parameter's callback is left,
# and that is all this does for them. Any other value (a number given as text) and every
# other type (choices, paths, lists, parsers, files) go through typer's processing, so
# results and error messages are typer's.
_AS_IS = (str, bool, int, float)  # adapters that return a value of that type unchanged


def _process_value(self: TyperOption | TyperArgument, ctx: Any, value: Any) -> Any:
    if value == "" and self.type_descriptor.annotation is Path:
        # pathlib reads "" as ".", the current folder: an empty path would name it silently
        raise typer.BadParameter("an empty path; give a file or folder name", ctx, self)
    given = type(value) is self.type_descriptor.annotation
    if not ((given or (value is None and not self.required)) and _as_is(self)):
        return _TYPER_PROCESS_VALUE(self, ctx, value)
    return value if self.callback is None else self.callback(ctx, self, value)


def _as_is(param: TyperOption | TyperArgument) -> bool:
    """A single value of an `_AS_IS` type with no parser, path options or file type."""
    descriptor = param.type_descriptor
    return (
        descriptor.annotation in _AS_IS
        and descriptor.file_annotation is None
        and descriptor.parameter_info.parser is None
        and not getattr(param, "multiple", False)
        and param.nargs == 1
    )


for _cls in (TyperOption, TyperArgument):
    _cls.display_type = _display_type  # type: ignore[method-assign,assignment]
    _cls.process_value = _process_value  # type: ignore[method-assign,assignment]
TyperArgument.get_usage_pieces = _usage_pieces  # type: ignore[method-assign]


# Every command of the root, in the order --help lists them (typer puts single
# commands before groups, each in registration order), with the topic module
# that registers it and the first paragraph of its help.
COMMANDS: dict[str, tuple[str, str]] = {
    "verify": (
        "verify",
        "Verify a plan: executable or not, the failing step and why, and the pose-level plan.",
    ),
    "plan": (
        "plan",
        "Plan an instruction: search the scene graph, plan, verify, and report the outcome.",
    ),
    "planners": (
        "planners",
        "List the planners with their options (set them with `plan -o KEY=VALUE`).",
    ),
    "eval": ("eval", "Run planners on task suites; what is already stored in --out is skipped."),
    "report": (
        "eval",
        "Report the metrics of a results store, with the papers' numbers alongside.",
    ),
    "pddl": (
        "pddl",
        "Write the scene's domain and a problem (the scene, its state, a goal) as PDDL.",
    ),
    "solve": (
        "solve",
        "Find a plan for a goal; print it, its verification in the simulator and the goal check.",
    ),
    "view": ("view", "Write one self-contained HTML page showing a scene graph, or a run on it."),
    "execute": ("execute", "Plan, then run it on a robot: observe, correct the graph, replan."),
    "mcp": ("mcp", "Serve a scene to LLM agents over MCP: its graph, the simulator, the planner."),
    "graph": ("graph", "Inspect a scene graph: node counts, tokens, and the views an LLM sees."),
    "tasks": ("tasks", "List and show task suites."),
    "llm": ("llm", "Check the chat models sceneplan plans with (see docs/llm.md)."),
    "store": ("eval", "Results stores: merge the shards of a benchmark."),
}
# The topic modules in registration order.
TOPICS: tuple[str, ...] = (
    "graph",
    "verify",
    "tasks",
    "llm",
    "plan",
    "planners",
    "eval",
    "pddl",
    "solve",
    "view",
)
TOPICS += ("execute",)
TOPICS += ("mcp",)


class _Group(TyperGroup):
    """The root group: loads topic modules on demand; turns a SceneplanError into one line."""

    def __init__(self, *args, **kwargs):
        self._loaded: set[str] = set()
        self._listing = False
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> MutableMapping[str, Any]:  # typer's own (vendored) click commands
        """Every command, all topics loaded (for introspection; running one loads one topic)."""
        for topic in TOPICS:
            self._load(topic)
        return self._commands

    @commands.setter  # type: ignore[override]  # click declares a plain attribute
    def commands(self, value: dict) -> None:
        self._commands = value

    def list_commands(self, ctx) -> list[str]:
        return [*COMMANDS, *(name for name in self._commands if name not in COMMANDS)]

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self._commands and cmd_name in COMMANDS:
            topic, summary = COMMANDS[cmd_name]
            if self._listing and topic not in self._loaded:
                return TyperCommand(cmd_name, help=summary)  # its line in the root help
            self._load(topic)
        return self._commands.get(cmd_name)

    def format_help(self, ctx, formatter) -> None:
        self._listing = True
        try:
            if self.rich_markup_mode == "rich" and os.environ.get("TYPER_USE_RICH", "1") != "0":
                _print_root_help(self, ctx)
            else:
                super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _load(self, topic: str) -> None:
        if topic in self._loaded:
            return
        self._loaded.add(topic)
        from sceneplan.plugins import import_path  # not for the root help

        holder = typer.Typer(rich_markup_mode=self.rich_markup_mode, add_completion=False)
        import_path(f"sceneplan.cli.{topic}:register")(holder)
        self._commands.update(typer.main.get_group(holder).commands)
        if _frozen:  # the topic's modules, as the CLI's, live as long as the process
            gc.freeze()

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SceneplanError as exc:
            fail(str(exc))
        except OSError as exc:
            # a path the user gave that the system refuses where no check words it (a name
            # too long, a device): the path and the system's reason, not a traceback
            if exc.filename is None:
                raise
            fail(f"cannot use {exc.filename}: {(exc.strerror or str(exc)).lower()}")


def make_console(*, stderr: bool = False, **settings: Any) -> Console:
    """A rich console as the commands print: on stdout (or stderr), no highlighting of
    numbers and paths, long lines left to the terminal (`soft_wrap`); `settings` override.

    The one place consoles are made (`cli/common.py` gives the commands theirs). rich reads
    NO_COLOR, FORCE_COLOR and COLUMNS when the console is made.
    """
    from rich.console import Console

    return Console(stderr=stderr, **({"highlight": False, "soft_wrap": True} | settings))


def fail(message: str) -> NoReturn:
    """Print `error: message` on stderr and exit with status 2."""
    from rich.text import Text

    make_console(stderr=True).print(Text("error: ", style="bold red") + Text(message))
    raise typer.Exit(2) from None


def _print_root_help(group: _Group, ctx: Any) -> None:
    """The root help, as typer's rich help lays it out, printed with rich alone.

    typer's help module imports rich.markdown (with markdown_it) and rich.traceback
    (with pygments) for every help page: about 0.1 s of `sceneplan --help`'s start-up,
    for a page with no Markdown in it. The root page is plain: usage, one paragraph,
    the --help option and the command table; this prints those with typer's layout
    and styles (a test compares the two, plain and in colour). A topic's help still
    goes through typer. Cells and titles are `Text`, never strings, and markup is read
    for emoji codes only where one could be: rich would otherwise load its table of
    emoji codes (about 2 ms) for a page that has none.
    """
    import inspect

    from rich.columns import Columns
    from rich.highlighter import RegexHighlighter
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text
    from rich.theme import Theme

    class Highlighter(RegexHighlighter):  # typer's option highlighter
        highlights = (
            r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
            r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
            r"(?P<types>\<[^\>]+\>)",
            r"(?P<usage>Usage: )",
        )

    highlight = Highlighter()
    width = os.environ.get("TERMINAL_WIDTH")
    force = any(os.environ.get(v) for v in ("GITHUB_ACTIONS", "FORCE_COLOR", "PY_COLORS"))
    styles = {"option": "bold cyan", "switch": "bold green", "negative_option": "bold magenta"}
    styles |= {"negative_switch": "bold red", "types": "bold yellow"}
    styles |= {"types_sep": "dim", "usage": "yellow"}
    console = make_console(
        theme=Theme(styles),
        highlighter=highlight,
        highlight=True,
        soft_wrap=False,
        color_system="auto",
        force_terminal=False if os.environ.get("_TYPER_FORCE_DISABLE_TERMINAL") else force or None,
        width=int(width) if width else None,
    )

    def table(**kwargs: Any) -> Table:
        return Table(
            show_header=False, expand=True, box=None, show_lines=False, leading=0,
            row_styles=None, pad_edge=False, padding=(0, 1), **kwargs,
        )  # fmt: skip

    def text(value: str) -> Text:
        value = inspect.cleandoc(value)  # an emoji code (`:smile:`) needs two colons
        return highlight(Text.from_markup(value, emoji=value.count(":") > 1))

    console.print(Padding(highlight(group.get_usage(ctx)), 1), style="bold")
    first = inspect.cleandoc(group.help or "").split("\n\n")[0].replace("\n", " ").strip()
    console.print(Padding(text(first), (0, 1, 1, 1)))
    options = table(highlight=True)
    for param in group.get_params(ctx):
        if not getattr(param, "hidden", False):
            long = ",".join(o for o in param.opts if "--" in o)
            short = ",".join(o for o in param.opts if "--" not in o)
            about = Columns(
                [text(" ".join(h.split()))] if (h := getattr(param, "help", None)) else []
            )
            types = Text(style="bold yellow", overflow="fold")
            options.add_row(highlight(long), highlight(short), Text(), Text(), types, about)
    if options.row_count:
        console.print(Panel(options, border_style="dim", title=Text("Options"), title_align="left"))
    names = [n for n in group.list_commands(ctx) if group.get_command(ctx, n) is not None]
    commands = table(highlight=False)
    commands.add_column(style="bold cyan", no_wrap=True, width=max(map(len, names), default=0))
    commands.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for name in names:
        command = group.get_command(ctx, name)
        if not command.hidden:
            summary = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
            commands.add_row(Text(name), text(summary.strip()))
    if commands.row_count:
        console.print(
            Panel(commands, border_style="dim", title=Text("Commands"), title_align="left")
        )


app = typer.Typer(
    name="sceneplan",
    cls=_Group,
    help="Plan robot tasks over 3D scene graphs and verify the plans before the robot moves.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:  # makes the app a group before any topic is loaded
    pass


# Whether `main` runs: the modules imported so far are moved out of the garbage collector's
# view (`gc.freeze`), and so are a topic's once it is loaded.
_frozen = False


def main() -> None:
    """Entry point of the `sceneplan` console script.

    Output the terminal's encoding cannot show ('✓' with PYTHONIOENCODING=ascii) is
    written as '?', not a UnicodeEncodeError; output the system refuses to take (a
    full disk, `> /dev/full`) ends the command with one line on stderr and status 2.

    What the imports made (modules, classes, functions: tens of thousands of objects)
    lives until the process ends, so it is frozen (`gc.freeze`): each full collection
    no longer walks it (`eval -p oracle -s office-planning` spent about 4 % of its CPU
    walking it again and again).
    """
    global _frozen
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    gc.freeze()
    _frozen = True
    try:
        app()
    except OSError as exc:
        if exc.filename is not None or not _is_output_error(exc):
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is still buffered
        print(f"error: cannot write the output: {exc.strerror}", file=sys.stderr)
        sys.exit(2)
    finally:  # when called in a longer-lived process (a test), its objects are its own again
        _frozen = False
        gc.unfreeze()


def _is_output_error(exc: OSError) -> bool:
    """Whether `exc` is the standard output refusing a write (a full disk, a closed pipe)."""
    return exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT)
