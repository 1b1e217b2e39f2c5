"""Matterport3D house segmentation files (`.house`) as scene graphs.

Read with `spark_dsg.mp3d` (the `spark` extra), which parses the regions,
their floor polygons, the objects and the category table:

- levels -> floors of one building; regions -> rooms named by their region
  label and index (`bedroom0`, `kitchen9`); junk regions are dropped;
- objects -> their category (the file's raw name, else its mpcat40 class)
  through the shared taxonomy (`importers.taxonomy`): movable objects on the
  nearest asset of their room that holds things, fixed assets, and the
  building's own parts (walls, doors, curtains) dropped;
- topology from the regions' geometry: a door (or door frame) object joins
  its region to the other region whose floor polygon it touches (within
  0.5 m) through a pose at the door; rooms with no door of their own are
  open to the door-less rooms they touch along at least 0.8 m (an open
  plan), through a pose at the middle of the contact; a house still in
  pieces is joined at its closest pair of rooms (guessed, counted);
- the robot starts in the entryway, else in the first room.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph.io import from_dict, native_node
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.taxonomy import Category, Supports, classify, nearest, override, slug

__all__ = ["REGION_LABELS", "import_"]

# Matterport3D's region labels (its README, "region categories").
REGION_LABELS = {
    "a": "bathroom", "b": "bedroom", "c": "closet", "d": "dining_room", "e": "entryway",
    "f": "family_room", "g": "garage", "h": "hallway", "i": "library", "j": "laundry_room",
    "k": "kitchen", "l": "living_room", "m": "meeting_room", "n": "lounge", "o": "office",
    "p": "porch", "r": "rec_room", "s": "stairs", "t": "toilet", "u": "utility_room",
    "v": "tv_room", "w": "gym", "x": "outdoor", "y": "balcony", "z": "room", "B": "bar",
    "C": "classroom", "D": "dining_booth", "S": "spa", "Z": "junk", "-": "room",
}  # fmt: skip
DOOR_REACH = 0.5  # a door joins the other region whose floor polygon is this close (m)
CONTACT_GAP = 0.3  # two floor polygons this close (m)...
CONTACT_LENGTH = 0.8  # ...along at least a door's width touch
UNLABELLED = {"unknown", "thing", "misc", "objects"}  # annotators' "no class"


def _mp3d() -> Any:
    try:
        import spark_dsg.mp3d as mp3d
    except ImportError:
        raise BackendUnavailableError(
            "the mp3d importer reads .house files with spark_dsg.mp3d: "
            "pip install 'sceneplan[spark]'"
        ) from None
    return mp3d


def import_(
    path: str | Path,
    *,
    name: str | None = None,
    movable: tuple[str, ...] | list[str] = (),
    fixed: tuple[str, ...] | list[str] = (),
) -> Imported:
    """A Matterport3D `.house` file as a scene graph, with its report."""
    path = Path(path)
    mp3d = _mp3d()
    try:
        info = mp3d.load_mp3d_info(str(path))
        polygons = {r._index: r for r in mp3d.get_rooms_from_mp3d_info(info, angle_deg=0.0)}
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        raise BadInputError(
            f"{path}: not a Matterport3D house file spark_dsg.mp3d can read "
            f"({type(exc).__name__}: {exc})"
        ) from None
    if not info["R"]:
        raise BadInputError(f"{path}: no regions (R lines): not a Matterport3D house file")
    movable_set = {slug(c) for c in movable}
    fixed_set = {slug(c) for c in fixed}
    if movable_set & fixed_set:
        raise BadInputError(
            f"class {sorted(movable_set & fixed_set)[0]} is given both --movable and --fixed; "
            "keep one of them"
        )
    report = ImportReport("mp3d")
    nodes: list[dict[str, Any]] = [native_node(id="house", kind="building")]
    report.mapped("house -> the building")

    # levels -> floors, regions -> rooms
    levels = sorted({r["level_index"] for r in info["R"]})
    for level in levels:
        nodes.append(native_node(id=f"floor{level}", kind="floor", parent="house"))
    report.mapped("level -> floor", len(levels))
    rooms: dict[int, str] = {}
    room_level: dict[int, int] = {}
    room_pos: dict[int, list[float]] = {}
    for region in info["R"]:
        label = REGION_LABELS.get(region["label"], "room")
        if label == "junk":
            report.dropped("region labelled junk (Z)")
            continue
        index = region["region_index"]
        rooms[index] = f"{label}{index}"
        room_level[index] = region["level_index"]
        room_pos[index] = [round(float(v), 3) for v in region["pos"]]
        nodes.append(
            native_node(
                id=rooms[index],
                kind="room",
                parent=f"floor{region['level_index']}",
                category=label,
                position=room_pos[index],
                description=f"Matterport3D region {index}, label {region['label']} ({label})",
            )
        )
        report.mapped(f"region -> room ({label})")

    # objects: a category each
    categories = {c["category_index"]: c for c in info["C"]}
    kinds: dict[int, tuple[Category, str]] = {}
    doors: list[dict[str, Any]] = []
    for obj in info["O"]:
        entry = categories.get(obj["category_index"])
        raw = entry["category_mapping_name"] if entry else ""
        coarse = entry["mpcat40_name"] if entry else ""
        if coarse == "door" or slug(raw) in ("door", "doorframe"):
            doors.append(obj)
        kinds[obj["object_index"]] = _category(raw, coarse, movable_set, fixed_set)
    room_of: dict[int, int] = {}
    for obj in info["O"]:
        region = obj["region_index"]
        if region in rooms:
            room_of[obj["object_index"]] = region
        else:
            where = [float(v) for v in obj["pos"]]
            guess = nearest(where, ((str(r), p) for r, p in room_pos.items()))
            if guess is not None:
                room_of[obj["object_index"]] = int(guess)
    ids: dict[int, str] = {}
    used = {n["id"] for n in nodes} | {"agent"}
    supports = Supports(lambda stem: _unique(stem, used))

    def position(obj: dict[str, Any]) -> list[float]:
        return [round(float(v), 3) for v in obj["pos"]]

    for obj in info["O"]:
        index = obj["object_index"]
        category, why = kinds[index]
        if any(door is obj for door in doors):
            continue  # counted with the topology below
        if category.kind == "unlabelled":
            report.dropped("object -> nothing: no class in the file (unknown, misc)")
            continue
        if category.kind == "structure":
            report.dropped(f"object -> nothing: {category.name} is part of the building")
            continue
        if index not in room_of:
            report.dropped("object in no room (no regions)")
            continue
        node_id = _unique(f"{category.name}{index}", used)
        ids[index] = node_id
        if category.kind != "asset":
            continue
        supports.add(rooms[room_of[index]], node_id, position(obj), category.affordances)
        nodes.append(
            native_node(
                id=node_id,
                kind="asset",
                parent=rooms[room_of[index]],
                category=category.name,
                affordances=category.affordances,
                state=category.state,
                position=position(obj),
                description=f"Matterport3D object {index} ({_raw(categories, obj)})",
            )
        )
        if why:
            report.guessed(f"object -> fixed asset: {why}")
        else:
            report.mapped(f"object -> fixed asset ({category.name})")
        if obj["region_index"] not in rooms:
            report.notes.append(f"object {index} has no region: put in the nearest room")
    for obj in info["O"]:
        index = obj["object_index"]
        category, why = kinds[index]
        if index not in ids or category.kind != "object":
            continue
        parent, relation, how = supports.place(rooms[room_of[index]], position(obj))
        reason = f"object -> movable {category.name}, {how}"
        nodes.append(
            native_node(
                id=ids[index],
                kind="object",
                parent=parent,
                relation=relation,
                category=category.name,
                affordances=category.affordances,
                state=category.state,
                position=position(obj),
                description=f"Matterport3D object {index} ({_raw(categories, obj)})",
            )
        )
        report.guessed(reason + (f" ({why})" if why else ""))
    nodes += supports.derived

    poses, links = _topology(doors, rooms, room_level, room_pos, polygons, report)
    nodes += poses
    entry = next((r for r in sorted(rooms) if rooms[r].startswith("entryway")), min(rooms))
    nodes.append(native_node(id="agent", kind="agent", parent=rooms[entry]))
    report.notes.append(f"the robot starts in {rooms[entry]} (a house file has no robot)")
    graph = from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": name or path.stem,
            "description": f"Imported from the Matterport3D house file {path.name}",
            "nodes": nodes,
            "links": [list(link) for link in sorted(links)],
        },
        str(path),
    )
    return Imported(graph, report)


def _topology(
    doors: list[dict[str, Any]],
    rooms: dict[int, str],
    room_level: dict[int, int],
    room_pos: dict[int, list[float]],
    polygons: dict[int, Any],
    report: ImportReport,
) -> tuple[list[dict[str, Any]], set[tuple[str, str]]]:
    """Poses and links from the regions' geometry: doors, open plans, then bridges."""
    import shapely.geometry

    links: set[tuple[str, str]] = set()
    poses: list[dict[str, Any]] = []
    joined: set[frozenset[int]] = set()

    def connect(a: int, b: int, pose: str, where: list[float], why: str) -> None:
        poses.append(
            native_node(
                id=pose, kind="pose", parent=f"floor{room_level[a]}", position=where,
                description=why,
            )
        )  # fmt: skip
        links.add(tuple(sorted((rooms[a], pose))))  # type: ignore[arg-type]
        links.add(tuple(sorted((rooms[b], pose))))  # type: ignore[arg-type]
        joined.add(frozenset((a, b)))

    with_door = set()
    for door in doors:
        own = door["region_index"]
        if own not in rooms:
            report.dropped("object -> nothing: a door in no room")
            continue
        point = shapely.geometry.Point(float(door["pos"][0]), float(door["pos"][1]))
        others = sorted(
            (polygons[r].get_polygon_xy().distance(point), r)
            for r in rooms
            if r != own and r in polygons and room_level[r] == room_level[own]
        )
        if others and others[0][0] <= DOOR_REACH:
            other = others[0][1]
            with_door.add(own)
            where = [round(float(v), 3) for v in door["pos"]]
            why = f"the door between {rooms[own]} and {rooms[other]}"
            connect(own, other, f"door{door['object_index']}", where, why)
            report.guessed("object -> door pose: a door (frame) between two regions")
        else:
            report.dropped("object -> nothing: a door (frame) to no other region (outside)")
    open_rooms = sorted(r for r in rooms if r not in with_door and r in polygons)
    for i, a in enumerate(open_rooms):
        for b in open_rooms[i + 1 :]:
            if room_level[a] != room_level[b]:
                continue
            contact = _contact(polygons[a].get_polygon_xy(), polygons[b].get_polygon_xy())
            if contact is not None:
                connect(a, b, f"passage_{a}_{b}", contact, "an open passage (no door)")
                report.notes.append(
                    f"passage_{a}_{b}: {rooms[a]} and {rooms[b]} have no door and touch: "
                    "an open plan"
                )
    for a, b in _bridges(rooms, joined, room_pos):
        where = [round((x + y) / 2, 3) for x, y in zip(room_pos[a], room_pos[b], strict=True)]
        connect(a, b, f"passage_{a}_{b}", where, "joined: the closest rooms of two pieces")
        report.notes.append(
            f"passage_{a}_{b}: no door or open plan joins {rooms[a]} to the rest; "
            "joined at the closest rooms"
        )
    return poses, links


def _category(raw: str, coarse: str, movable: set[str], fixed: set[str]) -> tuple[Category, str]:
    key = slug(raw) or slug(coarse) or "thing"
    if key in UNLABELLED and slug(coarse) in UNLABELLED | {"misc", ""}:
        return Category(key, "unlabelled"), ""
    for name in (key, slug(coarse)):
        if name in movable:
            return override(name, "object"), f"{name} made movable by --movable"
        if name in fixed:
            return override(name, "asset"), f"{name} made fixed by --fixed"
    known = classify(key) or (classify(coarse) if coarse else None)
    if known is not None:
        return Category(slug(key), known.kind, known.affordances, known.state), ""
    return (
        Category(key, "asset"),
        f"unknown class '{key}' kept fixed (--movable {key} or --fixed {key} to say)",
    )


def _raw(categories: dict[int, dict[str, Any]], obj: dict[str, Any]) -> str:
    entry = categories.get(obj["category_index"])
    if entry is None:
        return "no category"
    return f"{entry['category_mapping_name']}, mpcat40 {entry['mpcat40_name']}"


def _unique(candidate: str, used: set[str]) -> str:
    base, n = candidate, 2
    while candidate in used:
        candidate, n = f"{base}_{n}", n + 1
    used.add(candidate)
    return candidate


def _contact(a: Any, b: Any) -> list[float] | None:
    """The middle of where two floor polygons touch (at floor height), if they touch widely."""
    touch = a.buffer(CONTACT_GAP / 2).intersection(b.buffer(CONTACT_GAP / 2))
    if touch.is_empty:
        return None
    box = touch.minimum_rotated_rectangle
    corners = list(box.exterior.coords)
    if len(corners) < 3:
        return None
    length = max(math.dist(corners[0], corners[1]), math.dist(corners[1], corners[2]))
    if length < CONTACT_LENGTH:
        return None
    middle = touch.centroid
    return [round(middle.x, 3), round(middle.y, 3), 0.0]


def _bridges(
    rooms: dict[int, str], joined: set[frozenset[int]], room_pos: dict[int, list[float]]
) -> list[tuple[int, int]]:
    """Pairs of rooms that join the pieces of the house, the closest pair first, until one."""
    piece = {r: r for r in rooms}

    def find(r: int) -> int:
        while piece[r] != r:
            r = piece[r]
        return r

    for pair in joined:
        a, b = sorted(pair)
        piece[find(a)] = find(b)
    out = []
    candidates = sorted(
        (math.dist(room_pos[a][:2], room_pos[b][:2]), a, b) for a in rooms for b in rooms if a < b
    )
    for _, a, b in candidates:
        if find(a) != find(b):
            piece[find(a)] = find(b)
            out.append((a, b))
    return out
