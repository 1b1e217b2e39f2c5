"""What the commands share: their consoles, options, and the steps `plan` and `execute` take.

The consoles are made by `sceneplan.cli.make_console` (the one place that
makes them) when a command first prints, and again when the environment
rich reads (NO_COLOR, FORCE_COLOR, COLUMNS) has changed since. Output goes
to `console()` (stdout), progress, notes and warnings to `err_console()`
(stderr); `table_console()` is stdout for tables and trees, which wrap
their cells to the terminal.

The planning layer is imported inside the functions that use it, so that a
command that plans nothing (`tasks`, `verify`) does not load it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

# rich.console is loaded with the command, not at its first print: an error is still printed
# when the run has used up the memory it may use (solve's MemoryError; tests/symbolic)
from rich.console import Console
from rich.text import Text

from sceneplan.cli import fail, make_console
from sceneplan.cli.limits import SEED_LIMIT
from sceneplan.cli.paths import check_output_file
from sceneplan.errors import BadInputError
from sceneplan.textinput import write_text

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient
    from sceneplan.planners import Episode, Planner
    from sceneplan.planners.progress import OnEvent


def console() -> Console:
    """This command's stdout."""
    return _current()


def err_console() -> Console:
    """This command's stderr: progress, notes and warnings."""
    return _current(stderr=True)


def table_console() -> Console:
    """This command's stdout for tables and trees, which fit their cells to the width."""
    return _current(soft_wrap=False)


_made: dict[tuple, tuple[object, dict[str, str], Console]] = {}


def _current(**settings: Any) -> Console:
    """The console with `settings`, made again when the output stream or the environment
    differ from when it was made: rich reads NO_COLOR, FORCE_COLOR and COLUMNS when it makes
    a console, and a console kept for the process would keep the first command's width (a
    test process runs many commands, each with its own)."""
    stream = sys.stderr if settings.get("stderr") else sys.stdout
    key = tuple(sorted(settings.items()))
    made = _made.get(key)
    if made is None or made[0] is not stream or made[1] != os.environ:
        made = _made[key] = (stream, dict(os.environ), make_console(**settings))
    return made[2]


# --json, as the commands that print data declare it; `plan` and `execute` print an Episode
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
EpisodeJsonOpt = Annotated[bool, typer.Option("--json", help="Print the Episode summary as JSON.")]
# --trace of the commands that run an Episode (`plan`, `execute`): see show_episode
TraceOpt = Annotated[
    Path | None,
    typer.Option(
        help="Write the full Episode (every call) to this JSON file, also after an error; "
        "missing folders are created. Checked before the run starts."
    ),
]
# --planner of the commands that run one (`plan`, `execute`), each with its own default
PlannerOpt = Annotated[
    str, typer.Option("--planner", "-p", help="A planner (`sceneplan planners` lists them).")
]
# the planner's options and model in the commands that run one (`plan`, `execute`)
PlannerOptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="A planner option, e.g. -o timeout=5 (repeatable; see `sceneplan planners`).",
    ),
]
# --faults of the commands that run plans on a robot (`execute`, `eval --robot`): Faults.parse
FaultsOpt = Annotated[
    str,
    typer.Option(
        help="Faults of the simulated robot (--robot sim): moved:P,grasp:P,stuck:P,blocked:P "
        "(or none)."
    ),
]
# --open-loop of the commands that run plans on a robot (`execute`, `eval --robot`)
OpenLoopOpt = Annotated[
    bool,
    typer.Option(
        "--open-loop",
        help="Run each plan on the robot as it is: no replans, it stops at its first failure.",
    ),
]
# --seed of the commands that run plans on the simulated robot (`execute`, `mcp --robot sim`)
SeedOpt = Annotated[
    int,
    typer.Option(min=-SEED_LIMIT, max=SEED_LIMIT, help="Seed of the simulated robot's faults."),
]
SearchOpt = Annotated[
    str,
    typer.Option(
        metavar="greedy|likely|nearest|sweep",
        help="How the closed loop searches for an object that is not where the map has it: "
        "greedy (likeliest for the cost), likely, nearest or sweep (docs/execute.md).",
    ),
]
LlmOpt = Annotated[
    str | None,
    typer.Option(
        "--llm",
        help="PROVIDER:MODEL for planners that need one, e.g. ollama:qwen2.5:7b "
        "(default: configured).",
    ),
]


def seeded(model: str | None, seed: int) -> str | None:
    """`model` with `seed` for the simulated stand-in (`simulated:p=0.2` -> `simulated:p=0.2,
    seed=3`); other models, and seed 0, as they are.

    >>> seeded("simulated:p=0.2", 3), seeded("openai:gpt-4o", 3)
    ('simulated:p=0.2,seed=3', 'openai:gpt-4o')
    """
    if model is None or seed == 0 or not model.startswith("simulated:") or ",seed=" in model:
        return model
    return f"{model},seed={seed}"


def report_line(name: str, *parts: Any) -> None:
    """One line of a run's report: the name in bold in a column, then the parts."""
    console().print(Text.assemble((f"{name:<11}", "bold"), *parts))


def make_planner(
    name: str,
    assignments: list[str],
    flags: Mapping[str, tuple[str, Any]] | None = None,
    on_event: OnEvent | None = None,
) -> Planner:
    """The planner `name` with its `-o KEY=VALUE` options and the flags that stand for options.

    `flags` maps an option to its flag and the flag's value (None: not given). A flag
    the planner has no option for, or a flag and an `-o` that set the same option, is
    an error; the planner validates the rest.
    """
    from sceneplan.planners import planner_class
    from sceneplan.planners.options import parse_assignments

    cls = planner_class(name)
    options: dict[str, Any] = parse_assignments(assignments, where="--option")
    for key, (flag, value) in (flags or {}).items():
        if value is None:
            continue
        if key not in cls.Options.model_fields:
            raise BadInputError(f"planner '{name}' has no {flag} option")
        if key in options:
            raise BadInputError(f"{flag} and -o {key}=... both set {key}: give one")
        options[key] = value
    return cls(options, on_event=on_event)


def run_episode(
    client: LLMClient | None, work: Callable[[LLMClient | None], Awaitable[Episode]]
) -> Episode:
    """Run `work` on the event loop with the client open (closed after), or with no client."""

    import asyncio

    async def run() -> Episode:
        if client is None:
            return await work(None)
        async with client:
            return await work(client)

    return asyncio.run(run())


def check_trace(trace: Path | None, *, force: bool) -> None:
    """Refuse a `--trace` file before the run starts (one that exists, without --force, or
    that cannot be written), so that no run is spent before the error."""
    if trace is not None:
        check_output_file(trace, "the trace", force=force)


def show_episode(
    episode: Episode,
    summary: Callable[[Episode], dict[str, Any]],
    report: Callable[[Episode], None],
    *,
    as_json: bool,
    trace: Path | None,
) -> None:
    """Print the run: its `summary` as JSON with `as_json`, else its `report`; then write its
    `trace` (after the output, so that a failed write loses nothing shown)."""
    if as_json:
        print(json.dumps(summary(episode), indent=2))
    else:
        report(episode)
    if trace is not None:
        write_trace(trace, episode)


def write_trace(path: Path, episode: Episode) -> None:
    """Write the full Episode as JSON to `path`, making missing folders."""
    write_text(path, json.dumps(episode.to_dict(), indent=2) + "\n", "the trace")


def exit_for(episode: Episode) -> None:
    """End the command as the run ended: 2 with its error, 1 when it did not succeed."""
    from sceneplan.planners import Status

    if episode.status is Status.ERROR:
        fail(str(episode.error))
    if episode.status is not Status.SUCCESS:
        raise typer.Exit(1)


def goal_parts(episode: Episode) -> tuple[Any, ...]:
    """The goal line's verdict and the unmet conditions, for `report_line("goal", ...)`."""
    unmet = f" ({'; '.join(episode.goal_unmet)})" if episode.goal_unmet else ""
    verdict = ("reached", "green") if episode.goal_reached else ("not reached", "red")
    return verdict, unmet


def status_part(episode: Episode) -> tuple[str, str]:
    """The status word, green for a success, red otherwise."""
    from sceneplan.planners import Status

    return episode.status.value, "green" if episode.status is Status.SUCCESS else "red"


def planner_lines() -> list[str]:
    """One line per planner: its name and the first line of its docstring."""
    from sceneplan.errors import SceneplanError
    from sceneplan.planners import planner_class, planner_names

    lines = []
    for name in planner_names():
        try:
            doc = (planner_class(name).__doc__ or "").strip().splitlines()
        except SceneplanError as exc:  # a plugin that cannot be loaded still gets its line
            doc = [f"(cannot be loaded: {exc})"]
        lines.append(f"{name}: {doc[0] if doc else ''}")
    return lines
