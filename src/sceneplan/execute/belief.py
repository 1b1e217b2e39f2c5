"""The executor's belief: its scene graph and world state, corrected by what the robot observes.

`Belief.observe` compares one skill result with the graph and updates it
(`sceneplan.world.reconcile`, as the planners' partial world does with a
look): a new object is added, an object seen somewhere else is moved there,
an object the graph puts on a surface the robot saw whole but did not see is
dropped, state words read off a node replace the believed ones. A failure
says more: a container stuck shut loses its `open` affordance (so no plan
opens it again), a blocked room loses its links (so plans go round it).
Every change is a `Change`, recorded in the Episode.
"""

from __future__ import annotations

from sceneplan.execute.skills import Reason, RobotReplyError, Seen, SkillCall, SkillResult
from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph
from sceneplan.world.actions import Action
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.reconcile import (
    Change,
    Changes,
    Sighting,
    forget,
    place,
    reconcile,
    restate,
    visible,
)
from sceneplan.world.simulator import Failure, Simulator, Verification
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary


class Belief:
    """A scene graph with a world state on it, as the executor believes the world to be."""

    def __init__(self, graph: SceneGraph, vocabulary: Vocabulary = SAYPLAN):
        self.memory = Memory(graph)
        self.vocabulary = vocabulary
        # whether the vocabulary's plans access an asset before acting on what is at it
        # (SayPlan's); LookPlanGraph's reach anything in the agent's room
        self.reaches_by_access = vocabulary.reaches_by_access
        self.lost: dict[str, Node] = {}  # objects dropped as missing: found again when seen
        self._dropped: dict[str, list[str]] = {}  # what was dropped along with an object
        self._simulator: Simulator | None = None

    @property
    def graph(self) -> SceneGraph:
        return self.memory.graph

    @property
    def state(self) -> WorldState:
        return self.memory.state

    @property
    def simulator(self) -> Simulator:
        """A simulator over the graph as it is now (the graph is rebuilt when nodes change)."""
        if self._simulator is None or self._simulator.graph is not self.graph:
            self._simulator = Simulator(self.graph, self.vocabulary)
        return self._simulator

    def check(self, action: Action) -> Failure | None:
        return self.simulator.check(self.state, action)

    def verify(self, plan: list[Action]) -> Verification:
        """The plan run from the believed state (which it leaves unchanged)."""
        return self.simulator.verify_plan(plan, self.state)

    def apply(self, action: Action) -> None:
        """What a skill that worked did: the action's effects, unchecked (the robot did it)."""
        self.simulator.apply(self.state, action)

    def where(self, node: str) -> str:
        """'on kitchen_bench', 'inside fridge', 'held', for a node the graph holds."""
        return place(self.state, node)

    def expected(self, surfaces: list[tuple[str, Relation]]) -> list[dict[str, str | None]]:
        """The objects the graph puts on the surfaces a result saw, with where."""
        out = []
        for asset, relation in surfaces:
            if asset not in self.graph:
                continue
            for node in visible(self.state, asset, relation):
                rel = self.state.relation(node)
                out.append(
                    {
                        "id": node,
                        "relation": rel.value if rel else None,
                        "related_to": self.state.parent(node),
                    }
                )
        return out

    # -- comparing and updating ---------------------------------------------------------

    def observe(self, call: SkillCall, result: SkillResult) -> Changes:
        """Update the belief from what a result observed; the changes made, in order.

        A node the graph does not hold raises RobotReplyError (a newly
        detected object must be reported with `new`), and nothing changes.
        """
        self._check_names(call, result)
        changes = Changes()
        state = self.state
        if result.at is not None and result.at != state.agent_at:
            before: str | None = state.agent_at
            state.move(state.agent_id, result.at, None)
            state.accessed = None
            changes.append(Change("at", state.agent_id, before, result.at))
        fresh = [s for s in result.seen if s.id not in self.graph]
        fresh += self._carried_along(fresh, {s.id for s in result.seen})
        found = {s.id for s in fresh if s.id in self.lost}
        fresh_ids = {s.id for s in fresh}
        changes += reconcile(
            self.memory,
            new=[self._observation(s) for s in fresh],
            at=(fresh[0].parent, fresh[0].relation) if fresh else None,
            found=found,
            seen=[
                Sighting(s.id, s.parent, s.relation, s.states)
                for s in result.seen
                if s.id not in fresh_ids
            ],
            looked=result.surfaces,
            on_forget=self._remember,
        )
        for node, words in result.states.items():
            changes += restate(self.memory, node, words)
        state = self.state
        if result.holding is not None and not state.holds(result.holding):
            before = state.held[-1] if state.held else None
            if not state.hand_free:
                state.let_go(state.held[0])
            state.take(result.holding)
            changes.append(Change("holding", state.agent_id, before, result.holding))
        if not result.ok:
            changes += self._failed(call, result)
        return changes

    def _observation(self, seen: Seen) -> Observation:
        """A new object the robot saw, as memory adds it; one dropped as missing and seen
        again is what it was (category, affordances), where it is now."""
        known = self.lost.pop(seen.id, None)
        return Observation(
            seen.id,
            known.category if known is not None else seen.category,
            seen.relation,
            seen.parent,
            seen.states,
            truth=seen.id,
            id=seen.id,
            affordances=known.affordances if known is not None else (),
        )

    def _failed(self, call: SkillCall, result: SkillResult) -> list[Change]:
        """What a failure's reason says about the world."""
        target = result.node or call.target
        if result.reason is Reason.STUCK and target in self.graph:
            return [self.lock(target)]
        if result.reason is Reason.BLOCKED and target in self.graph:
            return [self.block(target)]
        if result.reason is Reason.NOT_FOUND and target in self.graph:
            node = self.graph.nodes[target]
            if node.kind is NodeKind.OBJECT and not self.state.holds(target):
                return self._forget(target)
        if result.reason is Reason.NOT_HOLDING and self.state.holds(target):
            # the hand is empty where memory had the object in it: where it went is unknown
            self.state.let_go(target)
            return self._forget(target)
        if result.reason is Reason.CLOSED and target in self.graph:
            return restate(self.memory, call.args.get("asset", target), ["closed"], merge=True)
        return []

    def _forget(self, node: str) -> list[Change]:
        """Drop an object (and what memory put on or in it) the robot did not find."""
        self._remember(node)
        return forget(self.memory, node)

    def _remember(self, node: str) -> None:
        """Keep what an object about to be dropped as missing was (and what is on or in it),
        to know it again when it is seen."""
        gone = [node, *self.state.contents(node)]
        for item in gone:
            if item in self.graph:
                self.lost[item] = self.graph.nodes[item].with_(
                    parent=self.state.parent(item), relation=self.state.relation(item)
                )
        self._dropped[node] = [item for item in gone[1:] if item in self.lost]

    def _carried_along(self, fresh: list[Seen], seen: set[str]) -> list[Seen]:
        """What was dropped with an object found again and that the robot did not see
        (in a closed box, say): back on or in it, as memory had it."""
        out: list[Seen] = []
        for found in list(fresh):
            for item in self._dropped.pop(found.id, []):
                node = self.lost.get(item)
                if node is None or item in seen or node.parent is None:
                    continue
                relation = node.relation or Relation.INSIDE_OF
                out.append(Seen(item, node.parent, relation, tuple(node.state)))
        return out

    def lock(self, container: str) -> Change:
        """A container that will not open: no plan may open it, or put anything in or on it.

        Without `open` the graph no longer calls it a container; were `release`
        kept, a plan could put things on a switched-on appliance to act on them,
        which works on surfaces, not on a closed container.
        """
        node = self.graph.nodes[container]
        kept = tuple(a for a in node.affordances if a not in ("open", "release"))
        self._rebuild({container: node.with_(affordances=kept)})
        restate(self.memory, container, ["closed"], merge=True)
        return Change("locked", container, "opens", "stuck shut")

    def block(self, where: str) -> Change:
        """A room or pose that cannot be entered: plans go round it."""
        self._rebuild(drop_links_of=where)
        return Change("blocked", where, "linked", "blocked")

    def _rebuild(self, changed: dict[str, Node] | None = None, drop_links_of: str = "") -> None:
        old = self.state
        current = old.to_graph()
        nodes = [(changed or {}).get(n.id, n) for n in current]
        links = [link for link in current.links() if drop_links_of not in link]
        graph = SceneGraph.from_nodes(nodes, links, current.name, current.description)
        memory = Memory(graph)
        memory.state.accessed, memory.state.done = old.accessed, old.done
        self.memory = memory

    def _check_names(self, call: SkillCall, result: SkillResult) -> None:
        """Every node a result names is in the graph, or an object it reports as new."""
        graph = self.graph
        new = {s.id for s in result.seen if s.new or s.id in self.lost}
        seen = {s.id for s in result.seen}

        def need(
            node: str | None, what: str, also: set[str] | frozenset[str] = frozenset()
        ) -> None:
            if node is None or node in graph or node in also:
                return
            hint = graph.suggest(node)
            raise RobotReplyError(
                f"robot reply to {call}: {what} names '{node}', which is not in the scene graph"
                + (f" ({hint})" if hint else "")
                + "; a newly detected object is reported in 'seen' with \"new\": true"
            )

        for item in result.seen:
            need(item.id, "seen", new)
            need(item.parent, f"the parent of {item.id}", seen)
        for asset, _ in result.surfaces:
            need(asset, "surfaces")
        for node in result.states:
            need(node, "states", seen)
        need(result.at, "at")
        need(result.holding, "holding", seen)
        need(result.node, "node")
        if result.at is not None and result.at not in graph.topology:
            raise RobotReplyError(
                f"robot reply to {call}: 'at' is {result.at}, which is not a room or pose"
            )
