"""Looking for objects the executor lost sight of: where to look, and the actions to look there.

An object dropped as missing (a surface seen whole without it) that the goal
names stops any plan: the executor searches first. The rooms come in order:
the rooms the lost objects were last believed in, then every other room by
path length from the robot; in each room every asset is visited (reached,
and opened when it is a closed container), so that the robot observes it.
The search ends as soon as every lost object is seen again.
"""

from __future__ import annotations

from sceneplan.errors import SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.graph.model import NodeKind
from sceneplan.nav import Navigator
from sceneplan.world.actions import Action


def rooms_to_search(belief: Belief, lost: list[str]) -> list[str]:
    """The rooms to look in, in order: where the lost objects were, then nearest first."""
    graph = belief.graph
    first = []
    for node in lost:
        place = belief.lost.get(node)
        parent = place.parent if place is not None else None
        while (
            parent is not None
            and parent in graph
            and graph.nodes[parent].kind is not (NodeKind.ROOM)
        ):
            parent = graph.nodes[parent].parent
        if parent is not None and parent in graph:
            first.append(parent)
    navigator = Navigator(graph)
    at = belief.state.agent_at
    others = []
    for room in (n.id for n in graph if n.kind is NodeKind.ROOM):
        try:
            others.append((navigator.path_length(at, room), room))
        except SceneplanError:  # cut off (a blocked room): not searched
            continue
    return list(dict.fromkeys([*first, *(room for _, room in sorted(others))]))


def look_actions(belief: Belief, room: str, asset: str) -> list[Action]:
    """The actions that make the robot observe `asset` (in `room`) from where it is now."""
    state, graph = belief.state, belief.graph
    out: list[Action] = []
    closed = state.is_container(asset) and "closed" in state.states(asset)
    if belief.vocabulary == "lookplangraph":
        if state.room_of(state.agent_id) != room:
            out.append(Action("go_to", (room,)))
        out.append(Action("look_on", (asset,)))
        if state.is_container(asset):
            if closed:
                out.append(Action("open", (asset,)))
            out.append(Action("look_inside", (asset,)))
        return out
    path = Navigator(graph).shortest_path(state.agent_at, room)
    out += [Action("goto", (place,)) for place in path[1:]]
    out.append(Action("access", (asset,)))
    if closed:
        out.append(Action("open", (asset,)))
    return out
