"""Where the viewer draws floors, rooms and poses: node positions where the graph has them.

Each floor is laid out on its own plane, in metres. A floor whose rooms all
have positions keeps them (x east, y north, drawn with north up); otherwise
the floor gets a hierarchical layout: its rooms on a grid in file order, its
poses beside the rooms they link. Assets and objects are placed in the
browser, inside their room, when the room is opened.

>>> from sceneplan.datasets import load_environment
>>> floors = layout_floors(load_environment("coffee"))
>>> [(f.floor, len(f.rooms), len(f.poses), f.positioned) for f in floors]
[('floor0', 5, 5, True)]
>>> floors[0].rooms[1]
('toms_room', 4.0, 0.0)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from sceneplan.graph.model import NodeKind, SceneGraph

GRID_SPACING = 8.0  # metres between room centres in the hierarchical layout
_SAMPLE = 200  # rooms whose nearest neighbour is measured to size the room boxes


@dataclass
class FloorLayout:
    """One floor's places, each `(id, x, y)` in drawing coordinates (y down), and box size."""

    floor: str | None  # None: rooms and poses that belong to no floor
    rooms: list[tuple[str, float, float]] = field(default_factory=list)
    poses: list[tuple[str, float, float]] = field(default_factory=list)
    positioned: bool = False
    box: float = 1.0  # side of a room's square, in metres

    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) around the room boxes and poses."""
        half = self.box / 2
        xs = [x for _, x, _ in self.rooms + self.poses] or [0.0]
        ys = [y for _, _, y in self.rooms + self.poses] or [0.0]
        return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)


def layout_floors(graph: SceneGraph) -> list[FloorLayout]:
    """The floors in file order (then the places under no floor), each laid out."""
    places: dict[str | None, FloorLayout] = {
        n.id: FloorLayout(n.id) for n in graph if n.kind is NodeKind.FLOOR
    }
    rooms: dict[str | None, list[str]] = {key: [] for key in places}
    poses: dict[str | None, list[str]] = {key: [] for key in places}
    for node in graph:
        if node.kind not in (NodeKind.ROOM, NodeKind.POSE):
            continue
        floor = node.parent if node.parent in places else None
        if floor is None and None not in places:
            places[None], rooms[None], poses[None] = FloorLayout(None), [], []
        (rooms if node.kind is NodeKind.ROOM else poses)[floor].append(node.id)
    for key, layout in places.items():
        _lay_out(graph, layout, rooms[key], poses[key])
    return list(places.values())


def _lay_out(graph: SceneGraph, floor: FloorLayout, rooms: list[str], poses: list[str]) -> None:
    nodes = graph.nodes
    floor.positioned = bool(rooms) and all(nodes[r].position is not None for r in rooms)
    xy: dict[str, tuple[float, float]] = {}
    if floor.positioned:
        for room in rooms:
            position = nodes[room].position
            assert position is not None
            xy[room] = (position[0], -position[1])
    else:
        columns = max(1, math.ceil(math.sqrt(len(rooms))))
        for index, room in enumerate(rooms):
            row, column = divmod(index, columns)
            xy[room] = (column * GRID_SPACING, row * GRID_SPACING)
    floor.box = _box_size(list(xy.values())) if floor.positioned else GRID_SPACING * 0.6
    unplaced = []
    for pose in poses:
        position = nodes[pose].position
        if floor.positioned and position is not None:
            xy[pose] = (position[0], -position[1])
        else:
            unplaced.append(pose)
    for pose in unplaced:  # between the places it links, when they are placed
        near = [xy[n] for n in graph.topology.neighbors(pose) if n in xy]
        if near:
            x = sum(p[0] for p in near) / len(near)
            y = sum(p[1] for p in near) / len(near) + (floor.box * 0.7 if len(near) == 1 else 0)
            xy[pose] = (x, y)
        else:
            top = max((p[1] for p in xy.values()), default=0.0)
            xy[pose] = (len(xy) * 1.5 % 40, top + GRID_SPACING)
    floor.rooms = [(r, *_rounded(xy[r])) for r in rooms]
    floor.poses = [(p, *_rounded(xy[p])) for p in poses]


def _box_size(points: list[tuple[float, float]]) -> float:
    """Half the median distance from a room to its nearest neighbour (sampled when many)."""
    if len(points) < 2:
        return 4.0
    sample = points if len(points) <= _SAMPLE else random.Random(0).sample(points, _SAMPLE)
    nearest = []
    for a in sample:
        best = min((math.dist(a, b) for b in points if b is not a and b != a), default=0.0)
        if best > 0:
            nearest.append(best)
    if not nearest:
        return 4.0
    nearest.sort()
    return max(0.5, round(nearest[len(nearest) // 2] * 0.7, 2))


def _rounded(point: tuple[float, float]) -> tuple[float, float]:
    return (round(point[0], 2) + 0.0, round(point[1], 2) + 0.0)  # + 0.0: no -0.0
