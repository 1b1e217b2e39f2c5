"""A scene graph as the viewer's page reads it: compact columns, word tables and the layout.

Nodes are numbered in file order; every reference (parent, link, floor
content) is that number. A node's affordances, states and attributes are one
number too: its *profile*, a row of `profiles` holding the three lists as
indices into one word table. Nodes of a kind share few profiles, so a
building of 400,000 nodes stays about 30 bytes a node of JSON.

>>> from sceneplan.datasets import load_environment
>>> data = graph_data(load_environment("coffee"))
>>> data["ids"][:3], data["kinds"][data["kind"][2]]
(['house', 'floor0', 'bobs_room'], 'room')
>>> data["floors"][0]["rooms"][0]
[2, 0.0, 0.0]
"""

from __future__ import annotations

from typing import Any

from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.viewer.layout import layout_floors

KINDS = [kind.value for kind in NodeKind]
RELATIONS = ["", *(relation.value for relation in Relation)]


def graph_data(graph: SceneGraph) -> dict[str, Any]:
    """The graph's nodes as columns, its topology links and its floors' layouts."""
    index = {node_id: i for i, node_id in enumerate(graph.nodes)}
    words: dict[str, int] = {}
    profiles: dict[tuple[tuple[str, ...], ...], int] = {}

    def profile(*lists: tuple[str, ...]) -> int:
        return profiles.setdefault(lists, len(profiles))

    kind_number = {kind: i for i, kind in enumerate(NodeKind)}
    relation_number = {relation: i + 1 for i, relation in enumerate(Relation)}
    columns: dict[str, list[Any]] = {
        "ids": [],
        "kind": [],
        "parent": [],
        "rel": [],
        "prof": [],
    }
    rare: dict[str, dict[str, Any]] = {}  # rarely set fields, by node number
    for i, node in enumerate(graph):
        columns["ids"].append(node.id)
        columns["kind"].append(kind_number[node.kind])
        columns["parent"].append(index.get(node.parent, -1) if node.parent is not None else -1)
        columns["rel"].append(relation_number.get(node.relation, 0) if node.relation else 0)
        columns["prof"].append(profile(node.affordances, node.state, node.attributes))
        more: dict[str, Any] = {}
        if node.position is not None:
            more["position"] = list(node.position)
        if node.description:
            more["description"] = node.description
        if node.explicit_category:
            more["category"] = node.explicit_category
        if more:
            rare[str(i)] = more
    links = [index[end] for link in graph.links() for end in link]
    floors = []
    for floor in layout_floors(graph):
        floors.append(
            {
                "node": index[floor.floor] if floor.floor is not None else -1,
                "rooms": [[index[r], x, y] for r, x, y in floor.rooms],
                "poses": [[index[p], x, y] for p, x, y in floor.poses],
                "box": floor.box,
                "positioned": floor.positioned,
                "bounds": [round(v, 2) for v in floor.bounds()],
            }
        )
    rows = [[[words.setdefault(w, len(words)) for w in v] for v in lists] for lists in profiles]
    return {
        "name": graph.name,
        "description": graph.description,
        "kinds": KINDS,
        "relations": RELATIONS,
        "profiles": rows,
        "words": list(words),
        **columns,
        "extra": rare,
        "links": links,
        "floors": floors,
        "agent": index[graph.agent.id] if graph.has_agent else -1,
    }
