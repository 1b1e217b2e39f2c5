"""Execution under faults: success, replans and extra steps per planner, fault spec and loop.

Reads the `execute` record (`ExecutionRecord`) the executor leaves in each Episode
(docs/execute.md): one row per (planner, fault spec, closed or open loop),
a Markdown table, and a plot of success against the fault rate with one
panel per fault kind (specs with one kind only; specs mixing kinds are in
the table). Extra steps are counted over the runs that reached the goal,
against the planner's fault-free plan: the skill calls a success cost
beyond what the plan alone would have taken. Corrections are the belief
updates that fix the map (an object moved, missing, found, a state); looks the
skill calls made to search for a lost object or to confirm the goal before
done; failed steps the robot calls that failed. A search is counted by what
it cost the robot: its skill calls, the metres it travelled and the assets
it saw (arrivals in rooms included).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.eval.store import options_key
from sceneplan.execute import ExecutionSettings, Faults, get_robot, run_plan
from sceneplan.execute.executor import DEFAULT_SETTINGS
from sceneplan.execute.faults import KINDS
from sceneplan.execute.run import believed, check_robot, plan_on_memory, stream_of
from sceneplan.execute.search import check_search
from sceneplan.planners.base import Planner
from sceneplan.planners.episode import Episode, Status
from sceneplan.runs import Setup


@dataclass
class FaultRow:
    """One (planner, faults, loop): how its runs went."""

    planner: str
    faults: str
    loop: str  # "closed" or "open"
    runs: int
    success: float
    replans: float  # mean per run
    extra_steps: float | None  # mean over the successful runs
    failed_steps: float  # mean skill calls that failed, per run
    injected: float  # mean faults that happened, per run
    errors: int = 0  # runs that ended in an error (robot unreachable, bad reply)
    corrections: float = 0.0  # mean belief corrections (moved, missing, found, ...), per run
    looks: float = 0.0  # mean skill calls made to search or confirm, per run
    calls: float = 0.0  # mean skill calls, per run
    search_calls: float = 0.0  # mean skill calls made searching, per run
    search_metres: float = 0.0  # mean metres travelled searching, per run
    search_seen: float = 0.0  # mean assets seen while searching (arrivals included), per run


def planner_label(episode: Episode) -> str:
    """The planner's name with its planner options (not the execution's `@` keys)."""
    options = {k: v for k, v in episode.options.items() if not str(k).startswith("@")}
    inner = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{episode.planner}[{inner}]" if inner else episode.planner


def fault_rows(episodes: Iterable[Episode]) -> list[FaultRow]:
    """One row per (planner, fault spec, loop), from the Episodes that were executed."""
    groups: dict[tuple[str, str, str], list[Episode]] = defaultdict(list)
    for episode in episodes:
        record = episode.execute
        if record is None:
            continue
        loop = "closed" if record.closed_loop is not False else "open"
        faults = str(record.faults or "none")
        groups[(planner_label(episode), faults, loop)].append(episode)
    rows = []
    for (planner, faults, loop), group in sorted(groups.items(), key=_order):
        records = [e.execute for e in group if e.execute is not None]
        won = [e for e in group if e.status is Status.SUCCESS]
        extra = [
            e.execute.extra_steps
            for e in won
            if e.execute is not None and e.execute.extra_steps is not None
        ]
        rows.append(
            FaultRow(
                planner=planner,
                faults=faults,
                loop=loop,
                runs=len(group),
                success=len(won) / len(group),
                replans=statistics.fmean(e.replans for e in group),
                extra_steps=statistics.fmean(extra) if extra else None,
                failed_steps=statistics.fmean(r.failed_steps for r in records),
                injected=statistics.fmean(len(r.injected or []) for r in records),
                errors=sum(e.status is Status.ERROR for e in group),
                corrections=statistics.fmean(r.corrections for r in records),
                looks=statistics.fmean(r.looks for r in records),
                calls=statistics.fmean(r.skill_calls or len(r.calls) for r in records),
                search_calls=statistics.fmean(r.search_calls for r in records),
                search_metres=statistics.fmean(r.search_metres for r in records),
                search_seen=statistics.fmean(r.search_seen for r in records),
            )
        )
    return rows


def _order(item) -> tuple:
    (planner, faults, loop), _ = item
    return planner, faults != "none", faults, loop != "closed"


def render_faults(rows: list[FaultRow], title: str = "Execution under faults") -> str:
    """The rows as a Markdown table."""
    lines = [
        f"## {title}",
        "",
        "| planner | faults | loop | runs | success | replans/run | extra steps (successes) "
        "| failed steps/run | faults/run | corrections/run | looks/run | skill calls/run "
        "| search calls/run | search m/run | search seen/run |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        extra = "n/a" if r.extra_steps is None else f"{r.extra_steps:+.1f}"
        errors = f" ({r.errors} error(s))" if r.errors else ""
        lines.append(
            f"| {r.planner} | {r.faults} | {r.loop} | {r.runs}{errors} | {100 * r.success:.1f} % "
            f"| {r.replans:.2f} | {extra} | {r.failed_steps:.2f} | {r.injected:.2f} "
            f"| {r.corrections:.2f} | {r.looks:.1f} | {r.calls:.1f} "
            f"| {r.search_calls:.1f} | {r.search_metres:.1f} | {r.search_seen:.1f} |"
        )
    if not rows:
        lines.append("| (no executed runs) |" + " |" * 14)
    return "\n".join(lines) + "\n"


def single_kind(spec: str) -> tuple[str, float] | None:
    """('moved', 0.3) for a spec of one fault kind, ('', 0.0) for none, else None."""
    if spec in ("", "none"):
        return "", 0.0
    parts = spec.split(",")
    if len(parts) != 1:
        return None
    kind, _, rate = parts[0].partition(":")
    return (kind, float(rate)) if kind in KINDS else None


Curves = dict[str, dict[tuple[str, str], list[tuple[float, float]]]]


def fault_curves(rows: list[FaultRow]) -> Curves:
    """Per fault kind, per (planner, loop): (rate, success) points, the fault-free runs at 0."""
    curves: dict[str, dict[tuple[str, str], list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    free = [r for r in rows if single_kind(r.faults) == ("", 0.0)]
    for row in rows:
        found = single_kind(row.faults)
        if found is None or not found[0]:
            continue
        curves[found[0]][(row.planner, row.loop)].append((found[1], row.success))
    for kind in curves:
        for row in free:
            if (row.planner, row.loop) in curves[kind]:
                curves[kind][(row.planner, row.loop)].append((0.0, row.success))
    return {k: {line: sorted(points) for line, points in v.items()} for k, v in curves.items()}


def write_fault_plot(rows: list[FaultRow], path: str | Path) -> Path | None:
    """Success against fault rate, one panel per fault kind; None when no spec has one kind."""
    curves = fault_curves(rows)
    if not curves:
        return None
    from sceneplan.eval.plots import require_matplotlib  # the metrics: not for running plans

    require_matplotlib()
    from matplotlib.figure import Figure

    kinds = [k for k in KINDS if k in curves]
    figure = Figure(figsize=(3.6 * len(kinds), 3.4), layout="constrained")
    axes = figure.subplots(1, len(kinds), squeeze=False)[0]
    for ax, kind in zip(axes, kinds, strict=True):
        for (planner, loop), points in sorted(curves[kind].items()):
            xs, ys = zip(*points, strict=True)
            style = "-" if loop == "closed" else "--"
            ax.plot(xs, [100 * y for y in ys], style, marker="o", label=f"{planner} ({loop})")
        ax.set_title(f"{kind} faults")
        ax.set_xlabel("fault probability")
        ax.set_ylim(0, 102)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("goal reached (%)")
    axes[-1].legend(fontsize="small", loc="lower left")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path


# -- running under faults (`sceneplan eval --robot`) -------------------------------------

PREFIX = "@"  # execution settings ride in a run's options under keys with this prefix


@dataclass(frozen=True)
class Execution:
    """Each plan of an eval also runs on a robot (`sceneplan eval --robot sim --faults ...`).

    Its settings join the planner's options in the store's key (`@robot`,
    `@faults`, `@seed`, `@loop`; `@search` when not the default), so runs under
    faults are stored beside the planner's fault-free runs, not instead of
    them. Run r of a task uses seed `seed + r - 1`: `--runs 5` is five seeds.
    """

    robot: str = "sim"
    faults: str = "none"
    seed: int = 0
    closed_loop: bool = True
    search: str = DEFAULT_SETTINGS.search  # how to search (search.ORDERS)

    def __post_init__(self) -> None:
        check_robot(self.robot)  # before any run: a bad robot would fail every one
        check_search(self.search)
        object.__setattr__(self, "faults", str(Faults.parse(self.faults)))
        if self.faults != "none" and self.robot != "sim":
            raise BadInputError("--faults is for the simulated robot (--robot sim) only")

    def keys(self) -> dict[str, Any]:
        return {
            f"{PREFIX}robot": self.robot,
            f"{PREFIX}faults": self.faults,
            f"{PREFIX}seed": self.seed,
            f"{PREFIX}loop": "closed" if self.closed_loop else "open",
        } | ({f"{PREFIX}search": self.search} if self.search != DEFAULT_SETTINGS.search else {})

    def key_of(self, options: str) -> str:
        """A planner's options key (`store.options_key`) with this execution's keys added."""
        return options_key({**json.loads(options), **self.keys()})

    @classmethod
    def pop(cls, options: dict[str, Any]) -> Execution | None:
        """Take the execution's keys out of a run's options; None when there are none."""
        found = {k[len(PREFIX) :]: options.pop(k) for k in list(options) if k.startswith(PREFIX)}
        if not found:
            return None
        return cls(
            robot=found.get("robot", "sim"),
            faults=found.get("faults", "none"),
            seed=int(found.get("seed", 0)),
            closed_loop=found.get("loop", "closed") == "closed",
            search=found.get("search", DEFAULT_SETTINGS.search),
        )


async def plan_and_execute(
    planner: Planner, setup: Setup, llm: Any, execution: Execution, run: int
) -> Episode:
    """Plan on what the robot remembers (`execute.run.plan_on_memory`), then execute the
    plan on the robot in the true world (run `run`'s seed)."""
    seed = execution.seed + run - 1
    robot = get_robot(
        execution.robot, setup.graph, execution.faults, seed, stream_of(setup), believed(setup)
    )
    episode = await plan_on_memory(planner, setup, llm)
    settings = ExecutionSettings(closed_loop=execution.closed_loop, search=execution.search)
    return await run_plan(episode, setup, robot, planner, llm, settings=settings)
