"""What the ReAct-family planners show of the world: the whole graph when it fits, else some rooms.

SCLPlan gives its model the scene as it is now. The whole graph, with the
current state applied, is shown when its serialization fits `budget` tokens
(the Office and Home graphs, about 5,000 tokens each, do with the default).
A larger graph is shown collapsed (rooms and poses), with the rooms the model
asked for expanded once at the start, and the robot's current room always
expanded, so walking into a room reveals it.

In ALFWorld the scene speaks ALFWorld's terms: an object is `in` or `on` its
receptacle, nodes carry no affordance words (ALFWorld has none: what the
robot can do is its action list), and the robot is at a receptacle, carrying
something or nothing: the ALFWorld vocabulary's `Voice` says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sceneplan.graph.model import NodeKind
from sceneplan.graph.tokens import count_tokens
from sceneplan.graph.views import collapse, full_view
from sceneplan.planners.base import Run
from sceneplan.planners.dialogue import Dialogue, graph_text, render
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.react_replies import RoomsReply
from sceneplan.planners.records import SceneShown
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import PLAIN, Voice

DEFAULT_GRAPH_BUDGET = 8000
_SEEN = frozenset((NodeKind.ASSET.value, NodeKind.OBJECT.value))


@dataclass
class Scene:
    """The rooms shown in full (None: the whole graph) and the names the model got wrong."""

    rooms: list[str] | None = None
    ignored: list[str] = field(default_factory=list)
    observed: set[str] = field(default_factory=set)  # assets and objects shown so far (NRR)
    voice: Voice = PLAIN  # whose terms it is shown in (ALFWorld's, in an ALFWorld room)

    def text(self, state: WorldState) -> str:
        """The scene graph in `state`, as compact JSON for a prompt."""
        graph = state.to_graph()
        if self.rooms is None:
            view = full_view(graph)
        else:
            view = collapse(graph)
            here = graph.room_of(state.agent_at)
            for room in dict.fromkeys([*self.rooms, *([here] if here else [])]):
                view.expand(room)
        self.observed.update(n for n in view.visible_nodes() if view.kind(n) in _SEEN)
        return self.voice.scene_text(view) or graph_text(view)

    def record(self) -> SceneShown:
        """What the scene shows, for `Episode.scene`: all of it, or which rooms."""
        shown = "all" if self.rooms is None else "rooms"
        return SceneShown(shown=shown, rooms=self.rooms, ignored=list(self.ignored))


async def choose_scene(run: Run, budget: int) -> Scene:
    """The whole graph if it fits `budget` tokens; else ask the model which rooms it needs.

    Names that are not rooms of the graph are left out and kept in `ignored`;
    an unusable reply leaves only the robot's room expanded.
    """
    # A node costs at least a token: a larger graph cannot fit, and is not serialized to see.
    if len(run.graph) <= budget and count_tokens(graph_text(full_view(run.graph))) <= budget:
        scene = Scene()
    else:
        dialogue = Dialogue(render("react_rooms.md"))
        dialogue.user(
            render(
                "react_rooms_turn.md",
                instruction=run.instruction,
                graph=graph_text(collapse(run.graph)),
            )
        )
        run.emit(PlanEvent("ask", "rooms", 1, "waiting for the rooms to show"))
        reply = await run.ask("rooms", dialogue.snapshot(), RoomsReply)
        named = list(reply.parsed.rooms) if reply.parsed is not None else []
        nodes = run.graph.nodes
        rooms = [r for r in named if r in nodes and nodes[r].kind is NodeKind.ROOM]
        scene = Scene(list(dict.fromkeys(rooms)), [r for r in named if r not in rooms])
        reply.call.command = f"rooms({', '.join(scene.rooms or [])})"
    scene.voice = run.simulator.vocabulary.voice
    run.episode.scene = scene.record()
    return scene
