"""Navigation over the room/pose topology, and pose-level expansion of plans.

Edges are weighted by the Euclidean distance between their ends where both
have positions, and count 1 otherwise (see SceneGraph.from_nodes).

Paths come from a bidirectional Dijkstra over the graph's own link index
(`SceneGraph.neighbours` / `link_length`), so navigating does not build the
networkx topology (nor import networkx, which costs a command-line call about
60 ms). It scans the two directions alternately, breaks ties between equal
distances by the order places were reached, and keeps the first meeting place
of the shortest total, so it returns the very path networkx's
`bidirectional_dijkstra` returns on the topology (tests/test_nav.py checks
every pair of places of the packaged environments and of generated buildings).

>>> from sceneplan.datasets import load_environment
>>> nav = Navigator(load_environment("coffee"))
>>> nav.shortest_path("bobs_room", "kitchen")
['bobs_room', 'pose1', 'toms_room', 'pose5', 'kitchen']
>>> [str(a) for a in nav.expand_plan("goto(kitchen) > access(fridge)")]
['goto(pose1)', 'goto(toms_room)', 'goto(pose5)', 'goto(kitchen)', 'access(fridge)']
"""

from __future__ import annotations

from functools import cached_property
from heapq import heappop, heappush
from itertools import count, pairwise

from sceneplan.errors import UnreachableError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.simulator import PlanLike, Simulator
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary


class Navigator:
    """Dijkstra shortest paths between rooms and poses of one scene graph; the plans it
    expands are in `vocabulary` (SayPlan's by default)."""

    def __init__(self, graph: SceneGraph, vocabulary: Vocabulary = SAYPLAN):
        self.graph = graph
        self.vocabulary = vocabulary

    @cached_property
    def simulator(self) -> Simulator:
        """The vocabulary's simulator: what says which actions move and which ends a plan."""
        return Simulator(self.graph, self.vocabulary)

    @cached_property
    def moves(self) -> frozenset[str]:
        """The actions this navigator expands through the poses (`Vocabulary.pose_moves`)."""
        return self.simulator.vocabulary.pose_moves

    def shortest_path(self, source: str, target: str) -> list[str]:
        """The places from `source` to `target`, both included."""
        graph = self.graph
        for end in (source, target):
            if not graph.is_place(end):
                self.graph.node(end)  # unknown ids raise UnknownNodeError with suggestions
                raise UnreachableError(
                    f"'{end}' is {self.graph.node(end).kind.with_article}, not a room or pose; "
                    "navigation goes between rooms and poses"
                )
        path = _bidirectional_dijkstra(graph, source, target)
        if path is None:
            raise UnreachableError(
                f"no path from {source} to {target}: no chain of links connects them"
            )
        return path

    def distances_from(self, source: str) -> dict[str, float]:
        """The length of the shortest path from place `source` to every place a chain of
        links reaches (`source` itself at 0), nearest first: the lengths networkx's
        `single_source_dijkstra_path_length` gives on the topology, without building it."""
        graph = self.graph
        graph.neighbours(source)  # an id that is not a place raises UnknownNodeError
        settled: dict[str, float] = {}
        reached = {source: 0.0}
        order = count()
        fringe = [(0.0, next(order), source)]
        while fringe:
            dist, _, place = heappop(fringe)
            if place in settled:
                continue
            settled[place] = dist
            for other in graph.neighbours(place):
                length = dist + graph.link_length(place, other)
                if other not in settled and (other not in reached or length < reached[other]):
                    reached[other] = length
                    heappush(fringe, (length, next(order), other))
        return settled

    def path_length(self, source: str, target: str) -> float:
        """The length of the shortest path (metres where positions exist, hops otherwise)."""
        path = self.shortest_path(source, target)
        return sum(self.graph.link_length(a, b) for a, b in pairwise(path))

    def expand_plan(self, plan: PlanLike, start: str | None = None) -> list[Action]:
        """Insert the poses between the places of a plan's goto steps.

        Starts from `start`, or the agent's location in the graph. Only a move
        (`moves`: a goto) with exactly one argument is expanded: one with any other number of
        arguments, or whose target is not a known room or pose, is kept as it
        is, so the simulator reports it (an extra argument is never dropped); a
        target that no path reaches raises UnreachableError. Steps after done()
        are kept as they are: they are not run, and a caller that reports them
        (see `Verification.ignored`) names the steps as written.
        """
        here = start if start is not None else self.graph.agent.parent
        actions = parse_plan(plan)
        out: list[Action] = []
        for position, action in enumerate(actions):
            if self.simulator.ends_plan(action):
                out.extend(actions[position:])
                break
            is_move = action.name in self.moves and len(action.args) == 1
            target = action.args[0] if is_move else None
            if target is None or not self.graph.is_place(target) or here is None:
                out.append(action)
                continue
            if target == here:
                out.append(action)
                continue
            path = self.shortest_path(here, target)
            out.extend(Action(action.name, (place,)) for place in path[1:])
            here = target
        return out


def _bidirectional_dijkstra(graph: SceneGraph, source: str, target: str) -> list[str] | None:
    """The shortest path from `source` to `target` over the links, or None if none joins them.

    Two searches, one from each end, take turns settling their nearest place
    (ties by the order places were first reached); whenever a place has been
    reached from both sides, the path through it is a candidate, and the best
    candidate so far is the answer once some place is settled from both sides.
    """
    if source == target:
        return [source]
    settled: tuple[dict[str, float], dict[str, float]] = ({}, {})
    reached: tuple[dict[str, float], dict[str, float]] = ({source: 0.0}, {target: 0.0})
    came_from: tuple[dict[str, str | None], dict[str, str | None]] = (
        {source: None},
        {target: None},
    )
    order = count()
    fringes: tuple[list[tuple[float, int, str]], ...] = (
        [(0.0, next(order), source)],
        [(0.0, next(order), target)],
    )
    best: float | None = None
    meeting: str | None = None
    side = 1
    while fringes[0] and fringes[1]:
        side = 1 - side
        dist, _, place = heappop(fringes[side])
        if place in settled[side]:
            continue
        settled[side][place] = dist
        if place in settled[1 - side]:
            assert meeting is not None  # a place settled on both sides was reached on both
            forward = _walk(came_from[0], meeting)
            backward = _walk(came_from[1], came_from[1][meeting])
            return forward[::-1] + backward
        for other in graph.neighbours(place):
            length = dist + graph.link_length(place, other)
            if other in settled[side]:
                continue
            if other not in reached[side] or length < reached[side][other]:
                reached[side][other] = length
                heappush(fringes[side], (length, next(order), other))
                came_from[side][other] = place
                if other in reached[1 - side]:
                    total = length + reached[1 - side][other]
                    if best is None or total < best:
                        best, meeting = total, other
    return None


def _walk(came_from: dict[str, str | None], place: str | None) -> list[str]:
    """The places from `place` back to the search's start, following `came_from`."""
    out: list[str] = []
    while place is not None:
        out.append(place)
        place = came_from[place]
    return out
