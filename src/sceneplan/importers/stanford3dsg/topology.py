"""Doors and stairs of a Stanford 3D Scene Graph building, derived from its room boxes.

Two rooms on the same floor whose boxes touch (or overlap) along at least a
door's width share a door pose at the middle of the contact; a floor still in
pieces is joined at its closest pair of rooms (noted); each staircase leads
through a pose pair to the room above it that it overlaps most; a floor no
staircase reaches is joined to the floor below by a stair between their
closest rooms (noted).
"""

from __future__ import annotations

from collections import defaultdict

from sceneplan.importers.stanford3dsg.builder import Builder
from sceneplan.importers.stanford3dsg.geometry import Box

__all__ = ["add_doors", "add_stairs", "join_floors", "room_links"]

# Geometry thresholds, in metres.
DOOR_GAP = 0.25  # two room boxes at most this far apart can share a door...
DOOR_WIDTH = 0.8  # ...if they face each other along at least this length


def add_doors(
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


def add_stairs(
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


def join_floors(b: Builder, level: dict[str, int], floors: list[str]) -> None:
    """Join floors no staircase reaches: a stair between the closest rooms of adjacent floors.

    `level` is each room's floor index, `floors` the floor ids from the lowest.
    """
    piece = {name: name for name in b.room_boxes}

    def find(name: str) -> str:
        while piece[name] != name:
            name = piece[name]
        return name

    for a, c in room_links(b):
        piece[find(a)] = find(c)
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
        bottom = b.add_pose(floors[level[lower]], x, y, low_box.zmin)
        top = b.add_pose(floors[level[upper]], x, y, up_box.zmin)
        b.links.extend([(lower, bottom), (bottom, top), (upper, top)])
        b.report.guessed("stair pose: joins a floor no staircase reaches", 2)
        b.report.notes.append(
            f"no staircase joins {upper} to {lower}: joined by a stair between them (closest)"
        )
        piece[find(lower)] = find(upper)


def room_links(b: Builder) -> list[tuple[str, str]]:
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
