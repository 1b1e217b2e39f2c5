"""What every importer returns: a graph, its tasks, and a report of how the source mapped.

An importer is a function `import_(path, **options) -> Imported`. Whatever it
could not carry over it says so in the `ImportReport`, counted by reason:
*mapped* (taken as it was), *guessed* (derived by a rule the source does not
state, e.g. a room-floor asset for an object with only a room edge) and
*dropped* (left out, e.g. walls and ceilings).

>>> report = ImportReport("demo")
>>> report.mapped("room", 2); report.dropped("wall: not a place or a thing", 3)
>>> report.counts()
{'mapped': 2, 'guessed': 0, 'dropped': 3}
>>> print(report.text())
demo: 2 mapped, 0 guessed, 3 dropped
  mapped   2  room
  dropped  3  wall: not a place or a thing
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sceneplan.graph.model import SceneGraph
from sceneplan.world.task import Task

__all__ = ["ImportReport", "Imported"]

_OUTCOMES = ("mapped", "guessed", "dropped")


@dataclass
class ImportReport:
    """Counts of what an import mapped, guessed and dropped, each by reason."""

    source: str
    counts_by: dict[str, Counter[str]] = field(
        default_factory=lambda: {outcome: Counter() for outcome in _OUTCOMES}
    )
    notes: list[str] = field(default_factory=list)  # what the counts cannot say, one line each
    headline: list[str] = field(default_factory=list)  # what the first line must say

    def mapped(self, reason: str, n: int = 1) -> None:
        self.counts_by["mapped"][reason] += n

    def guessed(self, reason: str, n: int = 1) -> None:
        self.counts_by["guessed"][reason] += n

    def dropped(self, reason: str, n: int = 1) -> None:
        self.counts_by["dropped"][reason] += n

    def merge(self, other: ImportReport) -> None:
        """Add another report's counts to this one (a suite built from many sources)."""
        for outcome in _OUTCOMES:
            self.counts_by[outcome].update(other.counts_by[outcome])
        self.notes.extend(other.notes)
        self.headline.extend(other.headline)

    def counts(self) -> dict[str, int]:
        """The total per outcome."""
        return {outcome: sum(self.counts_by[outcome].values()) for outcome in _OUTCOMES}

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the source and, per outcome, the counts by reason (sorted)."""
        out: dict[str, Any] = {
            "source": self.source,
            **{o: dict(sorted(self.counts_by[o].items())) for o in _OUTCOMES},
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if self.headline:
            out["headline"] = list(self.headline)
        return out

    def text(self) -> str:
        """One line of totals, then one line per reason."""
        totals = self.counts()
        lines = [
            f"{self.source}: "
            + ", ".join(f"{totals[o]} {o}" for o in _OUTCOMES)
            + "".join(f"; {line}" for line in self.headline)
        ]
        width = max((len(str(n)) for c in self.counts_by.values() for n in c.values()), default=1)
        for outcome in _OUTCOMES:
            for reason, n in sorted(self.counts_by[outcome].items()):
                lines.append(f"  {outcome:<8} {n:>{width}}  {reason}")
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


@dataclass
class Imported:
    """One import's result: the scene graph, the tasks set in it (maybe none), the report.

    `reference_plans` maps a task id to the source's own plan when it could
    not be carried into the task (kept for reports, never executed).
    """

    graph: SceneGraph
    report: ImportReport
    tasks: list[Task] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
