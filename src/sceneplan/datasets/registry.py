"""Environments by name: the packaged ones, then those plugins add; and graph files by path.

A package adds an environment through the `sceneplan.environments`
entry-point group: the entry point names a callable that takes no arguments
and returns a `SceneGraph` (docs/extending.md). A packaged name always wins
over a plugin of the same name, and a name over a file of that name.
"""

from __future__ import annotations

import difflib
from importlib import resources
from pathlib import Path

from sceneplan.errors import BackendUnavailableError, BadInputError, SceneplanError
from sceneplan.graph import SceneGraph, load
from sceneplan.plugins import GROUPS, find_plugin, load_plugin, plugin_names

_FOLDER = resources.files("sceneplan.datasets") / "environments"
GROUP = GROUPS["environments"]


def packaged_environments() -> list[str]:
    """Names of the environments shipped with sceneplan, sorted."""
    return sorted(
        p.name.removesuffix(".json") for p in _FOLDER.iterdir() if p.name.endswith(".json")
    )


def list_environments() -> list[str]:
    """Names of the packaged environments, then those of plugins, each sorted.

    >>> "coffee" in list_environments()
    True
    """
    packaged = packaged_environments()
    return [*packaged, *(n for n in plugin_names(GROUP) if n not in packaged)]


def load_environment(name_or_path: str | Path) -> SceneGraph:
    """Load an environment by name (packaged, then plugins), or a graph file by path.

    A string that names no environment is read as a path when it looks like
    one: the file exists, or it has a folder part or a `.json` suffix.
    """
    packaged = packaged_environments()
    if isinstance(name_or_path, str) and name_or_path in packaged:
        with resources.as_file(_FOLDER / f"{name_or_path}.json") as path:
            return load(path)
    if isinstance(name_or_path, str) and find_plugin(GROUP, name_or_path) is not None:
        return _from_plugin(name_or_path)
    path = Path(name_or_path)
    try:
        exists = path.exists()
    except OSError:  # e.g. a name too long to be a file name
        exists = False
    if isinstance(name_or_path, Path) or exists or path.suffix or len(path.parts) > 1:
        return load(path)
    names = list_environments()
    close = difflib.get_close_matches(name_or_path, names, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    shown = name_or_path if len(name_or_path) <= 80 else name_or_path[:77] + "..."
    raise BadInputError(
        f"unknown environment '{shown}' ({hint}known: {', '.join(names)}; "
        "or give the path of a graph file)"
    )


def _from_plugin(name: str) -> SceneGraph:
    """Call the plugin's factory; anything but a SceneGraph back is the plugin's fault, said so."""
    factory = load_plugin(GROUP, name)
    where = f"the {GROUP} entry point '{name}'"
    if not callable(factory):
        raise BackendUnavailableError(f"{where} is {factory!r}, not a function returning a graph")
    try:
        graph = factory()
    except SceneplanError:
        raise  # already a clear message (a bad graph file names the file and the node)
    except Exception as exc:  # third-party code can fail in any way
        raise BackendUnavailableError(
            f"{where} failed: {type(exc).__name__}: {exc}; fix or reinstall its package"
        ) from None
    if not isinstance(graph, SceneGraph):
        raise BackendUnavailableError(
            f"{where} returned {type(graph).__name__}, not a SceneGraph (see docs/extending.md)"
        )
    return graph
