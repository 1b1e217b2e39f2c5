"""Progress events a planner reports while it runs, for a live display.

Planners know nothing of the CLI: a planner is given an optional `on_event`
callback, its `Run` carries it to every loop, and each step reports a `PlanEvent`
with `run.emit(event)`; whoever listens decides how to show it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

EventKind = Literal["ask", "search", "answer", "plan", "verify"]


@dataclass(frozen=True)
class PlanEvent:
    """One step of a run.

    kinds: `ask` (a request to the model is about to go out), `search` (a
    search turn was applied or rejected), `answer` (search ended, with the
    answer of a search task), `plan` (the model wrote a plan), `verify` (the
    simulator judged it).
    """

    kind: EventKind
    stage: str  # "search" or "plan"
    step: int  # the search turn or plan round, from 1
    message: str
    ok: bool = True
    data: dict[str, Any] = field(default_factory=dict)


OnEvent = Callable[[PlanEvent], None]
