"""A VirtualHome scene graph (nodes with class_name/properties/states; edges) as a scene graph.

- Rooms (category `Rooms`) become rooms; the character becomes the agent in
  its room (what it holds, held); walls, floors, ceilings and windows are
  dropped (the paper's "redundant nodes"); a door becomes a pose linked to
  the two rooms it joins.
- GRABBABLE things are objects, everything else assets (of their room).
- An object's parent is what it is INSIDE (other than a room), else what it
  is ON. An object with only a room edge gets a real parent where the scene
  has one: the surface (or container) it is CLOSE to in that room, smallest
  id first; else a room-floor asset (`floor_<room>`), which is guessed.
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
        if not (isinstance(node, dict) and "id" in node and "class_name" in node):
            raise BadInputError(f"{source}: nodes[{index}] has no id or class_name")
        nodes[node["id"]] = node
    for index, edge in enumerate(data["edges"]):
        if not (isinstance(edge, dict) and {"from_id", "to_id", "relation_type"} <= set(edge)):
            raise BadInputError(f"{source}: edges[{index}] needs from_id, relation_type and to_id")
        for end in ("from_id", "to_id"):
            if edge[end] not in nodes:
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


def build_scene(
    data: dict[str, Any], report: ImportReport, source: str, targets: frozenset = frozenset()
) -> Scene:
    """The scene graph of one VirtualHome graph, as native nodes in a stable order.

    `targets` are the VirtualHome ids a task's goal puts things on or in: only
    those objects take things (`release`); other objects do not, which keeps
    the symbolic planner's search small.
    """
    vh = check_graph(data, source)
    out_edges: dict[Any, list[tuple[str, Any]]] = defaultdict(list)
    for edge in data["edges"]:
        out_edges[edge["from_id"]].append((edge["relation_type"], edge["to_id"]))
    ids: dict[Any, str] = {}
    kinds: dict[str, str] = {}
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
    agent = None
    for vid, node in sorted(vh.items(), key=lambda kv: kv[0]):
        category = node.get("category")
        if vid in room_names:
            ids[vid] = room_names[vid]
            kinds[ids[vid]] = "room"
        elif category == "Characters":
            if agent is None:
                agent = vid
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

    def room_edge(vid: Any) -> Any:
        for relation, target in out_edges[vid]:
            if relation == "INSIDE" and target in room_names:
                return target
        return None

    gaps: list[str] = []
    nodes: list[dict[str, Any]] = [
        native_node(id=room_names[r], kind="room") for r in sorted(room_names)
    ]
    room_of: dict[str, str] = {}
    floors: dict[str, str] = {}
    parents: dict[str, tuple[str, str | None]] = {}
    # assets first: objects may rest on them
    for vid in sorted(ids):
        nid = ids[vid]
        if kinds[nid] != "asset":
            continue
        room = room_edge(vid)
        if room is None:
            report.dropped("asset in no room")
            del kinds[nid]
            continue
        room_of[nid] = room_names[room]
        parents[nid] = (room_names[room], None)
        report.mapped("asset (not grabbable)")
        if any(rel in PLACEMENT and t not in room_names and t in ids for rel, t in out_edges[vid]):
            report.dropped("ON/INSIDE edge of an asset (assets stand in their room)")
    held: list[str] = []
    object_room: dict[str, str] = {}
    if agent is not None:
        for edge, target in out_edges[agent]:
            if edge in ("HOLDS_RH", "HOLDS_LH") and target in ids:
                held.append(ids[target])
    for vid in sorted(ids):
        nid = ids[vid]
        if kinds.get(nid) != "object":
            continue
        room = room_edge(vid)
        parent, relation = _parent(vid, out_edges, ids, kinds, vh, room_names)
        if nid in held:
            parent, relation = "agent", "held"
            report.mapped("object held by the character")
        elif parent is not None:
            report.mapped(f"object {str(relation).split('_')[0]} a thing")
        elif room is not None:
            close = _close_surface(vid, out_edges, ids, kinds, vh, room_of, room_names[room])
            if close is not None:
                parent, relation = close
                report.guessed("object with only a room edge: on the surface it is close to")
            else:
                floor = floors.setdefault(room_names[room], f"floor_{room_names[room]}")
                parent, relation = floor, "ontop_of"
                report.guessed("object with only a room edge: on a room-floor asset")
        else:
            report.dropped("object in no room and on nothing")
            del kinds[nid]
            continue
        parents[nid] = (parent, relation)
        if room is not None:
            object_room[nid] = room_names[room]
    # containment loops (a VirtualHome object INSIDE an object INSIDE it) are cut at the room
    for nid in list(parents):
        seen, current = set(), nid
        while current in parents and parents[current][1] is not None and current not in seen:
            seen.add(current)
            current = parents[current][0]
        if current in seen:
            home = object_room.get(nid, next(iter(room_names.values())))
            parents[nid] = (floors.setdefault(home, f"floor_{home}"), "ontop_of")
            report.guessed("containment loop cut: on the room floor")
    for vid in sorted(ids):
        nid = ids[vid]
        if nid not in parents:
            continue
        node = vh[vid]
        parent, relation = parents[nid]
        nodes.append(
            native_node(
                id=nid,
                kind=kinds[nid],
                parent=parent,
                relation=relation,
                category=re.sub(r"[^a-z0-9_]+", "_", str(node["class_name"]).lower()),
                affordances=_affordances(node, kinds[nid], vid in targets),
                state=sorted({str(s).lower() for s in node.get("states", ())}),
            )
        )
    for home, floor in sorted(floors.items()):
        nodes.append(native_node(id=floor, kind="asset", parent=home, affordances=["release"]))
        kinds[floor] = "asset"
        room_of[floor] = home
    links = []
    for vid, node in sorted(vh.items(), key=lambda kv: kv[0]):
        if node.get("category") == "Doors":
            between = sorted(
                {room_names[t] for rel, t in out_edges[vid] if rel == "BETWEEN" and t in room_names}
                | {room_names[r] for r in [room_edge(vid)] if r is not None}
            )
            if len(between) == 2:
                door = node_id(node)
                nodes.append(native_node(id=door, kind="pose"))
                links += [[between[0], door], [between[1], door]]
                report.mapped("door as a pose between its two rooms")
    agent_room = room_names.get(room_edge(agent)) if agent is not None else None
    if agent_room is None:
        agent_room = nodes[0]["id"]
        report.guessed("agent: in the first room")
    posture = (
        sorted({str(s).lower() for s in vh[agent].get("states", ())} & POSTURES)
        if agent is not None
        else []
    )
    # VirtualHome's character has two hands; the agent gets them where the start needs them
    # (a task may ask for them too: `give_two_hands`)
    nodes.append(native_node(id="agent", kind="agent", parent=agent_room, state=posture[:1]))
    kinds["agent"] = "agent"
    if len(held) > 1:
        give_two_hands(nodes, report, "the character holds two objects at the start")
    ids = {vid: nid for vid, nid in ids.items() if nid in kinds}
    return Scene(nodes, ids, kinds, room_of, held, gaps, links)


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


def _close_surface(vid, out_edges, ids, kinds, vh, room_of, room) -> tuple[str, str] | None:
    for rel, target in sorted(out_edges[vid], key=lambda e: (e[0], e[1])):
        if rel != "CLOSE" or target not in ids:
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
        out += ["open", "close"]
    if "HAS_SWITCH" in props:
        out += ["turn_on", "turn_off"]
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
