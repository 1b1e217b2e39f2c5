"""Navigation over the room/pose topology, and pose-level expansion of plans.

Edges are weighted by the Euclidean distance between their ends where both
have positions, and count 1 otherwise (see SceneGraph.from_nodes).

>>> from sceneplan.datasets import load_environment
>>> nav = Navigator(load_environment("coffee"))
>>> nav.shortest_path("bobs_room", "kitchen")
['bobs_room', 'pose1', 'toms_room', 'pose5', 'kitchen']
>>> [str(a) for a in nav.expand_plan("goto(kitchen) > access(fridge)")]
['goto(pose1)', 'goto(toms_room)', 'goto(pose5)', 'goto(kitchen)', 'access(fridge)']
"""

from __future__ import annotations

from itertools import pairwise

import networkx as nx

from sceneplan.errors import UnreachableError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.simulator import PlanLike

MOVE_ACTIONS = frozenset({"goto"})


class Navigator:
    """Dijkstra shortest paths between rooms and poses of one scene graph."""

    def __init__(self, graph: SceneGraph):
        self.graph = graph

    def shortest_path(self, source: str, target: str) -> list[str]:
        """The places from `source` to `target`, both included."""
        for end in (source, target):
            if end not in self.graph.topology:
                self.graph.node(end)  # unknown ids raise UnknownNodeError with suggestions
                raise UnreachableError(
                    f"'{end}' is {self.graph.node(end).kind.with_article}, not a room or pose; "
                    "navigation goes between rooms and poses"
                )
        try:
            return nx.bidirectional_dijkstra(self.graph.topology, source, target)[1]
        except nx.NetworkXNoPath:
            raise UnreachableError(
                f"no path from {source} to {target}: no chain of links connects them"
            ) from None

    def path_length(self, source: str, target: str) -> float:
        """The length of the shortest path (metres where positions exist, hops otherwise)."""
        path = self.shortest_path(source, target)
        return sum(self.graph.topology[a][b]["weight"] for a, b in pairwise(path))

    def expand_plan(self, plan: PlanLike, start: str | None = None) -> list[Action]:
        """Insert the poses between the places of a plan's goto steps.

        Starts from `start`, or the agent's location in the graph. Only a goto
        with exactly one argument is expanded: one with any other number of
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
            if action.name == "done":
                out.extend(actions[position:])
                break
            is_move = action.name in MOVE_ACTIONS and len(action.args) == 1
            target = action.args[0] if is_move else None
            if target is None or target not in self.graph.topology or here is None:
                out.append(action)
                continue
            if target == here:
                out.append(action)
                continue
            path = self.shortest_path(here, target)
            out.extend(Action(action.name, (place,)) for place in path[1:])
            here = target
        return out
