"""Memory reconciled with an observation: add what is new, move what was misplaced, forget
what was not seen.

The planners' partial world (`partial.PartialWorld.look`, LookPlanGraph §4.3) and the
executor's belief of a real robot (`sceneplan.execute.belief.Belief.observe`) both call
`reconcile`, and both record what memory gained, lost or had wrong as `Change`s.

The steps run in this order: new objects first (a known object may be seen resting on one),
then the moves (so that an object seen elsewhere leaves what it was believed on before that is
dropped), then what was missing from the surfaces seen whole.

A look inside wardrobe1 that finds a new cup and not the coffee mug memory put there:

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.world.memory import Memory, Observation
>>> memory = Memory(load_environment("coffee"))
>>> cup = Observation("cup", "cup", Relation.INSIDE_OF, "wardrobe1", truth="cup1", id="cup1")
>>> inside = ("wardrobe1", Relation.INSIDE_OF)
>>> changes = reconcile(memory, new=[cup], at=inside, looked=[inside])
>>> [(c.kind, c.node, c.before, c.after) for c in changes]
[('new', 'cup1', None, 'inside wardrobe1'), ('missing', 'coffee_mug', 'inside wardrobe1', None)]
>>> changes.added, changes.forgotten, memory.knows("coffee_mug")
(['cup1'], ['coffee_mug'], False)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

# Kinds of change that give memory a node, and that take one away; every other kind
# (moved, state, at, holding, locked, blocked) corrects a node memory keeps.
ADDING = frozenset({"new", "found"})
FORGETTING = frozenset({"missing"})


@dataclass(frozen=True)
class Change:
    """One change to memory. `kind` is new, found (an object dropped as missing, seen again),
    moved, state, missing, at, holding, locked or blocked; `before` and `after` say what memory
    had and has now; `along` lists the objects a missing one took with it (on or in it)."""

    kind: str
    node: str
    before: str | None = None
    after: str | None = None
    along: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, str | None]:
        """The change as JSON: kind, node, before and after."""
        return {"kind": self.kind, "node": self.node, "before": self.before, "after": self.after}


class Changes(list[Change]):
    """The changes of one step, in order, and the nodes they added, forgot and corrected."""

    @property
    def added(self) -> list[str]:
        """The nodes memory gained (each once)."""
        return _once(c.node for c in self if c.kind in ADDING)

    @property
    def forgotten(self) -> list[str]:
        """The nodes memory dropped, with what was on or in them (each once)."""
        return _once(n for c in self if c.kind in FORGETTING for n in (c.node, *c.along))

    @property
    def corrected(self) -> list[str]:
        """The nodes memory kept but had wrong (each once)."""
        return _once(c.node for c in self if c.kind not in ADDING | FORGETTING)


@dataclass(frozen=True)
class Sighting:
    """A node memory holds, seen resting `relation` `parent` (memory ids); `states` are its
    state words, when the observation read them (None: not read)."""

    node: str
    parent: str
    relation: Relation | None
    states: tuple[str, ...] | None = None


def reconcile(
    memory: Memory,
    *,
    new: Sequence[Observation] = (),
    at: tuple[str, Relation] | None = None,
    found: Collection[str] = (),
    seen: Iterable[Sighting] = (),
    looked: Iterable[tuple[str, Relation]] = (),
    on_forget: Callable[[str], None] | None = None,
) -> Changes:
    """Bring `memory` in line with one observation; the changes made, in order.

    `new` are observations of objects memory lacks: they are added (one whose support
    memory does not know goes `at`, the (asset, relation) looked at), as `found` when
    their id is in `found` (objects dropped as missing, seen again). `seen` puts each
    object memory holds where it was seen (and replaces its state words, when read).
    `looked` are the surfaces seen whole: an object memory had there that was neither
    seen nor just added, and is not held, is forgotten with what is on or in it
    (`on_forget` is told each one first).
    """
    changes = Changes()
    added: list[str] = []
    if new:
        if at is None:
            raise ValueError("new observations need the place they were seen at")
        added = memory.add(new, *at)
        for node in added:
            kind = "found" if node in found else "new"
            changes.append(Change(kind, node, None, place(memory.state, node)))
    kept = set(added)
    for sighting in seen:
        kept.add(sighting.node)
        changes += move(memory, sighting.node, sighting.parent, sighting.relation)
        if sighting.states is not None:
            changes += restate(memory, sighting.node, sighting.states)
    for asset, relation in looked:
        if asset not in memory.graph:
            continue
        for node in list(visible(memory.state, asset, relation)):
            if node not in kept and node in memory.graph and not memory.state.holds(node):
                if on_forget is not None:
                    on_forget(node)
                changes += forget(memory, node)
    return changes


def move(memory: Memory, node: str, parent: str, relation: Relation | None) -> list[Change]:
    """Put an object where it was seen, unless memory has it there already; the change, if any.

    A sighting that puts an object on or in itself is not believable, and changes nothing.
    """
    state = memory.state
    if node not in memory.graph or (state.parent(node), state.relation(node)) == (parent, relation):
        return []
    if parent == node or parent in state.contents(node):
        return []
    before = place(state, node)
    state.let_go(node)
    state.move(node, parent, relation)
    return [Change("moved", node, before, place(state, node))]


def restate(
    memory: Memory, node: str, words: Iterable[str], *, merge: bool = False
) -> list[Change]:
    """Replace a node's state words with those seen (or, `merge`, add them, each replacing
    its opposite); the change, if any."""
    if node not in memory.graph:
        return []
    before = memory.state.states(node)
    after = set(before) if merge else set(words)
    if merge:
        for word in words:
            after.discard(EXCLUSIVE_STATES.get(word, ""))
            after.add(word)
    if after == before:
        return []
    memory.set_states(node, after)
    return [Change("state", node, ", ".join(sorted(before)), ", ".join(sorted(after)))]


def forget(memory: Memory, node: str) -> list[Change]:
    """Drop an object memory has wrong, with what is on or in it; the change, if any."""
    if node not in memory.graph or memory.graph.nodes[node].kind is not NodeKind.OBJECT:
        return []
    before = place(memory.state, node)
    gone = memory.forget(node)
    return [Change("missing", node, before, None, tuple(gone[1:]))]


def place(state: WorldState, node: str) -> str:
    """'on kitchen_bench', 'inside fridge', 'held', for a node the graph holds ('unknown')."""
    if node not in state.graph:
        return "unknown"
    relation = state.relation(node)
    if relation is Relation.HELD:
        return "held"
    word = "inside" if relation is Relation.INSIDE_OF else "on"
    return f"{word} {state.parent(node)}"


def visible(state: WorldState, asset: str, relation: Relation) -> Iterator[str]:
    """The objects a look `relation` `asset` can see: those resting on/in it that way,
    and what rests on or in them, except inside a closed object."""
    queue = deque(c for c in state.children(asset) if state.relation(c) is relation)
    while queue:
        current = queue.popleft()
        if state.graph.nodes[current].kind is not NodeKind.OBJECT:
            continue
        yield current
        closed = "closed" in state.states(current)
        queue.extend(
            c
            for c in state.children(current)
            if not (closed and state.relation(c) is Relation.INSIDE_OF)
        )


def _once(nodes: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(nodes))
