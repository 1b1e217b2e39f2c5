"""SayPlan's semantic-search views of a scene graph: collapse, expand, contract, memory.

A view is a set of visible node ids over an unchanged `SceneGraph`; it never
copies the graph. `collapse` scans the graph once; after that `expand` and
`contract` cost the size of the subtree they reveal or hide, and listing the
visible nodes costs the number visible, however many nodes are hidden. A view
reads the hierarchy as it was when collapsed: after nodes are added or moved
between rooms, collapse again.

The agent is always visible, with whatever it holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, get_args

from sceneplan.errors import BadInputError, ViewError
from sceneplan.graph.model import Node, NodeKind, SceneGraph

Level = Literal["building", "floor", "room", "full"]
LEVELS: tuple[str, ...] = get_args(Level)

EXPANDABLE = frozenset({NodeKind.BUILDING, NodeKind.FLOOR, NodeKind.ROOM})

# Depth of each kind below the top; a level shows the kinds at or above its depth.
_DEPTH = {
    NodeKind.BUILDING: 0,
    NodeKind.FLOOR: 1,
    NodeKind.ROOM: 2,
    NodeKind.POSE: 2,
    NodeKind.ASSET: 3,
    NodeKind.OBJECT: 3,
}
_LEVEL_DEPTH = {"building": 0, "floor": 1, "room": 2, "full": 3}


class GraphView:
    """Which nodes of a scene graph an LLM currently sees; create it with `collapse`.

    `level` is the deepest kind shown at first: "room" shows the building,
    floors, rooms and poses; "floor" the building and floors; "building" the
    building; "full" everything. Nodes above the level count as expanded (they
    can be contracted) but are not in `memory`, which holds only what
    `expand` opened. Nodes without a parent are always shown.

    >>> from sceneplan.graph import Node, NodeKind, SceneGraph
    >>> graph = SceneGraph.from_nodes([
    ...     Node("floor0", NodeKind.FLOOR),
    ...     Node("kitchen", NodeKind.ROOM, parent="floor0"),
    ...     Node("fridge", NodeKind.ASSET, parent="kitchen"),
    ... ])
    >>> view = collapse(graph)
    >>> view.visible_nodes()
    ['floor0', 'kitchen']
    >>> view.expand("kitchen")
    ['fridge']
    >>> view.contract("kitchen")
    ['fridge']
    >>> view.expanded, view.memory
    (['floor0'], ['kitchen'])
    """

    def __init__(self, graph: SceneGraph, level: Level = "room"):
        if level not in _LEVEL_DEPTH:
            raise BadInputError(
                f"unknown view level '{level}'; expected one of {', '.join(LEVELS)}"
            )
        self.graph = graph
        self.level = level
        depth = _LEVEL_DEPTH[level]
        self._order: dict[str, int] = {}
        self._visible: set[str] = set()
        self._expanded: dict[str, None] = {}  # an ordered set: expansion order
        self._memory: dict[str, None] = {}
        for index, node in enumerate(graph):
            self._order[node.id] = index
            node_depth = _DEPTH.get(node.kind, -1)  # -1: the agent
            if node_depth <= depth or node.parent is None:
                self._visible.add(node.id)
                if node.kind in EXPANDABLE and node_depth < depth:
                    self._expanded[node.id] = None
        if graph.has_agent:
            self._visible.update(graph.descendants(graph.agent.id))

    # -- state --------------------------------------------------------------------

    @property
    def memory(self) -> list[str]:
        """Every node `expand` has opened, first expansion first, kept after contract."""
        return list(self._memory)

    @property
    def expanded(self) -> list[str]:
        """The nodes whose contents are shown now: those above the level, then by expansion."""
        return list(self._expanded)

    def visible(self, node_id: str) -> bool:
        """Whether the node is shown; an unknown id raises UnknownNodeError."""
        self.graph.node(node_id)
        return node_id in self._visible

    def visible_nodes(self) -> list[str]:
        """The ids of the shown nodes, in the graph's file order."""
        return sorted(self._visible, key=self._order.__getitem__)

    def __contains__(self, node_id: object) -> bool:
        """`node_id in view`: whether it is shown; False for unknown ids."""
        return node_id in self._visible

    def __len__(self) -> int:
        return len(self._visible)

    # -- search actions -------------------------------------------------------------

    def expand(self, node_id: str) -> list[str]:
        """Show what is under a room (assets, objects), floor (rooms, poses) or building.

        Returns the ids it revealed, depth first. Raises ViewError, with a
        message meant to be fed back to an LLM, if the node cannot be expanded.
        """
        node = self._expandable(node_id, "expand")
        if node_id in self._expanded:
            raise ViewError(f"cannot expand '{node_id}': it is already expanded")
        if node_id not in self._visible:
            raise ViewError(f"cannot expand '{node_id}': it is not visible; {self._path_to(node)}")
        revealed = list(self._contents(node))
        self._visible.update(revealed)
        self._expanded[node_id] = None
        self._memory[node_id] = None
        return revealed

    def contract(self, node_id: str) -> list[str]:
        """Hide what `expand` revealed, contracting expanded nodes inside it too.

        Returns the ids it hid. The node stays in `memory`.
        """
        node = self._expandable(node_id, "contract")
        if node_id not in self._expanded:
            raise ViewError(f"cannot contract '{node_id}': it is not expanded")
        hidden: list[str] = []
        stack = [node]
        while stack:
            current = stack.pop()
            del self._expanded[current.id]
            for child_id in self._contents(current):
                hidden.append(child_id)
                if child_id in self._expanded:
                    stack.append(self.graph.nodes[child_id])
        self._visible.difference_update(hidden)
        return hidden

    # -- helpers ----------------------------------------------------------------------

    def _contents(self, node: Node) -> Iterator[str]:
        """What expanding `node` shows: a room's whole subtree, else its children; no agent."""
        graph, nodes = self.graph, self.graph.nodes
        stack = list(reversed(graph.children(node.id)))
        while stack:
            current = stack.pop()
            if nodes[current].kind is NodeKind.AGENT:
                continue
            yield current
            if node.kind is NodeKind.ROOM:
                stack.extend(reversed(graph.children(current)))

    def _expandable(self, node_id: str, verb: str) -> Node:
        node = self.graph.node(node_id)
        if node.kind in EXPANDABLE:
            return node
        raise ViewError(
            f"cannot {verb} '{node_id}': it is {_a(node.kind)}; only rooms, floors and the "
            f"building can be {verb}ed ({self._why_not(node, verb)})"
        )

    def _why_not(self, node: Node, verb: str) -> str:
        if node.kind is NodeKind.AGENT:
            return "the agent is always shown"
        if node.kind is NodeKind.POSE:
            return "poses connect rooms and hold nothing"
        kinds = [self.graph.nodes[a].kind for a in self.graph.ancestors(node.id)]
        if NodeKind.AGENT in kinds:
            return "the agent is holding it"
        room = self.graph.room_of(node.id)
        if node.kind is NodeKind.ASSET:
            shown, appear, already = "its objects", "appear", "are already shown"
        else:
            shown, appear, already = "it", "appears", "is already shown"
        if verb == "contract":
            return f"contract its room '{room}' to hide it"
        if room in self._expanded:
            return f"{shown} {already}: its room '{room}' is expanded"
        return f"{shown} {appear} when you expand its room '{room}'"

    def _path_to(self, node: Node) -> str:
        """Which node to expand first to bring `node` into view."""
        for ancestor in self.graph.ancestors(node.id):
            if ancestor in self._visible:
                kind = self.graph.nodes[ancestor].kind.value
                return f"expand {kind} '{ancestor}' first"
        return "nothing above it is visible"


def collapse(graph: SceneGraph, level: Level = "room") -> GraphView:
    """A view showing only the top of the hierarchy, down to `level` (SayPlan's collapse)."""
    return GraphView(graph, level)


def full_view(graph: SceneGraph) -> GraphView:
    """A view with every node shown and every room, floor and building expanded."""
    return GraphView(graph, "full")


def _a(kind: NodeKind) -> str:
    if kind is NodeKind.AGENT:
        return "the agent"
    return ("an " if kind.value[0] in "aeiou" else "a ") + kind.value
