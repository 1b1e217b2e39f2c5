"""A loaded Spark-DSG graph (a `spark_dsg.DynamicSceneGraph`) as sceneplan nodes and links.

Every node of the file gets exactly one line in the report: mapped, guessed
or dropped, by reason (docs/importers.md lists the rules).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sceneplan.importers.base import ImportReport
from sceneplan.importers.taxonomy import Category, classify, nearest, override, slug

__all__ = ["Options", "convert_nodes", "symbol_of"]

_SYMBOL_NAME = re.compile(r"^[A-Za-z]\(\d+\)$")  # Hydra's default names: O(11), R(0)
SYMBOL_IN_DESCRIPTION = re.compile(r"Hydra node (\S+?)[,)]")


@dataclass
class Options:
    """What the user says about the file: label names, and classes forced movable or fixed."""

    object_labels: Mapping[int, str] | None = None  # when the file has no labelspace
    object_labels_from: str = ""  # where they came from, for the report
    room_labels: Mapping[int, str] | None = None
    movable: frozenset[str] = frozenset()
    fixed: frozenset[str] = frozenset()
    keep_ids: Mapping[str, str] = field(default_factory=dict)  # symbol -> id (live updates)


def symbol_of(node: Any) -> str:
    """A node's symbol as Hydra prints it (`O11`, `p657`)."""
    return str(node.id.str())


def _index(node: Any) -> int:
    return int(node.id.category_id)


def _labels(graph: Any, layer: int, fallback: Mapping[int, str] | None) -> dict[int, str]:
    found = dict(graph.get_labelspace(layer, 0).labels_to_names)
    return found or dict(fallback or {})


def _position(attrs: Any) -> list[float] | None:
    pos = getattr(attrs, "position", None)
    if pos is None:
        return None
    return [round(float(v), 3) for v in pos]


def convert_nodes(
    graph: Any, report: ImportReport, options: Options
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The native nodes and links of a DynamicSceneGraph, counting every file node once."""
    objects_layer = 2  # spark_dsg.DsgLayers.OBJECTS
    file_labels = dict(graph.get_labelspace(objects_layer, 0).labels_to_names)
    fallback_labels = dict(options.object_labels or {})
    room_labels = _labels(graph, 4, options.room_labels)

    kinds: dict[int, str] = {}
    by_id: dict[int, Any] = {}
    for node in graph.nodes:
        key = node.layer
        attrs_type = type(node.attributes).__name__
        if attrs_type == "AgentNodeAttributes":
            kind = "agent"
        elif key.layer == 3:
            kind = "place" if key.partition == 0 else "mesh_place"
        elif key.layer == 2 and key.partition == 0:
            kind = "object"
        elif key.layer == 4:
            kind = "room"
        elif key.layer == 5:
            kind = "building"
        else:
            kind = "other"
            report.dropped(
                f"node of layer {key.layer}"
                + (f" partition {key.partition}" if key.partition else "")
                + " (not objects, places, rooms, buildings or agents)"
            )
        kinds[node.id.value] = kind
        by_id[node.id.value] = node
    for kind in kinds.values():
        if kind == "mesh_place":
            report.dropped(
                "mesh place (places layer, partition 1): surface of the mesh, not a pose"
            )

    neighbours: dict[int, set[int]] = {i: set() for i in by_id}
    for edge in graph.edges:
        if edge.source in neighbours and edge.target in neighbours:
            neighbours[edge.source].add(edge.target)
            neighbours[edge.target].add(edge.source)

    def of(kind: str) -> list[int]:
        return sorted(i for i, k in kinds.items() if k == kind)

    rooms, places, objects = of("room"), of("place"), of("object")
    used: set[str] = {"agent", "floor0"}
    ids: dict[int, str] = {}

    def unique(candidate: str) -> str:
        base, n = candidate, 2
        while candidate in used:
            candidate, n = f"{base}_{n}", n + 1
        used.add(candidate)
        return candidate

    def claim(node_id: int, stem: str, index: int | None) -> str:
        symbol = symbol_of(by_id[node_id])
        if symbol in options.keep_ids:
            candidate = options.keep_ids[symbol]
        else:
            candidate = stem if index is None else _join(stem, index)
        ids[node_id] = unique(candidate)
        return ids[node_id]

    def name_of(node_id: int) -> str:
        name = getattr(by_id[node_id].attributes, "name", "") or ""
        return "" if _SYMBOL_NAME.match(name.strip()) else name.strip()

    # rooms and buildings first, so that their names win
    for b in of("building"):
        claim(b, slug(name_of(b)) or "building", None if slug(name_of(b)) else _index(by_id[b]))
    room_category: dict[int, str] = {}
    for r in rooms:
        label = getattr(by_id[r].attributes, "semantic_label", None)
        category = room_labels.get(label, "") if label is not None else ""
        room_category[r] = slug(category)
        own = slug(name_of(r))
        claim(r, own or room_category[r] or "room", None if own else _index(by_id[r]))

    # places: the room of each, through any number of place hops (nearest room first)
    place_room: dict[int, int] = {}
    frontier: deque[int] = deque()
    for p in places:
        linked = sorted(n for n in neighbours[p] if kinds[n] == "room")
        if linked:
            place_room[p] = linked[0]
            frontier.append(p)
    while frontier:
        p = frontier.popleft()
        for n in sorted(neighbours[p]):
            if kinds[n] == "place" and n not in place_room:
                place_room[n] = place_room[p]
                frontier.append(n)
    for p in places:
        if p in place_room:
            claim(p, "pose", _index(by_id[p]))
            report.mapped("place -> pose")
        else:
            report.dropped("place in no room (no path of places leads to a room)")

    nodes: list[dict[str, Any]] = []
    buildings = of("building")
    floor = None
    for b in buildings:
        nodes.append(_native(id=ids[b], kind="building", description=_described(by_id[b], "")))
        report.mapped("building")
    if buildings:
        floor = "floor0"
        nodes.append(_native(id=floor, kind="floor", parent=ids[buildings[0]]))
    for r in rooms:
        nodes.append(
            _native(
                id=ids[r],
                kind="room",
                parent=floor,
                category=room_category[r] or None,
                position=_position(by_id[r].attributes),
                description=_described(by_id[r], room_category[r]),
            )
        )
        report.mapped("room" + (" (category from the labelspace)" if room_category[r] else ""))
    for p in places:
        if p in place_room:
            nodes.append(
                _native(
                    id=ids[p], kind="pose", parent=floor, position=_position(by_id[p].attributes)
                )
            )

    links: set[tuple[str, str]] = set()
    kept = set(rooms) | set(place_room)
    for a in sorted(kept):
        for b in neighbours[a] & kept:
            pair = sorted((ids[a], ids[b]))
            links.add((pair[0], pair[1]))

    # objects: a room each (through their place), then a kind by category
    room_positions = [(r, _position(by_id[r].attributes)) for r in rooms]
    object_room: dict[int, int] = {}
    for o in objects:
        direct = sorted(n for n in neighbours[o] if kinds[n] == "room")
        via = sorted(place_room[n] for n in neighbours[o] if n in place_room)
        if direct or via:
            object_room[o] = (direct or via)[0]
        elif rooms:
            where = _position(by_id[o].attributes)
            object_room[o] = int(
                nearest(where, ((str(r), p) for r, p in room_positions)) or rooms[0]
            )
            report.notes.append(
                f"{symbol_of(by_id[o])}: in no room by its edges; put in the nearest"
            )
    categories: dict[int, tuple[Category, str]] = {}
    through_fallback = 0
    for o in objects:
        label = getattr(by_id[o].attributes, "semantic_label", None)
        own_name = name_of(o)
        if label in file_labels:
            class_name = file_labels[label]
        elif own_name and classify(own_name) is not None:
            class_name = own_name  # Hydra named it by its class
        elif label in fallback_labels:
            class_name = fallback_labels[label]
            through_fallback += 1
        else:
            class_name = own_name
        categories[o] = _category(class_name, label, options)
    if through_fallback:
        report.notes.append(
            f"object classes: the file has no labelspace for layer {objects_layer}; "
            f"{through_fallback} label(s) read through {options.object_labels_from} "
            "(--labelspace FILE to give yours)"
        )
    assets_in: dict[int, list[int]] = {}
    for o in objects:
        category, why = categories[o]
        if o not in object_room:
            report.dropped("object: the file has no room")
            continue
        if category.kind == "structure":
            report.dropped(f"object -> nothing: {category.name} is part of the building")
            continue
        own = slug(name_of(o))
        claim(o, own or category.name, None if own else _index(by_id[o]))
        if category.kind == "asset":
            if "release" in category.affordances:  # it holds things
                assets_in.setdefault(object_room[o], []).append(o)
            nodes.append(
                _native(
                    id=ids[o],
                    kind="asset",
                    parent=ids[object_room[o]],
                    category=category.name,
                    affordances=category.affordances,
                    state=category.state,
                    position=_position(by_id[o].attributes),
                    description=_described(by_id[o], category.name),
                )
            )
            if why:
                report.guessed(f"object -> fixed asset: {why}")
            else:
                report.mapped(f"object -> fixed asset ({category.name})")
    derived_floors: dict[int, str] = {}
    for o in objects:
        category, why = categories[o]
        if o not in object_room or category.kind != "object":
            continue
        room = object_room[o]
        where = _position(by_id[o].attributes)
        on_edge = sorted(
            n
            for n in neighbours[o]
            if n in ids
            and kinds[n] == "object"
            and "release" in categories[n][0].affordances
            and categories[n][0].kind == "asset"
        )
        if on_edge:
            parent = ids[on_edge[0]]
            reason = f"object -> movable {category.name}, on the asset its edge names"
        elif assets_in.get(room):
            parent = (
                nearest(where, ((ids[a], _position(by_id[a].attributes)) for a in assets_in[room]))
                or ids[assets_in[room][0]]
            )
            reason = f"object -> movable {category.name}, on the nearest asset of its room"
        else:
            if room not in derived_floors:
                derived_floors[room] = unique(f"floor_{ids[room]}")
                nodes.append(
                    _native(
                        id=derived_floors[room],
                        kind="asset",
                        parent=ids[room],
                        category="floor",
                        affordances=("release",),
                        description=f"the floor of {ids[room]} (derived: no asset there)",
                    )
                )
            parent = derived_floors[room]
            reason = f"object -> movable {category.name}, on the floor of its room (no asset)"
        parent_affordances = next(
            (n.get("affordances", []) for n in nodes if n["id"] == parent), []
        )
        relation = "inside_of" if "open" in parent_affordances else "ontop_of"
        nodes.append(
            _native(
                id=ids[o],
                kind="object",
                parent=parent,
                relation=relation,
                category=category.name,
                affordances=category.affordances,
                state=category.state,
                position=where,
                description=_described(by_id[o], category.name),
            )
        )
        report.guessed(reason + (f" ({why})" if why else ""))

    # the robot: the newest node of the agent layer
    agents = of("agent")
    agent_parent = None
    if agents:
        newest = max(agents, key=lambda a: (by_id[a].attributes.timestamp, a))
        report.mapped("agent: the newest agent node (largest timestamp) -> the robot")
        report.dropped("agent: an older node of the trajectory", len(agents) - 1)
        pose = sorted(n for n in neighbours[newest] if n in place_room)
        if pose:
            agent_parent = ids[pose[0]]
        else:
            where = _position(by_id[newest].attributes)
            kept = [(ids[p], _position(by_id[p].attributes)) for p in places if p in place_room]
            agent_parent = nearest(where, kept) if kept else None
            if agent_parent is None:
                agent_parent = nearest(where, ((ids[r], p) for r, p in room_positions))
            report.notes.append(
                f"the robot ({symbol_of(by_id[newest])}) has no place edge: put at the nearest "
                f"{'pose' if kept else 'room'}, {agent_parent}"
            )
    if agent_parent is None and rooms:
        agent_parent = ids[rooms[0]]
        report.notes.append(f"no agent node: the robot starts in the first room, {agent_parent}")
    if agent_parent is not None:
        nodes.append(_native(id="agent", kind="agent", parent=agent_parent))
    return nodes, sorted(links)


def _join(stem: str, index: int) -> str:
    return f"{stem}_{index}" if stem[-1:].isdigit() else f"{stem}{index}"


def _category(class_name: str, label: int | None, options: Options) -> tuple[Category, str]:
    """The category of an object and, when it was not the table's plain answer, why."""
    key = slug(class_name) or (f"label{label}" if label is not None else "thing")
    if key in options.movable:
        return override(key, "object"), f"{key} made movable by --movable"
    if key in options.fixed:
        return override(key, "asset"), f"{key} made fixed by --fixed"
    known = classify(key)
    if known is not None:
        return known, ""
    return (
        Category(key, "asset"),
        f"unknown class '{key}' kept fixed (--movable {key} or --fixed {key} to say)",
    )


def _described(node: Any, category: str) -> str:
    attrs = node.attributes
    name = getattr(attrs, "name", "") or ""
    label = getattr(attrs, "semantic_label", None)
    parts = [f"Hydra node {symbol_of(node)}"]
    if name and name != _hydra_name(node):
        parts.append(f"named {name}")
    if label is not None and label != getattr(attrs, "NO_SEMANTIC_LABEL", -1):
        parts.append(f"label {label}" + (f" ({category})" if category else ""))
    return ", ".join(parts)


def _hydra_name(node: Any) -> str:
    symbol = symbol_of(node)
    return f"{symbol[0].upper()}({symbol[1:]})"


def _native(**fields: Any) -> dict[str, Any]:
    from sceneplan.graph.io import native_node

    return native_node(**fields)


def kept_ids(nodes: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Symbol -> id of the nodes of an earlier import (read from their descriptions)."""
    out = {}
    for node in nodes:
        found = SYMBOL_IN_DESCRIPTION.search(str(node.get("description", "")) + ",")
        if found:
            out[found.group(1)] = node["id"]
    return out
