"""A VirtualHome scene graph (nodes with class_name/properties/states; edges) as a scene graph.

- Rooms (category `Rooms`) become rooms; the character becomes the agent in
  its room (what it holds, held); walls, floors, ceilings and windows are
  dropped (the paper's "redundant nodes"); a door becomes a pose linked to
  the two rooms it joins.
- GRABBABLE things are objects, everything else assets (of their room).
- An object's parent is what it is INSIDE (other than a room), else what it
  is ON. An object with only a room edge gets a real parent where the scene
  has one: the surface (or container) it is CLOSE to in that room, smallest
  id first; else a room-floor asset (`floor_<room>`), which is guessed. The
  guess never puts an object where the task's goal wants it (the goal would
  hold at the start): such an object goes on the floor.
- Affordances from properties: GRABBABLE `pickup`, CAN_OPEN `open`/`close`,
  HAS_SWITCH `turn_on`/`turn_off`, CONTAINERS without a door `receptacle`,
  SURFACES or CONTAINERS `release` (on objects only where a task's goal puts
  things on or in them), SITTABLE `sit`, LIEABLE `lie` (VirtualHome's SIT and
  LIE check exactly these properties), HAS_PLUG `plug_in`/`plug_out` (its
  PLUGIN / PLUGOUT check HAS_PLUG). A faucet or sink with a switch is a tap:
  `rinse` (VirtualHome has no water property; the class name says it, and
  rinse needs the tap on, so a switchless sink is none). A DIRTY node affords
  `wipe` (VirtualHome's WIPE takes any node; the domain's wipe needs it
  dirty, so only a dirty one can be wiped).
- States are lower-cased (`closed`, `on`, `plugged_in`, `dirty`, ...); the
  character's SITTING / LYING become the agent's posture (`sitting`,
  `lying`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import native_node
from sceneplan.graph.model import TWO_HANDED
from sceneplan.importers.base import ImportReport
from sceneplan.importers.taxonomy import OPENS, SWITCHABLE
from sceneplan.textinput import shown

__all__ = ["DROPPED_CATEGORIES", "Scene", "build_scene", "check_graph", "node_id"]

DROPPED_CATEGORIES = {
    "Walls": "wall",
    "Ceiling": "ceiling",
    "Floor": "floor",
    "Floors": "floor",
    "Doors": "door as a thing (it becomes a pose joining its rooms)",
    "Windows": "window",
}
PLACEMENT = ("INSIDE", "ON")
POSTURES = frozenset({"sitting", "lying"})
TAPS = frozenset({"faucet", "sink"})


def node_id(node: dict[str, Any]) -> str:
    """`washing_machine` with id 1001 -> `washing_machine_1001`."""
    name = re.sub(r"[^a-z0-9_]+", "_", str(node["class_name"]).lower()).strip("_") or "thing"
    return f"{name}_{node['id']}"


def check_graph(data: Any, source: str) -> dict[str, dict[str, Any]]:
    """The nodes by id; one clear message for what is not a VirtualHome graph."""
    if not (
        isinstance(data, dict)
        and isinstance(data.get("nodes"), list)
        and isinstance(data.get("edges"), list)
    ):
        raise BadInputError(
            f"{source}: not a VirtualHome graph: expected {{'nodes': [...], 'edges': [...]}} "
            "(or {'init_graph': ..., 'final_graph': ...})"
        )
    nodes: dict[Any, dict[str, Any]] = {}
    for index, node in enumerate(data["nodes"]):
        if not (
            isinstance(node, dict)
            and isinstance(node.get("id"), int | str)
            and isinstance(node.get("class_name"), str)
        ):
            raise BadInputError(f"{source}: nodes[{index}] has no id or class_name")
        if not isinstance(node.get("category", ""), str):
            raise BadInputError(f"{source}: nodes[{index}].category is not a name")
        for key in ("properties", "states"):
            value = node.get(key, [])
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise BadInputError(
                    f"{source}: nodes[{index}].{key} is {shown(value)}, not a list of names"
                )
        nodes[node["id"]] = node
    for index, edge in enumerate(data["edges"]):
        if not (
            isinstance(edge, dict)
            and {"from_id", "to_id", "relation_type"} <= set(edge)
            and isinstance(edge["relation_type"], str)
        ):
            raise BadInputError(f"{source}: edges[{index}] needs from_id, relation_type and to_id")
        for end in ("from_id", "to_id"):
            if not isinstance(edge[end], int | str) or edge[end] not in nodes:
                raise BadInputError(
                    f"{source}: edge {edge['from_id']} {edge['relation_type']} {edge['to_id']} "
                    f"names node {edge[end]}, which the graph does not have"
                )
    return nodes


@dataclass
class Scene:
    nodes: list[dict[str, Any]]
    ids: dict[Any, str]  # VirtualHome id -> node id (kept nodes only)
    kinds: dict[str, str]  # node id -> room | asset | object | agent
    room_of: dict[str, str]
    held: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    links: list[list[str]] = field(default_factory=list)


@dataclass
class _Layout:
    """The scene being built: VirtualHome id -> node id, kinds, rooms, parents."""

    vh: dict[Any, dict[str, Any]]
    out_edges: dict[Any, list[tuple[str, Any]]]
    room_names: dict[Any, str]
    ids: dict[Any, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    agent: Any = None
    room_of: dict[str, str] = field(default_factory=dict)
    floors: dict[str, str] = field(default_factory=dict)
    parents: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    object_room: dict[str, str] = field(default_factory=dict)
    held: list[str] = field(default_factory=list)

    def room_edge(self, vid: Any) -> Any:
        for relation, target in self.out_edges[vid]:
            if relation == "INSIDE" and target in self.room_names:
                return target
        return None

    def floor(self, room: str) -> str:
        return self.floors.setdefault(room, f"floor_{room}")


def build_scene(
    data: dict[str, Any],
    report: ImportReport,
    source: str,
    targets: frozenset = frozenset(),
    wanted: frozenset = frozenset(),
) -> Scene:
    """The scene graph of one VirtualHome graph, as native nodes in a stable order.

    `targets` are the VirtualHome ids a task's goal puts things on or in: only
    those objects take things (`release`); other objects do not, which keeps
    the symbolic planner's search small. `wanted` are the goal's (thing, target)
    pairs: an object with only a room edge is not guessed onto the surface it is
    close to when the goal puts it there (the guess would make the goal true).
    """
    layout = _layout(data, report, source)
    nodes: list[dict[str, Any]] = [
        native_node(id=layout.room_names[r], kind="room") for r in sorted(layout.room_names)
    ]
    _place_assets(layout, report)
    _place_objects(layout, report, wanted)
    _cut_loops(layout, report)
    for vid in sorted(layout.ids):
        nid = layout.ids[vid]
        if nid not in layout.parents:
            continue
        node = layout.vh[vid]
        parent, relation = layout.parents[nid]
        nodes.append(
            native_node(
                id=nid,
                kind=layout.kinds[nid],
                parent=parent,
                relation=relation,
                category=re.sub(r"[^a-z0-9_]+", "_", str(node["class_name"]).lower()),
                affordances=_affordances(node, layout.kinds[nid], vid in targets),
                state=sorted({str(s).lower() for s in node.get("states", ())}),
            )
        )
    for room, floor in sorted(layout.floors.items()):
        nodes.append(native_node(id=floor, kind="asset", parent=room, affordances=["release"]))
        layout.kinds[floor] = "asset"
        layout.room_of[floor] = room
    links = _doors(layout, nodes, report)
    _add_agent(layout, nodes, report)
    ids = {vid: nid for vid, nid in layout.ids.items() if nid in layout.kinds}
    return Scene(nodes, ids, layout.kinds, layout.room_of, layout.held, [], links)


def _layout(data: dict[str, Any], report: ImportReport, source: str) -> _Layout:
    """Node ids and kinds: rooms, the character (the agent), assets and objects."""
    vh = check_graph(data, source)
    out_edges: dict[Any, list[tuple[str, Any]]] = defaultdict(list)
    for edge in data["edges"]:
        out_edges[edge["from_id"]].append((edge["relation_type"], edge["to_id"]))
    rooms = [n for n in vh.values() if n.get("category") == "Rooms"]
    if not rooms:
        raise BadInputError(
            f"{source}: the VirtualHome graph has no rooms (nodes of category 'Rooms'), "
            f"so nothing can be placed; it has {len(vh)} node(s)"
        )
    room_names: dict[Any, str] = {}
    for room in sorted(rooms, key=lambda n: n["id"]):
        name = re.sub(r"[^a-z0-9_]+", "_", str(room["class_name"]).lower())
        room_names[room["id"]] = name if name not in room_names.values() else node_id(room)
    layout = _Layout(vh, out_edges, room_names)
    ids, kinds = layout.ids, layout.kinds
    for vid, node in sorted(vh.items(), key=lambda kv: kv[0]):
        category = node.get("category")
        if vid in room_names:
            ids[vid] = room_names[vid]
            kinds[ids[vid]] = "room"
        elif category == "Characters":
            if layout.agent is None:
                layout.agent = vid
                ids[vid] = "agent"
                kinds["agent"] = "agent"
            else:
                report.dropped("a second character")
        elif category in DROPPED_CATEGORIES:
            report.dropped(DROPPED_CATEGORIES[category])
        else:
            ids[vid] = node_id(node)
            kinds[ids[vid]] = "object" if "GRABBABLE" in node.get("properties", ()) else "asset"
    report.mapped("room", len(room_names))
    return layout


def _place_assets(layout: _Layout, report: ImportReport) -> None:
    """Assets stand in their room (an asset in no room is dropped)."""
    for vid in sorted(layout.ids):
        nid = layout.ids[vid]
        if layout.kinds[nid] != "asset":
            continue
        room = layout.room_edge(vid)
        if room is None:
            report.dropped("asset in no room")
            del layout.kinds[nid]
            continue
        layout.room_of[nid] = layout.room_names[room]
        layout.parents[nid] = (layout.room_names[room], None)
        report.mapped("asset (not grabbable)")
        if any(
            rel in PLACEMENT and t not in layout.room_names and t in layout.ids
            for rel, t in layout.out_edges[vid]
        ):
            report.dropped("ON/INSIDE edge of an asset (assets stand in their room)")


def _place_objects(layout: _Layout, report: ImportReport, wanted: frozenset) -> None:
    """Objects: held by the character, in or on a thing, or guessed from a room edge."""
    ids, kinds = layout.ids, layout.kinds
    if layout.agent is not None:
        for edge, target in layout.out_edges[layout.agent]:
            if edge in ("HOLDS_RH", "HOLDS_LH") and target in ids:
                layout.held.append(ids[target])
    for vid in sorted(ids):
        nid = ids[vid]
        if kinds.get(nid) != "object":
            continue
        room = layout.room_edge(vid)
        args = (layout.out_edges, ids, kinds, layout.vh)
        parent, relation = _parent(vid, *args, layout.room_names)
        if nid in layout.held:
            parent, relation = "agent", "held"
            report.mapped("object held by the character")
        elif parent is not None:
            report.mapped(f"object {str(relation).split('_')[0]} a thing")
        elif room is not None:
            name = layout.room_names[room]
            close = _close_surface(vid, *args, layout.room_of, name, wanted)
            if close is not None:
                parent, relation = close
                report.guessed("object with only a room edge: on the surface it is close to")
            else:
                parent, relation = layout.floor(name), "ontop_of"
                report.guessed("object with only a room edge: on a room-floor asset")
        else:
            report.dropped("object in no room and on nothing")
            del kinds[nid]
            continue
        layout.parents[nid] = (parent, relation)
        if room is not None:
            layout.object_room[nid] = layout.room_names[room]


def _cut_loops(layout: _Layout, report: ImportReport) -> None:
    """Containment loops (a VirtualHome object INSIDE an object INSIDE it) are cut at the
    room floor."""
    parents = layout.parents
    for nid in list(parents):
        seen, current = set(), nid
        while current in parents and parents[current][1] is not None and current not in seen:
            seen.add(current)
            current = parents[current][0]
        if current in seen:
            room = layout.object_room.get(nid, next(iter(layout.room_names.values())))
            parents[nid] = (layout.floor(room), "ontop_of")
            report.guessed("containment loop cut: on the room floor")


def _doors(layout: _Layout, nodes: list[dict[str, Any]], report: ImportReport) -> list[list[str]]:
    """Each door joining two rooms as a pose linked to both."""
    links = []
    for vid, node in sorted(layout.vh.items(), key=lambda kv: kv[0]):
        if node.get("category") == "Doors":
            between = sorted(
                {
                    layout.room_names[t]
                    for rel, t in layout.out_edges[vid]
                    if rel == "BETWEEN" and t in layout.room_names
                }
                | {layout.room_names[r] for r in [layout.room_edge(vid)] if r is not None}
            )
            if len(between) == 2:
                door = node_id(node)
                nodes.append(native_node(id=door, kind="pose"))
                links += [[between[0], door], [between[1], door]]
                report.mapped("door as a pose between its two rooms")
    return links


def _add_agent(layout: _Layout, nodes: list[dict[str, Any]], report: ImportReport) -> None:
    agent = layout.agent
    agent_room = layout.room_names.get(layout.room_edge(agent)) if agent is not None else None
    if agent_room is None:
        agent_room = nodes[0]["id"]
        report.guessed("agent: in the first room")
    posture = (
        sorted({str(s).lower() for s in layout.vh[agent].get("states", ())} & POSTURES)
        if agent is not None
        else []
    )
    # VirtualHome's character has two hands; the agent gets them where the start needs them
    # (a task may ask for them too: `give_two_hands`)
    nodes.append(native_node(id="agent", kind="agent", parent=agent_room, state=posture[:1]))
    layout.kinds["agent"] = "agent"
    if len(layout.held) > 1:
        give_two_hands(nodes, report, "the character holds two objects at the start")


def give_two_hands(nodes: list[dict[str, Any]], report: ImportReport, why: str) -> None:
    """Give the agent node its second hand (the attribute `two_handed`), saying why."""
    agent = next(n for n in nodes if n["kind"] == "agent")
    if TWO_HANDED not in agent.get("attributes", ()):
        agent["attributes"] = [*agent.get("attributes", ()), TWO_HANDED]
        report.mapped(f"agent with two hands: {why}")


def _parent(vid, out_edges, ids, kinds, vh, room_names) -> tuple[str | None, str | None]:
    for wanted, relation in (("INSIDE", "inside_of"), ("ON", "ontop_of")):
        targets = sorted(
            t
            for rel, t in out_edges[vid]
            if rel == wanted
            and t not in room_names
            and t in ids
            and t != vid
            and kinds.get(ids[t]) in ("asset", "object")
        )
        if targets:
            return ids[targets[0]], relation
    return None, None


def _close_surface(
    vid, out_edges, ids, kinds, vh, room_of, room, wanted=frozenset()
) -> tuple[str, str] | None:
    for rel, target in sorted(out_edges[vid], key=lambda e: (e[0], e[1])):
        if rel != "CLOSE" or target not in ids or (vid, target) in wanted:
            continue
        nid = ids[target]
        if kinds.get(nid) != "asset" or room_of.get(nid) != room:
            continue
        props = vh[target].get("properties", ())
        if "SURFACES" in props:
            return nid, "ontop_of"
    return None


def _affordances(node: dict[str, Any], kind: str, target: bool = False) -> list[str]:
    props = set(node.get("properties", ()))
    out = ["pickup"] if kind == "object" else []
    if "CAN_OPEN" in props:
        out += OPENS
    if "HAS_SWITCH" in props:
        out += SWITCHABLE
    takes = kind == "asset" or target
    if "CONTAINERS" in props and "CAN_OPEN" not in props and takes:
        out.append("receptacle")
    if props & {"SURFACES", "CONTAINERS"} and takes:
        out.append("release")
    if "SITTABLE" in props:
        out.append("sit")
    if "LIEABLE" in props:
        out.append("lie")
    if "HAS_PLUG" in props:
        out += ["plug_in", "plug_out"]
    if "HAS_SWITCH" in props and str(node["class_name"]).lower() in TAPS:
        out.append("rinse")
    if "DIRTY" in {str(s).upper() for s in node.get("states", ())}:
        out.append("wipe")
    return out
