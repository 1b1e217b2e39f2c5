"""Spark-DSG (Hydra) scene graphs, from their JSON files, as scene graphs.

Reads the JSON that `spark_dsg.DynamicSceneGraph.save(path)` writes (no
`spark_dsg` package needed): a `SPARK_DSG_header` with the version, layers
named in `layer_names`, nodes with a 64-bit symbol id, a layer and
attributes, and undirected edges. Version 1.x files are read.

- BUILDINGS -> the building; ROOMS -> rooms (named by their `name`, else
  `room<N>`); PLACES -> poses, linked to each other and to their room;
- OBJECTS -> assets of the room of the place they hang from (Hydra does not
  say what can be moved: guessed fixed, with `release`); an agent node ->
  the agent, in the room of its place (else the first room).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import from_dict, native_node
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.textinput import parse_json

__all__ = ["SUPPORTED_MAJOR", "import_"]

SUPPORTED_MAJOR = 1


def _symbol(node_id: int) -> tuple[str, int]:
    return chr(node_id >> 56), node_id & ((1 << 56) - 1)


def _name(text: str) -> str:
    return re.sub(r"[^a-z0-9_]+", "_", text.lower()).strip("_")


def import_(path: str | Path, *, name: str | None = None) -> Imported:
    """A Spark-DSG JSON file as a scene graph."""
    path = Path(path)
    try:
        data = parse_json(path.read_text(encoding="utf-8"), str(path))
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadInputError(
            f"{path}: not a Spark-DSG JSON file (binary .sparkdsg files: load them with "
            "spark_dsg and save as .json)"
        ) from None
    header = data.get("SPARK_DSG_header") if isinstance(data, dict) else None
    if not isinstance(header, dict) or not isinstance(data.get("nodes"), list):
        raise BadInputError(f"{path}: not a Spark-DSG file (no SPARK_DSG_header)")
    version = header.get("version", {})
    text = ".".join(str(version.get(k, "?")) for k in ("major", "minor", "patch"))
    if version.get("major") != SUPPORTED_MAJOR:
        raise BadInputError(
            f"{path}: Spark-DSG file version {text}; this importer reads version "
            f"{SUPPORTED_MAJOR}.x (re-save it with spark-dsg {SUPPORTED_MAJOR}.x)"
        )
    layers = {
        k: (v["layer"], v.get("partition", 0)) for k, v in data.get("layer_names", {}).items()
    }
    report = ImportReport("spark-dsg")
    by_id: dict[int, dict[str, Any]] = {n["id"]: n for n in data["nodes"]}
    neighbours: dict[int, set[int]] = defaultdict(set)
    for edge in data.get("edges", ()):
        for end in ("source", "target"):
            if edge.get(end) not in by_id:
                raise BadInputError(
                    f"{path}: edge {edge.get('source')}-{edge.get('target')} names node "
                    f"{edge.get(end)}, which the file does not have"
                )
        neighbours[edge["source"]].add(edge["target"])
        neighbours[edge["target"]].add(edge["source"])

    def layer_of(node: dict[str, Any]) -> str:
        kind = node.get("attributes", {}).get("type", "")
        if kind == "AgentNodeAttributes":
            return "AGENTS"
        for layer_name in ("OBJECTS", "PLACES", "ROOMS", "BUILDINGS"):
            if layers.get(layer_name, (None,))[0] == node.get("layer"):
                return layer_name
        return ""

    ids: dict[int, str] = {}
    kinds: dict[int, str] = {}
    used: set[str] = set()
    for node_id, node in sorted(by_id.items()):
        layer = layer_of(node)
        _char, index = _symbol(node_id)
        attrs = node.get("attributes", {})
        stem = {
            "ROOMS": "room",
            "PLACES": "pose",
            "BUILDINGS": "building",
            "OBJECTS": "object",
            "AGENTS": "agent",
        }.get(layer)
        if stem is None:
            report.dropped(f"node of layer {node.get('layer')} (not rooms, places, objects)")
            continue
        label = _name(attrs.get("name") or "")
        candidate = f"{label or stem}{'' if layer == 'AGENTS' else index}"
        if layer == "ROOMS" and label and label not in used:
            candidate = label
        while candidate in used:
            candidate += "_"
        used.add(candidate)
        ids[node_id] = "agent" if layer == "AGENTS" else candidate
        kinds[node_id] = layer
    rooms = [i for i in ids if kinds[i] == "ROOMS"]
    if not rooms:
        raise BadInputError(f"{path}: the Spark-DSG file has no room nodes (layer ROOMS)")
    building = next((i for i in ids if kinds[i] == "BUILDINGS"), None)

    def room_of(node_id: int) -> int | None:
        for n in sorted(neighbours[node_id]):
            if kinds.get(n) == "ROOMS":
                return n
        for n in sorted(neighbours[node_id]):
            if kinds.get(n) == "PLACES":
                for m in sorted(neighbours[n]):
                    if kinds.get(m) == "ROOMS":
                        return m
        return None

    def position(node_id: int) -> list[float] | None:
        pos = by_id[node_id].get("attributes", {}).get("position")
        return [round(float(v), 3) for v in pos] if pos else None

    nodes = []
    if building is not None:
        nodes.append(native_node(id=ids[building], kind="building"))
        report.mapped("building")
    floor = None
    if building is not None:
        floor = "floor0"
        nodes.append(native_node(id=floor, kind="floor", parent=ids[building]))
        report.guessed("floor: one per building")
    for r in rooms:
        nodes.append(native_node(id=ids[r], kind="room", parent=floor, position=position(r)))
        report.mapped("room")
    links = set()
    for p in (i for i in ids if kinds[i] == "PLACES"):
        nodes.append(native_node(id=ids[p], kind="pose", parent=floor, position=position(p)))
        report.mapped("place as a pose")
        for n in neighbours[p]:
            if kinds.get(n) in ("PLACES", "ROOMS"):
                links.add(tuple(sorted((ids[p], ids[n]))))
    for o in (i for i in ids if kinds[i] == "OBJECTS"):
        room = room_of(o)
        if room is None:
            report.dropped("object in no room")
            continue
        nodes.append(
            native_node(
                id=ids[o],
                kind="asset",
                parent=ids[room],
                affordances=["release"],
                position=position(o),
            )
        )
        report.guessed("object as a fixed asset (Hydra does not say what is movable)")
    agent = next((i for i in ids if kinds[i] == "AGENTS"), None)
    agent_room = room_of(agent) if agent is not None else None
    nodes.append(native_node(id="agent", kind="agent", parent=ids[agent_room or rooms[0]]))
    if agent_room is None:
        report.guessed("agent: in the first room")
    graph = from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": name or path.stem,
            "description": f"Imported from a Spark-DSG {text} file",
            "nodes": nodes,
            "links": [list(link) for link in sorted(links)],
        },
        str(path),
    )
    return Imported(graph, report)
