"""Environments by name: the packaged ones, then those plugins add; and graph files by path.

Suites with one world per task (BEHAVIOR, VirtualHome) ship as *bundles*,
`datasets/bundles/*.json`: one file holding many graphs by name, each whole
or as changes to the bundle's base graph (`load_bundle_member`). Their
names (`behavior-assembling_gift_baskets`, `virtualhome-27_2`) load like any
other environment's but are not listed by `list_environments`. The bundles'
`index.json` (`build_bundle_index`, written by `scripts/build_task_index.py`)
says where each member is in its file, so loading one decodes only that member
and the bundle's base; an index that does not match the files is not used.

A package adds an environment through the `sceneplan.environments`
entry-point group: the entry point names a callable that takes no arguments
and returns a `SceneGraph` (docs/extending.md). A packaged name always wins
over a plugin of the same name, and a name over a file of that name.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sceneplan.datasets.packaged_index import INDEX_FILE, read_index
from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph import SceneGraph, load
from sceneplan.graph.io import from_dict
from sceneplan.plugins import GROUPS, Registry, unknown_name

_FOLDER = resources.files("sceneplan.datasets") / "environments"
_BUNDLES = resources.files("sceneplan.datasets") / "bundles"
BUNDLE_FORMAT = "sceneplan-graph-bundle"
GROUP = GROUPS["environments"]
# Plugins only: the packaged environments are graph files (`_FOLDER`, `_BUNDLES`).
ENVIRONMENTS: Registry[Any] = Registry("environment", GROUP, {})


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
    return [*packaged, *(n for n in ENVIRONMENTS.plugins() if n not in packaged)]


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
    if isinstance(name_or_path, str) and name_or_path in ENVIRONMENTS:
        return _from_plugin(name_or_path)
    path = Path(name_or_path)
    try:
        exists = path.exists()
    except OSError:  # e.g. a name too long to be a file name
        exists = False
    if isinstance(name_or_path, Path) or exists or path.suffix or len(path.parts) > 1:
        return load(path)
    bundled = ", ".join(f"{b}-* ({n})" for b, n in _bundle_sizes().items())
    raise unknown_name(
        "environment",
        name_or_path,
        list_environments(),
        (f"; bundled: {bundled}" if bundled else "") + "; or give the path of a graph file",
        unlisted=_bundle_index(),
    )


def bundled_environments() -> list[str]:
    """Names of the environments shipped in bundles (one per task of a suite), sorted."""
    return sorted(_bundle_index())


def _bundle_files() -> list[str]:
    if not _BUNDLES.is_dir():
        return []
    return sorted(
        e.name for e in _BUNDLES.iterdir() if e.name.endswith(".json") and e.name != INDEX_FILE
    )


@cache
def _bundle_index() -> dict[str, str]:
    """Member name -> the bundle file it is in (from `index.json` when it is current)."""
    spans = bundle_spans()
    if spans is not None:
        return {name: entry["file"] for entry in spans for name in entry["members"]}
    return {name: file for file in _bundle_files() for name in _read_bundle(file)["graphs"]}


INDEX_FORMAT = "sceneplan-bundle-index"


def build_bundle_index() -> dict[str, Any]:
    """What the bundles' `index.json` holds: per bundle file, its size in bytes and the
    [byte offset, length] of its description, its base and each member, so that loading
    one member decodes only those (`load_bundle_member`)."""
    bundles = []
    for file in _bundle_files():
        data = (_BUNDLES / file).read_bytes()
        _read_bundle(file)  # (a bundle, or BadInputError)
        top = json_spans(data)
        graphs = top["graphs"]
        members = json_spans(data[graphs[0] : graphs[0] + graphs[1]])
        entry: dict[str, Any] = {"file": file, "bytes": len(data)}
        for key in ("description", "base"):
            if key in top:
                entry[key] = top[key]
        entry["members"] = {n: [graphs[0] + o, size] for n, (o, size) in members.items()}
        bundles.append(entry)
    return {"format": INDEX_FORMAT, "version": 1, "bundles": bundles}


def json_spans(data: bytes) -> dict[str, list[int]]:
    """Key -> [byte offset, length] of each value of the JSON object `data` (its text,
    UTF-8: bytes over 127 only occur inside strings, so Latin-1 keeps the offsets)."""
    text = data.decode("latin-1")
    decoder = json.JSONDecoder()
    out: dict[str, list[int]] = {}

    def skip(i: int) -> int:
        while text[i] in " \t\r\n":
            i += 1
        return i

    i = skip(0)
    if text[i] != "{":
        raise BadInputError("a bundle is a JSON object")
    i = skip(i + 1)
    while text[i] != "}":
        key, i = decoder.raw_decode(text, i)
        i = skip(skip(i) + 1)  # past the colon
        _, end = decoder.raw_decode(text, i)
        out[key.encode("latin-1").decode("utf-8")] = [i, end - i]
        i = skip(end)
        if text[i] == ",":
            i = skip(i + 1)
    return out


@cache
def bundle_spans() -> list[dict[str, Any]] | None:
    """The shipped bundle index's entries, or None when it does not describe the bundle
    files as they are (then lookups decode every bundle)."""
    return read_index(_BUNDLES, INDEX_FORMAT, "bundles", _bundle_files())


def _indexed_member(name: str) -> dict[str, Any] | None:
    """The parts of a bundle one member needs, decoded from the index's spans only."""
    for entry in bundle_spans() or ():
        if name in entry["members"]:
            with (_BUNDLES / entry["file"]).open("rb") as file:
                data = file.read()
            parts = {k: entry[k] for k in ("description", "base") if k in entry}
            out: dict[str, Any] = {k: json.loads(data[o : o + n]) for k, (o, n) in parts.items()}
            offset, size = entry["members"][name]
            out["graphs"] = {name: json.loads(data[offset : offset + size])}
            return out
    return None


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
    bundle = _indexed_member(name) or _read_bundle(file)
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
    graph = ENVIRONMENTS.call(name)
    if not isinstance(graph, SceneGraph):
        raise BackendUnavailableError(
            f"the {GROUP} entry point '{name}' returned {type(graph).__name__}, not a "
            "SceneGraph (see docs/extending.md)"
        )
    return graph
