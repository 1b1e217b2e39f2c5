"""The browser viewer: one self-contained HTML page of a scene graph and, optionally, a run.

It shows the building as floors and rooms (by the graph's positions, or a
hierarchical layout), node details, the search turn by turn, the plan step by
step through the simulator, and for partially observing runs what memory knew
against the true world. `sceneplan view` is its command.

>>> from sceneplan.viewer import environment_page
>>> html = environment_page("coffee")
>>> html.startswith("<!DOCTYPE html>"), "https://" in html, "bobs_room" in html
(True, False, True)
"""

from __future__ import annotations

from pathlib import Path

from sceneplan.viewer.page import page_data, render_page
from sceneplan.viewer.sources import (
    Shown,
    from_environment,
    from_episode,
    from_store,
    read_episode,
)

__all__ = [
    "Shown",
    "environment_page",
    "episode_page",
    "from_environment",
    "from_episode",
    "from_store",
    "page_data",
    "read_episode",
    "render_page",
    "store_page",
]


def environment_page(name_or_file: str) -> str:
    """The page of a packaged environment or a scene-graph file."""
    return render_page(from_environment(name_or_file))


def episode_page(path: str | Path, env: str | None = None) -> str:
    """The page of a trace file (`sceneplan plan --trace FILE`), on the graph it started in."""
    return render_page(from_episode(read_episode(Path(path)), env))


def store_page(
    path: str | Path, task: str, planner: str, model: str | None = None, run: int | None = None
) -> str:
    """The page of a stored run of `task` by `planner` in a results store."""
    episode, note = from_store(path, task, planner, model, run)
    return render_page(from_episode(episode, note=note))
