"""A task: one instruction in an environment, with what counts as solving it.

Pure data (pydantic): reading task files and finding the packaged suites is
`sceneplan.datasets.tasks`'s job; here is only what a task is, so that the
planners and the world can use it without knowing where tasks come from.
See docs/tasks.md for the fields.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator


class Family(StrEnum):
    """The four task families of SayPlan App. C."""

    SIMPLE_SEARCH = "simple_search"
    COMPLEX_SEARCH = "complex_search"
    SIMPLE_PLANNING = "simple_planning"
    LONG_HORIZON = "long_horizon"

    @property
    def is_search(self) -> bool:
        return self in (Family.SIMPLE_SEARCH, Family.COMPLEX_SEARCH)


class Task(BaseModel):
    """One instruction with what counts as solving it.

    >>> task = Task(id="t1", suite="mine", family="simple_search", environment="coffee",
    ...             instruction="Find the mug.", answer="coffee_mug")
    >>> task.is_search, sorted(task.answers)
    (True, ['coffee_mug'])
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    suite: str
    family: Family
    environment: str
    instruction: str
    source: str = ""
    note: str = ""
    answer: list[str] | Literal["none"] | None = None
    answer_count: int | None = None
    answer_rooms: list[str] = []
    goal: str | None = None
    reference_plan: list[str] = []
    initial: list[str] = []

    @field_validator("answer", mode="before")
    @classmethod
    def _answer_shape(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) and value != "none" else value

    @model_validator(mode="after")
    def _answer_or_goal(self) -> Task:
        if self.family.is_search and self.answer is None:
            raise ValueError("a search task needs 'answer' (a list of node ids, or none)")
        if not self.family.is_search and self.goal is None:
            raise ValueError("a planning task needs 'goal' (a goal formula)")
        return self

    @property
    def is_search(self) -> bool:
        return self.family.is_search

    @property
    def answers(self) -> frozenset[str]:
        """The acceptable answer nodes (empty when no answer exists)."""
        return frozenset(self.answer) if isinstance(self.answer, list) else frozenset()

    @property
    def has_no_answer(self) -> bool:
        return self.answer == "none"
