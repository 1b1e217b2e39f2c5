"""Which part of the scene graph the grounder sees.

`full_scope` is the whole graph with step-by-step navigation over every room
and pose. `focused_scope` is the relevant subgraph: the nodes a goal needs
changed, what holds or encloses them, where they may go, the nodes that can
give them a needed state word (an appliance, or the helper of an action that
sets the word: a sink basin, a tap), and the places of all these; navigation
between those places is one macro step each, expanded to poses afterwards by
the Navigator (moving has no effect but the agent's place and the accessed
asset, so nothing is lost). When the focused scope finds no plan, the solver
tries `widened_scopes` (everything in the focus's rooms, then one room
further) and last the full scope, so the focus never makes a solvable task fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from sceneplan.graph.model import Node, NodeKind, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.world.goals import Atom, Prop
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState
from sceneplan.world.substances import (
    SATURATED,
    needs_soaked_tool,
    substance_word,
    supplied,
)
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

K = NodeKind

# The focus plans with stacks at most this many objects deep (beyond what the
# state already has): without a bound the ways to stack n receptacle objects
# grow like n! (six logs: 29,000 ground actions). The full scope has none.
FOCUS_STACK_DEPTH = 2


@dataclass(frozen=True)
class Scope:
    """Nodes and places to ground over; `effect_words` None means every appliance word.

    `stack_depth` bounds how many objects a plan may newly stack an object on
    or in (a log on a log on a table is 1; None: no bound). Placements that
    already hold in the state are always allowed, at any depth.

    `stacking` names the (object, object) pairs where an object that takes
    things (a receptacle: a basket, a pot, a platter) may newly go on or in
    another object; None allows every pair. The focus allows the pairs its goal
    names: stacking receptacles otherwise only serves to carry several things
    at once, and the ways to do it multiply the ground actions (eight pots in a
    garden: 66,000 actions, 27 s to ground, against 5,000 without).
    """

    level: str
    objects: frozenset[str]
    assets: frozenset[str]
    places: tuple[str, ...]
    macro_moves: bool
    effect_words: frozenset[str] | None = None
    stack_depth: int | None = None
    stacking: frozenset[tuple[str, str]] | None = None

    def may_stack(self, receptacle: str, target: str) -> bool:
        """Whether the receptacle object may newly go on or in the target object."""
        return self.stacking is None or (receptacle, target) in self.stacking

    def effect_matters(self, word: str) -> bool:
        """Whether an appliance effect giving the state word can matter to the goal."""
        if self.effect_words is None:
            return True
        return word in self.effect_words or EXCLUSIVE_STATES.get(word) in self.effect_words


def full_scope(graph: SceneGraph) -> Scope:
    """The whole graph, primitive moves between linked places."""
    return Scope(
        "full",
        frozenset(n.id for n in graph if n.kind is K.OBJECT),
        frozenset(n.id for n in graph if n.kind is K.ASSET),
        tuple(n.id for n in graph if n.kind in (K.ROOM, K.POSE)),
        macro_moves=False,
    )


class _Focus:
    """Builds a focused scope from seed nodes (see `focused_scope`)."""

    def __init__(self, state: WorldState, vocabulary: Vocabulary):
        self.state = state
        self.vocabulary = vocabulary
        self.graph = state.graph
        self.objects: set[str] = set()
        self.assets: set[str] = set()
        self.places: set[str] = {state.agent_at}

    @cached_property
    def distance(self) -> dict[str, float]:
        """Path length from the agent's place to every place it can reach."""
        return Navigator(self.graph).distances_from(self.state.agent_at)

    def add_object(self, o: str) -> None:
        if o in self.objects:
            return
        self.objects.add(o)
        for parent in _chain_up(self.state, o):
            if self.graph.nodes[parent].kind is K.OBJECT:
                self.objects.add(parent)
            else:
                self.add_asset(parent)

    def add_asset(self, a: str) -> None:
        self.assets.add(a)
        room = self.graph.room_of(a)
        if room is not None:
            self.places.add(room)

    def add_node(self, node_id: str) -> None:
        kind = self.graph.nodes[node_id].kind
        if kind is K.OBJECT:
            self.add_object(node_id)
        elif kind is K.ASSET:
            self.add_asset(node_id)
        elif kind in (K.ROOM, K.POSE):
            self.places.add(node_id)
            if kind is K.ROOM:
                self.add_release_assets_in(node_id)
        elif kind in (K.FLOOR, K.BUILDING):
            self.add_region(node_id)

    def add_release_assets_in(self, room: str) -> None:
        for child in self.graph.children(room):
            node = self.graph.nodes[child]
            if node.kind is K.ASSET and "release" in node.affordances:
                self.add_asset(child)

    def add_region(self, region: str) -> None:
        """A floor or building: its rooms already in focus, or else the nearest one."""
        inside = set(self.graph.descendants(region))
        rooms = [p for p in self.places if p in inside and self.graph.nodes[p].kind is K.ROOM]
        if not rooms:
            rooms = self._nearest([r for r in inside if self.graph.nodes[r].kind is K.ROOM], 1)
        for room in rooms:
            self.places.add(room)
            self.add_release_assets_in(room)

    def add_helpers(self, words: Iterable[tuple[str, str, bool]]) -> None:
        """Nodes that can give an object a needed word (or take it away, when `positive`
        is False: give its opposite, or be the tool that takes a substance off), as the
        vocabulary's actions and appliances say (`Vocabulary.gives`, `takes_away`): those
        in focused rooms, and the nearest. A tool for mud or stains also needs something
        to soak it in."""
        for word, obj, positive in words:
            target = self.graph.nodes[obj]
            needed = word if positive else EXCLUSIVE_STATES.get(word)
            if needed is not None:
                self._add_nearest(self.vocabulary.gives, target, needed)
            if positive:
                continue
            tools = self._add_nearest(self.vocabulary.takes_away, target, word)
            if tools and needs_soaked_tool(word):
                soak = [(substance_word(SATURATED, m), t, True) for t in tools for m in self.soaks]
                self.add_helpers(sorted(soak))

    @cached_property
    def soaks(self) -> set[str]:
        """The substances some node holds or gives at the start: what a tool can be soaked in."""
        return {m for n in self.graph for m in supplied(n.state)}

    def _add_nearest(
        self, helps: Callable[[Node, Node, str], bool], obj: Node, word: str
    ) -> list[str]:
        """Add the nodes that help obj to the word (`gives` or `takes_away`): those in
        focused rooms, or else the nearest one; return them."""
        candidates = [
            n.id for n in self.graph if n.kind in (K.ASSET, K.OBJECT) and helps(n, obj, word)
        ]
        chosen = [c for c in candidates if self._room(c) in self.places]
        chosen = chosen or self._nearest(candidates, 1)
        for helper in chosen:
            self.add_node(helper)
        return chosen

    def ensure_release_asset(self) -> None:
        if any("release" in self.graph.nodes[a].affordances for a in self.assets):
            return
        rooms = [self.state.agent_at, *sorted(self.places)]
        candidates = [a.id for a in self.graph.of_kind(K.ASSET) if "release" in a.affordances]
        here = [a for a in candidates if self.graph.room_of(a) in rooms]
        for asset in here[:1] or self._nearest(candidates, 1):
            self.add_asset(asset)

    def _room(self, node_id: str) -> str | None:
        return self.state.room_of(node_id)

    def _nearest(self, nodes: list[str], count: int) -> list[str]:
        def key(node_id: str) -> float:
            room = node_id if node_id in self.distance else self._room(node_id)
            return self.distance.get(room, float("inf")) if room else float("inf")

        ranked = sorted((n for n in nodes if key(n) < float("inf")), key=key)
        return ranked[:count]


def _chain_up(state: WorldState, o: str) -> list[str]:
    """The object's parents up to its asset (empty while it is held)."""
    out, parent = [], state.parent(o)
    while parent is not None and state.graph.nodes[parent].kind in (K.OBJECT, K.ASSET):
        out.append(parent)
        if state.graph.nodes[parent].kind is K.ASSET:
            break
        parent = state.parent(parent)
    return out


def focused_scope(
    state: WorldState,
    seeds: Iterable[Atom],
    goal_literals: Iterable[tuple[Atom | Prop, bool]] = (),
    extra_nodes: Iterable[str] = (),
    needs_release: bool = False,
    vocabulary: Vocabulary = SAYPLAN,
) -> Scope:
    """The relevant subgraph for literals that must change (`seeds`) and extra nodes.

    `goal_literals` (all literals of the goal) name the state words whose
    appliance effects matter; `needs_release` asks for an asset to put things on;
    the `vocabulary`'s actions say which nodes can give an object a state word.
    """
    focus = _Focus(state, vocabulary)
    graph = state.graph
    seeds = list(seeds)
    atom_literals = [(a, p) for a, p in goal_literals if isinstance(a, Atom)]  # no task facts
    polarity: dict[Atom, set[bool]] = {}
    for atom, positive in atom_literals:
        polarity.setdefault(atom, set()).add(positive)
    for atom in seeds:
        for arg in atom.nodes():
            focus.add_node(arg)
    for node_id in extra_nodes:
        focus.add_node(node_id)
    for held in state.held:
        focus.add_object(held)
    if state.accessed is not None:
        focus.add_asset(state.accessed)
    words = {
        (*found, positive)
        for atom in seeds
        if (found := atom.predicate.word_of(atom.args)) is not None
        for positive in polarity.get(atom, (True, False))  # the way(s) the goal wants it
    }
    focus.add_helpers(sorted(words))
    if (
        needs_release
        or state.held
        or any(graph.nodes[o].kind is K.OBJECT for a in seeds for o in a.nodes())
    ):
        focus.ensure_release_asset()
    effect_words = frozenset(atom.name for atom, _ in atom_literals if atom.predicate.state_word)
    objects = {n.id for n in graph.of_kind(K.OBJECT)}
    stacking = frozenset(
        (atom.args[0], atom.args[1])
        for atom, _ in atom_literals
        if len(atom.args) >= 2 and atom.args[0] in objects and atom.args[1] in objects
    )
    return Scope(
        "focused",
        frozenset(focus.objects),
        frozenset(focus.assets),
        tuple(sorted(focus.places)),
        macro_moves=True,
        effect_words=effect_words,
        stack_depth=FOCUS_STACK_DEPTH,
        stacking=stacking if atom_literals else None,
    )


# How many rings of rooms around a focused scope are tried before the whole graph: the
# rooms of its places, then those one link further (`widened_scopes`).
WIDEN_RINGS = 2


def widened_scopes(
    state: WorldState, scope: Scope, vocabulary: Vocabulary = SAYPLAN
) -> Iterator[Scope]:
    """Scopes between a focused scope and the whole graph, smallest first: everything in
    the rooms of its places (a goal that names no object, `sitting(agent)`, has only the
    agent's room in focus and nothing to sit on), then everything one room further, for
    `WIDEN_RINGS` rings. Each keeps the focus's macro moves and bounds, and is given only
    if it adds nodes and is not already the whole graph (the solver grounds that last)."""
    graph = state.graph
    rooms = {n.id for n in graph.of_kind(K.ROOM)}
    ring = {r for p in scope.places for r in _rooms_at(graph, p, rooms)}
    seen: set[str] = set()
    focus = _Focus(state, vocabulary)
    focus.objects, focus.assets = set(scope.objects), set(scope.assets)
    focus.places |= set(scope.places)
    for level in range(WIDEN_RINGS):
        if level:
            ring = {r for room in ring for r in _next_rooms(graph, room, rooms)} - seen
        if not ring or seen | ring == rooms:
            return
        seen |= ring
        before = len(focus.objects) + len(focus.assets)
        for node in graph:
            if node.kind is K.ASSET and graph.room_of(node.id) in ring:
                focus.add_asset(node.id)
            elif node.kind is K.OBJECT and state.room_of(node.id) in ring:
                focus.add_object(node.id)
        focus.places |= ring
        if len(focus.objects) + len(focus.assets) == before:
            continue
        yield Scope(
            f"rooms+{level}" if level else "rooms",
            frozenset(focus.objects),
            frozenset(focus.assets),
            tuple(sorted(focus.places)),
            macro_moves=True,
            effect_words=scope.effect_words,
            stack_depth=scope.stack_depth,
            stacking=scope.stacking,
        )


def _rooms_at(graph: SceneGraph, place: str, rooms: set[str]) -> set[str]:
    """The room a place is (or is in), or for a pose the rooms it links."""
    if place in rooms:
        return {place}
    room = graph.room_of(place) if place in graph else None
    if room is not None:
        return {room}
    return {n for n in graph.neighbours(place) if n in rooms} if graph.is_place(place) else set()


def _next_rooms(graph: SceneGraph, room: str, rooms: set[str]) -> set[str]:
    """The rooms reached from `room` through links, passing through poses (doors) only."""
    out: set[str] = set()
    stack, seen = [room], {room}
    while stack:
        for n in graph.neighbours(stack.pop()):
            if n in seen:
                continue
            seen.add(n)
            if n in rooms:
                out.add(n)
            else:
                stack.append(n)
    return out
