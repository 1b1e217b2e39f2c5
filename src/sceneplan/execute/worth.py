"""Where to look next for a lost object: the greedy of search under uncertainty, and a sweep.

`greedy` (the default search) picks, from where the robot is, the look with
the most probability of finding the object per unit of cost: the classic
rule for searching boxes of known probabilities and costs (look where p/c is
largest; after each look that fails, the probability of what is left grows
and the rule is applied again). The cost is what the look asks of the robot:
its skill calls (`look_actions`: the moves, the access or look, the opening)
plus the travel, `METRES_PER_CALL` metres counting as one call. What a look
can find is the probability of the surfaces it shows that the robot has not
seen whole yet: going to a room shows the tops of its assets and the insides
of those whose opening is clear (`SimulatedRobot`; a robot that shows
nothing on arrival gets each asset looked at instead); looking at an asset
shows its top, and its inside once opened. A closed container is opened only
when its probability over the cost of going and opening beats every other look.

The probability of a surface (an asset's top, or its inside) comes from the
scene (`surface_weights`): a base (`TAKES`) for a surface that takes things,
plus, per asset of its category, `SAME_KIND` for each object of the lost
object's category and `ANY_KIND` for each object of any category that the
map has on (or in) assets of that category; times `SAME_ROOM` in the room the
object was last believed in, and `NAMED_ROOM` in the rooms the planner's
model named (`search.llm_rooms`). The surface the object was last believed
on counts as seen (`last_places`): it was looked at, and it was not there.

`sweep` is the plain baseline: the nearest room with anything left unseen,
then its assets not seen whole in the map's order (open what is closed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sceneplan.errors import SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.execute.search import last_room, look_actions, placed, surfaces_of
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.nav import Navigator

# What a surface is worth: TAKES if it takes things (DOES_NOT_TAKE if not), plus per
# object the map has on or in assets of its category, per asset of that category,
# SAME_KIND for one of the lost object's category and ANY_KIND for any other.
TAKES, DOES_NOT_TAKE = 1.0, 0.1
SAME_KIND, ANY_KIND = 2.0, 0.2
# The room the object was last believed in, and the rooms a model named, weigh more.
SAME_ROOM, NAMED_ROOM = 3.0, 3.0
# Metres of travel that cost as much as one skill call.
METRES_PER_CALL = 5.0

Surface = tuple[str, Relation]
Look = tuple[str, str | None]  # (room, asset): go to the room; and look at the asset


def shown_on_arrival(belief: Belief, asset: str) -> list[Surface]:
    """What arriving in an asset's room shows of it: its top, and its inside when its
    opening is clear (open, or no lid)."""
    state = belief.state
    out = [(asset, Relation.ONTOP_OF)]
    if state.is_container(asset) and state.opening_clear(asset):
        out.append((asset, Relation.INSIDE_OF))
    return out


def surface_weights(
    belief: Belief, lost: Collection[str], named: Sequence[str] = ()
) -> dict[Surface, float]:
    """How likely each surface of the map is to hold one of the lost objects (unnormalised:
    only ratios matter), from the scene's own co-occurrences (module docstring)."""
    graph = belief.graph
    kinds = {belief.lost[n].category for n in lost if n in belief.lost}
    same: Counter[tuple[str, Relation]] = Counter()
    anything: Counter[tuple[str, Relation]] = Counter()
    for node, asset in placed(belief, lost):
        key = (graph.nodes[asset].category, _relation_to(belief, node.id, asset))
        anything[key] += 1
        if node.category in kinds:
            same[key] += 1
    rooms = {room for n in lost if (room := last_room(belief, n)) is not None}
    assets = [n for n in graph if n.kind is NodeKind.ASSET]
    count = Counter(a.category for a in assets)
    out: dict[Surface, float] = {}
    for a in assets:
        room = graph.room_of(a.id)
        factor = (SAME_ROOM if room in rooms else 1.0) * (NAMED_ROOM if room in named else 1.0)
        for surface in surfaces_of(belief, a.id):
            relation = surface[1]
            takes = relation is Relation.INSIDE_OF or "release" in a.affordances
            key = (a.category, relation)
            worth = (SAME_KIND * same[key] + ANY_KIND * anything[key]) / count[a.category]
            out[surface] = factor * (worth + (TAKES if takes else DOES_NOT_TAKE))
    return out


def _relation_to(belief: Belief, node: str, asset: str) -> Relation:
    """How an object rests at its asset: on it, or inside it (through what it is on)."""
    state, current = belief.state, node
    while (parent := state.parent(current)) is not None and parent != asset:
        current = parent
    return state.relation(current) or Relation.ONTOP_OF


def last_places(belief: Belief, lost: Collection[str]) -> set[Surface]:
    """Where the lost objects were last believed, as surfaces: looked at, not there."""
    graph, out = belief.graph, set()
    for n in lost:
        place = belief.lost.get(n)
        parent = place.parent if place is not None else None
        if parent is not None and parent in graph and graph.nodes[parent].kind is NodeKind.ASSET:
            out.add((parent, place.relation or Relation.ONTOP_OF))  # type: ignore[union-attr]
    return out


@dataclass
class Option:
    """One choice of the greedy: a look, its cost in calls and metres, and its worth."""

    look: Look
    calls: int
    metres: float
    worth: float

    @property
    def ratio(self) -> float:
        """Worth over cost: the skill calls, and the metres as calls."""
        return self.worth / (self.calls + self.metres / METRES_PER_CALL)


def greedy_look(
    belief: Belief,
    weights: dict[Surface, float],
    seen: Collection[Surface],
    tried: Collection[Look],
) -> Look | None:
    """The look with the largest probability of finding the object per unit of cost, from
    where the robot is; None when nothing the robot can reach is left unseen.

    `seen`: surfaces seen whole (or known not to hold the object); `tried`: looks the
    search made already (a room gone to, an asset looked at), not offered again.
    """
    options = _options(belief, weights, seen, tried)
    if not options:
        return None
    return max(options, key=lambda o: (o.ratio, -o.metres)).look


def _options(
    belief: Belief,
    weights: dict[Surface, float],
    seen: Collection[Surface],
    tried: Collection[Look],
) -> list[Option]:
    """Every look the robot can make from where it is: going to a room it has not been
    in (worth what arriving there, and in the rooms on the way, shows), and looking at
    an asset (worth what the look shows besides)."""
    state, graph = belief.state, belief.graph
    here = state.room_of(state.agent_id)
    navigator = Navigator(graph)
    try:
        metres = navigator.distances_from(state.agent_at)
    except SceneplanError:
        return []
    rooms = [n.id for n in graph if n.kind is NodeKind.ROOM and n.id in metres]
    assets = {
        r: [c for c in graph.children(r) if graph.nodes[c].kind is NodeKind.ASSET] for r in rooms
    }
    arrival = {
        r: sum(
            weights.get(s, 0.0)
            for a in assets[r]
            for s in shown_on_arrival(belief, a)
            if s not in seen
        )
        if r != here and (r, None) not in tried
        else 0.0
        for r in rooms
    }
    out = []
    for room in rooms:
        try:
            go = look_actions(belief, room, None)
        except SceneplanError:
            continue
        gain = arrival[room]
        if len(go) > 1:  # one link at a time: the rooms on the way are arrived in too
            path = navigator.shortest_path(state.agent_at, room)
            gain += sum(arrival.get(r, 0.0) for r in path[1:-1])
        for a in assets[room]:
            if (room, a) in tried:
                continue
            shown = set(shown_on_arrival(belief, a)) if arrival[room] else set()
            own = sum(
                weights.get(s, 0.0)
                for s in surfaces_of(belief, a)
                if s not in seen and s not in shown
            )
            if own > 0:
                calls = look_calls(belief, a) + len(go)
                out.append(Option((room, a), calls, metres[room], gain + own))
        if gain > 0:
            out.append(Option((room, None), len(go), metres[room], gain))
    return out


def look_calls(belief: Belief, asset: str) -> int:
    """Skill calls a look at an asset of the robot's room takes (reach or look, open)."""
    state = belief.state
    container = state.is_container(asset)
    closed = container and not state.opening_clear(asset)
    if belief.reaches_by_access:  # access (shows it), then open
        return 1 + closed
    return 1 + closed + container  # look on, open, look inside


def sweep_look(belief: Belief, seen: Collection[Surface], tried: Collection[Look]) -> Look | None:
    """The room sweep: the nearest room with anything unseen, gone to, then its assets
    not seen whole, in the map's order; None when nothing reachable is left."""
    state, graph = belief.state, belief.graph
    here = state.room_of(state.agent_id)
    try:
        metres = Navigator(graph).distances_from(state.agent_at)
    except SceneplanError:
        return None
    rooms = sorted(
        (metres[n.id], n.id) for n in graph if n.kind is NodeKind.ROOM and n.id in metres
    )
    for _, room in rooms:
        assets = [c for c in graph.children(room) if graph.nodes[c].kind is NodeKind.ASSET]
        left = [
            a
            for a in assets
            if (room, a) not in tried and any(s not in seen for s in surfaces_of(belief, a))
        ]
        if not left:
            continue
        if room != here and (room, None) not in tried:
            return room, None
        return room, left[0]
    return None
