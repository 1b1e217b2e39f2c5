"""The Stanford 3D Scene Graph importer's builder: rooms, door and stair poses, placed objects.

1. Rooms and floors come from the data. Each room is named by its category
   and a per-category index in data-id order (``bathroom0``, ``lobby0``, ...).
   What real files get wrong (rooms of objects, floor names, spellings) is
   repaired first (`repair`).
2. Poses are derived from geometry (`topology`): doors between rooms whose
   boxes touch, stairs from each staircase to the room above, and joins for
   what is still apart.
3. Objects become assets (immovable furniture and appliances) or objects
   (movable things) by the shared taxonomy (`importers.taxonomy`, through
   `classes.class_spec`); an unknown class stays fixed, counted with the
   `--movable` / `--fixed` hint. Each object is placed on the nearest
   suitable surface of its room within reach; objects with none get a
   derived shelf per room.
4. Hand-made content (a `Hand`) adds assets, objects, states and attributes.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import native_node
from sceneplan.importers.base import ImportReport
from sceneplan.importers.stanford3dsg.builder import Builder
from sceneplan.importers.stanford3dsg.classes import (
    PLACEMENT_SURFACES,
    ClassSpec,
    Hand,
    HandAsset,
    HandObject,
    class_spec,
)
from sceneplan.importers.stanford3dsg.geometry import Box, point
from sceneplan.importers.stanford3dsg.repair import repaired
from sceneplan.importers.stanford3dsg.topology import add_doors, add_stairs, join_floors

__all__ = ["build"]

# Geometry threshold, in metres.
MAX_REACH = 1.5  # an object rests on a surface at most this far away (xy)

# Dataset materials that say nothing beyond the class itself.
IGNORED_MATERIALS = frozenset({"foliage", "oven"})


def build(
    data: dict[str, Any],
    hand: Hand | None = None,
    report: ImportReport | None = None,
    *,
    movable: frozenset[str] = frozenset(),
    fixed: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The native-format graph of a Stanford 3DSG file, with `hand`-made content added.

    The output is deterministic: the same input gives the same dict (and bytes).
    """
    hand = hand or Hand()
    b = Builder(overrides=dict(hand.placement_overrides))
    if report is not None:
        b.report = report
    _check_data(data)
    data = repaired(data, b.report)
    b.classes = _class_table(data, b.report, movable, fixed)
    b.add({"id": hand.building, "kind": "building"})
    rooms = sorted(data["rooms"], key=lambda r: r["id"])
    floor_letters = sorted({r["floor_number"] for r in rooms})
    floor_ids = {letter: f"floor{i}" for i, letter in enumerate(floor_letters)}
    for letter in floor_letters:
        b.add({"id": floor_ids[letter], "kind": "floor", "parent": hand.building})

    room_names = _add_rooms(b, rooms, floor_ids)
    add_doors(b, rooms, room_names, floor_ids)
    add_stairs(b, rooms, room_names, floor_ids, floor_letters)
    level = {room_names[r["id"]]: floor_letters.index(r["floor_number"]) for r in rooms}
    join_floors(b, level, [floor_ids[letter] for letter in floor_letters])

    objects = sorted(data["objects"], key=lambda o: o["id"])
    data_assets = [o for o in objects if b.classes[o["class_"]].kind == "asset"]
    data_objects = [o for o in objects if b.classes[o["class_"]].kind == "object"]
    for item in data_assets:
        _add_data_asset(b, item, room_names)
    for spec in hand.assets:
        _add_hand_asset(b, spec)
    _place_data_objects(b, data_objects, room_names)
    for obj in hand.objects:
        _add_hand_object(b, obj)
    _apply_edits(b, hand.edits)
    agent_room = hand.agent_room or next(iter(b.room_boxes))
    b.add({"id": "agent", "kind": "agent", "parent": agent_room})
    b.report.guessed("agent: placed in a room" if not hand.agent_room else "agent: by hand")

    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": hand.name,
        "description": hand.description,
        "nodes": b.nodes,
        "links": [list(link) for link in b.links],
    }


def _add_rooms(b: Builder, rooms: list[dict], floor_ids: dict[str, str]) -> dict[int, str]:
    """Room nodes named category + per-category index, in data-id order."""
    names: dict[int, str] = {}
    for room in rooms:
        name = b.next_id(room["scene_category"])
        names[room["id"]] = name
        b.room_boxes[name] = Box.around(room["location"], room["size"])
        b.report.mapped("room")
        b.add(
            {
                "id": name,
                "kind": "room",
                "parent": floor_ids[room["floor_number"]],
                "position": point(*room["location"]),
            }
        )
    return names


def _materials(item: dict) -> list[str]:
    words = [m for m in item.get("material") or [] if m and m not in IGNORED_MATERIALS]
    return list(dict.fromkeys(words))


def _node(node_id: str, kind: str, parent: str, **fields: Any) -> dict[str, Any]:
    """A node dict with its fields in the documented order; empty fields are left out."""
    return native_node(id=node_id, kind=kind, parent=parent, **fields)


def _add_data_asset(b: Builder, item: dict, names: dict[int, str]) -> None:
    spec = b.classes[item["class_"]]
    room = names[item["parent_room"]]
    asset_id = b.next_id(spec.stem)
    b.asset_boxes[asset_id] = Box.around(item["location"], item["size"])
    b.report.mapped(f"asset: {item['class_']}")
    b.room_of[asset_id] = room
    b.add(
        _node(
            asset_id,
            "asset",
            room,
            affordances=spec.affordances,
            state=spec.state,
            attributes=_materials(item),
            position=point(*item["location"]),
        )
    )


def _hand_fields(spec: HandAsset | HandObject) -> dict[str, Any]:
    """The fields an asset or object added by hand gives its node as they are written."""
    return {
        "affordances": spec.affordances,
        "state": spec.state,
        "attributes": spec.attributes,
        "description": spec.description,
    }


def _add_hand_asset(b: Builder, spec: HandAsset) -> None:
    b.report.guessed("asset added by hand")
    if spec.room not in b.room_boxes:
        raise ValueError(f"hand asset {spec.stem}: unknown room {spec.room}")
    zmin = b.room_boxes[spec.room].zmin
    centre = (*spec.xy, zmin + spec.size[2] / 2)
    asset_id = b.next_id(spec.stem)
    b.asset_boxes[asset_id] = Box.around(centre, spec.size)
    b.room_of[asset_id] = spec.room
    b.add(_node(asset_id, "asset", spec.room, position=point(*centre), **_hand_fields(spec)))


def _place_data_objects(b: Builder, items: list[dict], names: dict[int, str]) -> None:
    """Put each object on the nearest suitable surface of its room, or on a derived shelf."""
    ids = [b.next_id(b.classes[item["class_"]].stem) for item in items]
    parents: dict[str, str | None] = {}
    orphans: dict[str, list[int]] = defaultdict(list)
    for index, (object_id, item) in enumerate(zip(ids, items, strict=True)):
        room = names[item["parent_room"]]
        if object_id in b.overrides:
            parents[object_id] = b.overrides[object_id]
            continue
        parent = _nearest_surface(b, room, item)
        parents[object_id] = parent
        if parent is None:
            orphans[room].append(index)
    shelves = {
        room: _add_shelf(b, room, [items[i] for i in members])
        for room, members in sorted(orphans.items(), key=lambda kv: kv[1][0])
    }
    for object_id, item in zip(ids, items, strict=True):
        room = names[item["parent_room"]]
        parent = parents[object_id] or shelves[room]
        b.report.mapped(f"object: {item['class_']}")
        b.report.guessed(
            "object parent: "
            + (
                "set by hand"
                if object_id in b.overrides
                else "nearest surface in reach"
                if parents[object_id]
                else "derived shelf"
            )
        )
        if b.room_of[parent] != room:
            raise ValueError(f"{object_id}: parent {parent} is not in {room}")
        spec = b.classes[item["class_"]]
        b.room_of[object_id] = room
        b.add(
            _node(
                object_id,
                "object",
                parent,
                relation="ontop_of",
                affordances=spec.affordances,
                state=spec.state,
                attributes=_materials(item),
                position=point(*item["location"]),
            )
        )


def _nearest_surface(b: Builder, room: str, item: dict) -> str | None:
    """The closest asset of the room the object may rest on, if one is within reach."""
    allowed = PLACEMENT_SURFACES[b.classes[item["class_"]].group]
    x, y, _ = item["location"]
    best = None
    for asset_id, box in b.asset_boxes.items():
        if b.room_of[asset_id] != room or _stem(asset_id) not in allowed:
            continue
        distance = box.distance_to(x, y)
        if distance <= MAX_REACH and (best is None or distance < best[0]):
            best = (distance, asset_id)
    return best[1] if best else None


def _add_shelf(b: Builder, room: str, items: list[dict]) -> str:
    """A floor-standing shelf at the middle of the objects that had nowhere to rest."""
    x = sum(item["location"][0] for item in items) / len(items)
    y = sum(item["location"][1] for item in items) / len(items)
    size = (0.8, 0.4, 1.2)
    centre = (x, y, b.room_boxes[room].zmin + size[2] / 2)
    shelf_id = b.next_id("shelf")
    b.report.guessed("shelf: derived for objects with no surface in reach")
    b.asset_boxes[shelf_id] = Box.around(centre, size)
    b.room_of[shelf_id] = room
    b.add(
        _node(
            shelf_id,
            "asset",
            room,
            affordances=("release",),
            position=point(*centre),
            description="a floor-standing shelf unit",
        )
    )
    return shelf_id


def _stem(node_id: str) -> str:
    """The class part of an id built here (`shelf3` -> `shelf`)."""
    return node_id.rstrip("0123456789")


def _add_hand_object(b: Builder, spec: HandObject) -> None:
    b.report.guessed("object added by hand")
    if spec.parent not in b.asset_boxes or b.room_of[spec.parent] != spec.room:
        raise ValueError(f"hand object {spec.stem}: {spec.parent} is not an asset in {spec.room}")
    object_id = b.next_id(spec.stem)
    b.room_of[object_id] = spec.room
    box = b.asset_boxes[spec.parent]
    x, y, z = box.centre
    if spec.relation == "ontop_of":
        z = box.zmax
    b.add(
        _node(
            object_id,
            "object",
            spec.parent,
            relation=spec.relation,
            category=spec.category,
            position=point(x, y, z),
            **_hand_fields(spec),
        )
    )


def _apply_edits(b: Builder, edits: dict[str, tuple[str, dict[str, Any]]]) -> None:
    for node_id, (room, fields) in edits.items():
        node = b.by_id.get(node_id)
        if node is None or b.room_of.get(node_id) != room:
            raise ValueError(f"hand edit: {node_id} is not in {room}")
        for key, value in fields.items():
            if key == "attributes":
                value = [*node.get("attributes", []), *value]
            node[key] = value
        reordered = native_node(**node)
        node.clear()
        node.update(reordered)


def _check_data(data: Any) -> None:
    """One clear message for a file that is not a Stanford 3DSG scene."""
    if not isinstance(data, dict) or not isinstance(data.get("rooms"), list):
        raise BadInputError(
            "not a Stanford 3D Scene Graph file: expected a JSON object with 'rooms' and "
            "'objects' lists (e.g. Klickitat.tiny_verified.json)"
        )
    for key, fields in (
        ("rooms", ("id", "floor_number", "scene_category", "location", "size")),
        ("objects", ("id", "class_", "parent_room", "location", "size")),
    ):
        for index, item in enumerate(data.get(key) or []):
            missing = [f for f in fields if not isinstance(item, dict) or f not in item]
            if missing:
                raise BadInputError(
                    f"not a Stanford 3D Scene Graph file: {key}[{index}] has no "
                    f"{', '.join(missing)}"
                )
            for name in ("location", "size"):
                if not _three_numbers(item[name]):
                    raise BadInputError(
                        f"not a Stanford 3D Scene Graph file: {key}[{index}] {name} is "
                        f"{item[name]!r}, not three numbers (x, y, z)"
                    )
    if not data["rooms"]:
        raise BadInputError("not a Stanford 3D Scene Graph building: its 'rooms' list is empty")
    data.setdefault("objects", [])


def _three_numbers(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _class_table(
    data: dict[str, Any], report: ImportReport, movable: frozenset[str], fixed: frozenset[str]
) -> dict[str, ClassSpec]:
    """The spec of every class in the data, from the shared taxonomy (`class_spec`)."""
    table: dict[str, ClassSpec] = {}
    for item in data["objects"]:
        name = item["class_"]
        if name not in table:
            table[name], why = class_spec(name, movable, fixed)
            if why:
                count = sum(other["class_"] == name for other in data["objects"])
                kind = "movable object" if table[name].kind == "object" else "fixed asset"
                report.guessed(f"object -> {kind}: {why}", count)
    return table
