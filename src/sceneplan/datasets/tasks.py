"""Task files: the instructions of a suite with their answers or goals.

A task file is a YAML list of tasks (see docs/tasks.md). The packaged suites
live in `datasets/tasks/*.yaml`; users can pass their own files anywhere a
suite name is accepted. What a task is (`Task`, `Family`) lives in
`sceneplan.world.task`; both are re-exported here.

Finding a packaged task reads only the file that holds it, and a task by id only its
own lines: `datasets/tasks/index.json` names each file's suites, environments and task
ids, with where each task's lines are in the file (`task_index`; rebuilt by
`python scripts/build_task_index.py`, which every suite's build script runs too, and
compared by its `--check`). A file the index does not describe as it is (added, or
changed in size, since the index was written) makes lookups read every file, as
before the index, so a stale index costs time, never a wrong answer. YAML is read
with libyaml's C loader where PyYAML has it (about 10x faster, the same data).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sceneplan.datasets.packaged_index import read_index
from sceneplan.errors import BadInputError, SceneplanError
from sceneplan.textinput import parse_yaml, read_yaml
from sceneplan.world.task import Family, Task, TaskError

if TYPE_CHECKING:
    from sceneplan.graph.model import SceneGraph

__all__ = [
    "Family",
    "Task",
    "build_index",
    "check_task_file",
    "check_tasks",
    "find_task",
    "get_task",
    "graph_problems",
    "list_suites",
    "load_suite",
    "load_task_file",
    "packaged_tasks",
    "task_index",
    "task_problems",
]


def load_task_file(path: str | Path) -> list[Task]:
    """Read and validate a task file; every problem names the file, the task and the field."""
    path = Path(path)
    tasks, problems = _read_task_file(path)
    if problems:
        raise BadInputError(
            f"{path}: {len(problems)} problem(s)\n" + "\n".join(f"  - {p}" for p in problems)
        )
    return tasks


def check_task_file(path: str | Path) -> tuple[list[Task], list[str]]:
    """The valid tasks of a file and every problem of the file: fields, then their world.

    Unlike `load_task_file`, a task with a bad field does not hide the world
    problems (`task_problems`) of the others. A file that is not a YAML list
    of tasks raises BadInputError.
    """
    tasks, problems = _read_task_file(Path(path))
    graphs: dict[str, SceneGraph | str] = {}
    return tasks, problems + [p for task in tasks for p in task_problems(task, graphs)]


def _read_task_file(path: Path) -> tuple[list[Task], list[str]]:
    data = read_yaml(path, "task file")
    if not isinstance(data, list):
        raise BadInputError(f"{path}: a task file is a YAML list of tasks")
    tasks, problems, seen = [], [], set()
    for index, raw in enumerate(data):
        label = f"task '{raw['id']}'" if isinstance(raw, dict) and "id" in raw else f"task #{index}"
        try:
            task = Task.from_dict(raw)
        except TaskError as exc:
            problems += [f"{label}: field '{field}': {why}" for field, why in exc.problems]
            continue
        if task.id in seen:
            problems.append(f"{label}: field 'id': duplicate task id")
        seen.add(task.id)
        tasks.append(task)
    return tasks, problems


_FOLDER = resources.files("sceneplan.datasets") / "tasks"
INDEX_FORMAT = "sceneplan-task-index"


def _packaged_files() -> list[str]:
    """Names of the packaged task files, sorted."""
    return sorted(e.name for e in _FOLDER.iterdir() if e.name.endswith((".yaml", ".yml")))


@cache
def _packaged_file(name: str) -> tuple[Task, ...]:
    with resources.as_file(_FOLDER / name) as path:
        return tuple(load_task_file(path))


@cache
def packaged_tasks() -> tuple[Task, ...]:
    """Every task shipped with sceneplan, in file order."""
    return tuple(task for name in _packaged_files() for task in _packaged_file(name))


def build_index() -> dict[str, Any]:
    """The index of the packaged task files as they are now (what `index.json` holds):
    per file, its size in bytes, suites, environments and task ids, in file order, and
    the [byte offset, length] of each task's lines (`spans`, when `item_spans` finds
    them and each reads as the same task as the whole file does)."""
    files = []
    for name in _packaged_files():
        tasks = _packaged_file(name)
        data = (_FOLDER / name).read_bytes()
        entry: dict[str, Any] = {
            "file": name,
            "bytes": len(data),
            "suites": sorted({t.suite for t in tasks}),
            "environments": sorted({t.environment for t in tasks}),
            "ids": [t.id for t in tasks],
        }
        spans = item_spans(data)
        if len(spans) == len(tasks) and all(
            _task_at(data, span, name) == task for span, task in zip(spans, tasks, strict=True)
        ):
            entry["spans"] = spans
        files.append(entry)
    return {"format": INDEX_FORMAT, "version": 2, "files": files}


def item_spans(data: bytes) -> list[list[int]]:
    """[byte offset, length] of each item of a YAML list in block style (the lines from
    one `- ` at the start of a line to the next; comments between items go with the
    item before)."""
    starts = [m.start() for m in re.finditer(rb"(?m)^- ", data)]
    ends = [*starts[1:], len(data)]
    return [[start, end - start] for start, end in zip(starts, ends, strict=True)]


def _task_at(data: bytes, span: list[int], source: str) -> Task | None:
    """The task written at `span` of a task file's bytes; None if it is not one valid task."""
    start, length = span
    try:
        items = parse_yaml(data[start : start + length].decode("utf-8"), source)
        return Task.from_dict(items[0]) if isinstance(items, list) and items else None
    except (TaskError, yaml.YAMLError, SceneplanError):
        return None


def index_text(index: dict[str, Any]) -> str:
    """`index.json`'s text: JSON with one line per task file (diffs stay readable)."""
    head = {k: v for k, v in index.items() if k != "files"}
    lines = [json.dumps(entry, ensure_ascii=False) for entry in index["files"]]
    files = ",\n  ".join(lines)
    return json.dumps(head)[:-1] + f', "files": [\n  {files}\n]}}\n'


@cache
def task_index() -> list[dict[str, Any]] | None:
    """The shipped index's entries (see the module's docstring), or None when it does not
    describe the packaged files as they are: then lookups read every file."""
    return read_index(_FOLDER, INDEX_FORMAT, "files", _packaged_files())


def _tasks_where(key: str, value: str) -> list[Task]:
    """The packaged tasks of the files whose index entry lists `value` under `key` (every
    file's tasks when there is no usable index); callers filter further."""
    index = task_index()
    if index is None:
        return list(packaged_tasks())
    return [task for e in index if value in e[key] for task in _packaged_file(e["file"])]


def list_suites() -> list[str]:
    """Names of the packaged suites."""
    index = task_index()
    if index is None:
        return sorted({t.suite for t in packaged_tasks()})
    return sorted({suite for entry in index for suite in entry["suites"]})


def load_suite(name_or_path: str) -> list[Task]:
    """A packaged suite by name, or a user's task file by path."""
    tasks = [t for t in _tasks_where("suites", name_or_path) if t.suite == name_or_path]
    if tasks:
        return tasks
    if Path(name_or_path).is_file():
        return load_task_file(name_or_path)
    if name_or_path.endswith((".yaml", ".yml")) or "/" in name_or_path:
        raise BadInputError(
            f"no such task file: {name_or_path} (packaged suites: {', '.join(list_suites())})"
        )
    raise BadInputError(
        f"unknown suite '{name_or_path}': not a packaged suite ({', '.join(list_suites())}) "
        "nor a task file"
    )


def get_task(task_id: str) -> Task:
    """A packaged task by id: read from its own lines where the index has them."""
    for entry in task_index() or ():
        spans = entry.get("spans")
        if spans is not None and task_id in entry["ids"]:
            with (_FOLDER / entry["file"]).open("rb") as file:
                start, length = spans[entry["ids"].index(task_id)]
                file.seek(start)
                found = _task_at(file.read(length), [0, length], entry["file"])
            if found is not None and found.id == task_id:
                return found
    for task in _tasks_where("ids", task_id):
        if task.id == task_id:
            return task
    raise BadInputError(f"unknown task '{task_id}'; `sceneplan tasks list SUITE` shows the ids")


def find_task(instruction: str, environment: str | None = None) -> Task | None:
    """The packaged task whose instruction is exactly this text, if any.

    Derived suites repeat instructions (office-grasif and office-dynamic reuse
    office-planning's), so among several matches an instruction means the
    task in the world as mapped (no `world_script`) that the others derive
    from (whose id no other match's `source` names), in file order.
    """
    wanted = " ".join(instruction.split()).lower()
    candidates = _tasks_where("environments", environment) if environment else packaged_tasks()
    matches = [
        task
        for task in candidates
        if (not environment or task.environment == environment)
        and " ".join(task.instruction.split()).lower() == wanted
    ]

    def derived(task: Task) -> bool:
        return any(
            re.search(rf"\b{re.escape(other.id)}\b", task.source)
            for other in matches
            if other is not task
        )

    ranked = sorted(matches, key=lambda t: (bool(t.world_script), derived(t)))
    return ranked[0] if ranked else None


def graph_problems(task: Task, graph: SceneGraph) -> list[str]:
    """What a search task names that its graph does not hold, or not of the kind it says.

    Every answer node must exist and be of the task's `answer_kind`; every room
    of `answer_rooms` and `must_explore` must be a room. Each problem names the
    task and the field.
    """
    from sceneplan.graph.model import NodeKind  # finding and showing tasks needs no graph

    problems = []
    for node in sorted(task.answers):
        if node not in graph:
            problems.append(f"task '{task.id}': field 'answer': no node '{node}' in the graph")
        elif task.answer_kind and graph.nodes[node].kind.value != task.answer_kind:
            found = graph.nodes[node].kind.with_article
            problems.append(
                f"task '{task.id}': field 'answer': {node} is {found}, "
                f"but answer_kind is {task.answer_kind}"
            )
    for field, rooms in (("answer_rooms", task.answer_rooms), ("must_explore", task.must_explore)):
        for room in rooms:
            if room not in graph:
                problems.append(f"task '{task.id}': field '{field}': no room '{room}' in the graph")
            elif graph.nodes[room].kind is not NodeKind.ROOM:
                found = graph.nodes[room].kind.with_article
                problems.append(f"task '{task.id}': field '{field}': {room} is {found}, not a room")
    return problems


def task_problems(task: Task, graphs: dict[str, SceneGraph | str] | None = None) -> list[str]:
    """Everything wrong with a task in its world, each problem naming the task and the field.

    The environment must load; the goal must parse and name only what the
    graph has; `initial` facts must apply, then the `world_script` facts on
    top of them; reference plan steps must parse and
    name nodes of the graph; a search task's answers and rooms must be
    `graph_problems`-clean. `graphs` caches loaded environments (or their
    load error) across tasks.
    """
    from sceneplan.datasets.registry import load_environment
    from sceneplan.world.actions import parse_action
    from sceneplan.world.goals import parse_goal
    from sceneplan.world.setup import with_facts

    graphs = graphs if graphs is not None else {}
    label = f"task '{task.id}'"
    if task.environment not in graphs:
        try:
            graphs[task.environment] = load_environment(task.environment)
        except SceneplanError as exc:
            graphs[task.environment] = str(exc).splitlines()[0]
    graph = graphs[task.environment]
    if isinstance(graph, str):
        return [f"{label}: field 'environment': {graph}"]
    problems = graph_problems(task, graph) if task.is_search else []
    start = graph
    if task.initial:
        try:
            start = with_facts(graph, task.initial)
        except SceneplanError as exc:
            problems.append(f"{label}: field 'initial': {exc}")
    if task.world_script:
        try:
            start = with_facts(start, task.world_script)
        except SceneplanError as exc:
            problems.append(f"{label}: field 'world_script': {exc}")
    if task.goal is not None:
        try:
            parse_goal(task.goal, start)
        except SceneplanError as exc:
            problems.append(f"{label}: field 'goal': {exc}")
    for position, step in enumerate(task.reference_plan, start=1):
        try:
            action = parse_action(step)
        except SceneplanError as exc:
            problems.append(f"{label}: field 'reference_plan': step {position}: {exc}")
            continue
        for node in action.args:
            if node not in graph:
                hint = graph.suggest(node)
                problems.append(
                    f"{label}: field 'reference_plan': step {position} {step!r}: "
                    f"unknown node '{node}'" + (f" ({hint})" if hint else "")
                )
    return problems


def check_tasks(tasks: list[Task] | tuple[Task, ...]) -> None:
    """Refuse tasks with any problem in their world (`task_problems`): one BadInputError
    listing them all, before anything runs."""
    graphs: dict[str, SceneGraph | str] = {}
    problems = [p for task in tasks for p in task_problems(task, graphs)]
    if problems:
        raise BadInputError(
            f"{len(problems)} problem(s) in the tasks\n" + "\n".join(f"  - {p}" for p in problems)
        )
