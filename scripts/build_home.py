"""Build the packaged Home environment (Klickitat) from the Stanford 3D Scene Graph data.

The SayPlan paper's "Home" is the Klickitat house of the Stanford 3D Scene
Graph dataset: 28 rooms on 3 floors. SayPlan never released its version of
the graph, so this script rebuilds one in sceneplan's native format:

1. Rooms and floors come from the data. Each room is named by its category
   and a per-category index in data-id order (``bathroom0``..``bathroom4``,
   ``lobby0``, ...), which reproduces the names of SayPlan App. F.
2. Poses are derived from geometry. Two rooms on the same floor whose
   bounding boxes touch (or overlap) along at least a door's width share a
   door pose at the middle of the contact region; floors still split into
   several parts are joined at the closest pair of rooms; each staircase
   leads through a pose pair to the room above it that it overlaps most.
3. The 84 human-verified objects become assets (immovable furniture and
   appliances) or objects (movable things); the automatically labelled file
   is not used. Each object is placed on the nearest suitable surface of its
   room within reach; objects with none get a derived shelf per room.
4. Hand-made content (the `HAND_*` tables below) adds the assets, objects,
   states and attributes that the 30 SayPlan Home search instructions need.

The output is deterministic: the same input gives the same bytes.

Usage: ``python scripts/build_home.py [DATA_DIR] [--out PATH]``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sceneplan.graph.io import format_text, native_node

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "klickitat"
DEFAULT_OUT = REPO_ROOT / "src" / "sceneplan" / "datasets" / "environments" / "home.json"
VERIFIED_FILE = "Klickitat.tiny_verified.json"

BUILDING = "klickitat"
AGENT_ROOM = "lobby0"

# Geometry thresholds, in metres.
DOOR_GAP = 0.25  # two room boxes at most this far apart can share a door...
DOOR_WIDTH = 0.8  # ...if they face each other along at least this length
MAX_REACH = 1.5  # an object rests on a surface at most this far away (xy)

DESCRIPTION = (
    "The Klickitat family home of the Stanford 3D Scene Graph dataset (Armeni et al., "
    "ICCV 2019), the 'Home' environment of SayPlan: 3 floors, 28 rooms. Rooms, floors "
    "and verified objects come from the dataset; poses are derived from room geometry; "
    "extra objects and states were added by hand for the SayPlan Home search tasks. "
    "Licensed for non-commercial research use only."
)

# ---------------------------------------------------------------------------
# Classes of the verified data
# ---------------------------------------------------------------------------

OPENABLE = ("open", "close", "release")
SWITCHABLE = ("turn_on", "turn_off")

# Where objects of a placement group may rest (asset categories).
TABLE_LIKE = frozenset(
    {"dining_table", "desk", "kitchen_counter", "shelf", "tv_stand", "bench", "coffee_table"}
)
PLACEMENT_SURFACES: dict[str, frozenset[str]] = {
    "decor": TABLE_LIKE | {"sink"},  # plants and vases; a sink stands for its vanity top
    "tableware": TABLE_LIKE,
    "handheld": TABLE_LIKE | {"bed", "couch"},
}


@dataclass(frozen=True)
class ClassSpec:
    """How one dataset class becomes a node."""

    stem: str
    kind: str  # "asset" or "object"
    affordances: tuple[str, ...] = ()
    state: tuple[str, ...] = ()
    group: str = ""  # placement group, objects only


CLASSES: dict[str, ClassSpec] = {
    # assets: furniture and appliances that stay where they are
    "bed": ClassSpec("bed", "asset", ("release",)),
    "bench": ClassSpec("bench", "asset", ("release",)),
    "chair": ClassSpec("chair", "asset", ("release",)),
    "couch": ClassSpec("couch", "asset", ("release",)),
    "dining table": ClassSpec("dining_table", "asset", ("release",)),
    "microwave": ClassSpec("microwave", "asset", OPENABLE + SWITCHABLE, ("closed", "off")),
    "oven": ClassSpec("oven", "asset", OPENABLE + SWITCHABLE, ("closed", "off")),
    "refrigerator": ClassSpec("fridge", "asset", OPENABLE, ("closed", "on")),
    "sink": ClassSpec("sink", "asset", ("release", *SWITCHABLE), ("off",)),
    "toilet": ClassSpec("toilet", "asset"),
    # objects: things a robot can pick up
    "book": ClassSpec("book", "object", ("pickup",), group="handheld"),
    "bottle": ClassSpec("bottle", "object", ("pickup",), group="tableware"),
    "bowl": ClassSpec("bowl", "object", ("pickup",), ("clean",), group="tableware"),
    "cell phone": ClassSpec("cell_phone", "object", ("pickup", *SWITCHABLE), ("off",), "handheld"),
    "laptop": ClassSpec("laptop", "object", ("pickup", *SWITCHABLE), ("off",), "handheld"),
    "potted plant": ClassSpec("potted_plant", "object", ("pickup",), group="decor"),
    "sports ball": ClassSpec("sports_ball", "object", ("pickup",), group="handheld"),
    "vase": ClassSpec("vase", "object", ("pickup",), ("full",), group="decor"),
}

# Dataset materials that say nothing beyond the class itself.
IGNORED_MATERIALS = frozenset({"foliage", "oven"})

# ---------------------------------------------------------------------------
# Hand-made content for the SayPlan Home instructions (see DATA.md)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandAsset:
    """An asset added by hand: its room, footprint centre (x, y) and size (x, y, z)."""

    stem: str
    room: str
    xy: tuple[float, float]
    size: tuple[float, float, float]
    affordances: tuple[str, ...] = ("release",)
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    description: str | None = None


@dataclass(frozen=True)
class HandObject:
    """An object added by hand, resting on (or inside) a named parent in a named room."""

    stem: str
    parent: str
    room: str
    relation: str = "ontop_of"
    category: str | None = None
    affordances: tuple[str, ...] = ("pickup",)
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    description: str | None = None

    def __post_init__(self) -> None:
        if self.relation not in ("ontop_of", "inside_of"):
            raise ValueError(f"hand object {self.stem}: bad relation {self.relation!r}")


HAND_ASSETS: tuple[HandAsset, ...] = (
    HandAsset(
        "bed", "bedroom0", (0.4, 0.6), (2.0, 1.6, 0.6), description="a bare mattress, no bedding"
    ),
    HandAsset("desk", "home_office0", (-13.1, -10.7), (0.8, 1.4, 0.75), attributes=("wooden",)),
    HandAsset("crib", "bedroom3", (-0.5, -14.3), (1.3, 0.7, 1.0), attributes=("white", "wooden")),
    HandAsset("tv", "living_room0", (-3.4, 6.2), (1.2, 0.1, 0.7), SWITCHABLE, ("off",)),
    HandAsset("tv_stand", "living_room1", (-4.6, 6.4), (1.6, 0.45, 0.5)),
    HandAsset("tv", "living_room1", (-4.6, 6.5), (1.4, 0.1, 0.8), SWITCHABLE, ("off",)),
    HandAsset(
        "microwave",
        "dining_room0",
        (-6.9, 6.3),
        (0.5, 0.4, 0.3),
        OPENABLE + SWITCHABLE,
        ("closed", "off"),
        description="a small microwave on the sideboard",
    ),
    HandAsset("kitchen_counter", "kitchen1", (-1.0, -2.3), (2.4, 0.6, 0.9)),
    HandAsset("wardrobe", "closet0", (-2.2, -5.6), (1.8, 0.6, 2.0), OPENABLE, ("closed",)),
)

HAND_OBJECTS: tuple[HandObject, ...] = (
    # simple search
    HandObject(
        "wine_bottle",
        "dining_table1",
        "dining_room1",
        category="bottle",
        state=("full",),
        attributes=("red", "glass"),
        description="a bottle of red wine",
    ),
    HandObject("rattle", "crib0", "bedroom3", attributes=("yellow", "plastic")),
    HandObject("suitcase", "couch1", "living_room0", attributes=("black",)),
    HandObject(
        "baby_monitor",
        "dining_table1",
        "dining_room1",
        affordances=("pickup", *SWITCHABLE),
        state=("on",),
    ),
    HandObject("razor", "sink7", "bathroom3"),
    HandObject("shaving_cream", "sink7", "bathroom3"),
    HandObject("pillow", "bed1", "bedroom1", attributes=("white",)),
    HandObject("pillow", "bed0", "bedroom3", attributes=("blue",)),
    # complex search
    HandObject(
        "game_console",
        "tv_stand0",
        "living_room1",
        affordances=("pickup", *SWITCHABLE),
        state=("off",),
    ),
    HandObject("banana", "kitchen_counter0", "kitchen1", state=("ripe",), attributes=("yellow",)),
    HandObject("sock", "bed2", "bedroom0", attributes=("red", "striped", "wool")),
    HandObject("sock", "couch0", "living_room1", attributes=("red", "striped", "wool")),
    HandObject("sock", "bed1", "bedroom1", attributes=("grey", "cotton")),
    HandObject("roast_chicken", "dining_table0", "dining_room0", state=("hot",)),
    HandObject("vegetable_lasagna", "dining_table2", "dining_room2", state=("hot",)),
    HandObject("coat", "wardrobe0", "closet0", relation="inside_of", attributes=("navy", "wool")),
)

# Changes to nodes built from the data, by final id: (expected room, fields to set).
HAND_EDITS: dict[str, tuple[str, dict[str, Any]]] = {
    "potted_plant2": (
        "bathroom1",
        {"attributes": ["thorny"], "description": "a potted rose bush with thorny stems"},
    ),
    "potted_plant5": (
        "living_room2",
        {
            "attributes": ["succulent", "round"],
            "description": "a small round succulent from the desert; water once a month",
        },
    ),
    "potted_plant6": (
        "living_room2",
        {"state": ["dry"], "attributes": ["wilted"], "description": "its soil is dry"},
    ),
    "vase1": ("bathroom4", {"state": ["empty"]}),
    "vase4": ("living_room2", {"state": ["empty"]}),
    "bowl0": ("dining_room2", {"state": ["dirty"]}),
    "bottle0": ("kitchen1", {"state": ["empty"], "description": "an empty water bottle"}),
    "cell_phone0": ("dining_room2", {"state": ["on"]}),
    "sports_ball0": ("playroom0", {"category": "ball"}),
}

# Objects whose parent is set by hand rather than by the nearest-surface rule.
PLACEMENT_OVERRIDES: dict[str, str] = {
    "book0": "bed0",  # SayPlan: "I forgot my book on a bed" (the book lies 1.6 m from it)
}

# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """An axis-aligned bounding box; for a room, `zmin` is the elevation of its floor."""

    xmin: float
    xmax: float
    ymin: float
    ymax: float
    zmin: float
    zmax: float

    @classmethod
    def around(cls, centre: Sequence[float], size: Sequence[float]) -> Box:
        """The box of a dataset entity from its centre and size."""
        (x, y, z), (sx, sy, sz) = centre, size
        return cls(x - sx / 2, x + sx / 2, y - sy / 2, y + sy / 2, z - sz / 2, z + sz / 2)

    @property
    def centre(self) -> tuple[float, float, float]:
        return (self.xmin + self.xmax) / 2, (self.ymin + self.ymax) / 2, (self.zmin + self.zmax) / 2

    def gaps(self, other: Box) -> tuple[float, float]:
        """Distance between the boxes along x and y; negative values are overlaps."""
        gx = max(self.xmin, other.xmin) - min(self.xmax, other.xmax)
        gy = max(self.ymin, other.ymin) - min(self.ymax, other.ymax)
        return gx, gy

    def gap(self, other: Box) -> float:
        """How far apart the boxes are (0 when they touch or overlap)."""
        gx, gy = self.gaps(other)
        return math.hypot(max(gx, 0.0), max(gy, 0.0))

    def contact_centre(self, other: Box) -> tuple[float, float]:
        """The middle of the region between (or shared by) two boxes, in xy."""
        lo_x, hi_x = sorted((max(self.xmin, other.xmin), min(self.xmax, other.xmax)))
        lo_y, hi_y = sorted((max(self.ymin, other.ymin), min(self.ymax, other.ymax)))
        return (lo_x + hi_x) / 2, (lo_y + hi_y) / 2

    def distance_to(self, x: float, y: float) -> float:
        """Horizontal distance from a point to the box (0 inside)."""
        dx = max(self.xmin - x, 0.0, x - self.xmax)
        dy = max(self.ymin - y, 0.0, y - self.ymax)
        return math.hypot(dx, dy)


def r2(value: float) -> float:
    """Round to centimetres, without negative zero."""
    return round(value, 2) + 0.0


def point(*coords: float) -> list[float]:
    """A position as written in the file."""
    return [r2(c) for c in coords]


# ---------------------------------------------------------------------------
# The builder
# ---------------------------------------------------------------------------


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


def build(data: dict[str, Any]) -> dict[str, Any]:
    """The native-format graph of the Home environment from the verified dataset file."""
    b = Builder()
    b.add({"id": BUILDING, "kind": "building"})
    rooms = sorted(data["rooms"], key=lambda r: r["id"])
    floor_letters = sorted({r["floor_number"] for r in rooms})
    floor_ids = {letter: f"floor{i}" for i, letter in enumerate(floor_letters)}
    for letter in floor_letters:
        b.add({"id": floor_ids[letter], "kind": "floor", "parent": BUILDING})

    room_names = _add_rooms(b, rooms, floor_ids)
    _add_doors(b, rooms, room_names, floor_ids)
    _add_stairs(b, rooms, room_names, floor_ids, floor_letters)
    _check_connected(b)

    objects = sorted(data["objects"], key=lambda o: o["id"])
    data_assets = [o for o in objects if CLASSES[o["class_"]].kind == "asset"]
    data_objects = [o for o in objects if CLASSES[o["class_"]].kind == "object"]
    for item in data_assets:
        _add_data_asset(b, item, room_names)
    for spec in HAND_ASSETS:
        _add_hand_asset(b, spec)
    _place_data_objects(b, data_objects, room_names)
    for spec in HAND_OBJECTS:
        _add_hand_object(b, spec)
    _apply_edits(b)
    b.add({"id": "agent", "kind": "agent", "parent": AGENT_ROOM})

    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "home",
        "description": DESCRIPTION,
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

        def door(a: str, c: str, floor: str = floor, component: dict[str, str] = component):
            box_a, box_c = b.room_boxes[a], b.room_boxes[c]
            x, y = box_a.contact_centre(box_c)
            z = (box_a.zmin + box_c.zmin) / 2
            pose = b.add_pose(floor, x, y, z)
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
            door(a, c)


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
        bottom = b.add_pose(floor_ids[room["floor_number"]], cx, cy, box.zmin)
        x, y = box.contact_centre(target_box)
        top = b.add_pose(floor_ids[upper], x, y, target_box.zmin)
        b.links.extend([(stair, bottom), (bottom, top), (target, top)])


def _check_connected(b: Builder) -> None:
    """Fail loudly if some room cannot be reached from the others."""
    neighbours: dict[str, set[str]] = defaultdict(set)
    for a, c in b.links:
        neighbours[a].add(c)
        neighbours[c].add(a)
    start = next(iter(b.room_boxes))
    seen, stack = {start}, [start]
    while stack:
        for nxt in neighbours[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    missing = sorted(set(b.room_boxes) - seen)
    if missing:
        raise RuntimeError(f"rooms not connected to {start}: {', '.join(missing)}")


def _materials(item: dict) -> list[str]:
    words = [m for m in item.get("material") or [] if m and m not in IGNORED_MATERIALS]
    return list(dict.fromkeys(words))


def _node(node_id: str, kind: str, parent: str, **fields: Any) -> dict[str, Any]:
    """A node dict with its fields in the documented order; empty fields are left out."""
    return native_node(id=node_id, kind=kind, parent=parent, **fields)


def _add_data_asset(b: Builder, item: dict, names: dict[int, str]) -> None:
    spec = CLASSES[item["class_"]]
    room = names[item["parent_room"]]
    asset_id = b.next_id(spec.stem)
    b.asset_boxes[asset_id] = Box.around(item["location"], item["size"])
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


def _add_hand_asset(b: Builder, spec: HandAsset) -> None:
    if spec.room not in b.room_boxes:
        raise ValueError(f"hand asset {spec.stem}: unknown room {spec.room}")
    zmin = b.room_boxes[spec.room].zmin
    centre = (*spec.xy, zmin + spec.size[2] / 2)
    asset_id = b.next_id(spec.stem)
    b.asset_boxes[asset_id] = Box.around(centre, spec.size)
    b.room_of[asset_id] = spec.room
    b.add(
        _node(
            asset_id,
            "asset",
            spec.room,
            affordances=spec.affordances,
            state=spec.state,
            attributes=spec.attributes,
            position=point(*centre),
            description=spec.description,
        )
    )


def _place_data_objects(b: Builder, items: list[dict], names: dict[int, str]) -> None:
    """Put each object on the nearest suitable surface of its room, or on a derived shelf."""
    ids = [b.next_id(CLASSES[item["class_"]].stem) for item in items]
    parents: dict[str, str | None] = {}
    orphans: dict[str, list[int]] = defaultdict(list)
    for index, (object_id, item) in enumerate(zip(ids, items, strict=True)):
        room = names[item["parent_room"]]
        if object_id in PLACEMENT_OVERRIDES:
            parents[object_id] = PLACEMENT_OVERRIDES[object_id]
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
        if b.room_of[parent] != room:
            raise ValueError(f"{object_id}: parent {parent} is not in {room}")
        spec = CLASSES[item["class_"]]
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
    allowed = PLACEMENT_SURFACES[CLASSES[item["class_"]].group]
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
            affordances=spec.affordances,
            state=spec.state,
            attributes=spec.attributes,
            position=point(x, y, z),
            description=spec.description,
        )
    )


def _apply_edits(b: Builder) -> None:
    for node_id, (room, fields) in HAND_EDITS.items():
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


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "data_dir",
        nargs="?",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help=f"folder holding {VERIFIED_FILE} (default: {DEFAULT_DATA_DIR})",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output JSON file")
    args = parser.parse_args(argv)
    source = args.data_dir / VERIFIED_FILE if args.data_dir.is_dir() else args.data_dir
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        print(f"build_home: cannot read {source}: {exc}", file=sys.stderr)
        return 1
    graph = build(data)
    args.out.write_text(format_text(graph), encoding="utf-8")
    kinds = Counter(node["kind"] for node in graph["nodes"])
    summary = ", ".join(f"{kinds[k]} {k}s" for k in ("floor", "room", "pose", "asset", "object"))
    print(f"wrote {args.out}: {summary}, {len(graph['links'])} links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
