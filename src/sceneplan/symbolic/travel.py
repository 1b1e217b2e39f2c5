"""Travel between places for the planner: the Navigator's paths, cached per scene graph.

A macro move of the focused scope (`goto(x)` from anywhere) costs the number
of steps the Navigator expands it into, so plans are compared by the length a
robot executes. A graph's topology never changes, so its paths are kept for
the next solve on the same graph (an evaluation solves many tasks on one
building), and the expansion of a plan reuses the paths its costs came from.

>>> from sceneplan.datasets import load_environment
>>> travel = travel_for(load_environment("coffee"))
>>> travel.steps("bobs_room", "kitchen"), travel.steps("kitchen", "bobs_room")
(4, 4)
"""

from __future__ import annotations

import weakref

from sceneplan.graph.model import SceneGraph
from sceneplan.nav import Navigator


class Travel(Navigator):
    """A Navigator whose shortest paths are remembered (both ways: the topology is undirected)."""

    def __init__(self, graph: SceneGraph):
        super().__init__(graph)
        self._paths: dict[tuple[str, str], list[str]] = {}

    def shortest_path(self, source: str, target: str) -> list[str]:
        """The shortest path between two places, remembered (and reused reversed)."""
        path = self._paths.get((source, target))
        if path is None:
            back = self._paths.get((target, source))
            path = back[::-1] if back is not None else super().shortest_path(source, target)
            self._paths[source, target] = path
        return path

    def steps(self, source: str, target: str) -> int:
        """How many moves the path from `source` to `target` takes."""
        return 0 if source == target else len(self.shortest_path(source, target)) - 1


_TRAVEL: weakref.WeakKeyDictionary[SceneGraph, Travel] = weakref.WeakKeyDictionary()


def travel_for(graph: SceneGraph) -> Travel:
    """The one Travel of a graph (made on first use, dropped with the graph)."""
    travel = _TRAVEL.get(graph)
    if travel is None:
        travel = _TRAVEL[graph] = Travel(graph)
    return travel
