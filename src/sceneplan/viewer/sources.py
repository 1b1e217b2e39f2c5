"""What the viewer shows, from where users have it: an environment, a trace file, a results store.

Each loader raises BadInputError with one message naming the file or value
and the fix; nothing here prints.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sceneplan.datasets.registry import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError, SceneplanError
from sceneplan.eval.store import Store
from sceneplan.graph.model import SceneGraph
from sceneplan.planners.episode import Episode
from sceneplan.runs import resolve
from sceneplan.textinput import read_json, shown

if TYPE_CHECKING:
    from pydantic import TypeAdapter


@dataclass
class Shown:
    """A graph, and the run on it when there is one (`prior`: the map before a world script)."""

    graph: SceneGraph
    episode: Episode | None = None
    prior: SceneGraph | None = None
    note: str = ""  # said to the user: which of several stored runs is shown


def from_environment(name_or_file: str) -> Shown:
    """A packaged environment by name, or a scene-graph file."""
    return Shown(load_environment(name_or_file))


def read_episode(path: Path) -> Episode:
    """An Episode from a trace file (`sceneplan plan --trace FILE`)."""
    return episode_from_dict(read_json(path, "the episode"), str(path))


def episode_from_dict(data: object, source: str) -> Episode:
    """Validate the shape of an Episode's dict; a wrong one names the field at fault."""
    hint = "expected the file `sceneplan plan --trace FILE` writes"
    if not isinstance(data, dict):
        raise BadInputError(
            f"{source}: not a sceneplan episode (the top level is not an object); {hint}"
        )
    missing = [k for k in ("planner", "model", "environment", "instruction") if k not in data]
    if missing:
        raise BadInputError(f"{source}: not a sceneplan episode (no {', '.join(missing)}); {hint}")
    problem = _shape_problem(data)
    if problem:
        raise BadInputError(f"{source}: a malformed sceneplan episode ({problem}); {hint}")
    try:
        episode = Episode.from_dict(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        detail = str(exc).split("\n")[0]
        raise BadInputError(f"{source}: a malformed sceneplan episode ({detail}); {hint}") from None
    for name in ("plan", "full_plan"):
        if not all(isinstance(a, str) for a in getattr(episode, name)):
            raise BadInputError(
                f"{source}: a malformed sceneplan episode ('{name}' must list strings)"
            )
    return episode


def _shape_problem(data: dict[str, Any]) -> str | None:
    """The first field of an Episode's dict that is not of the recorded type, in words.

    pydantic checks the dict against the Episode dataclass's annotations (it
    builds nothing: `Episode.from_dict` does), so a wrong field is named by its
    path (`steps[0].index`) instead of failing later in Python's words.
    """
    from pydantic import TypeAdapter, ValidationError

    try:
        _episode_adapter(TypeAdapter).validate_python(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
        found = f", found {shown(error['input'])}" if error["type"] != "missing" else ""
        message = error["msg"][:1].lower() + error["msg"][1:]
        return f"field '{path.lstrip('.')}': {message}{found}"
    return None


@functools.cache
def _episode_adapter(adapter_type: type[TypeAdapter[Any]]) -> TypeAdapter[Episode]:  # built once
    return adapter_type(Episode)


def from_episode(episode: Episode, env: str | None = None, note: str = "") -> Shown:
    """The run with the graph it started in: its task's (with the task's initial facts), else
    its environment's; `env` overrides the environment recorded in the episode."""
    task = None
    if episode.task_id and env is None:
        try:
            task = get_task(episode.task_id)
        except SceneplanError:
            task = None  # a task of the user's own suite: its environment is recorded
    try:
        setup = resolve(
            task if task is not None else episode.instruction, env or episode.environment
        )
    except SceneplanError as exc:
        raise BadInputError(
            f"cannot load the graph the run started in ('{env or episode.environment}'): {exc}; "
            "give it with --env NAME_OR_FILE"
        ) from None
    return Shown(setup.graph, episode, setup.prior, note)


def from_store(
    path: str | Path, task: str, planner: str, model: str | None = None, run: int | None = None
) -> tuple[Episode, str]:
    """The stored run of `task` by `planner` (and `model`, `run` when given).

    Several runs differing only by their number: the first is shown, and the
    note says so. Several models or option sets: an error listing them.
    """
    with Store(path, create=False) as store:  # a file or a postgresql:// URL
        records = store.records()
        path = store.location  # to print: a URL's password masked
    of_task = [r for r in records if r.episode.task_id == task]
    if not of_task:
        known = sorted({r.episode.task_id or "" for r in records})
        shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
        raise BadInputError(
            f"no run of task '{task}' in {path} (it holds {len(known)} task(s): {shown or 'none'})"
        )
    matches = [r for r in of_task if r.episode.planner == planner]
    if not matches:
        planners = ", ".join(sorted({r.episode.planner for r in of_task}))
        raise BadInputError(
            f"no run of task '{task}' by planner '{planner}' in {path} (by: {planners})"
        )
    if model is not None:
        matches = [r for r in matches if r.episode.model == model]
    if run is not None:
        matches = [r for r in matches if r.run == run]
    if not matches:
        raise BadInputError(
            f"no run of task '{task}' by '{planner}' with that --model/--run in {path}"
        )
    kinds = {(r.episode.model, json.dumps(r.episode.options, sort_keys=True)) for r in matches}
    if len(kinds) > 1:
        listed = "; ".join(f"{m} {o}" for m, o in sorted(kinds))
        raise BadInputError(
            f"{len(kinds)} models or option sets ran task '{task}' with '{planner}' ({listed}); "
            "pick one with --model"
        )
    matches.sort(key=lambda r: r.run)
    note = ""
    if len(matches) > 1:
        runs = ", ".join(str(r.run) for r in matches)
        note = f"showing run {matches[0].run} of runs {runs} (--run N)"
    return matches[0].episode, note
