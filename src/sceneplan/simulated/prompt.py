"""What the stand-in reads in a request, and the reply it drafts with the errors it could make.

A request is recognised by its reply schema (the planners' `replies` and
`react_replies` models, by title) and read like a model reads it: the instruction, the
graph, the memory of a search, the robot line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from sceneplan.planners.dialogue import render
from sceneplan.simulated.profiles import Kind
from sceneplan.world.vocabularies import SAYPLAN, VOCABULARIES
from sceneplan.world.vocabulary import Vocabulary

_FIELD = re.compile(
    r"^(Instruction|3D scene graph|Scene graph now|Scene graph|Memory graph|Memory|Robot"
    r"|Feedback|Observation|Collapsed scene graph): (.*)$",
    re.MULTILINE,
)
_LISTED = re.compile(r"^- ([a-z_]+)\(", re.MULTILINE)
THOUGHT = "The scene shows what is needed; this is the next step towards the goal."


@dataclass
class Prompt:
    """What the stand-in reads in a request: the reply asked for, the system prompt and the
    labelled fields of the latest turn that carries the instruction."""

    schema: str
    system: str
    fields: dict[str, str]

    @classmethod
    def read(cls, messages: Sequence[tuple[str, str]], schema: str) -> Prompt:
        system = next((text for role, text in messages if role == "system"), "")
        turn = next(
            (
                text
                for role, text in reversed(messages)
                if role == "user" and "Instruction:" in text
            ),
            "",
        )
        return cls(schema, system, {m.group(1): m.group(2) for m in _FIELD.finditer(turn)})

    @property
    def instruction(self) -> str:
        return self.fields.get("Instruction", "").strip()

    def vocabulary(self) -> Vocabulary:
        """The vocabulary whose actions the system prompt lists (the fewest unknown names,
        then the most known ones, then the smallest vocabulary)."""
        listed = set(_LISTED.findall(self.system))

        def score(vocabulary: Vocabulary) -> tuple[int, int, int]:
            actions = set(vocabulary.actions)
            return (len(listed - actions), -len(listed & actions), len(actions))

        return min(VOCABULARIES.values(), key=score) if listed else SAYPLAN

    def writes_poses(self) -> bool:
        """Whether the model is told to move pose by pose (no path planner)."""
        return any(render(t) in self.system for t in ("sayplan_nav_poses.md", "react_nav_poses.md"))


@dataclass
class Draft:
    """A correct reply, and the errors that could be made in it: kind -> a function that
    makes that error in `data` and says what it changed."""

    data: dict[str, Any]
    errors: dict[Kind, Callable[[Random], str]] = field(default_factory=dict)
    persisting: Callable[[Random], str] | None = None  # an error the model keeps making
