"""What a planner can be given, declared as data on the planner and checked before it runs.

`Planner.supports` says which kinds of task it runs (search tasks, tasks
that change the world) and with which action vocabularies; `Planner.aplan`
refuses what it does not support before `_run`, and `eval` leaves such
(planner, task) pairs out before any run.

The vocabularies are `Vocabulary` objects, checked against the one
`Planner.vocabulary_for(graph)` resolves for the run. A planner's own
`vocabulary` and options decide that one, except for a planner declared with
`scene_actions`: in a scene with actions of its own (an ALFWorld room) the
scene decides, and `vocabularies` is where such a planner says which scenes'
actions it can plan with. None of the built-in planners needs to: each plans
with whatever the scene brings. Whether a planner needs an LLM is
`Planner.needs_llm`; observing fully or partially is an option
(`observing.PartialOptions`), which picks the planner's algorithm on memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from sceneplan.world.task import Task
from sceneplan.world.vocabulary import Vocabulary

TaskKind = Literal["planning", "search"]
KINDS: dict[TaskKind, str] = {
    "planning": "tasks that change the world",
    "search": "search tasks (find X)",
}

# An instruction without a task is a search task when it starts by asking to find something.
_FIND = re.compile(r"^\W*(please\s+)?((can|could) you\s+)?(find|locate|where)\b", re.IGNORECASE)


def kind_of(task: Task | None, instruction: str) -> TaskKind:
    """A search task: the task says so, or an instruction without one asks to find.

    >>> kind_of(None, "Find me a bottle of wine."), kind_of(None, "Refrigerate the orange.")
    ('search', 'planning')
    """
    if task is not None:
        return "search" if task.is_search else "planning"
    return "search" if _FIND.match(instruction) else "planning"


@dataclass(frozen=True, init=False)
class Supports:
    """The tasks a planner runs: their kinds, and the action vocabularies it plans with
    (None: any). A vocabulary declared brings its two-handed form (`Vocabulary.two_hands`),
    which `Planner.vocabulary_for` gives in a world whose agent has two hands."""

    tasks: frozenset[TaskKind] = frozenset(KINDS)
    vocabularies: frozenset[Vocabulary] | None = None

    def __init__(
        self,
        tasks: Iterable[TaskKind] = tuple(KINDS),
        vocabularies: Iterable[Vocabulary] | None = None,
    ) -> None:
        object.__setattr__(self, "tasks", frozenset(tasks))
        forms = None
        if vocabularies is not None:
            forms = frozenset(f for v in vocabularies for f in (v, v.two_hands) if f is not None)
        object.__setattr__(self, "vocabularies", forms)

    def refusal(self, planner: str, kind: TaskKind, vocabulary: Vocabulary | None) -> str | None:
        """Why planner `planner` cannot run a task of `kind` with `vocabulary` (None: not
        known yet, not checked); None when it can. The reason names no task: it holds for
        every task of the kind."""
        if kind not in self.tasks:
            does = " or ".join(KINDS[k] for k in sorted(self.tasks))
            return f"planner '{planner}' runs {does}, not {KINDS[kind]}"
        known = self.vocabularies
        if vocabulary is not None and known is not None and vocabulary not in known:
            forms = {v.two_hands for v in known}
            words = ", ".join(sorted(v.name for v in known if v not in forms))
            return f"planner '{planner}' plans with the {words} actions, not {vocabulary}'s"
        return None
