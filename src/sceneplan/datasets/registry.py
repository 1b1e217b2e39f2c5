"""The packaged environments, found by name, and graph files given by path."""

from __future__ import annotations

import difflib
from importlib import resources
from pathlib import Path

from sceneplan.errors import BadInputError
from sceneplan.graph import SceneGraph, load

_FOLDER = resources.files("sceneplan.datasets") / "environments"


def list_environments() -> list[str]:
    """Names of the packaged environments, sorted.

    >>> "coffee" in list_environments()
    True
    """
    return sorted(
        p.name.removesuffix(".json") for p in _FOLDER.iterdir() if p.name.endswith(".json")
    )


def load_environment(name_or_path: str | Path) -> SceneGraph:
    """Load a packaged environment by name, or a graph file by path.

    A string that names no packaged environment is read as a path when it looks
    like one: the file exists, or it has a folder part or a `.json` suffix.
    """
    names = list_environments()
    if isinstance(name_or_path, str) and name_or_path in names:
        with resources.as_file(_FOLDER / f"{name_or_path}.json") as path:
            return load(path)
    path = Path(name_or_path)
    if isinstance(name_or_path, Path) or path.exists() or path.suffix or len(path.parts) > 1:
        return load(path)
    close = difflib.get_close_matches(name_or_path, names, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise BadInputError(
        f"unknown environment '{name_or_path}' ({hint}packaged: {', '.join(names)}; "
        "or give the path of a graph file)"
    )
