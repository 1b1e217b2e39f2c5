"""Compact, deterministic JSON text of a view, in the shape of SayPlan's prompts.

```
{"nodes":{"room":[{"id":"kitchen"}],"pose":[{"id":"pose1"}],
 "agent":[{"id":"agent","location":"bobs_room"}],
 "asset":[{"id":"fridge","room":"kitchen","state":["closed"],"affordances":["open"]}],
 "object":[{"id":"coffee_mug","inside_of":"wardrobe1","affordances":["pickup"]}]},
 "links":["bobs_room<->pose1"]}
```

Kinds come in a fixed order, nodes in file order, fields in a fixed order;
empty fields and kinds are left out. An object names its parent under its
relation (`inside_of`, `ontop_of`, `held`); rooms and poses name their floor
only when the view shows more than one floor. `links` are the topology edges
whose two ends are visible. Positions, rounded to centimetres, only on request.
The cost is proportional to the visible nodes and the topology, not to the
hidden assets and objects.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sceneplan.graph.model import PLACE_KINDS, Node, NodeKind
from sceneplan.graph.views import GraphView

KIND_ORDER = (
    NodeKind.BUILDING,
    NodeKind.FLOOR,
    NodeKind.ROOM,
    NodeKind.POSE,
    NodeKind.AGENT,
    NodeKind.ASSET,
    NodeKind.OBJECT,
)
_LISTS = ("state", "affordances", "attributes")


class ViewPart(NamedTuple):
    """One kind's share of a serialized view: how many entries, and its JSON fragment."""

    count: int
    text: str


def view_to_dict(view: GraphView, *, positions: bool = False) -> dict[str, Any]:
    """The view as a plain dict; `view_to_text` is its compact JSON."""
    nodes = view.graph.nodes
    groups: dict[NodeKind, list[Node]] = {kind: [] for kind in KIND_ORDER}
    for node_id in view.visible_nodes():
        node = nodes[node_id]
        groups[node.kind].append(node)
    name_floor = len(groups[NodeKind.FLOOR]) > 1
    data: dict[str, Any] = {
        "nodes": {
            kind.value: [_entry(node, positions, name_floor) for node in members]
            for kind, members in groups.items()
            if members
        }
    }
    links = [f"{a}<->{b}" for a, b in visible_links(view)]
    if links:
        data["links"] = links
    return data


def visible_links(view: GraphView) -> list[tuple[str, str]]:
    """The topology edges whose two ends are visible, in the graph's order."""
    return [(a, b) for a, b in view.graph.links() if a in view and b in view]


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
    '{"nodes":{"room":[{"id":"kitchen"}],"agent":[{"id":"agent","location":"kitchen"}]}}'
    >>> _ = view.expand("kitchen")
    >>> view_to_dict(view)["nodes"]["asset"]
    [{'id': 'fridge', 'room': 'kitchen', 'state': ['closed']}]
    """
    return _dumps(view_to_dict(view, positions=positions))


def view_parts(view: GraphView, *, positions: bool = False) -> dict[str, ViewPart]:
    """Per kind (and `links`), the entry count and the fragment of `view_to_text` it takes."""
    data = view_to_dict(view, positions=positions)
    groups = {**data["nodes"], **({"links": data["links"]} if "links" in data else {})}
    return {
        name: ViewPart(len(items), _dumps({name: items})[1:-1]) for name, items in groups.items()
    }


def _entry(node: Node, positions: bool, name_floor: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": node.id}
    if node.parent is not None:
        if node.kind is NodeKind.OBJECT and node.relation is not None:
            entry[node.relation.value] = node.parent
        elif node.kind is NodeKind.ASSET:
            entry["room"] = node.parent
        elif node.kind is NodeKind.AGENT:
            entry["location"] = node.parent
        elif node.kind in PLACE_KINDS and name_floor:
            entry["floor"] = node.parent
    for field in _LISTS:
        values = getattr(node, field)
        if values:
            entry[field] = list(values)
    if node.description:
        entry["description"] = node.description
    if positions and node.position is not None:
        entry["position"] = [round(x, 2) for x in node.position]
    return entry


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
