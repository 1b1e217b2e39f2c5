"""Planning under partial observability: the run's two worlds, acting through them, memory prompts.

Used by lookplangraph, and by sayplan, sayplan_lite and the oracle with
`observe=partial`. An `Observer` holds the run's `PartialWorld` (the true
world and the robot's memory, `world/partial.py`) and its `Perception`; it
runs actions through them, asks perception what a look sees, and records
each step in `Episode.steps` and the simulator calls. What the planners'
prompts show is memory, never the true world.

The memory a run starts with (`memory` option): the task's choice (`task`,
the default: LookPlanGraph's static scene unless the task says its map is
`prior`), the static scene, or the prior map, which is stale when the task
has a world script.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from sceneplan.errors import BadInputError, PlanParseError
from sceneplan.graph.model import NodeKind
from sceneplan.graph.serialize import view_to_dict
from sceneplan.graph.views import GraphView, collapse_hierarchy
from sceneplan.graph.views import collapse as collapse_rooms
from sceneplan.nav import Navigator
from sceneplan.planners.base import Run
from sceneplan.planners.dialogue import Dialogue
from sceneplan.planners.episode import WorldStep
from sceneplan.planners.options import PlannerOptions
from sceneplan.planners.records import ObserveStart
from sceneplan.planners.replanning import replan
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.memory import Memory
from sceneplan.world.partial import LOOKS, Outcome, PartialWorld, associate, expected_at
from sceneplan.world.simulator import Failure
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH
from sceneplan.world.vocabulary import Vocabulary

if TYPE_CHECKING:
    from sceneplan.perception import Perception

MemoryStart = Literal["task", "static", "prior"]
# The vocabulary a run on memory plans with: LookPlanGraph's, the one with looks.
LOOKING = LOOKPLANGRAPH


class ObserveOptions(PlannerOptions):
    """How a partially observing run perceives, and what its memory starts with."""

    perception: str = Field(
        "simulated:perfect",
        description="what looks see: simulated[:perfect|gpt4o-like|KEY=VALUE,...] or vlm "
        "(docs/perception.md)",
    )
    memory: MemoryStart = Field(
        "task",
        description="memory at the start: task (the task's own: static unless it says prior), "
        "static (rooms and assets only), prior (the map as last made, stale after a world script)",
    )

    @field_validator("perception")
    @classmethod
    def _known_perception(cls, spec: str) -> str:
        """A spec must name a perception; a VLM's model and camera come at run time."""
        if spec.strip() != "vlm":
            from sceneplan.perception import get_perception

            try:
                get_perception(spec)
            except BadInputError as exc:
                raise ValueError(str(exc)) from None
        return spec

    @property
    def partial(self) -> bool:
        """Whether the run plans on memory: always, for a planner declared with these options."""
        return True

    def vocabulary(self, declared: Vocabulary) -> Vocabulary:
        """On memory, the actions that look (`LOOKING`); else the planner's `declared` ones."""
        return LOOKING if self.partial else declared


class PartialOptions(ObserveOptions):
    """For planners that observe fully by default: `observe=partial` plans on memory."""

    observe: Literal["full", "partial"] = Field(
        "full",
        description="full: plan on the true world (SayPlan's assumption); partial: plan on "
        "the robot's memory, act in the true world (LookPlanGraph §4)",
    )

    @property
    def partial(self) -> bool:
        """Whether the run plans on memory (`observe=partial`)."""
        return self.observe == "partial"


def start_memory(run: Run, how: MemoryStart) -> Memory:
    """The robot's memory at the start of a run."""
    mapped = run.prior if run.prior is not None else run.graph
    if how == "task":
        how = run.task.memory if run.task is not None else "static"
    return Memory.prior(mapped) if how == "prior" else Memory.static(mapped)


@dataclass
class Observer:
    """A run's two worlds and its perception; acts and records each step."""

    run: Run
    world: PartialWorld
    perception: Perception
    touched: list[str] = field(default_factory=list)  # memory ids acted on, first first
    observed: set[str] = field(default_factory=set)  # true ids of assets/objects shown
    # The rooms the scene lists, as a hierarchical view of memory's places (floor groups,
    # floors, zones) that expand/contract moves change; None: every room, as in the paper.
    places: GraphView | None = None

    @classmethod
    def start(
        cls, run: Run, options: ObserveOptions, perception: Perception | None = None
    ) -> Observer:
        """The run's worlds: the true one from `run.graph`, memory as `options.memory` says.

        `perception` defaults to the one `options.perception` names.
        """
        if perception is None:
            from sceneplan.perception import get_perception  # the VLM back end, when asked for

            perception = get_perception(options.perception, llm=run.llm)
        memory = start_memory(run, options.memory)
        world = PartialWorld(WorldState(run.graph), memory, run.simulator.vocabulary)
        run.final_state = world.truth
        run.episode.observe = ObserveStart(
            perception=perception.name, memory=[n for n in memory.objects()]
        )
        return cls(run, world, perception)

    @property
    def memory(self) -> Memory:
        """The robot's memory of the world (what its prompts show)."""
        return self.world.memory

    @property
    def state(self) -> WorldState:
        """The memory's world state: what the planner believes."""
        return self.world.memory.state

    async def act(self, action: Action, *, shown: list[str] | None = None) -> Outcome:
        """Run one action (memory check, then the true world); a look then asks perception.

        A step that runs joins the Episode's plan in the true world's ids.
        """
        episode = self.run.episode
        outcome = self.world.execute(action, index=len(episode.steps))
        observations: list[dict[str, Any]] = []
        expected: list[dict[str, Any]] = []
        if outcome.look is not None:
            asset, relation = outcome.look
            expected = expected_at(self.world.truth, self.memory, asset, relation)
            seen = await self.perception.observe(self.world.truth, asset, relation, self.memory)
            seen = associate(self.world.truth, self.memory, asset, relation, seen)
            observations = [o.to_dict() for o in seen]
            outcome.change += self.world.look(asset, relation, seen)
        if outcome.ok:
            executed = str(outcome.executed)
            episode.plan.append(executed)
            episode.full_plan.append(executed)
            episode.action_sources.append("planner")
            self.touched += [a for a in action.args if a not in self.touched]
        episode.steps.append(
            WorldStep(
                index=len(episode.steps),
                action=str(action),
                executed=str(outcome.executed) if outcome.ok else None,
                ok=outcome.ok,
                feedback=self.feedback(outcome),
                cause=outcome.failure.cause.value if outcome.failure else None,
                agent_at=self.world.truth.agent_at,
                observations=observations,
                expected=expected,
                added=list(outcome.change.added),
                forgotten=list(outcome.change.forgotten),
                corrected=list(outcome.change.corrected),
                shown=list(shown or []),
            )
        )
        op = "look" if outcome.look is not None else "step"
        self.run.record_sim(
            op,
            str(action),
            outcome.ok,
            self.feedback(outcome),
            outcome.failure.cause.value if outcome.failure else None,
        )
        return outcome

    def feedback(self, outcome: Outcome) -> str:
        """The step's result in words: the failure, or what a look found."""
        if outcome.failure is not None:
            return outcome.failure.message
        if outcome.look is None:
            return f"{outcome.action} succeeded"
        added = outcome.change.added
        found = ", ".join(added) if added else "nothing new"
        gone = outcome.change.forgotten
        extra = f"; no longer there: {', '.join(gone)}" if gone else ""
        return f"{outcome.action} found: {found}{extra}"

    def check(self, action: Action) -> Failure | None:
        """Memory's objection to an action, or None when it is plausible (recorded)."""
        failure = self.world.check(action)
        if failure is not None:
            self.run.record_sim("check", str(action), False, failure.message, failure.cause.value)
        return failure

    # -- what the prompt shows ------------------------------------------------------------

    def scene(self) -> tuple[str, list[str]]:
        """Memory filtered to the agent's room and the objects it touched (LookPlanGraph §4.2).

        Returns compact JSON in the shape of App. A.1.2 and the asset/object ids it shows.
        """
        state = self.state
        graph = state.graph
        here = state.room_of(state.agent_id) or state.agent_at
        assets = [n for n in graph.children(here) if graph.nodes[n].kind is NodeKind.ASSET]
        objects: list[str] = []
        for asset in assets:
            objects += [o for o in state.contents(asset) if o not in objects]
        for node in self.touched:
            if node in graph and graph.nodes[node].kind is NodeKind.OBJECT and node not in objects:
                objects.append(node)
        objects += [o for o in state.held if o not in objects]
        data: dict[str, Any] = self._places()
        data |= {
            "asset": [_asset(state, a, here) for a in assets],
            "object": [_object(state, o) for o in objects],
            "agent": [
                {"id": state.agent_id, "location": here, "holding": " and ".join(state.held)}
            ],
        }
        shown = assets + objects
        self.observed.update(self.memory.true_id(n) for n in shown)
        return json.dumps({"nodes": data}, separators=(",", ":")), shown

    def _places(self) -> dict[str, Any]:
        """The scene's places: every room, or the hierarchical view's containers and rooms."""
        if self.places is None:
            return {"room": [{"id": n.id} for n in self.state.graph if n.kind is NodeKind.ROOM]}
        nodes = view_to_dict(self.places)["nodes"]
        return {kind: entries for kind, entries in nodes.items() if kind in _PLACE_KINDS}

    def finish(self) -> None:
        """Record what the planner observed (for NRR) and the final world.

        Observed: what its prompts showed, and what it acted on or found by looking (all
        a planner without prompts, such as the oracle, observes).
        """
        start = self.run.episode.observe
        initial = set(start.memory if start is not None else [])
        learned = [n for n in self.memory.objects() if n not in initial]
        self.observed.update(self.memory.true_id(n) for n in [*self.touched, *learned])
        self.run.episode.observed = sorted(self.observed)
        self.run.final_state = self.world.truth


def _asset(state: WorldState, node: str, room: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": node, "located": room}
    words = sorted(state.states(node))
    if words:
        out["states"] = words
    return out


def _object(state: WorldState, node: str) -> dict[str, Any]:
    relation = state.relation(node)
    out: dict[str, Any] = {
        "id": node,
        "relation": relation.value if relation else None,
        "related_to": state.parent(node),
    }
    words = sorted(state.states(node))
    if words:
        out["states"] = words
    attributes = state.graph.nodes[node].attributes
    if attributes:
        out["properties"] = list(attributes)
    return out


# -- SayPlan's replanning on memory (sayplan / sayplan_lite with observe=partial) ----------


def on_memory(run: Run, observer: Observer) -> Run:
    """The run as seen from memory: what a search or a plan check works on."""
    graph, simulator = observer.memory.graph, observer.world.memory_simulator
    navigator = Navigator(graph, simulator.vocabulary)
    return replace(run, graph=graph, simulator=simulator, navigator=navigator)


def memory_view(observer: Observer, rooms: list[str], collapse: str = "rooms") -> GraphView:
    """Memory collapsed to rooms, with the searched rooms and the robot's room expanded.

    `collapse="hierarchy"`: memory collapsed to the top of its place hierarchy
    instead, with the zones, floors and floor groups above those rooms expanded.
    """
    state = observer.state
    graph = state.to_graph()
    here = state.room_of(state.agent_id)
    wanted = dict.fromkeys([*rooms, *([here] if here else [])])
    if collapse == "hierarchy":
        view = collapse_hierarchy(graph)
        for room in wanted:
            if room in graph.nodes and room not in view.expanded:
                view.reveal(room)
    else:
        view = collapse_rooms(graph)
        for room in wanted:
            if room in view and room not in view.expanded:
                view.expand(room)
    shown = [n for n in view.visible_nodes() if view.kind(n) in _SHOWN_KINDS]
    observer.observed.update(observer.memory.true_id(n) for n in shown)
    return view


_SHOWN_KINDS = frozenset((NodeKind.ASSET.value, NodeKind.OBJECT.value))
_PLACE_KINDS = ("building", "floor_group", "floor", "zone", "room")


async def plan_and_act(
    run: Run,
    observer: Observer,
    dialogue: Dialogue,
    rooms: list[str],
    *,
    max_replans: int,
    collapse: str = "rooms",
) -> None:
    """SayPlan's iterative replanning when the graph is memory and the world may differ.

    Each round the model plans on memory; the plan is checked on memory up to
    its first look (what follows a look names what the look will find), then
    run in the true world step by step. A refusal (memory had something
    wrong) or a look ends the round: its feedback, or what the look found,
    goes into the next round (`replanning.replan`, the loop the fully
    observing SayPlan family runs too).
    """

    async def judge(steps: list[str]) -> str:
        try:
            actions = parse_plan(steps)
        except PlanParseError as exc:
            return str(exc)
        looks = [i for i, a in enumerate(actions) if a.name in LOOKS]
        checked = actions[: looks[0] + 1] if looks else actions
        verdict = observer.world.memory_simulator.verify_plan(checked, observer.state)
        run.record_sim(
            "verify",
            " > ".join(map(str, checked)),
            verdict.ok,
            verdict.feedback,
            verdict.failure.cause.value if verdict.failure else None,
        )
        if verdict.failure is not None:
            return verdict.failure.message
        return await _act_out(observer, checked)

    done = await replan(
        run,
        dialogue,
        judge,
        view=lambda: memory_view(observer, rooms, collapse),
        max_replans=max_replans,
        topology=False,
        passed="plan ran",
    )
    run.episode.executable = done
    if done:
        run.episode.failure = None


async def _act_out(observer: Observer, actions: list[Action]) -> str:
    """Run a checked plan in the true world; '' when it ran to its end, else the feedback."""
    for action in actions:
        outcome = await observer.act(action)
        if not outcome.ok:
            return outcome.feedback
        if outcome.look is not None:
            return f"{observer.feedback(outcome)}; plan the rest from here"
        if observer.run.simulator.ends_plan(action):
            return ""
    return ""
