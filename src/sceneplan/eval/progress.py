"""A rich progress bar for `sceneplan eval`: done, failed, remaining, tokens and cost so far.

Episodes that end in an error are also printed, one line each, as they come; the
(planner, suite) pairs left out as unsupported, one line each, when the bar starts.
"""

from __future__ import annotations

from typing import Self

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from sceneplan.eval.runner import Totals
from sceneplan.planners.episode import Episode, Status
from sceneplan.planners.options import planner_label


class ProgressBar:
    """A `Reporter` that draws one bar from its first update; use it as a context manager."""

    def __init__(self, console: Console | None = None) -> None:
        self._progress = Progress(
            TextColumn("[bold]eval[/]"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            # the words of the summary `sceneplan eval` prints at the end
            TextColumn(
                "[red]{task.fields[failed]} failed · {task.fields[errors]} error(s)[/] · "
                "{task.fields[left]} left"
            ),
            TextColumn("{task.fields[tokens]:,} tokens · {task.fields[cost]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._bar = self._progress.add_task(
            "eval", total=None, failed=0, errors=0, left=0, tokens=0, cost="$0.0000"
        )

    def update(self, totals: Totals, episode: Episode | None) -> None:
        if not self._progress.live.is_started:  # shown once the run has checked its inputs
            self._progress.start()
            for line in totals.unsupported:  # once per (planner, suite), before any run
                self._progress.console.print(Text(line))
            if totals.changed:
                self._progress.console.print(
                    Text(
                        f"{len(totals.changed)} task(s) changed since their runs were stored "
                        f"({', '.join(totals.changed)}): their runs are made again"
                    )
                )
        if episode is not None and episode.status is Status.ERROR:
            planner = planner_label(episode.planner, episode.options)
            self._progress.console.print(
                Text(f"error in {episode.task_id} ({planner}, {episode.model}): ")
                + Text(str(episode.error), style="red")
            )
        self._progress.update(
            self._bar,
            total=totals.total,
            completed=totals.skipped + totals.done,
            failed=totals.failed,
            errors=totals.errors,
            left=totals.remaining,
            tokens=totals.input_tokens + totals.output_tokens,
            # runs on a model without a price have no cost: unknown, not 0
            cost=f"${totals.cost_usd:.4f}" + (" + n/a" if totals.unpriced else ""),
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._progress.live.is_started:
            self._progress.stop()
