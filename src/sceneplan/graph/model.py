"""Typed nodes of a 3D scene graph and the graph that holds them.

A `SceneGraph` keeps its nodes in a dict (file order) and two networkx graphs:
`tree`, the hierarchy (building -> floor -> room -> asset -> object, with the
agent under its location), and `topology`, the undirected room/pose graph that
navigation searches. Both are built on first use from the graph's own indexes
(children by parent; neighbours by place), which answer the common questions
(`children`, `linked`, `neighbours`) without networkx: loading a graph and
checking a plan that needs no path search do not import it.
"""

from __future__ import annotations

import difflib
import gc
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import msgspec

from sceneplan.errors import UnknownNodeError

if TYPE_CHECKING:
    import networkx as nx


class NodeKind(StrEnum):
    """The levels of the hierarchy, plus poses (topology) and the agent."""

    BUILDING = "building"
    FLOOR = "floor"
    ROOM = "room"
    POSE = "pose"
    ASSET = "asset"
    OBJECT = "object"
    AGENT = "agent"

    @property
    def with_article(self) -> str:
        """'an asset', 'a room'."""
        return ("an " if self.value[0] in "aeiou" else "a ") + self.value


class Relation(StrEnum):
    """How an object rests on its parent."""

    ONTOP_OF = "ontop_of"
    INSIDE_OF = "inside_of"
    HELD = "held"


# Which kinds may be the parent of each kind; None in the set means "may have none".
ALLOWED_PARENTS: dict[NodeKind, frozenset[NodeKind | None]] = {
    NodeKind.BUILDING: frozenset({None}),
    NodeKind.FLOOR: frozenset({NodeKind.BUILDING, None}),
    NodeKind.ROOM: frozenset({NodeKind.FLOOR, None}),
    NodeKind.POSE: frozenset({NodeKind.FLOOR, None}),
    NodeKind.ASSET: frozenset({NodeKind.ROOM}),
    NodeKind.OBJECT: frozenset({NodeKind.ASSET, NodeKind.OBJECT, NodeKind.AGENT}),
    NodeKind.AGENT: frozenset({NodeKind.ROOM, NodeKind.POSE}),
}

PLACE_KINDS = frozenset({NodeKind.ROOM, NodeKind.POSE})

# A node id is written bare as an action's argument in plans (`pickup(coffee_mug)`),
# so it is exactly what the plan parser (world/actions.py) takes as an argument.
NODE_ID = re.compile(r"[\w\-.]+")
NODE_ID_RULE = (
    "an id is one or more letters, digits, '_', '-' or '.', with no spaces, "
    "so plans can name it, as in pickup(coffee_mug)"
)


def is_node_id(text: object) -> bool:
    """Whether `text` can be a node id: a plan can name it as an action's argument.

    >>> is_node_id("coffee_mug"), is_node_id("cabinet-2.top"), is_node_id("my mug"), is_node_id("")
    (True, True, False, False)
    """
    return isinstance(text, str) and NODE_ID.fullmatch(text) is not None


_TRAILING_INDEX = re.compile(r"[_\d]+$")


def default_category(node_id: str) -> str:
    """The class of a node named like `plate3` or `cabinet_2`: its id without the index.

    >>> default_category("plate3"), default_category("cabinet_12"), default_category("k31x")
    ('plate', 'cabinet', 'k31x')
    """
    stripped = _TRAILING_INDEX.sub("", node_id)
    return stripped or node_id


# A position as a file gives it: 2 or 3 numbers, in metres (checked when a file is decoded).
POSITION_LENGTHS = frozenset({2, 3})
Position = Annotated[
    tuple[float, ...],
    msgspec.Meta(min_length=min(POSITION_LENGTHS), max_length=max(POSITION_LENGTHS)),
]


class AlsoInFiles(NamedTuple):
    """Marks a Node field (in its `Annotated` type) with a second type a file may give it.

    Loading takes that type only to report it in its own words: a SayPlan object in
    two containers has a list of parents, which `graph.io` reports as "has two parents".
    msgspec ignores the mark, so a native file with such a value is refused on the fast path.
    """

    type: Any


# The agent's attribute that gives it a second hand (`SceneGraph.hands`).
TWO_HANDED = "two_handed"


def hands_of(agent: Node) -> int:
    """How many objects an agent node can hold at once: 2 with `two_handed`, else 1."""
    return 2 if TWO_HANDED in agent.attributes else 1


class Node(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """One node of the scene graph; `id` is also its name in prompts and plans.

    A msgspec Struct, so that a file's nodes decode straight into Nodes with their
    types checked in C (`graph.bulk.decode_clean`); the types are not checked when
    a Node is built in code. It holds only strings, enums and tuples, so it can be
    in no reference cycle: it is left out of the cyclic garbage collector
    (`gc=False`), which would otherwise walk every node of a large graph on each
    full collection.
    """

    # The one declaration of a node's fields, in the order native files write them
    # (`NODE_FIELDS`): the file format, both validators and the writer derive from it.
    id: str
    kind: NodeKind
    parent: Annotated[str | None, AlsoInFiles(list[str])] = None
    relation: Relation | None = None
    # Written `category` in files; `category` below falls back to the id's class.
    explicit_category: str | None = msgspec.field(default=None, name="category")
    affordances: tuple[str, ...] = ()
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    position: Position | None = None
    description: str | None = None

    @property
    def category(self) -> str:
        """The class used by goal quantifiers ("every plate")."""
        return self.explicit_category or default_category(self.id)

    def with_(self, **changes) -> Node:
        """A copy with some fields changed."""
        return msgspec.structs.replace(self, **changes)

    def __repr__(self) -> str:  # every field but explicit_category, as the dataclass showed
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _REPR_FIELDS)
        return f"Node({fields})"


# Node's fields, each with its name in files (`encode_name`), type and default.
NODE_FIELDS: tuple[msgspec.structs.FieldInfo, ...] = msgspec.structs.fields(Node)
# The names of a node's fields in native files, in the order files write them.
FIELD_NAMES: tuple[str, ...] = tuple(field.encode_name for field in NODE_FIELDS)
_REPR_FIELDS = tuple(name for name in Node.__struct_fields__ if name != "explicit_category")
_node_id = attrgetter("id")
_node_kind = attrgetter("kind")


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a load allocates its many small, acyclic objects.

    Each collection would walk every object allocated so far: with collections on,
    a 420,000-node file took about 4x longer to parse and build, and its networkx
    tree about 1.5x longer.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _fill_tree(tree: nx.DiGraph, nodes: dict[str, Node]) -> None:
    """Give the empty `tree` an edge parent -> child per node, through networkx's public API.

    Nodes keep the order of `nodes`, children the order of their nodes, and a
    parent missing from `nodes` is added after them, as add_edge adds it.
    """
    parents = list(map(_node_parent, nodes.values()))
    tree.add_nodes_from(nodes)
    tree.add_edges_from(
        compress(zip(parents, nodes, strict=True), map(is_not, repeat(None), parents))
    )


_node_parent = attrgetter("parent")


def _children_of(nodes: dict[str, Node]) -> dict[str, list[str]]:
    """Each parent's children in the order of `nodes` (a parent may be missing from it)."""
    children: defaultdict[str | None, list[str]] = defaultdict(list)
    for node_id, parent in zip(nodes, map(_node_parent, nodes.values()), strict=True):
        children[parent].append(node_id)
    children.pop(None, None)  # the nodes with no parent
    return dict(children)  # type: ignore[arg-type]


class SceneGraph:
    """A validated 3D scene graph. Build it with `sceneplan.graph.load` or `from_nodes`."""

    def __init__(self, name: str = "", description: str = ""):
        self.name = name
        self.description = description
        self.nodes: dict[str, Node] = {}
        self._children: dict[str, list[str]] = {}  # parent -> children, in file order
        self._tree: nx.DiGraph | None = None
        # place -> linked place -> length of the link, in the order networkx would keep
        self._adjacent: dict[str, dict[str, float]] = {}
        self._topology: nx.Graph | None = None
        self._links: list[tuple[str, str]] = []
        self._agent_id: str | None = None
        # category -> ids of its nodes in file order; built on first use (`with_category`)
        self._by_category: dict[str, list[str]] | None = None

    # -- construction ---------------------------------------------------------

    @classmethod
    def from_nodes(
        cls,
        nodes: Iterable[Node],
        links: Iterable[tuple[str, str]] = (),
        name: str = "",
        description: str = "",
    ) -> SceneGraph:
        """Build a graph from nodes whose parents come first or later (any order)."""
        items = list(nodes)
        by_id = dict(zip(map(_node_id, items), items, strict=True))  # the last node of an id wins
        agents = [n.id for n in items if n.kind is NodeKind.AGENT]
        places = [n.id for n in items if n.kind in PLACE_KINDS]
        return cls._assemble(by_id, links, name, description, agents, places)

    @classmethod
    def from_node_dict(
        cls,
        nodes: dict[str, Node],
        links: Iterable[tuple[str, str]] = (),
        name: str = "",
        description: str = "",
    ) -> SceneGraph:
        """`from_nodes` for nodes already keyed by their ids; the graph keeps the dict."""
        kinds = list(map(_node_kind, nodes.values()))
        agents = list(compress(nodes, map(NodeKind.AGENT.__eq__, kinds)))
        places = list(compress(nodes, map(PLACE_KINDS.__contains__, kinds)))
        return cls._assemble(nodes, links, name, description, agents, places)

    @classmethod
    def _assemble(
        cls,
        nodes: dict[str, Node],
        links: Iterable[tuple[str, str]],
        name: str,
        description: str,
        agents: list[str],
        places: list[str],
    ) -> SceneGraph:
        graph = cls(name, description)
        graph.nodes = nodes
        graph._agent_id = agents[-1] if agents else None
        graph._children = _children_of(nodes)
        adjacent = graph._adjacent = {place: {} for place in places}
        for a, b in links:
            if b not in adjacent.get(a, ()):  # a link given twice (either way) counts once
                graph._links.append((a, b))
                # A link to a node that is not a place adds it, as networkx's add_edge would.
                adjacent.setdefault(a, {})[b] = adjacent.setdefault(b, {})[a] = graph._distance(
                    a, b
                )
        return graph

    def _distance(self, a: str, b: str) -> float:
        pa, pb = self.nodes[a].position, self.nodes[b].position
        if pa is None or pb is None:
            return 1.0
        return math.dist(pa[:3], pb[:3]) if len(pa) == len(pb) else math.dist(pa[:2], pb[:2])

    # -- queries ----------------------------------------------------------------

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.nodes

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, node_id: str) -> Node:
        """The node with this id, or an UnknownNodeError that suggests close names."""
        try:
            return self.nodes[node_id]
        except KeyError:
            raise UnknownNodeError(node_id, self.suggest(node_id)) from None

    def suggest(self, node_id: str) -> str:
        """'did you mean ...?' with close node ids, or an empty string."""
        close = difflib.get_close_matches(str(node_id), self.nodes, n=3, cutoff=0.75)
        return "did you mean " + ", ".join(close) + "?" if close else ""

    @property
    def topology(self) -> nx.Graph:
        """The rooms and poses as an undirected networkx Graph, links weighted by their
        length (`weight`); built on first use.

        Treat it as read-only: `linked`, `neighbours` and `link_length` answer from
        the graph's own index without building it.
        """
        if self._topology is None:
            import networkx as nx

            topology: nx.Graph[str] = nx.Graph()
            topology.add_nodes_from(self._adjacent)
            adjacent = self._adjacent
            topology.add_edges_from((a, b, {"weight": adjacent[a][b]}) for a, b in self._links)
            self._topology = topology
        return self._topology

    def is_place(self, node_id: object) -> bool:
        """Whether `node_id` is in the topology: a room or a pose (`node_id in topology`)."""
        return node_id in self._adjacent

    def linked(self, a: str, b: str) -> bool:
        """Whether a link joins places `a` and `b` (`topology.has_edge(a, b)`)."""
        return b in self._adjacent.get(a, ())

    def neighbours(self, place: str) -> list[str]:
        """The places linked to `place`, in the order networkx lists its neighbors."""
        try:
            return list(self._adjacent[place])
        except KeyError:
            raise UnknownNodeError(place, "it is not a room or pose of the topology") from None

    def link_length(self, a: str, b: str) -> float:
        """The length of the link a-b (metres where both have positions, else 1)."""
        return self._adjacent[a][b]

    @property
    def tree(self) -> nx.DiGraph:
        """The hierarchy as a networkx DiGraph, parent -> child; built on first use.

        Treat it as read-only: `children` and `descendants` answer from their own
        index, which is much cheaper to build than the DiGraph's dicts for each node.
        """
        if self._tree is None:
            import networkx as nx

            self._tree = nx.DiGraph()
            with gc_paused():
                _fill_tree(self._tree, self.nodes)
        return self._tree

    def children(self, node_id: str) -> list[str]:
        """Direct children in the hierarchy, in file order."""
        kids = self._children.get(node_id)
        if kids is None:
            if node_id not in self.nodes:  # as networkx says it for a node not in the tree
                import networkx as nx

                raise nx.NetworkXError(f"The node {node_id} is not in the digraph.")
            return []
        return list(kids)

    def descendants(self, node_id: str) -> Iterator[str]:
        """Every node below `node_id` in the hierarchy, depth first, in file order."""
        children = self._children
        stack = list(reversed(self.children(node_id)))
        while stack:
            current = stack.pop()
            yield current
            stack.extend(reversed(children.get(current, ())))

    def ancestors(self, node_id: str) -> Iterator[str]:
        """Parents of `node_id`, nearest first."""
        parent = self.nodes[node_id].parent
        while parent is not None:
            yield parent
            parent = self.nodes[parent].parent

    def room_of(self, node_id: str) -> str | None:
        """The room a node is in (a room is in itself); None for floors, poses, buildings."""
        node = self.node(node_id)
        if node.kind is NodeKind.ROOM:
            return node.id
        for ancestor in self.ancestors(node_id):
            if self.nodes[ancestor].kind is NodeKind.ROOM:
                return ancestor
        return None

    def of_kind(self, kind: NodeKind) -> list[Node]:
        """All nodes of one kind, in file order."""
        return [n for n in self.nodes.values() if n.kind is kind]

    def with_category(self, category: str) -> list[str]:
        """The ids of the nodes of one category (`Node.category`), in file order.

        Answered from an index of every node's category, built on the first call
        (the graph's nodes never change), so a goal's quantifiers do not scan the
        building once per question.
        """
        if self._by_category is None:
            index: defaultdict[str, list[str]] = defaultdict(list)
            for node in self.nodes.values():
                index[node.category].append(node.id)
            self._by_category = dict(index)
        return list(self._by_category.get(category, ()))

    @property
    def agent(self) -> Node:
        """The agent node (the graph has exactly one, or none: then UnknownNodeError)."""
        if self._agent_id is None:
            raise UnknownNodeError("agent", "this scene graph has no agent node")
        return self.nodes[self._agent_id]

    @property
    def has_agent(self) -> bool:
        """Whether the graph has an agent node (`agent` raises UnknownNodeError if not)."""
        return self._agent_id is not None

    @property
    def hands(self) -> int:
        """How many objects the agent can hold at once: 2 with the attribute `two_handed`
        (VirtualHome's character), else 1 (SayPlan's and LookPlanGraph's robots)."""
        return hands_of(self.agent) if self.has_agent else 1

    def links(self) -> list[tuple[str, str]]:
        """The topology edges, as given and in the order they were added."""
        return list(self._links)

    def counts(self) -> dict[str, int]:
        """Number of nodes of each kind, plus `links` for the topology edges."""
        out = {kind.value: 0 for kind in NodeKind}
        for node in self.nodes.values():
            out[node.kind.value] += 1
        out["links"] = len(self._links)
        return out
