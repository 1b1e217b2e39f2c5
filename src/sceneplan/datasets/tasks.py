"""Task files: the instructions of a suite with their answers or goals.

A task file is a YAML list of tasks (see docs/tasks.md). The packaged suites
live in `datasets/tasks/*.yaml`; users can pass their own files anywhere a
suite name is accepted.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from sceneplan.errors import BadInputError


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
    """One instruction with what counts as solving it."""

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


def load_task_file(path: str | Path) -> list[Task]:
    """Read and validate a task file; every problem names the file, the task and the field."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInputError(f"cannot read task file {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise BadInputError(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(data, list):
        raise BadInputError(f"{path}: a task file is a YAML list of tasks")
    tasks, problems, seen = [], [], set()
    for index, raw in enumerate(data):
        label = f"task '{raw['id']}'" if isinstance(raw, dict) and "id" in raw else f"task #{index}"
        try:
            task = Task.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                field = ".".join(str(p) for p in err["loc"]) or "task"
                problems.append(f"{label}: field '{field}': {err['msg']}")
            continue
        if task.id in seen:
            problems.append(f"{label}: field 'id': duplicate task id")
        seen.add(task.id)
        tasks.append(task)
    if problems:
        raise BadInputError(
            f"{path}: {len(problems)} problem(s)\n" + "\n".join(f"  - {p}" for p in problems)
        )
    return tasks


@cache
def packaged_tasks() -> tuple[Task, ...]:
    """Every task shipped with sceneplan, in file order."""
    folder = resources.files("sceneplan.datasets") / "tasks"
    out: list[Task] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".yaml", ".yml")):
            with resources.as_file(entry) as path:
                out.extend(load_task_file(path))
    return tuple(out)


def list_suites() -> list[str]:
    """Names of the packaged suites."""
    return sorted({t.suite for t in packaged_tasks()})


def load_suite(name_or_path: str) -> list[Task]:
    """A packaged suite by name, or a user's task file by path."""
    tasks = [t for t in packaged_tasks() if t.suite == name_or_path]
    if tasks:
        return tasks
    if Path(name_or_path).is_file():
        return load_task_file(name_or_path)
    raise BadInputError(
        f"unknown suite '{name_or_path}': not a packaged suite ({', '.join(list_suites())}) "
        "nor a task file"
    )


def get_task(task_id: str) -> Task:
    """A packaged task by id."""
    for task in packaged_tasks():
        if task.id == task_id:
            return task
    raise BadInputError(f"unknown task '{task_id}'; `sceneplan tasks list SUITE` shows the ids")


def find_task(instruction: str, environment: str | None = None) -> Task | None:
    """The packaged task whose instruction is exactly this text, if any."""
    wanted = " ".join(instruction.split()).lower()
    for task in packaged_tasks():
        if environment and task.environment != environment:
            continue
        if " ".join(task.instruction.split()).lower() == wanted:
            return task
    return None
