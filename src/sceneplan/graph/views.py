"""SayPlan's semantic-search views of a scene graph: collapse, expand, contract, memory.

A view is a set of visible node ids over an unchanged `SceneGraph`; it never
copies the graph. `collapse` scans the graph once; after that `expand` and
`contract` cost the size of the subtree they reveal or hide, and listing the
visible nodes costs the number visible, however many nodes are hidden. A view
reads the hierarchy as it was when collapsed: after nodes are added or moved
between rooms, collapse again.

Two ways to collapse (docs/hierarchy.md):
- `collapse`: SayPlan's, down to a level of the graph's own hierarchy
  (rooms and poses by default), whose size grows with the building;
- `collapse_hierarchy`: over the place `Hierarchy` of `graph.zones`
  (building, groups of floors, floors, zones, rooms), showing only the top
  levels; groups and zones are view nodes with ids of their own, which
  expand and contract like rooms and floors, and each collapsed one has a
  summary of the rooms under it.

The agent is always visible, with whatever it holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, get_args

from sceneplan.errors import BadInputError, ViewError
from sceneplan.graph.model import Node, NodeKind, SceneGraph
from sceneplan.graph.zones import Hierarchy

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

    def __init__(
        self, graph: SceneGraph, level: Level = "room", *, hierarchy: Hierarchy | None = None
    ):
        if level not in _LEVEL_DEPTH:
            raise BadInputError(
                f"unknown view level '{level}'; expected one of {', '.join(LEVELS)}"
            )
        self.graph = graph
        self.level = level
        self.hierarchy = hierarchy
        depth = _LEVEL_DEPTH[level]
        self._order: dict[str, int] = {}
        self._visible: set[str] = set()
        self._expanded: dict[str, None] = {}  # an ordered set: expansion order
        self._memory: dict[str, None] = {}
        if hierarchy is not None:
            self._start_hierarchy(hierarchy)
            return
        for index, node in enumerate(graph):
            self._order[node.id] = index
            node_depth = _DEPTH.get(node.kind, -1)  # -1: the agent
            if node_depth <= depth or node.parent is None:
                self._visible.add(node.id)
                if node.kind in EXPANDABLE and node_depth < depth:
                    self._expanded[node.id] = None
        self._show_agent()

    def _start_hierarchy(self, hierarchy: Hierarchy) -> None:
        """Show the tops, and open the buildings and then every lone container under them."""
        graph = self.graph
        if hierarchy.graph is not graph:
            raise BadInputError("the hierarchy given to a view is of another graph")
        self._order = {node_id: index for index, node_id in enumerate(graph.nodes)}
        base = len(self._order)
        self._order.update((group, base + i) for i, group in enumerate(hierarchy.groups))
        self._visible.update(hierarchy.tops)
        closed = [t for t in hierarchy.tops if hierarchy.is_container(t)]
        opening = [t for t in closed if graph.nodes[t].kind is NodeKind.BUILDING]
        if not opening and len(closed) == 1:
            opening = list(closed)
        while opening:
            for node_id in opening:
                self._visible.update(hierarchy.children(node_id))
                self._expanded[node_id] = None
                closed.remove(node_id)
                closed += [c for c in hierarchy.children(node_id) if hierarchy.is_container(c)]
            opening = list(closed) if len(closed) == 1 else []
        self._show_agent()

    def _show_agent(self) -> None:
        if self.graph.has_agent:
            agent = self.graph.agent.id
            self._visible.add(agent)
            self._visible.update(self.graph.descendants(agent))

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
        self._known(node_id)
        return node_id in self._visible

    def kind(self, node_id: str) -> str:
        """The node's kind as prompts name it: a NodeKind's value, or `floor_group` / `zone`."""
        if self.hierarchy is not None:
            return self.hierarchy.kind(node_id)
        return self.graph.node(node_id).kind.value

    def parent(self, node_id: str) -> str | None:
        """What the node is under in this view (for a place: its zone, or its floor)."""
        if self.hierarchy is not None and self.hierarchy.parent(node_id) is not None:
            return self.hierarchy.parent(node_id)
        if self.hierarchy is not None and node_id in self.hierarchy.groups:
            return None
        return self.graph.node(node_id).parent

    def summary(self, node_id: str) -> str | None:
        """What a collapsed building, group of floors, floor or zone holds; else None.

        Only views made by `collapse_hierarchy` summarize.
        """
        hierarchy = self.hierarchy
        if hierarchy is None or node_id in self._expanded or not hierarchy.is_container(node_id):
            return None
        return hierarchy.summary(node_id)

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
        self._expandable(node_id, "expand")
        if node_id in self._expanded:
            raise ViewError(f"cannot expand '{node_id}': it is already expanded")
        if node_id not in self._visible:
            raise ViewError(
                f"cannot expand '{node_id}': it is not visible; {self._path_to(node_id)}"
            )
        revealed = list(self._contents(node_id))
        self._visible.update(revealed)
        self._expanded[node_id] = None
        self._memory[node_id] = None
        return revealed

    def contract(self, node_id: str) -> list[str]:
        """Hide what `expand` revealed, contracting expanded nodes inside it too.

        Returns the ids it hid. The node stays in `memory`.
        """
        self._expandable(node_id, "contract")
        if node_id not in self._expanded:
            raise ViewError(f"cannot contract '{node_id}': it is not expanded")
        hidden: list[str] = []
        stack = [node_id]
        while stack:
            current = stack.pop()
            del self._expanded[current]
            for child_id in self._contents(current):
                hidden.append(child_id)
                if child_id in self._expanded:
                    stack.append(child_id)
        self._visible.difference_update(hidden)
        return hidden

    def reveal(self, node_id: str) -> list[str]:
        """Expand what hides a node, top down, then the node itself if it can be expanded.

        Returns what it revealed. The nodes it expands join `memory`, as `expand` does.
        """
        self._known(node_id)
        if self.hierarchy is not None:
            above = self.hierarchy.ancestors(node_id)
        else:
            above = list(self.graph.ancestors(node_id))
        revealed: list[str] = []
        opening = [a for a in reversed(above) if a not in self._expanded]
        if self._is_expandable(node_id) and node_id not in self._expanded:
            opening.append(node_id)
        for current in opening:
            if current in self._visible and current not in self._expanded:
                revealed += self.expand(current)
        return revealed

    # -- helpers ----------------------------------------------------------------------

    def _is_expandable(self, node_id: str) -> bool:
        if self.hierarchy is not None and node_id in self.hierarchy.groups:
            return True
        return self.graph.nodes[node_id].kind in EXPANDABLE

    def _contents(self, node_id: str) -> Iterator[str]:
        """What expanding a node shows: a room's whole subtree, else its children; no agent."""
        hierarchy = self.hierarchy
        if hierarchy is not None and hierarchy.is_container(node_id):
            yield from hierarchy.children(node_id)
            return
        graph, nodes = self.graph, self.graph.nodes
        room = nodes[node_id].kind is NodeKind.ROOM
        stack = list(reversed(graph.children(node_id)))
        while stack:
            current = stack.pop()
            if nodes[current].kind is NodeKind.AGENT:
                continue
            yield current
            if room:
                stack.extend(reversed(graph.children(current)))

    def _known(self, node_id: str) -> None:
        """Raise UnknownNodeError unless the id is a node of the graph or of the hierarchy."""
        if self.hierarchy is None or node_id not in self.hierarchy.groups:
            self.graph.node(node_id)

    def _expandable(self, node_id: str, verb: str) -> None:
        self._known(node_id)
        if self.hierarchy is not None and node_id in self.hierarchy.groups:
            return
        node = self.graph.nodes[node_id]
        if node.kind in EXPANDABLE:
            return
        which = "rooms, floors and the building"
        if self.hierarchy is not None:
            which = "rooms, zones, floors, floor groups and the building"
        raise ViewError(
            f"cannot {verb} '{node_id}': it is {_a(node.kind)}; only {which} "
            f"can be {verb}ed ({self._why_not(node, verb)})"
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

    def _path_to(self, node_id: str) -> str:
        """Which node to expand first to bring a node into view."""
        if self.hierarchy is not None:
            ancestors = self.hierarchy.ancestors(node_id)
        else:
            ancestors = list(self.graph.ancestors(node_id))
        for ancestor in ancestors:
            if ancestor in self._visible:
                kind = self.kind(ancestor).replace("_", " ")
                return f"expand {kind} '{ancestor}' first"
        return "nothing above it is visible"


def collapse(graph: SceneGraph, level: Level = "room") -> GraphView:
    """A view showing only the top of the hierarchy, down to `level` (SayPlan's collapse)."""
    return GraphView(graph, level)


def collapse_hierarchy(graph: SceneGraph, hierarchy: Hierarchy | None = None) -> GraphView:
    """A view of the place hierarchy's top levels, each collapsed node with its summary.

    `hierarchy` defaults to `Hierarchy(graph)`; pass one to reuse it across views.

    >>> from sceneplan.graph import Node, NodeKind, SceneGraph
    >>> rooms = [Node(f"office{i}", NodeKind.ROOM, parent="floor0") for i in range(30)]
    >>> graph = SceneGraph.from_nodes([Node("floor0", NodeKind.FLOOR), *rooms])
    >>> view = collapse_hierarchy(graph)
    >>> view.visible_nodes(), view.summary("floor0_zone1")
    (['floor0', 'floor0_zone1', 'floor0_zone2'], '15 rooms: office ×15')
    >>> view.expand("floor0_zone2")[:2]
    ['office15', 'office16']
    """
    return GraphView(graph, hierarchy=hierarchy if hierarchy is not None else Hierarchy(graph))


def full_view(graph: SceneGraph) -> GraphView:
    """A view with every node shown and every room, floor and building expanded."""
    return GraphView(graph, "full")


def _a(kind: NodeKind) -> str:
    if kind is NodeKind.AGENT:
        return "the agent"
    return ("an " if kind.value[0] in "aeiou" else "a ") + kind.value
