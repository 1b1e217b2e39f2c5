"""The place hierarchy above rooms, so that a view of any building can start small.

SayPlan collapses a graph to its rooms, which grows with the building. A
`Hierarchy` groups the places (rooms and poses) further:

    building -> [groups of floors] -> floors -> zones -> [zones] -> rooms and poses

- Floors are the graph's own. A building with more than `FANOUT` floors
  gets groups of consecutive floors, named by their ends (`floor0_to_floor9`),
  nested again when there are more than `FANOUT` groups.
- Zones are the graph's own when its rooms say so: a room attribute
  `zone:NAME` puts the room in zone NAME (written as an id: other characters
  become `_`), and a pose joins the zone of the first zoned room it links to.
  Places without one, on a floor with more than `ZONE_ROOMS` rooms, are
  grouped by the topology: a breadth-first walk over the floor's rooms and
  poses (neighbours in file order, each unvisited place in file order
  starting a new walk) puts the rooms in an order that is cut into even runs
  of at most `ZONE_ROOMS` rooms, and each pose joins the zone of the first
  room it links to (else of the place before it in the walk), so that a zone
  is a stretch of corridor or a wing. They are named `<floor>_zone<n>`. A
  given zone with more rooms than that is cut the same way into `<zone>_<n>`,
  and a floor with more than `FANOUT` zones gets zones of zones.
- Groups of floors and zones are not graph nodes: they exist in views only,
  and a plan cannot name them. Their ids never collide with a node's.

The same graph always gives the same hierarchy. Building it costs one pass
over the places and the topology; nothing below rooms is read except to
count.

>>> from sceneplan.graph import Node, NodeKind, SceneGraph
>>> rooms = [Node(f"office{i}", NodeKind.ROOM, parent="floor0") for i in range(30)]
>>> graph = SceneGraph.from_nodes([Node("floor0", NodeKind.FLOOR), *rooms])
>>> hierarchy = Hierarchy(graph)
>>> hierarchy.children("floor0")
['floor0_zone1', 'floor0_zone2']
>>> hierarchy.summary("floor0_zone2")
'15 rooms: office ×15'
"""

from __future__ import annotations

import math
import re
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from sceneplan.graph.model import PLACE_KINDS, NodeKind, SceneGraph

FANOUT = 10  # at most this many floors (or zones) side by side before they are grouped
ZONE_ROOMS = 20  # at most this many rooms in a computed zone
ZONE_ATTRIBUTE = "zone:"  # a room attribute `zone:east_wing` names the room's zone
SUMMARY_KINDS = 12  # kinds of room a summary names before "+N more"

GROUP_KINDS = ("floor_group", "zone")  # the kinds of the groups that are not graph nodes


@dataclass(frozen=True, slots=True)
class Group:
    """A node of the hierarchy that is not a graph node: a group of floors, or a zone."""

    id: str
    kind: str  # "floor_group" or "zone"
    given: bool = False  # named by the graph (a `zone:` attribute), not computed


class Hierarchy:
    """Places grouped above rooms: who contains whom, and a summary of each container."""

    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self.groups: dict[str, Group] = {}
        self.tops: list[str] = []  # what has no container, in file order
        self._children: dict[str, list[str]] = {}
        self._parent: dict[str, str] = {}
        nodes = graph.nodes
        self._index: dict[str, int] = {}  # file order of the floors and places
        self._room_ids: list[str] = []
        floors_of: dict[str | None, list[str]] = {}
        places_of: dict[str | None, list[str]] = {}
        for index, node in enumerate(graph):
            kind = node.kind
            if kind in _TREE_KINDS:
                self._index[node.id] = index
            if kind is NodeKind.ROOM:
                self._room_ids.append(node.id)
            if kind is NodeKind.BUILDING:
                self.tops.append(node.id)
                floors_of.setdefault(node.id, [])
            elif kind is NodeKind.FLOOR:
                parent = node.parent if node.parent in nodes else None
                floors_of.setdefault(parent, []).append(node.id)
                places_of.setdefault(node.id, [])
            elif kind in PLACE_KINDS:
                parent = node.parent if node.parent in nodes else None
                places_of.setdefault(parent, []).append(node.id)
        loose_floors = floors_of.pop(None, [])
        loose_places = places_of.pop(None, [])
        for building, floors in floors_of.items():
            self._place(cast(str, building), self._nest(floors, "floor_group"))  # None popped
        for floor, places in places_of.items():
            self._place(cast(str, floor), self._zone(floor, places))
        self.tops += self._nest(loose_floors, "floor_group")
        self.tops += self._zone(None, loose_places)
        for top in self.tops:
            self._parent.pop(top, None)
        self._rooms = self._count_rooms()

    # -- queries -------------------------------------------------------------------------

    def children(self, node_id: str) -> list[str]:
        """What a building, group of floors, floor or zone holds, in order; [] for others."""
        return list(self._children.get(node_id, ()))

    def parent(self, node_id: str) -> str | None:
        """The container of a place, floor or group in the hierarchy; None at the top."""
        return self._parent.get(node_id)

    def ancestors(self, node_id: str) -> list[str]:
        """The containers of a node, nearest first; a node below rooms goes through its room."""
        start = node_id
        if node_id in self.graph.nodes and self.graph.nodes[node_id].kind not in _TREE_KINDS:
            start = self.graph.room_of(node_id) or node_id
        out = [] if start == node_id else [start]
        parent = self._parent.get(start)
        while parent is not None:
            out.append(parent)
            parent = self._parent.get(parent)
        return out

    def kind(self, node_id: str) -> str:
        """`floor_group`, `zone`, or the graph node's kind."""
        group = self.groups.get(node_id)
        return group.kind if group is not None else self.graph.node(node_id).kind.value

    def is_container(self, node_id: str) -> bool:
        """Whether expanding the node shows places, floors or groups (not a room's contents)."""
        return node_id in self._children

    def rooms(self, node_id: str) -> Counter[str]:
        """The kinds of room under a container, with how many of each."""
        return self._rooms.get(node_id, Counter())

    def summary(self, node_id: str) -> str:
        """How many rooms a container holds and of which kinds, most common first.

        For example `412 rooms: office ×300, kitchen ×12, server_room, +3 more`.
        """
        kinds = self.rooms(node_id)
        total = sum(kinds.values())
        if not total:
            return "no rooms"
        ranked = sorted(kinds.items(), key=lambda item: -item[1])  # stable: first seen first
        named = [f"{kind} ×{n}" if n > 1 else kind for kind, n in ranked[:SUMMARY_KINDS]]
        if len(ranked) > SUMMARY_KINDS:
            named.append(f"+{len(ranked) - SUMMARY_KINDS} more")
        return f"{total} room{'s' if total != 1 else ''}: {', '.join(named)}"

    def depth(self) -> int:
        """Containers on the longest path from the top down to a room."""
        best = 0
        for top in self.tops:
            stack = [(top, 1)]
            while stack:
                node, level = stack.pop()
                kids = self._children.get(node, ())
                if any(k not in self._children for k in kids):
                    best = max(best, level)
                stack.extend((k, level + 1) for k in kids if k in self._children)
        return best

    # -- building ------------------------------------------------------------------------

    def _place(self, parent: str, children: list[str]) -> None:
        self._children[parent] = children
        for child in children:
            self._parent[child] = parent

    def _new_group(self, wanted: str, kind: str, children: list[str], given: bool = False) -> str:
        group_id, n = wanted, 1
        while group_id in self.graph.nodes or group_id in self.groups:
            n += 1
            group_id = f"{wanted}_{n}"
        self.groups[group_id] = Group(group_id, kind, given)
        self._place(group_id, children)
        return group_id

    def _nest(self, items: list[str], kind: str) -> list[str]:
        """`items` as they sit under one container: grouped in runs while there are too many."""
        ends = {item: (item, item) for item in items}  # a group is named by its first and last
        while len(items) > FANOUT:
            grouped = []
            for run in _runs(items, FANOUT):
                first, last = ends[run[0]][0], ends[run[-1]][1]
                group = self._new_group(f"{first}_to_{last}", kind, run)
                ends[group] = (first, last)
                grouped.append(group)
            items = grouped
        return items

    def _first(self, node_id: str) -> str:
        while node_id in self.groups:
            node_id = self._children[node_id][0]
        return node_id

    def _zone(self, floor: str | None, places: list[str]) -> list[str]:
        """The children of a floor: its given zones, computed zones or places, nested."""
        nodes = self.graph.nodes
        given: dict[str, list[str]] = {}
        zone_of: dict[str, str] = {}
        for place in places:
            name = _zone_name(nodes[place].attributes)
            if name is not None:
                given.setdefault(name, []).append(place)
                zone_of[place] = name
        if given:
            members = set(places)
            posed: set[str] = set()  # poses that joined a zone: they do not pass it on
            for place in places:
                if nodes[place].kind is NodeKind.POSE and place not in zone_of:
                    for other in sorted(self.graph.neighbours(place), key=self._order):
                        if other in members and other in zone_of and other not in posed:
                            zone_of[place] = zone_of[other]
                            given[zone_of[other]].append(place)
                            posed.add(place)
                            break
        children: list[str] = []
        for name, group in given.items():
            ordered = sorted(group, key=self._order)
            zone = self._new_group(name, "zone", [], given=True)
            self._place(zone, self._cluster(f"{zone}_", ordered))
            children.append(zone)
        rest = [p for p in places if p not in zone_of]
        children += self._cluster(f"{floor}_zone" if floor is not None else "zone", rest)
        zones = [c for c in children if c in self.groups]
        if len(zones) > FANOUT:  # places that are in no zone stay beside the zones
            nested = self._nest(sorted(zones, key=self._start), "zone")
            children = nested + [c for c in children if c not in self.groups]
        return sorted(children, key=self._start)

    def _cluster(self, base: str, places: list[str]) -> list[str]:
        """Places cut into zones `<base><n>` of at most ZONE_ROOMS rooms along the topology,
        or as they are when there are no more rooms than that.

        The rooms are cut in the order of the walk; a pose then joins the zone of
        the first room it links to (file order), else that of the place before it
        in the walk, so that a room and its door stay together.
        """
        nodes = self.graph.nodes
        order = self._walk(places)
        rooms = [p for p in order if nodes[p].kind is NodeKind.ROOM]
        if len(rooms) <= ZONE_ROOMS:
            return places
        size = math.ceil(len(rooms) / math.ceil(len(rooms) / ZONE_ROOMS))  # even zones
        zone_of = {room: i // size for i, room in enumerate(rooms)}
        runs: list[list[str]] = [[] for _ in range(math.ceil(len(rooms) / size))]
        previous = 0
        for place in order:
            zone = zone_of.get(place)
            if zone is None:
                doors = [n for n in self.graph.neighbours(place) if n in zone_of]
                linked = sorted(doors, key=self._order)
                zone = zone_of[linked[0]] if linked else previous
            runs[zone].append(place)
            previous = zone
        return [self._new_group(f"{base}{n}", "zone", run) for n, run in enumerate(runs, 1)]

    def _walk(self, places: list[str]) -> list[str]:
        """Breadth-first over the topology among `places`, neighbours in file order."""
        members = set(places)
        seen: set[str] = set()
        order: list[str] = []
        for start in places:
            if start in seen:
                continue
            seen.add(start)
            queue = deque([start])
            while queue:
                place = queue.popleft()
                order.append(place)
                nearby = [n for n in self.graph.neighbours(place) if n in members and n not in seen]
                for other in sorted(nearby, key=self._order):
                    seen.add(other)
                    queue.append(other)
        return order

    def _order(self, node_id: str) -> int:
        return self._index[node_id]

    def _start(self, node_id: str) -> int:
        """Where a place, or a group's first place, comes in the file."""
        return self._index[self._first(node_id)]

    def _count_rooms(self) -> dict[str, Counter[str]]:
        counts: dict[str, Counter[str]] = {container: Counter() for container in self._children}
        nodes = self.graph.nodes
        for room in self._room_ids:
            kind = nodes[room].category
            parent = self._parent.get(room)
            while parent is not None:
                counts[parent][kind] += 1
                parent = self._parent.get(parent)
        return counts


_TREE_KINDS = frozenset({NodeKind.BUILDING, NodeKind.FLOOR, NodeKind.ROOM, NodeKind.POSE})
_NOT_ID = re.compile(r"[^\w\-.]+")


def _zone_name(attributes: Iterable[str]) -> str | None:
    """The zone a room's attributes name, as an id (other characters become `_`)."""
    for word in attributes:
        if word.startswith(ZONE_ATTRIBUTE):
            name = _NOT_ID.sub("_", word[len(ZONE_ATTRIBUTE) :].strip()).strip("_")
            if name:
                return name
    return None


def _runs(items: list[str], most: int) -> list[list[str]]:
    """`items` cut into the fewest runs of at most `most`, as even as possible, in order."""
    count = math.ceil(len(items) / most)
    size, extra = divmod(len(items), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (i < extra)
        out.append(items[start:end])
        start = end
    return out
