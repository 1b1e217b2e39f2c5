"""`sceneplan execute`: plan a task, then run the plan on a robot, closed loop.

The robot is `sim` (the world simulator, with `--faults` drawn from
`--seed`) or the URL of a robot server speaking the skill protocol
(docs/execute.md). Every step, observation, belief update and replan goes
into the Episode, which `--trace` writes, also when the run stopped on an
error.

Exit status: 0 when the goal was reached (judged in the simulator's true
world for `sim`, on the executor's belief for a real robot); 1 when it was
not; 2 on errors (bad input, robot server unreachable or answering replies
of the wrong shape).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import typer
from rich.text import Text

from sceneplan.cli import targets
from sceneplan.cli.common import (
    EpisodeJsonOpt,
    FaultsOpt,
    LlmOpt,
    OpenLoopOpt,
    PlannerOpt,
    PlannerOptionOpt,
    SearchOpt,
    SeedOpt,
    TraceOpt,
    check_trace,
    console,
    err_console,
    exit_for,
    goal_parts,
    make_planner,
    report_line,
    run_episode,
    show_episode,
    status_part,
)
from sceneplan.cli.limits import MAX_REPLANS_OPTION
from sceneplan.cli.paths import ForceOpt
from sceneplan.cli.targets import EnvOpt, InstructionArg, TaskOpt, TasksOpt
from sceneplan.execute import MAX_REPLANS, Faults, execute
from sceneplan.execute.executor import DEFAULT_SETTINGS
from sceneplan.execute.replan import REPLANNERS
from sceneplan.execute.search import check_search
from sceneplan.llm import LLMClient
from sceneplan.planners import Episode
from sceneplan.planners.records import ExecutionRecord, Round, UpdateRecord, plain


def execute_command(
    instruction: InstructionArg = None,
    env: EnvOpt = None,
    task: TaskOpt = None,
    tasks: TasksOpt = None,
    planner: PlannerOpt = "oracle",
    option: PlannerOptionOpt = None,
    llm: LlmOpt = None,
    robot: Annotated[
        str,
        typer.Option(
            help="sim (the simulator) or a robot server's URL, e.g. http://127.0.0.1:8765."
        ),
    ] = "sim",
    faults: FaultsOpt = "none",
    seed: SeedOpt = 0,
    open_loop: OpenLoopOpt = False,
    replan: Annotated[
        str,
        typer.Option(
            metavar="|".join(REPLANNERS),
            help="How to replan: the symbolic solver on the task's goal, the planner again, "
            "or auto (the solver when the task has a goal).",
        ),
    ] = "auto",
    max_replans: Annotated[
        int, typer.Option(min=0, max=MAX_REPLANS_OPTION, help="Replans after the first plan.")
    ] = MAX_REPLANS,
    search: SearchOpt = DEFAULT_SETTINGS.search,
    as_json: EpisodeJsonOpt = False,
    trace: TraceOpt = None,
    force: ForceOpt = False,
) -> None:
    """Plan, then run it on a robot: observe, correct the graph, replan."""
    check_trace(trace, force=force)
    target = targets.target(instruction, task, env, tasks, goal_needed=True)
    Faults.parse(faults)  # a bad spec stops here, before any planning
    check_search(search)
    chosen = make_planner(planner, option or [])
    client = LLMClient(llm) if chosen.needs_llm else None

    def run(llm: LLMClient | None):
        return execute(
            chosen,
            target,
            env,
            llm,
            robot=robot,
            faults=faults,
            seed=seed,
            closed_loop=not open_loop,
            replan=replan,
            max_replans=max_replans,
            search=search,
        )

    episode = run_episode(client, run)
    show_episode(episode, _summary, _report, as_json=as_json, trace=trace)
    if trace is not None:
        err_console().print(f"trace written to {trace}")
    exit_for(episode)


def _summary(episode: Episode) -> dict[str, Any]:
    out = episode.summary()
    record = episode.execute or ExecutionRecord()
    out["execute"] = plain(msgspec.structs.replace(record, calls=[], updates=[], rounds=[]))
    out["execute"]["rounds"] = len(record.rounds)
    out["execute"]["updates"] = len(record.updates)
    return out


def _report(episode: Episode) -> None:
    record = episode.execute or ExecutionRecord()
    line = report_line
    if episode.task_id is not None:
        line("task", f"{episode.task_id} ({episode.family})")
    if record.skipped is not None:
        line("robot", ("not run", "red"), f": {record.skipped}")
    updates: dict[int, list[UpdateRecord]] = {}
    for update in record.updates:
        updates.setdefault(update.step, []).append(update)
    replans = {r.at_step: r for r in record.rounds[1:]}
    for step in episode.steps:
        if step.index in replans:
            _replan_line(replans.pop(step.index))
        mark, style = ("✓", "green") if step.ok else ("✗", "red")
        text = Text.assemble((f"{step.index + 1:>4} ", "dim"), (f"{mark} ", style), step.action)
        if not step.ok:
            text.append(f"  {step.cause}: {step.feedback}", style="red")
        console().print(text)
        for update in updates.get(step.index, []):
            before, after = update.before or "-", update.after or "-"
            console().print(
                Text(f"       {update.kind} {update.node}: {before} -> {after}", style="cyan")
            )
    for left in replans.values():
        _replan_line(left)
    if record.stopped:
        line("stopped", (record.stopped, "red"))
    if record.injected:
        kinds: dict[str, int] = {}
        for fault in record.injected:
            kinds[fault["kind"]] = kinds.get(fault["kind"], 0) + 1
        line("faults", ", ".join(f"{k} x{n}" for k, n in kinds.items()))
    if record.judged_in is not None:  # the run reached its end
        line(
            "steps",
            f"{record.steps} skill call(s) ({record.failed_steps} failed), "
            f"{record.extra_steps or 0:+d} vs the fault-free plan of {record.fault_free_steps}; "
            f"{episode.replans} replan(s)",
        )
    if record.searches:
        line(
            "search",
            f"{len(record.searches)} search(es): {record.search_calls} skill call(s), "
            f"{record.search_metres:.0f} m, {record.search_seen} asset(s) seen",
        )
    if episode.goal_reached is not None:
        where = record.judged_in
        line("goal", *goal_parts(episode), f" [in the {where}]" if where else "")
    line(
        "status",
        status_part(episode),
        f" · {len(episode.llm_calls)} LLM call(s) · {episode.wall_time_s:.1f} s planning",
    )


def _replan_line(round_: Round) -> None:
    console().print(
        Text.assemble(
            ("     ↻ ", "yellow"),
            (f"replan {round_.round} ({round_.source}): ", "yellow"),
            round_.reason or "",
            f" -> {len(round_.plan)} step(s)" if round_.plan is not None else "",
        )
    )


def register(app: typer.Typer) -> None:
    app.command("execute")(execute_command)
