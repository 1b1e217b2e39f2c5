"""What the robot knows: the memory graph of partial observability (LookPlanGraph §4.1, §4.3).

Under partial observability a run holds two worlds. The *true world* is the
task's graph, which the simulator executes against. The *memory* is what
the robot knows: a scene graph of its own, which starts as the static part
of the building (floors, rooms, poses, assets: no movable objects, §4.1) or
as a stale map, and grows as the robot looks at assets (§4.3).

Memory ids are the names the planner sees and plans with. A perceived
object the perceiver could identify takes its true id; one it could only
name (a VLM on a real camera) takes `category` + a number, and `truth_of`
links it to the true node once the world has associated them. Nodes of the
start graph keep their ids in both worlds.

>>> from sceneplan.datasets import load_environment
>>> memory = Memory.static(load_environment("coffee"))
>>> memory.knows("coffee_mug"), memory.knows("wardrobe1")
(False, True)
>>> seen = Observation("coffee mug", "coffee_mug", Relation.INSIDE_OF, "wardrobe1",
...                    truth="coffee_mug", id="coffee_mug")
>>> memory.add([seen], "wardrobe1", Relation.INSIDE_OF)
['coffee_mug']
>>> memory.state.parent("coffee_mug"), memory.true_id("coffee_mug")
('wardrobe1', 'coffee_mug')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph, default_category
from sceneplan.world.state import WorldState

# State words that say a node can be opened, or switched.
_OPENS = frozenset({"open", "closed"})
_SWITCHES = frozenset({"on", "off"})


@dataclass(frozen=True)
class Observation:
    """One object a look found (LookPlanGraph App. B: name, relation, related_to, states).

    `name` is what the perceiver called it ("coffee mug", "cup"); `category` the
    known category it was matched to (None when it matched none). `related_to`
    is what it rests on: a memory id (the asset looked at, or an object memory
    holds) or the `name` of another observation of the same look. `truth` is the
    true node's id when the perceiver knows it (simulation); None for a
    hallucination, or for a real camera. `id` is the id the perceiver gives
    it when it recognised the node (the true id, in simulation); without one,
    memory names it `category<n>`. Empty `affordances` means those of a
    movable object: pickup, plus open/close or turn_on/turn_off when a state
    word says so.
    """

    name: str
    category: str | None = None
    relation: Relation | None = None
    related_to: str | None = None
    states: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    truth: str | None = None
    affordances: tuple[str, ...] = ()
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The observation as JSON (`from_dict` reads it back)."""
        out = asdict(self)
        out["relation"] = self.relation.value if self.relation else None
        out["states"], out["properties"] = list(self.states), list(self.properties)
        out["affordances"] = list(self.affordances)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation `to_dict` wrote."""
        data = dict(data)
        data["relation"] = Relation(data["relation"]) if data.get("relation") else None
        for key in ("states", "properties", "affordances"):
            data[key] = tuple(data.get(key) or ())
        return cls(**data)


class Memory:
    """The memory graph with the world state on it, and the link from its ids to the truth."""

    def __init__(self, graph: SceneGraph, truth_of: dict[str, str] | None = None):
        self.state = WorldState(graph)
        self._truth_of: dict[str, str] = dict(truth_of or {})  # memory id -> true id

    # -- construction -------------------------------------------------------------

    @classmethod
    def static(cls, graph: SceneGraph) -> Memory:
        """LookPlanGraph's starting memory: everything but the movable objects (§4.1).

        What the agent holds stays known: the robot knows what is in its hand.
        """
        keep = [n for n in graph if n.kind is not NodeKind.OBJECT or _held_chain(graph, n.id)]
        return cls(SceneGraph.from_nodes(keep, graph.links(), graph.name, graph.description))

    @classmethod
    def prior(cls, graph: SceneGraph) -> Memory:
        """A memory that holds all of `graph`: the map as last made, stale once things move."""
        return cls(graph)

    # -- reading --------------------------------------------------------------------

    @property
    def graph(self) -> SceneGraph:
        """The memory graph (the robot's belief of the scene)."""
        return self.state.graph

    def knows(self, node_id: str) -> bool:
        """Whether the memory graph has the node."""
        return node_id in self.state.graph

    def true_id(self, memory_id: str) -> str:
        """The true world's id of a memory node (its own id unless a look linked another)."""
        return self._truth_of.get(memory_id, memory_id)

    def memory_id(self, true_id: str) -> str | None:
        """The memory node standing for a true node, or None when memory lacks it."""
        for mine, theirs in self._truth_of.items():
            if theirs == true_id:
                return mine
        if true_id in self.state.graph and true_id not in self._truth_of:
            return true_id
        return None

    def objects(self) -> list[str]:
        """The movable objects memory holds."""
        return [n.id for n in self.state.graph if n.kind is NodeKind.OBJECT]

    # -- changing -------------------------------------------------------------------

    def add(self, observations: Sequence[Observation], asset: str, relation: Relation) -> list[str]:
        """Add what a look at `asset` found; returns the new memory ids, in order.

        Observations of nodes memory already holds (the same true node, or the
        same id) are skipped; one whose `related_to` names nothing known is put
        `relation` `asset`, where the look found it.
        """
        graph = self.state.graph
        known_truth = {self.true_id(n) for n in graph.nodes}
        by_name: dict[str, str] = {}
        new_nodes: list[Node] = []
        taken = set(graph.nodes)
        for obs in observations:
            if obs.truth is not None and obs.truth in known_truth:
                continue
            node_id = _new_id(obs, taken)
            taken.add(node_id)
            by_name[obs.name] = node_id
            new_nodes.append(
                Node(
                    node_id,
                    NodeKind.OBJECT,
                    parent=obs.related_to,
                    relation=obs.relation,
                    affordances=obs.affordances or _affordances(obs.states),
                    state=tuple(dict.fromkeys(obs.states)),
                    attributes=tuple(dict.fromkeys(obs.properties)),
                    explicit_category=obs.category,
                )
            )
            if obs.truth is not None:
                known_truth.add(obs.truth)
                if obs.truth != node_id:
                    self._truth_of[node_id] = obs.truth
        if not new_nodes:
            return []
        ids = set(taken)
        placed = []
        for node in new_nodes:
            parent = by_name.get(node.parent or "", node.parent)
            if parent is None or parent not in ids or parent == node.id:
                parent, rel = asset, relation
            else:
                rel = node.relation or relation
            placed.append(node.with_(parent=parent, relation=rel))
        _break_cycles(placed, asset, relation)
        self._rebuild(extra=placed)
        return [n.id for n in placed]

    def forget(self, node_id: str) -> list[str]:
        """Drop an object memory has wrong, with everything memory put on or in it."""
        if node_id not in self.state.graph or self.state.graph.nodes[node_id].kind is not (
            NodeKind.OBJECT
        ):
            return []
        gone = [node_id, *self.state.contents(node_id)]
        for n in gone:
            self._truth_of.pop(n, None)
        self._rebuild(drop=set(gone))
        return gone

    def set_states(self, node_id: str, words: Iterable[str]) -> None:
        """Replace a node's state words with what was seen."""
        if node_id in self.state.graph:
            self.state._state[node_id] = frozenset(words)

    def link(self, memory_id: str, true_id: str) -> None:
        """Record that a memory node stands for a true node (data association)."""
        if memory_id != true_id:
            self._truth_of[memory_id] = true_id

    def _rebuild(
        self, extra: Sequence[Node] = (), drop: set[str] | frozenset[str] = frozenset()
    ) -> None:
        """A new memory graph with the current state folded in, `extra` added, `drop` removed."""
        old = self.state
        current = old.to_graph()
        nodes = [n for n in current if n.id not in drop] + list(extra)
        graph = SceneGraph.from_nodes(nodes, current.links(), current.name, current.description)
        state = WorldState(graph)
        state.accessed = old.accessed if old.accessed not in drop else None
        state.done = old.done
        self.state = state


def _held_chain(graph: SceneGraph, node_id: str) -> bool:
    """Whether an object is in the agent's hand, or on/in something that is."""
    for ancestor in graph.ancestors(node_id):
        kind = graph.nodes[ancestor].kind
        if kind is NodeKind.AGENT:
            return True
        if kind is not NodeKind.OBJECT:
            return False
    return False


_NOT_ID = re.compile(r"[^\w]+")


def _new_id(obs: Observation, taken: set[str]) -> str:
    """The perceiver's id when it gave one and it is free; else `category<n>`."""
    if obs.id is not None and obs.id not in taken:
        return obs.id
    base = obs.category or _NOT_ID.sub("_", obs.name.strip().lower()).strip("_") or "object"
    base = default_category(base)
    index = 1
    while f"{base}{index}" in taken:
        index += 1
    return f"{base}{index}"


def _affordances(states: Iterable[str]) -> tuple[str, ...]:
    words = set(states)
    out = ["pickup"]
    if words & _OPENS:
        out += ["open", "close"]
    if words & _SWITCHES:
        out += ["turn_on", "turn_off"]
    return tuple(out)


def _break_cycles(nodes: list[Node], asset: str, relation: Relation) -> None:
    """A perceiver may say a rests on b and b on a: put such nodes on the asset looked at."""
    parent = {n.id: n.parent for n in nodes}
    for i, node in enumerate(nodes):
        seen, current = {node.id}, parent.get(node.id)
        while current in parent:
            if current in seen:
                nodes[i] = node.with_(parent=asset, relation=relation)
                parent[node.id] = asset
                break
            seen.add(current)
            current = parent[current]
