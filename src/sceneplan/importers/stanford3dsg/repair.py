"""What real Stanford 3D Scene Graph files get wrong, read the way they meant it.

The dataset's automated and crowd-verified outputs are not uniform:

- a floor named `C1` beside floor `C` (same elevation): read as floor `C`;
- a room category misspelt (`staricase`): read as the category it is
  closest to (`staircase`), other names written as ids (`living room` ->
  `living_room`);
- an object with `parent_room: null` (or naming a room the file lacks): put in
  the room whose box holds its position, else in the nearest room of its
  floor (the floor whose rooms span its height).

Each repair is counted as guessed in the report (notes for floors and
categories); the file itself is never changed.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from typing import Any

from sceneplan.importers.base import ImportReport
from sceneplan.importers.stanford3dsg.geometry import Box
from sceneplan.importers.taxonomy import slug

__all__ = ["SCENE_CATEGORIES", "repaired"]

# The room categories of the 3D Scene Graph dataset's buildings.
SCENE_CATEGORIES = frozenset(
    {
        "bathroom", "bedroom", "childs_room", "closet", "corridor", "dining_room", "empty_room",
        "exercise_room", "garage", "home_office", "kitchen", "living_room", "lobby",
        "pantry_room", "playroom", "staircase", "storage_room", "television_room",
        "utility_room",
    }
)  # fmt: skip
SAME_FLOOR = 1.0  # a floor named after another (`C1`) whose rooms start this close (m) is it
INSIDE = 0.05  # an object's centre this far outside a room box still counts as in it (m)


def repaired(data: dict[str, Any], report: ImportReport) -> dict[str, Any]:
    """A copy of a checked file with its floors, room categories and object rooms resolved."""
    rooms = [dict(room) for room in data["rooms"]]
    _floors(rooms, report)
    for room in rooms:
        room["scene_category"] = _category(str(room["scene_category"]), report)
    boxes = {room["id"]: Box.around(room["location"], room["size"]) for room in rooms}
    floor_of = {room["id"]: room["floor_number"] for room in rooms}
    objects = []
    for item in data.get("objects") or []:
        item = dict(item)
        if item["parent_room"] not in boxes:
            item["parent_room"] = _room_of(item, boxes, floor_of, report)
        objects.append(item)
    return {**data, "rooms": rooms, "objects": objects}


def _floors(rooms: list[dict[str, Any]], report: ImportReport) -> None:
    """Floor names as strings; `C1` is floor `C` when floor C exists at its elevation."""
    elevation: dict[str, list[float]] = defaultdict(list)
    for room in rooms:
        room["floor_number"] = str(room["floor_number"]).strip() or "?"
        elevation[room["floor_number"]].append(Box.around(room["location"], room["size"]).zmin)
    lowest = {name: min(values) for name, values in elevation.items()}
    renamed: dict[str, str] = {}
    for name in lowest:
        stem = re.match(r"[A-Za-z]+", name)
        base = stem.group(0) if stem else ""
        if base in lowest and base != name and abs(lowest[base] - lowest[name]) <= SAME_FLOOR:
            renamed[name] = base
    for name, base in sorted(renamed.items()):
        count = sum(room["floor_number"] == name for room in rooms)
        report.guessed(f"room floor: a floor named after another at its elevation ({name})", count)
        report.notes.append(f"floor {name} read as floor {base} (its rooms are at {base}'s height)")
    for room in rooms:
        room["floor_number"] = renamed.get(room["floor_number"], room["floor_number"])


def _category(name: str, report: ImportReport) -> str:
    """The category as an id stem, a misspelling read as the category it is closest to."""
    key = slug(name) or "room"
    if key in SCENE_CATEGORIES:
        return key
    close = difflib.get_close_matches(key, SCENE_CATEGORIES, n=1, cutoff=0.8)
    if close:
        report.guessed("room category: a misspelling of a dataset category")
        report.notes.append(f"room category '{name}' read as '{close[0]}'")
        return close[0]
    return key


def _room_of(
    item: dict[str, Any], boxes: dict[Any, Box], floor_of: dict[Any, str], report: ImportReport
) -> Any:
    """The room of an object the file gives none: its room box, else the nearest of its floor."""
    x, y, z = (float(v) for v in item["location"])
    holding = [
        (box.volume, str(room), room)
        for room, box in boxes.items()
        if box.distance_to(x, y) <= INSIDE and box.zmin - INSIDE <= z <= box.zmax + INSIDE
    ]
    if holding:
        report.guessed("object room: none in the file, the room whose box holds it")
        return min(holding)[2]
    spans: dict[str, list[float]] = {}
    for room, box in boxes.items():
        low, high = spans.setdefault(floor_of[room], [box.zmin, box.zmax])
        spans[floor_of[room]] = [min(low, box.zmin), max(high, box.zmax)]
    floor = min(spans, key=lambda f: (max(spans[f][0] - z, 0.0, z - spans[f][1]), f))
    report.guessed("object room: none in the file, the nearest room of its floor")
    return min(
        (box.distance_to(x, y), str(room), room)
        for room, box in boxes.items()
        if floor_of[room] == floor
    )[2]
