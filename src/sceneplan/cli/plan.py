"""`sceneplan plan`: plan an instruction with a planner and an LLM, verified in the simulator.

Planner options are set with `-o KEY=VALUE` (repeatable; `sceneplan planners`
lists them); the dedicated flags (--max-turns, --max-replans, --max-steps) are
shortcuts for the options they name.

Exit status: 0 when the run succeeded (an executable plan, reaching the goal
when the instruction is a known task; for a search task, the right answer;
for a search instruction that is no known task, an answer naming something);
1 when it did not; 2 on errors (no model configured, server down, bad input).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.status import Status as Spinner
from rich.text import Text
from typer.core import TyperCommand

from sceneplan.cli import targets
from sceneplan.cli.limits import MAX_REPLANS_OPTION, MAX_STEPS, MAX_TURNS
from sceneplan.cli.paths import FORCE_HELP, check_output_file
from sceneplan.cli.targets import TaskOpt, TasksOpt
from sceneplan.datasets.tasks import Task
from sceneplan.errors import BadInputError, SceneplanError
from sceneplan.llm import LLMClient
from sceneplan.planners import Episode, Planner, Status, planner_class, planner_names
from sceneplan.planners.options import parse_assignments
from sceneplan.planners.progress import OnEvent, PlanEvent
from sceneplan.runs import Setup, resolve

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

# Planner options and the command-line flags that are shortcuts for them.
_FLAGS = {
    "max_search_turns": "--max-turns",
    "max_replans": "--max-replans",
    "max_steps": "--max-steps",
    "perception": "--perception",
    "observe": "--observe",
}


def plan(
    instruction: Annotated[
        str | None, typer.Argument(help="What the robot should do; leave it out with --task.")
    ] = None,
    env: Annotated[
        str | None,
        typer.Option(
            "--env", "-e", help="Packaged environment or graph file (default: the task's)."
        ),
    ] = None,
    planner: Annotated[
        str, typer.Option("--planner", "-p", help="A planner (`sceneplan planners` lists them).")
    ] = "sayplan",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="KEY=VALUE",
            help="A planner option, e.g. -o timeout=5 (repeatable; see `sceneplan planners`).",
        ),
    ] = None,
    llm: Annotated[
        str | None,
        typer.Option("--llm", help="PROVIDER:MODEL, e.g. ollama:qwen2.5:7b (default: configured)."),
    ] = None,
    task: TaskOpt = None,
    tasks: TasksOpt = None,
    max_turns: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_TURNS, help="Cap on semantic-search turns (default 40)."),
    ] = None,
    max_replans: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=MAX_REPLANS_OPTION,
            help="Replans after the first plan, with feedback (default 5).",
        ),
    ] = None,
    max_steps: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_STEPS,
            help="Cap on steps (react, react_pv, sclplan, lookplangraph: 72).",
        ),
    ] = None,
    perception: Annotated[
        str | None,
        typer.Option(
            help="What looks see when the world is observed partially: simulated[:perfect|"
            "gpt4o-like|KEY=VALUE,...] (lookplangraph; sayplan family with --observe partial)."
        ),
    ] = None,
    observe: Annotated[
        str | None,
        typer.Option(
            metavar="full|partial",
            help="sayplan, sayplan_lite, oracle: plan on the robot's memory and act in the "
            "true world (partial), or plan on the true world (full, the default).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the Episode summary as JSON.")
    ] = False,
    trace: Annotated[
        Path | None,
        typer.Option(
            help="Write the full Episode (every call) to this JSON file; missing folders "
            "are created. Checked before the run starts."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Plan an instruction: search the scene graph, plan, verify, and report the outcome."""
    if trace is not None:
        check_output_file(trace, "the trace", force=force)
    target = targets.target(instruction, task, env, tasks)
    show = None if as_json else _Progress()
    flags = {
        "max_search_turns": max_turns,
        "max_replans": max_replans,
        "max_steps": max_steps,
        "perception": perception,
        "observe": observe,
    }
    chosen = _make_planner(planner, option or [], flags, on_event=show)
    setup = resolve(target, env)
    client = LLMClient(llm) if chosen.needs_llm else None
    if show is not None:
        show.header(chosen, client, setup.target, env)
        with show.spinner:
            episode = asyncio.run(_run(chosen, setup, client))
    else:
        episode = asyncio.run(_run(chosen, setup, client))
    if as_json:
        print(json.dumps(episode.summary(), indent=2))
    else:
        _report(episode)
    if trace is not None:  # after the report, so that a failed write loses nothing shown
        _write_trace(trace, episode)
    if episode.status is Status.ERROR:
        err_console.print(Text("error: ", style="bold red") + Text(str(episode.error)))
        raise typer.Exit(2)
    if episode.status is not Status.SUCCESS:
        raise typer.Exit(1)


async def _run(planner: Planner, setup: Setup, client: LLMClient | None) -> Episode:
    if client is None:
        return await planner.aplan(setup.target, setup.graph, prior=setup.prior)
    async with client:
        return await planner.aplan(setup.target, setup.graph, client, prior=setup.prior)


def _make_planner(
    name: str, assignments: list[str], flags: dict[str, Any], on_event: OnEvent | None
) -> Planner:
    """The planner with its `-o KEY=VALUE` options and the flags that stand for options.

    A flag the planner has no option for, or a flag and an `-o` that set the
    same option, is an error; the planner validates the rest.
    """
    cls = planner_class(name)
    options: dict[str, Any] = parse_assignments(assignments, where="--option")
    for key, value in flags.items():
        if value is None:
            continue
        if key not in cls.Options.model_fields:
            raise BadInputError(f"planner '{name}' has no {_FLAGS[key]} option")
        if key in options:
            raise BadInputError(f"{_FLAGS[key]} and -o {key}=... both set {key}: give one")
        options[key] = value
    return cls(options, on_event=on_event)


def _write_trace(path: Path, episode: Episode) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode.to_dict(), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"cannot write the trace to {path}: {exc.strerror}") from None


class _Progress:
    """Prints each search turn and plan round as it happens, under a live status line."""

    def __init__(self) -> None:
        self.spinner = Spinner("starting", console=console)

    def header(
        self, planner: Planner, client: LLMClient | None, target: Task | str, env: str | None
    ) -> None:
        model = client.model if client is not None else "no LLM"
        where = target.environment if isinstance(target, Task) else env or "(from the task)"
        task = f" · task {target.id}" if isinstance(target, Task) else ""
        console.print(Text.assemble((planner.name, "bold"), f" · {model} · {where}{task}"))

    def __call__(self, event: PlanEvent) -> None:
        label = f"{event.stage} {event.step}"
        if event.kind == "ask":
            self.spinner.update(f"{label}: {event.message}")
            return
        if event.kind == "plan":
            console.print(Text.assemble((f"{label:<10}", "bold"), "plan: ", event.message))
            return
        mark, style = ("✓", "green") if event.ok else ("✗", "red")
        if event.kind == "search" and event.ok:
            mark, style = "·", "cyan"
        console.print(Text.assemble((f"{label:<10}", "bold"), (f"{mark} ", style), event.message))


def _report(episode: Episode) -> None:
    def line(name: str, *parts: Any) -> None:
        console.print(Text.assemble((f"{name:<11}", "bold"), *parts))

    if episode.task_id is not None:
        line("task", f"{episode.task_id} ({episode.family})")
    if episode.explored:
        line("explored", ", ".join(episode.explored))
    answered = bool(episode.search) and episode.search[-1].command == "answer"
    if answered or episode.answer_correct is not None:
        line("answer", ", ".join(episode.answer) or "nothing")
        if episode.answer_correct is not None:
            line("correct", ("yes", "green") if episode.answer_correct else ("no", "red"))
    elif episode.plan:
        line("plan", " > ".join(episode.plan))
        if episode.full_plan and episode.full_plan != episode.plan:
            line("full plan", " > ".join(episode.full_plan))
        if episode.executable:
            line("executable", ("yes", "green"))
        else:
            verdict = episode.sim_calls[-1].feedback if episode.sim_calls else "not verified"
            line("executable", ("no", "red"), f": {verdict}")
    elif episode.status is not Status.ERROR:
        line("plan", ("none", "red"), ": no usable plan from the model")
    if episode.goal_reached is not None:
        unmet = f" ({'; '.join(episode.goal_unmet)})" if episode.goal_unmet else ""
        reached = ("reached", "green") if episode.goal_reached else ("not reached", "red")
        line("goal", reached, unmet)
    cost = f" · ${episode.cost_usd:.4f}" if episode.cost_usd else ""
    line(
        "status",
        (episode.status.value, "green" if episode.status is Status.SUCCESS else "red"),
        f" · {len(episode.llm_calls)} LLM call(s), {episode.input_tokens} tokens in, "
        f"{episode.output_tokens} out{cost} · {episode.wall_time_s:.1f} s",
    )


def planner_lines() -> list[str]:
    """One line per planner: its name and the first line of its docstring."""
    lines = []
    for name in planner_names():
        try:
            doc = (planner_class(name).__doc__ or "").strip().splitlines()
        except SceneplanError as exc:  # a plugin that cannot be loaded still gets its line
            doc = [f"(cannot be loaded: {exc})"]
        lines.append(f"{name}: {doc[0] if doc else ''}")
    return lines


class _PlanCommand(TyperCommand):
    """`plan`, whose --help ends with the planners, looked up only when help is asked for."""

    def format_help(self, ctx, formatter):
        self.epilog = "Planners (-p NAME; options: `sceneplan planners`):\n" + "\n".join(
            f"  {line}" for line in planner_lines()
        )
        return super().format_help(ctx, formatter)


def register(app: typer.Typer) -> None:
    app.command("plan", cls=_PlanCommand)(plan)
