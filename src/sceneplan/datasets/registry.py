"""Environments by name: the packaged ones, then those plugins add; and graph files by path.

Suites with one world per task (BEHAVIOR, VirtualHome) ship as *bundles*,
`datasets/bundles/*.json`: one file holding many graphs by name, each whole
or as changes to the bundle's base graph (`load_bundle_member`). Their
names (`behavior-assembling_gift_baskets`, `virtualhome-27_2`) load like any
other environment's but are not listed by `list_environments`.

A package adds an environment through the `sceneplan.environments`
entry-point group: the entry point names a callable that takes no arguments
and returns a `SceneGraph` (docs/extending.md). A packaged name always wins
over a plugin of the same name, and a name over a file of that name.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError, SceneplanError
from sceneplan.graph import SceneGraph, load
from sceneplan.graph.io import from_dict
from sceneplan.plugins import GROUPS, find_plugin, load_plugin, plugin_names

_FOLDER = resources.files("sceneplan.datasets") / "environments"
_BUNDLES = resources.files("sceneplan.datasets") / "bundles"
BUNDLE_FORMAT = "sceneplan-graph-bundle"
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
    if isinstance(name_or_path, str) and not name_or_path.strip():
        raise BadInputError(
            "the environment is empty; give a packaged environment name "
            f"({', '.join(list_environments()[:3])}, ...) or a scene graph file"
        )
    packaged = packaged_environments()
    if isinstance(name_or_path, str) and name_or_path in packaged:
        with resources.as_file(_FOLDER / f"{name_or_path}.json") as path:
            return load(path)
    if isinstance(name_or_path, str) and name_or_path in _bundle_index():
        return load_bundle_member(name_or_path)
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
    if not hint:
        close = difflib.get_close_matches(name_or_path, list(_bundle_index()), n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
    bundled = ", ".join(f"{b}-* ({n})" for b, n in _bundle_sizes().items())
    raise BadInputError(
        f"unknown environment '{shown}' ({hint}known: {', '.join(names)}"
        + (f"; bundled: {bundled}" if bundled else "")
        + "; or give the path of a graph file)"
    )


def bundled_environments() -> list[str]:
    """Names of the environments shipped in bundles (one per task of a suite), sorted."""
    return sorted(_bundle_index())


@cache
def _bundle_index() -> dict[str, str]:
    """Member name -> the bundle file it is in."""
    index: dict[str, str] = {}
    if not _BUNDLES.is_dir():
        return index
    for entry in sorted(_BUNDLES.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            for name in _read_bundle(entry.name)["graphs"]:
                index[name] = entry.name
    return index


def _bundle_sizes() -> dict[str, int]:
    sizes: dict[str, int] = {}
    for file in _bundle_index().values():
        stem = file.removesuffix(".json")
        sizes[stem] = sizes.get(stem, 0) + 1
    return sizes


@cache
def _read_bundle(file: str) -> dict[str, Any]:
    data = json.loads((_BUNDLES / file).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
        raise BadInputError(f"bundle {file}: not a {BUNDLE_FORMAT} file")
    return data


def load_bundle_member(name: str) -> SceneGraph:
    """One graph of a bundle: the member's nodes, or the base with the member's changes.

    A member is `{"nodes": [...], "links": [...]}` (a whole graph), or, in a
    bundle with a `base`, `{"remove": [ids], "nodes": [...], "links": [...]}`:
    the base's nodes without the removed ones, each listed node replacing the
    base node of its id in place or, if new, appended; links likewise.
    """
    file = _bundle_index().get(name)
    if file is None:
        raise BadInputError(f"unknown bundled environment '{name}'")
    bundle = _read_bundle(file)
    return from_dict(member_graph(bundle, name), f"{file}:{name}")


def member_graph(bundle: dict[str, Any], name: str) -> dict[str, Any]:
    """The native-format dict of one member of a parsed bundle."""
    member = bundle["graphs"][name]
    base = bundle.get("base") or {"nodes": [], "links": []}
    removed = set(member.get("remove", ()))
    changed = {node["id"]: node for node in member.get("nodes", ())}
    nodes = [changed.pop(n["id"], n) for n in base["nodes"] if n["id"] not in removed]
    nodes += [n for n in member.get("nodes", ()) if n["id"] in changed]
    links = [link for link in base.get("links", ()) if removed.isdisjoint(link)]
    links += member.get("links", [])
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": name,
        "description": member.get("description", bundle.get("description", "")),
        "nodes": nodes,
        "links": links,
    }


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
