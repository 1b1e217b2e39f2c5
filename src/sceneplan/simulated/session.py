"""The run the stand-in model is answering for: its task, its world, and the errors injected.

A real model knows only its prompt; the stand-in also knows the task's formal goal and
the scene, as the oracle does. Whoever starts a run binds them (`simulating(task, graph)`,
as `eval` does for each job and `sceneplan plan` for its run); the binding follows the
run's asyncio task, so runs that go on at once each have their own. A run nobody bound
is looked up from the instruction in its prompt, as `sceneplan.runs.resolve` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sceneplan.graph.model import SceneGraph
from sceneplan.planners.episode import Episode
from sceneplan.simulated.knowledge import Knowledge
from sceneplan.world.primitives import ErrorType
from sceneplan.world.task import Task

_current: ContextVar[Session | None] = ContextVar("sceneplan_simulated_session", default=None)


@dataclass
class Session:
    """One run the stand-in answers for, and the errors it injected into its replies."""

    task: Task
    graph: SceneGraph  # the world at the start of the run
    injected: list[dict[str, Any]] = field(default_factory=list)
    _knowledge: Knowledge | None = None

    def knowledge(self) -> Knowledge:
        """What the stand-in knows of this run (made once, its plans kept)."""
        if self._knowledge is None:
            self._knowledge = Knowledge(self.task, self.graph)
        return self._knowledge

    def note(self, reply: str, kind: str, detail: str, error_type: ErrorType | None) -> None:
        """Record an injected error: the reply's schema, the kind, what was changed, and the
        metrics' error type it counts as (None: none of Table 3's)."""
        self.injected.append(
            {
                "reply": reply,
                "kind": kind,
                "error_type": error_type.value if error_type else None,
                "detail": detail,
            }
        )


def current() -> Session | None:
    """The session bound to the run in progress, if any."""
    return _current.get()


@contextmanager
def simulating(task: Task | None, graph: SceneGraph) -> Iterator[Session | None]:
    """Bind `task` and its start `graph` to the run started inside; yields the session whose
    `injected` the run's episode records (None, binding nothing, for a bare instruction)."""
    if task is None:
        yield None
        return
    session = Session(task, graph)
    token = _current.set(session)
    try:
        yield session
    finally:
        _current.reset(token)


def record(session: Session | None, episode: Episode) -> None:
    """Write the errors a session injected into `episode.simulated_errors`."""
    if session is not None:
        episode.simulated_errors = list(session.injected)
