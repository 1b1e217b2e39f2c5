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

from sceneplan.errors import BadInputError
from sceneplan.graph.io import native_node
from sceneplan.importers.base import ImportReport
from sceneplan.importers.spark_dsg import labelspaces
from sceneplan.importers.spark_dsg.pieces import join_pieces
from sceneplan.importers.taxonomy import Category, Supports, classify, nearest, override, slug

__all__ = ["Options", "convert_nodes", "kept_ids", "symbol_of"]

_SYMBOL_NAME = re.compile(r"^[A-Za-z]\(\d+\)$")  # Hydra's default names: O(11), R(0)
_SYMBOL_IN_DESCRIPTION = re.compile(r"Hydra node (\S+?)[,)]")
OBJECTS, PLACES, ROOMS, BUILDINGS = 2, 3, 4, 5  # spark_dsg.DsgLayers' layer ids


@dataclass
class Options:
    """What the user says about the file: label names, and classes forced movable or fixed."""

    object_labels: Mapping[int, str] | None = None  # when the file has no labelspace
    object_labels_from: str = ""  # where they came from, for the report
    movable: frozenset[str] = frozenset()
    fixed: frozenset[str] = frozenset()
    keep_ids: Mapping[str, str] = field(default_factory=dict)  # symbol -> id (live updates)


def symbol_of(node: Any) -> str:
    """A node's symbol as Hydra prints it (`O11`, `p657`)."""
    return str(node.id.str())


def kept_ids(nodes: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Symbol -> id of the nodes of an earlier import (read from their descriptions)."""
    out = {}
    for node in nodes:
        found = _SYMBOL_IN_DESCRIPTION.search(str(node.get("description", "")) + ",")
        if found:
            out[found.group(1)] = node["id"]
    return out


def convert_nodes(
    graph: Any, report: ImportReport, options: Options
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The native nodes and links of a DynamicSceneGraph, counting every file node once."""
    conversion = _Conversion(graph, report, options)
    return conversion.nodes, sorted(conversion.links)


class _Conversion:
    """One pass over the file, in the order the rules need: rooms, places, objects, the robot."""

    def __init__(self, graph: Any, report: ImportReport, options: Options):
        self.graph, self.report, self.options = graph, report, options
        self.by_id: dict[int, Any] = {}
        self.kinds: dict[int, str] = {}
        for node in graph.nodes:
            self.by_id[node.id.value] = node
            self.kinds[node.id.value] = self._kind(node)
        self.neighbours: dict[int, set[int]] = {i: set() for i in self.by_id}
        for edge in graph.edges:
            if edge.source in self.neighbours and edge.target in self.neighbours:
                self.neighbours[edge.source].add(edge.target)
                self.neighbours[edge.target].add(edge.source)
        self.ids: dict[int, str] = {}
        self.used: set[str] = {"agent", "floor0"}
        self.nodes: list[dict[str, Any]] = []
        self.links: set[tuple[str, str]] = set()
        self.floor: str | None = None
        self._buildings_and_rooms()
        self.place_room = self._place_rooms()
        self._poses_and_links()
        join_pieces(
            {self.ids[n]: self.position(n) for n in (*self.of("room"), *self.place_room)},
            self.links,
            {self.ids[r] for r in self.of("room")},
            {self.ids[p] for p in self.place_room},
            report,
        )
        self._objects()
        self._robot()

    # -- node kinds, names and ids ---------------------------------------------------------

    def _kind(self, node: Any) -> str:
        key = node.layer
        if type(node.attributes).__name__ == "AgentNodeAttributes":
            return "agent"
        if key.layer == PLACES:
            if key.partition == 0 or getattr(node.attributes, "position", None) is not None:
                return "place"  # 3D places, and 2D places (partition 1: traversable regions)
            self.report.dropped(
                f"place without a position (places layer, partition {key.partition})"
            )
            return "no_position"
        if key.layer == OBJECTS and key.partition == 0:
            return "object"
        if key.layer in (ROOMS, BUILDINGS):
            return "room" if key.layer == ROOMS else "building"
        self.report.dropped(
            f"node of layer {key.layer}"
            + (f" partition {key.partition}" if key.partition else "")
            + " (not objects, places, rooms, buildings or agents)"
        )
        return "other"

    def of(self, kind: str) -> list[int]:
        return sorted(i for i, k in self.kinds.items() if k == kind)

    def unique(self, candidate: str) -> str:
        base, n = candidate, 2
        while candidate in self.used:
            candidate, n = f"{base}_{n}", n + 1
        self.used.add(candidate)
        return candidate

    def name_of(self, node_id: int) -> str:
        """The node's own name, unless it is only its symbol (`O(11)`)."""
        name = (getattr(self.by_id[node_id].attributes, "name", "") or "").strip()
        return "" if _SYMBOL_NAME.match(name) else name

    def claim(self, node_id: int, stem: str) -> str:
        """The node's id: an earlier import's, else its own name, else stem + symbol index."""
        symbol = symbol_of(self.by_id[node_id])
        own = slug(self.name_of(node_id))
        if symbol in self.options.keep_ids:
            candidate = self.options.keep_ids[symbol]
        elif own:
            candidate = own
        else:
            index = int(self.by_id[node_id].id.category_id)
            candidate = f"{stem}_{index}" if stem[-1:].isdigit() else f"{stem}{index}"
        self.ids[node_id] = self.unique(candidate)
        return self.ids[node_id]

    def position(self, node_id: int) -> list[float] | None:
        pos = getattr(self.by_id[node_id].attributes, "position", None)
        return None if pos is None else [round(float(v), 3) for v in pos]

    def described(self, node_id: int, category: str) -> str:
        node = self.by_id[node_id]
        label = getattr(node.attributes, "semantic_label", None)
        parts = [f"Hydra node {symbol_of(node)}"]
        if self.name_of(node_id):
            parts.append(f"named {self.name_of(node_id)}")
        if label is not None and label != getattr(node.attributes, "NO_SEMANTIC_LABEL", -1):
            parts.append(f"label {label}" + (f" ({category})" if category else ""))
        return ", ".join(parts)

    # -- the building, rooms, places --------------------------------------------------------

    def _buildings_and_rooms(self) -> None:
        buildings = self.of("building")
        for b in buildings:
            self.claim(b, "building")
            self.nodes.append(
                native_node(id=self.ids[b], kind="building", description=self.described(b, ""))
            )
            self.report.mapped("building")
        if buildings:
            self.floor = "floor0"
            self.nodes.append(native_node(id="floor0", kind="floor", parent=self.ids[buildings[0]]))
        labels = dict(self.graph.get_labelspace(ROOMS, 0).labels_to_names)
        for r in self.of("room"):
            label = getattr(self.by_id[r].attributes, "semantic_label", None)
            category = slug(labels.get(label, "")) if label is not None else ""
            self.claim(r, category or "room")
            self.nodes.append(
                native_node(
                    id=self.ids[r],
                    kind="room",
                    parent=self.floor,
                    category=category or None,
                    position=self.position(r),
                    description=self.described(r, category),
                )
            )
            self.report.mapped("room" + (" (category from the labelspace)" if category else ""))

    def _place_rooms(self) -> dict[int, int]:
        """Each place's room: the one the fewest place hops lead to (ties: the first room)."""
        place_room: dict[int, int] = {}
        frontier: deque[int] = deque()
        for p in self.of("place"):
            linked = sorted(n for n in self.neighbours[p] if self.kinds[n] == "room")
            if linked:
                place_room[p] = linked[0]
                frontier.append(p)
        while frontier:
            p = frontier.popleft()
            for n in sorted(self.neighbours[p]):
                if self.kinds[n] == "place" and n not in place_room:
                    place_room[n] = place_room[p]
                    frontier.append(n)
        return place_room

    def _poses_and_links(self) -> None:
        for p in self.of("place"):
            if p not in self.place_room:
                self.report.dropped("place in no room (no path of places leads to a room)")
                continue
            self.claim(p, "pose")
            self.nodes.append(
                native_node(
                    id=self.ids[p], kind="pose", parent=self.floor, position=self.position(p)
                )
            )
            flat = self.by_id[p].layer.partition != 0
            self.report.mapped("2D place -> pose" if flat else "place -> pose")
        kept = set(self.of("room")) | set(self.place_room)
        for a in kept:
            for b in self.neighbours[a] & kept:  # place-place, place-room, room-room
                first, second = sorted((self.ids[a], self.ids[b]))
                self.links.add((first, second))

    # -- objects ---------------------------------------------------------------------------

    def _object_room(self, o: int) -> int:
        direct = sorted(n for n in self.neighbours[o] if self.kinds[n] == "room")
        via = sorted(self.place_room[n] for n in self.neighbours[o] if n in self.place_room)
        if direct or via:
            return (direct or via)[0]
        rooms = [(str(r), self.position(r)) for r in self.of("room")]
        self.report.notes.append(
            f"{symbol_of(self.by_id[o])}: in no room by its edges; put in the nearest room"
        )
        return int(nearest(self.position(o), rooms) or rooms[0][0])

    def _classes(self) -> dict[int, tuple[Category, str]]:
        """Each object's category and, where the table's plain answer was not taken, why."""
        file_labels = dict(self.graph.get_labelspace(OBJECTS, 0).labels_to_names)
        unnamed = {
            o: getattr(self.by_id[o].attributes, "semantic_label", None)
            for o in self.of("object")
            if not (self.name_of(o) and classify(self.name_of(o)) is not None)
        }
        missing = {
            int(label)
            for label in unnamed.values()
            if label is not None and label not in file_labels
        }
        fallback = dict(self.options.object_labels or {})
        if missing and self.options.object_labels is None:
            fallback = self._recognised(missing)
        out, through_fallback = {}, 0
        for o in self.of("object"):
            label = getattr(self.by_id[o].attributes, "semantic_label", None)
            own = self.name_of(o)
            if label in file_labels:
                class_name = file_labels[label]
            elif o not in unnamed:
                class_name = own  # Hydra named it by its class
            elif label in fallback:
                class_name, through_fallback = fallback[label], through_fallback + 1
            else:
                class_name = own
            out[o] = _category(class_name, label, self.options)
        if through_fallback:
            self.report.notes.append(
                f"object classes: the file has no labelspace for layer {OBJECTS}; "
                f"{through_fallback} label(s) read through {self.options.object_labels_from} "
                "(--labelspace NAME|FILE to give yours)"
            )
        return out

    def _recognised(self, labels: set[int]) -> dict[int, str]:
        """The one packaged label space naming all `labels`, said in the report's first line."""
        fits = labelspaces.fitting(labels)
        if len(fits) != 1:
            shown = ", ".join(str(label) for label in sorted(labels)[:8])
            hint = (
                f"they fit {', '.join(fits)}"
                if fits
                else f"no packaged space names them all: {', '.join(labelspaces.names())}"
            )
            raise BadInputError(
                f"the file has no label space for its objects (labels {shown}"
                f"{' ...' if len(labels) > 8 else ''}): give --labelspace NAME or FILE ({hint})"
            )
        (name,) = fits
        space = labelspaces.packaged(name)
        assert space is not None
        self.options.object_labels_from = f"Hydra's {name} label space"
        self.report.headline.append(
            f"object labels read as Hydra's {name} label space, the only packaged one naming "
            "them all (--labelspace NAME|FILE to give another)"
        )
        return space[0]

    def _objects(self) -> None:
        if not self.of("room"):
            self.report.dropped("object: the file has no room", len(self.of("object")))
            return
        classes = self._classes()
        supports = Supports(self.unique)
        room_of: dict[int, str] = {}
        movable = []
        for o in self.of("object"):
            category, why = classes[o]
            if category.kind == "structure":
                self.report.dropped(f"object -> nothing: {category.name} is part of the building")
                continue
            room_of[o] = self.ids[self._object_room(o)]
            self.claim(o, category.name)
            if category.kind == "object":
                movable.append(o)
                continue
            supports.add(room_of[o], self.ids[o], self.position(o), category.affordances)
            self.nodes.append(self._thing(o, "asset", category, parent=room_of[o]))
            if why:
                self.report.guessed(f"object -> fixed asset: {why}")
            else:
                self.report.mapped(f"object -> fixed asset ({category.name})")
        for o in movable:
            category, why = classes[o]
            holders = sorted(
                n
                for n in self.neighbours[o]
                if self.kinds[n] == "object" and n in room_of and n not in movable
                and "release" in classes[n][0].affordances
            )  # fmt: skip
            if holders:
                parent = self.ids[holders[0]]
                relation, how = supports.relation(parent), "on the asset its edge names"
            else:
                parent, relation, how = supports.place(room_of[o], self.position(o))
            self.nodes.append(self._thing(o, "object", category, parent=parent, relation=relation))
            self.report.guessed(
                f"object -> movable {category.name}, {how}" + (f" ({why})" if why else "")
            )
        self.nodes += supports.derived

    def _thing(self, o: int, kind: str, category: Category, **where: str) -> dict[str, Any]:
        return native_node(
            id=self.ids[o],
            kind=kind,
            category=category.name,
            affordances=category.affordances,
            state=category.state,
            position=self.position(o),
            description=self.described(o, category.name),
            **where,
        )

    # -- the robot -------------------------------------------------------------------------

    def _robot(self) -> None:
        """The newest node of the agent layer (largest timestamp) is the robot, at its place."""
        agents = self.of("agent")
        rooms = self.of("room")
        parent = None
        if agents:
            newest = max(agents, key=lambda a: (self.by_id[a].attributes.timestamp, a))
            self.report.mapped("agent: the newest agent node (largest timestamp) -> the robot")
            self.report.dropped("agent: an older node of the trajectory", len(agents) - 1)
            at = sorted(n for n in self.neighbours[newest] if n in self.place_room)
            if at:
                parent = self.ids[at[0]]
            else:
                poses = [(self.ids[p], self.position(p)) for p in self.place_room]
                places = poses or [(self.ids[r], self.position(r)) for r in rooms]
                parent = nearest(self.position(newest), places)
                self.report.notes.append(
                    f"the robot ({symbol_of(self.by_id[newest])}) has no place edge: put at "
                    f"the nearest {'pose' if poses else 'room'}, {parent}"
                )
        if parent is None and rooms:
            parent = self.ids[rooms[0]]
            self.report.notes.append(f"no agent node: the robot starts in the first room, {parent}")
        if parent is not None:
            self.nodes.append(native_node(id="agent", kind="agent", parent=parent))


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
