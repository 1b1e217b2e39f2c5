"""A task: one instruction in an environment, with what counts as solving it.

Pure data (pydantic): reading task files and finding the packaged suites is
`sceneplan.datasets.tasks`'s job; here is only what a task is, so that the
planners and the world can use it without knowing where tasks come from.
See docs/tasks.md for the fields.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

AnswerKind = Literal["room", "asset", "object"]

# What the robot knows at the start when it observes the world only partially
# (docs/lookplangraph.md): the static scene, or everything as it was last mapped.
Memory = Literal["static", "prior"]


class Family(StrEnum):
    """The four task families of SayPlan App. C."""

    SIMPLE_SEARCH = "simple_search"
    COMPLEX_SEARCH = "complex_search"
    SIMPLE_PLANNING = "simple_planning"
    LONG_HORIZON = "long_horizon"

    @property
    def is_search(self) -> bool:
        """Whether tasks of the family ask to find a node (simple or complex search)."""
        return self in (Family.SIMPLE_SEARCH, Family.COMPLEX_SEARCH)


class Task(BaseModel):
    """One instruction with what counts as solving it.

    A search task names its acceptable answer nodes and what kind of node
    they are (`answer_kind`); `answer: none` means nothing answers it, and then
    `must_explore` lists the rooms a search has to expand before "nothing"
    counts as an answer.

    `world_script` lists facts (as `initial`) that became true after the
    robot last mapped the building: objects moved while it was away. Under
    partial observability its memory starts from the world before them:
    the static part of it (`memory: static`, LookPlanGraph) or all of it
    (`memory: prior`, a stale map).

    >>> task = Task(id="t1", suite="mine", family="simple_search", environment="coffee",
    ...             instruction="Find the mug.", answer="coffee_mug", answer_kind="object")
    >>> task.is_search, sorted(task.answers), task.needed
    (True, ['coffee_mug'], 1)
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
    answer_kind: AnswerKind | None = None
    answer_count: int | None = Field(None, ge=1)
    answer_rooms: list[str] = []
    must_explore: list[str] = []
    goal: str | None = None
    reference_plan: list[str] = []
    initial: list[str] = []
    world_script: list[str] = []
    memory: Memory = "static"

    @field_validator("answer", mode="before")
    @classmethod
    def _answer_shape(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) and value != "none" else value

    @model_validator(mode="after")
    def _answer_or_goal(self) -> Task:
        if not self.family.is_search:
            if self.goal is None:
                raise ValueError("a planning task needs 'goal' (a goal formula)")
            search_only = ("answer", "answer_kind", "answer_count", "answer_rooms", "must_explore")
            given = [name for name in search_only if name in self.model_fields_set]
            if given:
                raise ValueError(f"a planning task has no {', '.join(given)} (search fields)")
            return self
        if self.answer is None:
            raise ValueError("a search task needs 'answer' (a list of node ids, or none)")
        if self.answer_kind is None:
            raise ValueError(
                "a search task needs 'answer_kind': room, asset or object, the kind of node "
                "the instruction asks for"
            )
        if self.answer == "none":
            if self.answer_count is not None or self.answer_rooms:
                raise ValueError(
                    "a task whose answer is none has no answer_count or answer_rooms; "
                    "list the rooms a search must expand in 'must_explore'"
                )
            if not self.must_explore:
                raise ValueError(
                    "a task whose answer is none needs 'must_explore': the rooms a search must "
                    "have expanded before answering that nothing matches"
                )
        elif self.needed > len(self.answers):
            raise ValueError(
                f"answer_count is {self.needed}, but 'answer' lists only "
                f"{len(self.answers)} distinct node(s)"
            )
        return self

    @property
    def is_search(self) -> bool:
        """Whether the task asks to find a node (its family is a search)."""
        return self.family.is_search

    @property
    def answers(self) -> frozenset[str]:
        """The acceptable answer nodes (empty when no answer exists)."""
        return frozenset(self.answer) if isinstance(self.answer, list) else frozenset()

    @property
    def has_no_answer(self) -> bool:
        """Whether the task's answer is that no node fits (`answer: none`)."""
        return self.answer == "none"

    @property
    def needed(self) -> int:
        """How many distinct acceptable nodes a full answer names (`answer_count`, else 1)."""
        return self.answer_count or 1
