"""A task: one instruction in an environment, with what counts as solving it.

Pure data (a frozen dataclass that checks its fields when made): reading task
files and finding the packaged suites is `sceneplan.datasets.tasks`'s job;
here is only what a task is, so that the planners and the world can use it
without knowing where tasks come from. See docs/tasks.md for the fields.
A plain class rather than a pydantic model: every command that names a task
imports this module, and pydantic's import and model build cost more CPU
than the rest of `sceneplan solve --task` on a small task (benchmarks/startup.py
--floors).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any, Literal, get_args

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


class TaskError(ValueError):
    """A task's fields do not make a task: `problems` lists (field, what is wrong), with
    field `task` for a rule between fields."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"field '{name}': {why}" for name, why in problems))


@dataclass(frozen=True)
class Task:
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

    Made with bad fields it raises TaskError; a family and a single answer may
    be given as text (`family="simple_search"`, `answer="coffee_mug"`).

    >>> task = Task(id="t1", suite="mine", family="simple_search", environment="coffee",
    ...             instruction="Find the mug.", answer="coffee_mug", answer_kind="object")
    >>> task.is_search, sorted(task.answers), task.needed
    (True, ['coffee_mug'], 1)
    """

    id: str
    suite: str
    family: Family
    environment: str
    instruction: str
    source: str = ""
    note: str = ""
    answer: list[str] | Literal["none"] | None = None
    answer_kind: AnswerKind | None = None
    answer_count: int | None = None
    answer_rooms: list[str] = field(default_factory=list)
    must_explore: list[str] = field(default_factory=list)
    goal: str | None = None
    reference_plan: list[str] = field(default_factory=list)
    initial: list[str] = field(default_factory=list)
    world_script: list[str] = field(default_factory=list)
    memory: Memory = "static"

    def __post_init__(self) -> None:
        problems = self._field_problems()
        if not problems:
            rule = self._rule_broken()
            problems = [("task", rule)] if rule else []
        if problems:
            raise TaskError(problems)

    @classmethod
    def from_dict(cls, data: Any) -> Task:
        """The task a mapping of field names to values describes (a task file's item)."""
        if not isinstance(data, dict):
            raise TaskError([("task", f"a task is a mapping of fields, not {type(data).__name__}")])
        known = {f.name for f in fields(cls)}
        names = ", ".join(f.name for f in fields(cls))
        problems = [(str(k), f"no such field (a task has {names})") for k in data if k not in known]
        problems += [
            (f.name, "missing")
            for f in fields(cls)
            if f.name not in data and f.default is MISSING and f.default_factory is MISSING
        ]
        if problems:
            raise TaskError(problems)
        return cls(**data)

    def to_dict(self, defaults: bool = True) -> dict[str, Any]:
        """The fields as plain data (JSON's types), in their order; without `defaults`,
        only those that differ from their default (as task files write them)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if not defaults and value == (
                f.default if f.default_factory is MISSING else f.default_factory()
            ):
                continue
            out[f.name] = list(value) if isinstance(value, list) else value
        out["family"] = self.family.value
        return out

    def _field_problems(self) -> list[tuple[str, str]]:
        """Each field of the wrong type or out of range; the family and a single answer
        given as text become a Family and a list first."""
        problems = []
        for name in ("id", "suite", "environment", "instruction", "source", "note"):
            if not isinstance(getattr(self, name), str):
                problems.append((name, f"must be text, found {getattr(self, name)!r}"))
        if self.goal is not None and not isinstance(self.goal, str):
            problems.append(("goal", f"must be text (a goal formula), found {self.goal!r}"))
        try:
            object.__setattr__(self, "family", Family(self.family))
        except ValueError:
            choices = ", ".join(f.value for f in Family)
            problems.append(("family", f"must be one of {choices}, found {self.family!r}"))
        if isinstance(self.answer, str) and self.answer != "none":
            object.__setattr__(self, "answer", [self.answer])
        lists = ["answer_rooms", "must_explore", "reference_plan", "initial", "world_script"]
        if self.answer not in (None, "none"):
            lists.append("answer")
        for name in lists:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = list(value)
                object.__setattr__(self, name, value)
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append((name, f"must be a list of text, found {value!r}"))
        for name, kind in (("answer_kind", AnswerKind), ("memory", Memory)):
            value = getattr(self, name)
            if value not in get_args(kind) and not (name == "answer_kind" and value is None):
                choices = ", ".join(get_args(kind))
                problems.append((name, f"must be one of {choices}, found {value!r}"))
        count = self.answer_count
        if count is not None and (type(count) is not int or count < 1):
            problems.append(
                ("answer_count", f"must be a whole number of at least 1, found {count!r}")
            )
        return problems

    def _rule_broken(self) -> str | None:
        """The rule between fields the task breaks, in words (None: none)."""
        if not self.family.is_search:
            if self.goal is None:
                return "a planning task needs 'goal' (a goal formula)"
            given = [name for name in _SEARCH_ONLY if getattr(self, name) not in (None, [])]
            if given:
                return f"a planning task has no {', '.join(given)} (search fields)"
            return None
        if self.answer is None:
            return "a search task needs 'answer' (a list of node ids, or none)"
        if self.answer_kind is None:
            return (
                "a search task needs 'answer_kind': room, asset or object, the kind of node "
                "the instruction asks for"
            )
        if self.answer == "none":
            if self.answer_count is not None or self.answer_rooms:
                return (
                    "a task whose answer is none has no answer_count or answer_rooms; "
                    "list the rooms a search must expand in 'must_explore'"
                )
            if not self.must_explore:
                return (
                    "a task whose answer is none needs 'must_explore': the rooms a search must "
                    "have expanded before answering that nothing matches"
                )
        elif self.needed > len(self.answers):
            return (
                f"answer_count is {self.needed}, but 'answer' lists only "
                f"{len(self.answers)} distinct node(s)"
            )
        return None

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


_SEARCH_ONLY = ("answer", "answer_kind", "answer_count", "answer_rooms", "must_explore")
