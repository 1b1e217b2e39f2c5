"""Compact, deterministic JSON text of a view, in the shape of SayPlan's prompts.

```
{"nodes":{"room":["kitchen",{"id":"lab","description":"The robotics lab."}],"pose":["pose1"],
 "agent":[{"id":"agent","location":"bobs_room"}],
 "asset":[{"id":"fridge","room":"kitchen","state":["closed"],"affordances":["open"]}],
 "object":[{"id":"coffee_mug","inside_of":"wardrobe1","affordances":["pickup"]}]},
 "links":{"pose1":["bobs_room","kitchen"]}}
```

Kinds come in a fixed order, nodes in file order, fields in a fixed order;
empty fields and kinds are left out, and a node with nothing but its id is
written as the bare id. An object names its parent under its relation
(`inside_of`, `ontop_of`, `held`), an asset its `room`, the agent its
`location`. Buildings, floor groups, floors, zones, rooms and poses name what
they are under (`"floor":"floor1"`, `"zone":"floor1_zone2"`) only when the
visible nodes of their kind are under more than one. A collapsed building,
floor group, floor or zone of a hierarchical view carries its `summary`
(`"37 rooms: office ×20, kitchen ×2, lab"`). `links` are the topology edges
whose two ends are visible, each once, listed under one of its ends
(`"pose1":["bobs_room","kitchen"]` is pose1<->bobs_room and pose1<->kitchen):
the end with more visible edges, so a corridor's poses gather the rooms off
them. Positions, rounded to centimetres, only on request.
The cost is proportional to the visible nodes and the topology, not to the
hidden assets and objects.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, NamedTuple

from sceneplan.graph.model import NodeKind
from sceneplan.graph.views import GraphView

KIND_ORDER = (
    NodeKind.BUILDING.value,
    "floor_group",
    NodeKind.FLOOR.value,
    "zone",
    NodeKind.ROOM.value,
    NodeKind.POSE.value,
    NodeKind.AGENT.value,
    NodeKind.ASSET.value,
    NodeKind.OBJECT.value,
)
_LISTS = ("state", "affordances", "attributes")
# Kinds that name the node they are under only where it tells them apart.
_PLACED = frozenset(("building", "floor_group", "floor", "zone", "room", "pose"))


class ViewPart(NamedTuple):
    """One kind's share of a serialized view: how many entries, and its JSON fragment."""

    count: int  # type: ignore[assignment]  # shadows tuple.count, as the API always has
    text: str


def view_to_dict(view: GraphView, *, positions: bool = False) -> dict[str, Any]:
    """The view as a plain dict; `view_to_text` is its compact JSON."""
    groups: dict[str, list[str]] = {kind: [] for kind in KIND_ORDER}
    for node_id in view.visible_nodes():
        groups[view.kind(node_id)].append(node_id)
    nodes: dict[str, list[Any]] = {}
    for kind, members in groups.items():
        if not members:
            continue
        named = kind in _PLACED and len({view.parent(m) for m in members}) > 1
        nodes[kind] = [_entry(view, node_id, positions, named) for node_id in members]
    data: dict[str, Any] = {"nodes": nodes}
    links = link_groups(visible_links(view))
    if links:
        data["links"] = links
    return data


def visible_links(view: GraphView) -> list[tuple[str, str]]:
    """The topology edges whose two ends are visible, in the graph's order."""
    return [(a, b) for a, b in view.graph.links() if a in view and b in view]


def link_groups(links: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Edges grouped by an end, each edge once: the end with more of the edges (a corridor's
    pose, rather than the room off it), the first end on a tie; groups in order of appearance.

    >>> link_groups([("kitchen", "pose1"), ("office", "pose1"), ("pose1", "pose2")])
    {'pose1': ['kitchen', 'office', 'pose2']}
    """
    degree = Counter(end for link in links for end in link)
    groups: dict[str, list[str]] = {}
    for a, b in links:
        if degree[b] > degree[a]:
            a, b = b, a
        groups.setdefault(a, []).append(b)
    return groups


def view_to_text(view: GraphView, *, positions: bool = False) -> str:
    """The view as compact JSON for a prompt: the same view gives the same bytes.

    >>> from sceneplan.graph import Node, NodeKind, SceneGraph, collapse
    >>> graph = SceneGraph.from_nodes([
    ...     Node("kitchen", NodeKind.ROOM),
    ...     Node("fridge", NodeKind.ASSET, parent="kitchen", state=("closed",)),
    ...     Node("agent", NodeKind.AGENT, parent="kitchen"),
    ... ])
    >>> view = collapse(graph)
    >>> view_to_text(view)
    '{"nodes":{"room":["kitchen"],"agent":[{"id":"agent","location":"kitchen"}]}}'
    >>> _ = view.expand("kitchen")
    >>> view_to_dict(view)["nodes"]["asset"]
    [{'id': 'fridge', 'room': 'kitchen', 'state': ['closed']}]
    """
    return _dumps(view_to_dict(view, positions=positions))


def view_parts(view: GraphView, *, positions: bool = False) -> dict[str, ViewPart]:
    """Per kind (and `links`), the entry count and the fragment of `view_to_text` it takes.

    The count of `links` is of edges, not of the places they are grouped under.
    """
    data = view_to_dict(view, positions=positions)
    parts = {
        name: ViewPart(len(items), _dumps({name: items})[1:-1])
        for name, items in data["nodes"].items()
    }
    if "links" in data:
        edges = sum(map(len, data["links"].values()))
        parts["links"] = ViewPart(edges, _dumps({"links": data["links"]})[1:-1])
    return parts


def _entry(view: GraphView, node_id: str, positions: bool, name_parent: bool) -> Any:
    """A node's entry: its id and its non-empty fields, or the bare id when it has none."""
    entry: dict[str, Any] = {"id": node_id}
    hierarchy = view.hierarchy
    if hierarchy is not None and node_id in hierarchy.groups:
        parent = view.parent(node_id)
        if name_parent and parent is not None:
            entry[view.kind(parent)] = parent
        summary = view.summary(node_id)
        if summary is not None:
            entry["summary"] = summary
        return entry if len(entry) > 1 else node_id
    node = view.graph.nodes[node_id]
    kind = node.kind
    if kind is NodeKind.OBJECT:
        if node.parent is not None and node.relation is not None:
            entry[node.relation.value] = node.parent
    elif kind is NodeKind.ASSET:
        if node.parent is not None:
            entry["room"] = node.parent
    elif kind is NodeKind.AGENT:
        if node.parent is not None:
            entry["location"] = node.parent
    elif name_parent:
        parent = view.parent(node_id)
        if parent is not None and (parent in view.graph.nodes or hierarchy is not None):
            entry[view.kind(parent)] = parent
    summary = view.summary(node_id)
    if summary is not None:
        entry["summary"] = summary
    for field in _LISTS:
        values = getattr(node, field)
        if values:
            entry[field] = list(values)
    if node.description:
        entry["description"] = node.description
    if positions and node.position is not None:
        entry["position"] = [round(x, 2) for x in node.position]
    return entry if len(entry) > 1 else node_id


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
