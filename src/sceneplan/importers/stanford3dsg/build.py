"""The Stanford 3D Scene Graph importer's builder: rooms, door and stair poses, placed objects.

1. Rooms and floors come from the data. Each room is named by its category
   and a per-category index in data-id order (``bathroom0``, ``lobby0``, ...).
2. Poses are derived from geometry. Two rooms on the same floor whose
   bounding boxes touch (or overlap) along at least a door's width share a
   door pose at the middle of the contact region; floors still split into
   several parts are joined at the closest pair of rooms; each staircase
   leads through a pose pair to the room above it that it overlaps most.
3. Objects become assets (immovable furniture and appliances) or objects
   (movable things) by the shared taxonomy (`importers.taxonomy`, through
   `classes.class_spec`); an unknown class stays fixed, counted with the
   `--movable` / `--fixed` hint. Each object is placed on the nearest
   suitable surface of its room within reach; objects with none get a
   derived shelf per room.
4. Hand-made content (a `Hand`) adds assets, objects, states and attributes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import native_node
from sceneplan.importers.base import ImportReport
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

__all__ = ["Builder", "build"]

# Geometry thresholds, in metres.
DOOR_GAP = 0.25  # two room boxes at most this far apart can share a door...
DOOR_WIDTH = 0.8  # ...if they face each other along at least this length
MAX_REACH = 1.5  # an object rests on a surface at most this far away (xy)

# Dataset materials that say nothing beyond the class itself.
IGNORED_MATERIALS = frozenset({"foliage", "oven"})


@dataclass
class Builder:
    """Accumulates nodes and links in output order."""

    nodes: list[dict[str, Any]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    counters: Counter = field(default_factory=Counter)
    room_boxes: dict[str, Box] = field(default_factory=dict)
    asset_boxes: dict[str, Box] = field(default_factory=dict)
    room_of: dict[str, str] = field(default_factory=dict)
    pose_count: int = 0
    classes: dict[str, ClassSpec] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    report: ImportReport = field(default_factory=lambda: ImportReport("stanford3dsg"))

    def add(self, node: dict[str, Any]) -> dict[str, Any]:
        """Append a node; ids must be unique."""
        if node["id"] in self.by_id:
            raise ValueError(f"duplicate node id {node['id']}")
        self.nodes.append(node)
        self.by_id[node["id"]] = node
        return node

    def next_id(self, stem: str) -> str:
        """`stem` numbered from 0 in creation order (`chair0`, `chair1`, ...)."""
        index = self.counters[stem]
        self.counters[stem] += 1
        return f"{stem}{index}"

    def add_pose(self, floor: str, x: float, y: float, z: float) -> str:
        """A new pose node `poseN` on a floor; returns its id."""
        pose_id = f"pose{self.pose_count}"
        self.pose_count += 1
        self.add({"id": pose_id, "kind": "pose", "parent": floor, "position": point(x, y, z)})
        return pose_id


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
    _add_doors(b, rooms, room_names, floor_ids)
    _add_stairs(b, rooms, room_names, floor_ids, floor_letters)
    _join_floors(b, rooms, room_names, floor_ids, floor_letters)

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


def _add_doors(
    b: Builder, rooms: list[dict], names: dict[int, str], floor_ids: dict[str, str]
) -> None:
    """A door pose between every pair of touching rooms; then join what is still apart."""
    for letter, floor in floor_ids.items():
        on_floor = [names[r["id"]] for r in rooms if r["floor_number"] == letter]
        component = {name: name for name in on_floor}

        def find(name: str, component: dict[str, str] = component) -> str:
            while component[name] != name:
                name = component[name]
            return name

        def door(
            a: str,
            c: str,
            floor: str = floor,
            component: dict[str, str] = component,
            bridge: bool = False,
        ) -> None:
            box_a, box_c = b.room_boxes[a], b.room_boxes[c]
            x, y = box_a.contact_centre(box_c)
            z = (box_a.zmin + box_c.zmin) / 2
            pose = b.add_pose(floor, x, y, z)
            if bridge:
                b.report.guessed("door pose: joins rooms touching no other to the closest room")
                b.report.notes.append(
                    f"{a} and {c} are in two pieces of {floor} no touching rooms join: "
                    f"joined at their closest point ({box_a.gap(box_c):.1f} m apart)"
                )
            else:
                b.report.guessed("door pose: two rooms whose boxes touch")
            b.links.extend([(a, pose), (c, pose)])
            component[find(a)] = find(c)

        for i, a in enumerate(on_floor):
            for c in on_floor[i + 1 :]:
                gx, gy = b.room_boxes[a].gaps(b.room_boxes[c])
                if max(gx, gy) <= DOOR_GAP and min(gx, gy) <= -DOOR_WIDTH:
                    door(a, c)
        while len({find(name) for name in on_floor}) > 1:
            candidates = [
                (b.room_boxes[a].gap(b.room_boxes[c]), a, c)
                for i, a in enumerate(on_floor)
                for c in on_floor[i + 1 :]
                if find(a) != find(c)
            ]
            _, a, c = min(candidates)
            door(a, c, bridge=True)


def _add_stairs(
    b: Builder,
    rooms: list[dict],
    names: dict[int, str],
    floor_ids: dict[str, str],
    floor_letters: list[str],
) -> None:
    """Each staircase leads, through a pose pair, to the room above it it overlaps most."""
    for room in rooms:
        if room["scene_category"] != "staircase":
            continue
        level = floor_letters.index(room["floor_number"])
        if level + 1 >= len(floor_letters):
            continue
        upper = floor_letters[level + 1]
        stair = names[room["id"]]
        box = b.room_boxes[stair]
        above = [names[r["id"]] for r in rooms if r["floor_number"] == upper]

        def overlap(name: str, box: Box = box) -> tuple[float, float]:
            gx, gy = box.gaps(b.room_boxes[name])
            area = gx * gy if gx < 0 and gy < 0 else 0.0
            return area, -box.gap(b.room_boxes[name])

        target = max(above, key=overlap)
        target_box = b.room_boxes[target]
        cx, cy, _ = box.centre
        b.report.guessed("stair pose: a staircase and the room above it", 2)
        bottom = b.add_pose(floor_ids[room["floor_number"]], cx, cy, box.zmin)
        x, y = box.contact_centre(target_box)
        top = b.add_pose(floor_ids[upper], x, y, target_box.zmin)
        b.links.extend([(stair, bottom), (bottom, top), (target, top)])


def _join_floors(
    b: Builder,
    rooms: list[dict],
    names: dict[int, str],
    floor_ids: dict[str, str],
    floor_letters: list[str],
) -> None:
    """Join floors no staircase reaches: a stair between the closest rooms of adjacent floors."""
    piece = {name: name for name in b.room_boxes}

    def find(name: str) -> str:
        while piece[name] != name:
            name = piece[name]
        return name

    for a, c in _room_links(b):
        piece[find(a)] = find(c)
    level = {names[r["id"]]: floor_letters.index(r["floor_number"]) for r in rooms}
    while len({find(name) for name in piece}) > 1:
        candidates = [
            (abs(level[a] - level[c]), b.room_boxes[a].gap(b.room_boxes[c]), a, c)
            for a in piece
            for c in piece
            if level[a] < level[c] and find(a) != find(c)
        ]
        _, _, lower, upper = min(candidates)
        low_box, up_box = b.room_boxes[lower], b.room_boxes[upper]
        x, y = low_box.contact_centre(up_box)
        bottom = b.add_pose(floor_ids[floor_letters[level[lower]]], x, y, low_box.zmin)
        top = b.add_pose(floor_ids[floor_letters[level[upper]]], x, y, up_box.zmin)
        b.links.extend([(lower, bottom), (bottom, top), (upper, top)])
        b.report.guessed("stair pose: joins a floor no staircase reaches", 2)
        b.report.notes.append(
            f"no staircase joins {upper} to {lower}: joined by a stair between them (closest)"
        )
        piece[find(lower)] = find(upper)


def _room_links(b: Builder) -> list[tuple[str, str]]:
    """Pairs of rooms joined through poses so far."""
    rooms_at: dict[str, list[str]] = defaultdict(list)
    pose_pose = []
    for a, c in b.links:
        if a in b.room_boxes:
            rooms_at[c].append(a)
        elif c in b.room_boxes:
            rooms_at[a].append(c)
        else:
            pose_pose.append((a, c))
    pairs = [(r, s) for members in rooms_at.values() for r in members for s in members]
    pairs += [(r, s) for p, q in pose_pose for r in rooms_at[p] for s in rooms_at[q]]
    return pairs


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
