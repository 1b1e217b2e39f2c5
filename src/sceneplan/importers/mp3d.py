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
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph.io import from_dict, native_node
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.taxonomy import Category, Supports, classify, nearest, override, slug
from sceneplan.textinput import parse_int, read_text, shown

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
    info, polygons = _read(path)
    classes = _classes(movable, fixed)
    report = ImportReport("mp3d")
    nodes, rooms = _floors_and_rooms(info, report)
    objects = _Objects(info, rooms, classes, used={n["id"] for n in nodes} | {"agent"})
    nodes += objects.assets(report)
    nodes += objects.movable(report)
    nodes += objects.supports.derived
    poses, links = _topology(objects.doors, rooms.names, rooms.level, rooms.pos, polygons, report)
    nodes += poses
    names = rooms.names
    entry = next((r for r in sorted(names) if names[r].startswith("entryway")), min(names))
    nodes.append(native_node(id="agent", kind="agent", parent=names[entry]))
    report.notes.append(f"the robot starts in {names[entry]} (a house file has no robot)")
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


HOUSE_VERSIONS = ("ASCII 1.1",)  # the first line of the .house files Matterport3D released
# Each kind of line, in the order a house file has them: what it is, the words of the `H`
# line that count its lines (P lines are portals and panoramas), how many fields one has,
# and whether sceneplan reads it. Spark-DSG's own example drops the images and panoramas
# and keeps 6 of its 27,703 segments: fewer lines of a kind nobody reads is no fault,
# unless the file stops inside that kind (a later kind missing) or inside a line.
_SECTIONS = {
    "L": ("levels", (12,), 18, True),
    "R": ("regions", (10,), 20, True),
    "S": ("surfaces", (6,), 22, True),
    "V": ("vertices", (5,), 13, True),
    "P": ("portals and panoramas", (11, 4), 13, False),
    "I": ("images", (3,), 41, False),
    "C": ("categories", (9,), 11, True),
    "O": ("objects", (8,), 24, True),
    "E": ("segments", (7,), 19, False),
}
_CUT = "the file is cut short; copy it again"


def check_house(path: Path) -> None:
    """Refuse a .house file of a version spark_dsg.mp3d was not written for, and a cut one:
    fewer lines of a kind sceneplan reads than its header (`H`) declares, a kind it does
    not read begun but followed by none of the kinds after it, or a last line with fewer
    fields than its kind has (spark_dsg.mp3d reads what is there, and half a house would
    import as its first rooms without a word)."""
    lines = read_text(path).splitlines()
    first = lines[0].strip() if lines else ""
    if first not in HOUSE_VERSIONS:
        raise BadInputError(
            f"{path}: begins {shown(first)}, not {' or '.join(map(repr, HOUSE_VERSIONS))}: "
            "not a Matterport3D house file of a version sceneplan reads"
        )
    header = lines[1].split() if len(lines) > 1 else []
    if not header or header[0] != "H" or len(header) <= 12:
        raise BadInputError(f"{path}: line 2 is not the house file's header (an H line)")
    counts = Counter(line[:1] for line in lines[2:])
    declared = {
        kind: sum(parse_int(header[i], f"{path}: the H line") for i in words if header[i].isdigit())
        for kind, (_, words, _, _) in _SECTIONS.items()
    }
    kinds = list(_SECTIONS)
    for at, (kind, (what, _, _, read)) in enumerate(_SECTIONS.items()):
        if counts[kind] >= declared[kind]:
            continue
        stops = any(counts[k] == 0 < declared[k] for k in kinds[at + 1 :])
        if read or (counts[kind] and stops):
            raise BadInputError(
                f"{path}: the header declares {declared[kind]:,} {what}, the file has "
                f"{counts[kind]:,} ({kind} lines): {_CUT}"
            )
    last = lines[-1].split()
    if last and last[0] in _SECTIONS and len(last) < _SECTIONS[last[0]][2]:
        what, _, fields, _ = _SECTIONS[last[0]]
        raise BadInputError(
            f"{path}: the last line, one of the {what} ({last[0]}), has {len(last)} of its "
            f"{fields} fields: {_CUT}"
        )


def _read(path: Path) -> tuple[dict[str, Any], dict[int, Any]]:
    """The house file's tables and its regions' floor polygons by region index."""
    mp3d = _mp3d()
    check_house(path)
    try:
        info = mp3d.load_mp3d_info(str(path))
        rooms = mp3d.get_rooms_from_mp3d_info(info, angle_deg=0.0)  # one per region, in order
        polygons = dict(zip((r["region_index"] for r in info["R"]), rooms, strict=True))
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        raise BadInputError(
            f"{path}: not a Matterport3D house file spark_dsg.mp3d can read "
            f"({type(exc).__name__}: {exc})"
        ) from None
    if not info["R"]:
        raise BadInputError(f"{path}: no regions (R lines): not a Matterport3D house file")
    return info, polygons


class _Classes(NamedTuple):
    """The classes the user made movable (--movable) and fixed (--fixed), as slugs."""

    movable: set[str]
    fixed: set[str]


def _classes(movable: Iterable[str], fixed: Iterable[str]) -> _Classes:
    classes = _Classes({slug(c) for c in movable}, {slug(c) for c in fixed})
    if classes.movable & classes.fixed:
        raise BadInputError(
            f"class {sorted(classes.movable & classes.fixed)[0]} is given both --movable and "
            "--fixed; keep one of them"
        )
    return classes


class _Rooms(NamedTuple):
    """The kept regions by region index: room id, level and position."""

    names: dict[int, str]
    level: dict[int, int]
    pos: dict[int, list[float]]


def _floors_and_rooms(
    info: dict[str, Any], report: ImportReport
) -> tuple[list[dict[str, Any]], _Rooms]:
    """The building, a floor per level and a room per region (junk regions dropped)."""
    nodes: list[dict[str, Any]] = [native_node(id="house", kind="building")]
    report.mapped("house -> the building")
    levels = sorted({r["level_index"] for r in info["R"]})
    for level in levels:
        nodes.append(native_node(id=f"floor{level}", kind="floor", parent="house"))
    report.mapped("level -> floor", len(levels))
    rooms = _Rooms({}, {}, {})
    for region in info["R"]:
        label = REGION_LABELS.get(region["label"], "room")
        if label == "junk":
            report.dropped("region labelled junk (Z)")
            continue
        index = region["region_index"]
        rooms.names[index] = f"{label}{index}"
        rooms.level[index] = region["level_index"]
        rooms.pos[index] = _position(region)
        nodes.append(
            native_node(
                id=rooms.names[index],
                kind="room",
                parent=f"floor{region['level_index']}",
                category=label,
                position=rooms.pos[index],
                description=f"Matterport3D region {index}, label {region['label']} ({label})",
            )
        )
        report.mapped(f"region -> room ({label})")
    return nodes, rooms


def _position(entry: dict[str, Any]) -> list[float]:
    """A region's or an object's position, to the millimetre."""
    return [round(float(v), 3) for v in entry["pos"]]


class _Objects:
    """The house's objects: each one's class and room, then its node (asset or movable)."""

    def __init__(self, info: dict[str, Any], rooms: _Rooms, classes: _Classes, used: set[str]):
        self.objects = info["O"]
        self.rooms = rooms.names
        self.categories = {c["category_index"]: c for c in info["C"]}
        self.kinds: dict[int, tuple[Category, str]] = {}
        self.doors: list[dict[str, Any]] = []
        for obj in self.objects:
            entry = self.categories.get(obj["category_index"])
            raw = entry["category_mapping_name"] if entry else ""
            coarse = entry["mpcat40_name"] if entry else ""
            if coarse == "door" or slug(raw) in ("door", "doorframe"):
                self.doors.append(obj)
            self.kinds[obj["object_index"]] = _category(raw, coarse, classes.movable, classes.fixed)
        self.room_of: dict[int, int] = {}  # object index -> region index
        for obj in self.objects:
            if obj["region_index"] in self.rooms:
                self.room_of[obj["object_index"]] = obj["region_index"]
            else:
                where = [float(v) for v in obj["pos"]]
                guess = nearest(where, ((str(r), p) for r, p in rooms.pos.items()))
                if guess is not None:
                    self.room_of[obj["object_index"]] = int(guess)
        self.ids: dict[int, str] = {}  # object index -> node id, for the objects kept
        self.used = used
        self.supports = Supports(lambda stem: _unique(stem, used))

    def assets(self, report: ImportReport) -> list[dict[str, Any]]:
        """The fixed assets; gives every kept object its id (doors go to the topology)."""
        nodes = []
        for obj in self.objects:
            index = obj["object_index"]
            category, why = self.kinds[index]
            if any(door is obj for door in self.doors):
                continue  # counted with the topology
            if category.kind == "unlabelled":
                report.dropped("object -> nothing: no class in the file (unknown, misc)")
                continue
            if category.kind == "structure":
                report.dropped(f"object -> nothing: {category.name} is part of the building")
                continue
            if index not in self.room_of:
                report.dropped("object in no room (no regions)")
                continue
            node_id = self.ids[index] = _unique(f"{category.name}{index}", self.used)
            if category.kind != "asset":
                continue
            room = self.rooms[self.room_of[index]]
            self.supports.add(room, node_id, _position(obj), category.affordances)
            nodes.append(self._node(obj, node_id, "asset", room))
            if why:
                report.guessed(f"object -> fixed asset: {why}")
            else:
                report.mapped(f"object -> fixed asset ({category.name})")
            if obj["region_index"] not in self.rooms:
                report.notes.append(f"object {index} has no region: put in the nearest room")
        return nodes

    def movable(self, report: ImportReport) -> list[dict[str, Any]]:
        """The movable objects, each on (or in) the nearest asset of its room that holds things."""
        nodes = []
        for obj in self.objects:
            index = obj["object_index"]
            category, why = self.kinds[index]
            if index not in self.ids or category.kind != "object":
                continue
            room = self.rooms[self.room_of[index]]
            parent, relation, how = self.supports.place(room, _position(obj))
            nodes.append(self._node(obj, self.ids[index], "object", parent, relation))
            reason = f"object -> movable {category.name}, {how}"
            report.guessed(reason + (f" ({why})" if why else ""))
        return nodes

    def _node(
        self, obj: dict[str, Any], node_id: str, kind: str, parent: str, relation: str | None = None
    ) -> dict[str, Any]:
        category = self.kinds[obj["object_index"]][0]
        return native_node(
            id=node_id,
            kind=kind,
            parent=parent,
            relation=relation,
            category=category.name,
            affordances=category.affordances,
            state=category.state,
            position=_position(obj),
            description=f"Matterport3D object {obj['object_index']} ({self._raw(obj)})",
        )

    def _raw(self, obj: dict[str, Any]) -> str:
        entry = self.categories.get(obj["category_index"])
        if entry is None:
            return "no category"
        return f"{entry['category_mapping_name']}, mpcat40 {entry['mpcat40_name']}"


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
            where = _position(door)
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
    # the coarse mpcat40 class only when it names one: its generic "objects" covers
    # radiators and faucets as well as cups
    generic = slug(coarse) in UNLABELLED | {""}
    known = classify(key) or (None if generic else classify(coarse))
    if known is not None:
        return Category(slug(key), known.kind, known.affordances, known.state), ""
    return (
        Category(key, "asset"),
        f"unknown class '{key}' kept fixed (--movable {key} or --fixed {key} to say)",
    )


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
