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

from typing import Annotated

import typer
from rich.status import Status as Spinner
from rich.text import Text
from typer.core import TyperCommand

from sceneplan.cli import targets
from sceneplan.cli.common import (
    EpisodeJsonOpt,
    LlmOpt,
    PlannerOpt,
    PlannerOptionOpt,
    TraceOpt,
    check_trace,
    console,
    exit_for,
    goal_parts,
    make_planner,
    planner_lines,
    report_line,
    run_episode,
    seeded,
    show_episode,
    status_part,
)
from sceneplan.cli.limits import MAX_REPLANS_OPTION, MAX_STEPS, MAX_TURNS, SEED_LIMIT
from sceneplan.cli.paths import ForceOpt
from sceneplan.cli.targets import EnvOpt, InstructionArg, TaskOpt, TasksOpt
from sceneplan.datasets.tasks import Task
from sceneplan.llm import LLMClient
from sceneplan.planners import Episode, Planner, Status
from sceneplan.planners.progress import PlanEvent
from sceneplan.runs import resolve
from sceneplan.simulated.session import record, simulating


def plan(
    instruction: InstructionArg = None,
    env: EnvOpt = None,
    planner: PlannerOpt = "sayplan",
    option: PlannerOptionOpt = None,
    llm: LlmOpt = None,
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
    seed: Annotated[
        int,
        typer.Option(
            min=-SEED_LIMIT, max=SEED_LIMIT, help="Seed of a simulated model (--llm simulated:...)."
        ),
    ] = 0,
    as_json: EpisodeJsonOpt = False,
    trace: TraceOpt = None,
    force: ForceOpt = False,
) -> None:
    """Plan an instruction: search the scene graph, plan, verify, and report the outcome."""
    check_trace(trace, force=force)
    target = targets.target(instruction, task, env, tasks)
    show = None if as_json else _Progress()
    flags = {  # planner options, and the flags that are shortcuts for them
        "max_search_turns": ("--max-turns", max_turns),
        "max_replans": ("--max-replans", max_replans),
        "max_steps": ("--max-steps", max_steps),
        "perception": ("--perception", perception),
        "observe": ("--observe", observe),
    }
    chosen = make_planner(planner, option or [], flags, on_event=show)
    setup = resolve(target, env)
    client = LLMClient(seeded(llm, seed)) if chosen.needs_llm else None

    def run(llm: LLMClient | None):
        return chosen.aplan(setup.target, setup.graph, llm, prior=setup.prior)

    with simulating(setup.task, setup.graph) as session:  # a simulated model's task
        if show is not None:
            show.header(chosen, client, setup.target, env)
            with show.spinner:
                episode = run_episode(client, run)
        else:
            episode = run_episode(client, run)
    record(session, episode)
    show_episode(episode, Episode.summary, _report, as_json=as_json, trace=trace)
    exit_for(episode)


class _Progress:
    """Prints each search turn and plan round as it happens, under a live status line."""

    def __init__(self) -> None:
        self.spinner = Spinner("starting", console=console())

    def header(
        self, planner: Planner, client: LLMClient | None, target: Task | str, env: str | None
    ) -> None:
        model = client.model if client is not None else "no LLM"
        where = target.environment if isinstance(target, Task) else env or "(from the task)"
        task = f" · task {target.id}" if isinstance(target, Task) else ""
        console().print(Text.assemble((planner.name, "bold"), f" · {model} · {where}{task}"))

    def __call__(self, event: PlanEvent) -> None:
        label = f"{event.stage} {event.step}"
        if event.kind == "ask":
            self.spinner.update(f"{label}: {event.message}")
            return
        if event.kind == "plan":
            console().print(Text.assemble((f"{label:<10}", "bold"), "plan: ", event.message))
            return
        mark, style = ("✓", "green") if event.ok else ("✗", "red")
        if event.kind == "search" and event.ok:
            mark, style = "·", "cyan"
        console().print(Text.assemble((f"{label:<10}", "bold"), (f"{mark} ", style), event.message))


def _report(episode: Episode) -> None:
    line = report_line
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
        why = episode.error or ("no usable plan from the model" if episode.llm_calls else "")
        line("plan", ("none", "red"), f": {why or 'no plan'}")
    if episode.goal_reached is not None:
        line("goal", *goal_parts(episode))
    cost = f" · ${episode.cost_usd:.4f}" if episode.cost_usd else ""
    line(
        "status",
        status_part(episode),
        f" · {len(episode.llm_calls)} LLM call(s), {episode.input_tokens} tokens in, "
        f"{episode.output_tokens} out{cost} · {episode.wall_time_s:.1f} s",
    )


class _PlanCommand(TyperCommand):
    """`plan`, whose --help ends with the planners, looked up only when help is asked for."""

    def format_help(self, ctx, formatter):
        self.epilog = "Planners (-p NAME; options: `sceneplan planners`):\n" + "\n".join(
            f"  {line}" for line in planner_lines()
        )
        return super().format_help(ctx, formatter)


def register(app: typer.Typer) -> None:
    app.command("plan", cls=_PlanCommand)(plan)
