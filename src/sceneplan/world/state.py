"""The mutable world on top of an immutable scene graph.

A `WorldState` records only what changed since the graph was loaded (moved
objects, changed state words, the agent's location, the accessed asset), so
copying it costs the size of the changes, not of the building.
"""

from __future__ import annotations

from collections.abc import Iterator

from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph

# Setting one word of a pair removes the other.
EXCLUSIVE_STATES: dict[str, str] = {}
for _a, _b in (
    ("open", "closed"),
    ("on", "off"),
    ("dirty", "clean"),
    ("full", "empty"),
    ("hot", "cold"),
    ("plugged_in", "plugged_out"),
    ("cooked", "raw"),
    ("frozen", "thawed"),
    ("folded", "unfolded"),
):
    EXCLUSIVE_STATES[_a], EXCLUSIVE_STATES[_b] = _b, _a

# A node with one of these affordances holds things inside it: `open` (a container with a
# lid or door: fridge, box) or `receptacle` (open-topped, never closed: bowl, sack, basket).
CONTAINER_AFFORDANCES = frozenset({"open", "receptacle"})


def holds_inside(node: Node) -> bool:
    """Whether a node can hold things inside it (a container or a receptacle)."""
    return not CONTAINER_AFFORDANCES.isdisjoint(node.affordances)


class WorldState:
    """Where everything is and what state it is in, as an overlay on a SceneGraph."""

    __slots__ = ("_parent", "_state", "accessed", "done", "graph", "held", "trail")

    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self._parent: dict[str, tuple[str, Relation | None]] = {}
        self._state: dict[str, frozenset[str]] = {}
        self.accessed: str | None = None
        self.done = False
        # the states before each action the simulator applied to reach this one (ordered
        # goals, `goals.Then`, are checked over them); the states are never changed
        self.trail: tuple[WorldState, ...] = ()
        # the objects the agent holds, in the order it picked them up; at most `hands`
        self.held: tuple[str, ...] = (
            tuple(
                c for c in graph.children(graph.agent.id) if graph.nodes[c].kind is NodeKind.OBJECT
            )
            if graph.has_agent
            else ()
        )

    def copy(self) -> WorldState:
        """An independent copy; costs the number of changes, not the graph size."""
        new = WorldState.__new__(WorldState)
        new.graph = self.graph
        new._parent = dict(self._parent)
        new._state = dict(self._state)
        new.accessed = self.accessed
        new.done = self.done
        new.held = self.held
        new.trail = self.trail
        return new

    # -- reading ----------------------------------------------------------------

    def node(self, node_id: str) -> Node:
        """The static node (kind, affordances, attributes) of an id."""
        return self.graph.node(node_id)

    def parent(self, node_id: str) -> str | None:
        """The current parent: an object's support, the agent's location."""
        moved = self._parent.get(node_id)
        return moved[0] if moved is not None else self.graph.nodes[node_id].parent

    def relation(self, node_id: str) -> Relation | None:
        """How an object rests on its parent now."""
        moved = self._parent.get(node_id)
        return moved[1] if moved is not None else self.graph.nodes[node_id].relation

    def states(self, node_id: str) -> frozenset[str]:
        """The node's state words now."""
        changed = self._state.get(node_id)
        return changed if changed is not None else frozenset(self.graph.nodes[node_id].state)

    def touched(self) -> set[str]:
        """The nodes whose parent, relation or state words this state records as changed:
        every other node is as the graph has it (some of these may be back as it was)."""
        return self._parent.keys() | self._state.keys()

    def children(self, node_id: str) -> list[str]:
        """Direct children now: the graph's, minus those moved away, plus those moved here."""
        out = [c for c in self.graph.children(node_id) if self.parent(c) == node_id]
        out.extend(
            c
            for c, (p, _) in self._parent.items()
            if p == node_id and self.graph.nodes[c].parent != node_id
        )
        return out

    def contents(self, node_id: str) -> Iterator[str]:
        """Every object on or inside a node, at any depth."""
        stack = self.children(node_id)
        while stack:
            current = stack.pop()
            if self.graph.nodes[current].kind is NodeKind.OBJECT:
                yield current
                stack.extend(self.children(current))

    @property
    def agent_id(self) -> str:
        """The id of the graph's agent node."""
        return self.graph.agent.id

    @property
    def agent_at(self) -> str:
        """The room or pose the agent is at."""
        return self.parent(self.agent_id)  # type: ignore[return-value]

    def support_asset(self, node_id: str) -> str | None:
        """The asset an object ultimately rests on (None while it is held)."""
        current = self.parent(node_id)
        while current is not None:
            kind = self.graph.nodes[current].kind
            if kind is NodeKind.ASSET:
                return current
            if kind is not NodeKind.OBJECT:
                return None
            current = self.parent(current)
        return None

    def room_of(self, node_id: str) -> str | None:
        """The room a node is in now (a held object is where the agent is, if in a room)."""
        node = self.graph.nodes[node_id]
        if node.kind is NodeKind.ROOM:
            return node_id
        if node.kind in (NodeKind.ASSET, NodeKind.FLOOR, NodeKind.BUILDING, NodeKind.POSE):
            return self.graph.room_of(node_id)
        current = self.parent(node_id)
        while current is not None:
            kind = self.graph.nodes[current].kind
            if kind is NodeKind.ROOM:
                return current
            if kind is NodeKind.POSE:
                return None
            current = self.parent(current)
        return None

    def closed_container_above(self, node_id: str) -> str | None:
        """The first closed container the object is inside of, on the way up to its asset."""
        current = node_id
        while True:
            parent = self.parent(current)
            if parent is None or self.graph.nodes[parent].kind not in (
                NodeKind.ASSET,
                NodeKind.OBJECT,
            ):
                return None
            if self.relation(current) is Relation.INSIDE_OF and "closed" in self.states(parent):
                return parent
            if self.graph.nodes[parent].kind is NodeKind.ASSET:
                return None
            current = parent

    def is_container(self, node_id: str) -> bool:
        """A node that can be opened, or a receptacle, holds things inside it."""
        return holds_inside(self.graph.nodes[node_id])

    def opening_clear(self, node_id: str) -> bool:
        """Things can go in or out now: the node is open, or it has no lid to close."""
        return "open" in self.states(node_id) or "open" not in self.graph.nodes[node_id].affordances

    @property
    def hands(self) -> int:
        """How many objects the agent can hold at once (`SceneGraph.hands`)."""
        return self.graph.hands

    def holds(self, node_id: str) -> bool:
        """Whether the agent holds the node (in either hand)."""
        return node_id in self.held

    @property
    def hand_free(self) -> bool:
        """Whether the agent has a hand free to pick something up."""
        return len(self.held) < self.hands

    def held_text(self) -> str:
        """What the agent holds, for feedback and prompts: `mug`, `mug and plate`, `nothing`."""
        return " and ".join(self.held) or "nothing"

    def carried(self, node_id: str) -> bool:
        """The node is a held object, or on or in one at any depth."""
        current: str | None = node_id
        while current is not None and self.held:
            if current in self.held:
                return True
            if self.graph.nodes[current].kind is not NodeKind.OBJECT:
                return False
            current = self.parent(current)
        return False

    # -- changing (used by the simulator's effects) -------------------------------

    def move(self, node_id: str, parent: str, relation: Relation | None) -> None:
        """Put an object on/in a new parent, or the agent at a new place."""
        if node_id in self.graph.nodes and (
            self.graph.nodes[node_id].parent == parent
            and self.graph.nodes[node_id].relation == relation
        ):
            self._parent.pop(node_id, None)
        else:
            self._parent[node_id] = (parent, relation)

    def take(self, node_id: str) -> None:
        """The agent picks an object up (into a free hand), with what is on or in it."""
        self.move(node_id, self.agent_id, Relation.HELD)
        if node_id not in self.held:
            self.held = (*self.held, node_id)

    def let_go(self, node_id: str) -> None:
        """The agent's hand no longer holds the object (the caller moves it somewhere)."""
        self.held = tuple(h for h in self.held if h != node_id)

    def set_state(self, node_id: str, word: str) -> None:
        """Add a state word, removing its opposite."""
        words = set(self.states(node_id))
        words.discard(EXCLUSIVE_STATES.get(word, ""))
        words.add(word)
        self._state[node_id] = frozenset(words)

    def replace_states(self, node_id: str, old: tuple[str, ...], new: tuple[str, ...]) -> None:
        """Remove the words `old` from a node and add `new` (a posture for another)."""
        words = set(self.states(node_id)).difference(old).union(new)
        self._state[node_id] = frozenset(words)

    # -- output -------------------------------------------------------------------

    def changes(self) -> dict[str, dict]:
        """What differs from the initial graph: moved nodes and changed state words."""
        moved = {
            k: {"parent": p, "relation": r.value if r else None}
            for k, (p, r) in self._parent.items()
        }
        states = {
            k: sorted(v)
            for k, v in self._state.items()
            if v != frozenset(self.graph.nodes[k].state)
        }
        return {"moved": moved, "state": states}

    def to_graph(self) -> SceneGraph:
        """A new SceneGraph with this state applied (for saving or showing the result)."""
        nodes = []
        for node in self.graph:
            parent, relation = self.parent(node.id), self.relation(node.id)
            nodes.append(
                node.with_(
                    parent=parent,
                    relation=relation,
                    state=_ordered(node.state, self.states(node.id)),
                )
            )
        return SceneGraph.from_nodes(
            nodes, self.graph.links(), self.graph.name, self.graph.description
        )


def _ordered(original: tuple[str, ...], now: frozenset[str]) -> tuple[str, ...]:
    kept = [w for w in original if w in now]
    return tuple(kept + sorted(now.difference(kept)))
