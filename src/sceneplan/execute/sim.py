"""`SimulatedRobot`: the robot's skills run by the world simulator, with seeded faults.

The robot owns the true world (a `WorldState` on the task's graph) and acts
in it through the simulator's own action schemas, so a skill succeeds
exactly when the action would; `Faults` add what goes wrong on real robots
(docs/execute.md). Every random draw comes from one random stream seeded with
`seed` and `stream` (the task's id, say), in the order of the calls: a run
repeats exactly, and runs of different tasks with the same seed draw
independently.

What the robot observes: arriving in a room, every asset of the room (what
is on it, and inside it when it is an open container or has no lid, with
state words);
accessing, placing on or looking at an asset, that asset; opening a
container, what is inside; a failed pick or place, the asset it tried.

>>> from sceneplan.datasets import load_environment
>>> import asyncio
>>> robot = SimulatedRobot(load_environment("coffee"), "grasp:1", seed=1)
>>> [asyncio.run(robot.access("wardrobe1")).ok, asyncio.run(robot.open("wardrobe1")).ok]
[True, True]
>>> asyncio.run(robot.pick("coffee_mug")).reason
<Reason.GRASP_FAILED: 'grasp_failed'>
"""

from __future__ import annotations

import random
from typing import Any

from sceneplan.errors import UnreachableError
from sceneplan.execute.faults import Faults
from sceneplan.execute.robot import Robot, robot_skill
from sceneplan.execute.skills import Reason, Seen, Skill, SkillCall, SkillResult
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.world.actions import Action
from sceneplan.world.partial import visible
from sceneplan.world.simulator import Failure, Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH, SAYPLAN

# Simulator causes and the reason a robot would give for them.
_REASONS = {
    "not_in_room": Reason.UNREACHABLE,
    "not_adjacent": Reason.UNREACHABLE,
    "not_accessed": Reason.NOT_FOUND,
    "container_closed": Reason.CLOSED,
    "is_closed": Reason.CLOSED,
    "hand_full": Reason.HAND_FULL,
    "not_holding": Reason.NOT_HOLDING,
}
_ALREADY = frozenset({"already_open", "already_closed", "already_on", "already_off"})


class SimulatedRobot(Robot):
    """A robot in a simulated true world; `faults` (a `Faults` or its spec) go wrong at random.

    `known` is the map the executor starts from (default: `graph`): objects
    it lacks are reported as `new` when seen. `stream` names the run's own
    stream of draws (`execute` passes the task's id).
    """

    name = "sim"

    def __init__(
        self,
        graph: SceneGraph,
        faults: Faults | str | None = None,
        seed: int = 0,
        *,
        known: SceneGraph | None = None,
        stream: str = "",
    ) -> None:
        self.truth = WorldState(graph)
        self.faults = faults if isinstance(faults, Faults) else Faults.parse(faults)
        self.seed = seed
        self.stream = stream
        # a str seed is hashed with SHA-512 by `random`: the same in every process
        self.random = random.Random(f"{seed}/{stream}" if stream else seed)
        self.injected: list[dict[str, Any]] = []  # the faults that happened, in order
        self._sim = Simulator(graph, SAYPLAN)
        self._put = Simulator(graph, LOOKPLANGRAPH)  # put_on / put_inside for `place`
        self._nav = Navigator(graph)
        self._known = set((known or graph).nodes)
        self._arrived: set[str] = set()  # rooms the robot has been in (moved faults drawn)
        # the faults drawn once per node: stuck containers at their first open, blocked rooms
        # at the first try to enter
        self._drawn: dict[str, dict[str, bool]] = {"stuck": {}, "blocked": {}}
        self._touched: set[str] = set()  # objects the robot handled: nobody else moves them
        self.calls = 0
        start = self.truth.room_of(self.truth.agent_id)
        if start is not None:
            self._arrived.add(start)
            self._drawn["blocked"][start] = False

    def force(self, kind: str, node: str, happens: bool = True) -> None:
        """Decide a `stuck` container or a `blocked` room now, instead of at random
        (scripted scenarios and tests)."""
        if kind not in self._drawn:
            raise ValueError(f"only stuck and blocked faults can be forced, not {kind!r}")
        self._drawn[kind][node] = happens
        if happens:
            self._inject(kind, node, forced="yes")

    def describe(self) -> dict[str, Any]:
        out = {"robot": self.name, "faults": str(self.faults), "seed": self.seed}
        return out | ({"stream": self.stream} if self.stream else {})

    def true_state(self) -> WorldState:
        return self.truth

    async def _perform(self, call: SkillCall) -> SkillResult:
        self.calls += 1
        args = call.args
        if call.skill is Skill.NAVIGATE:
            result = self._navigate(args["target"])
        elif call.skill is Skill.ACCESS:
            result = self._act(self._action(self._sim, call), observe=[args["asset"]])
        elif call.skill is Skill.PICK:
            result = self._pick(args["object"])
        elif call.skill is Skill.PLACE:
            result = self._place(args["object"], args["asset"], args["relation"])
        elif call.skill is Skill.LOOK:
            result = self._look(args["asset"], args["relation"])
        else:
            result = self._switch(call)
        held = self.truth.held
        result.at, result.holding = self.truth.agent_at, held[-1] if held else None
        return result

    # -- the skills ----------------------------------------------------------------------

    def _navigate(self, target: str) -> SkillResult:
        truth = self.truth
        if target not in truth.graph or target not in truth.graph.topology:
            return SkillResult(False, Reason.FAILED, f"there is no room or pose called {target}")
        try:
            path = self._nav.shortest_path(truth.agent_at, target)
        except UnreachableError as exc:
            return SkillResult(False, Reason.UNREACHABLE, str(exc))
        for hop in path[1:]:
            if self._is_blocked(hop):
                result = self._observe(self._room_assets())
                result.ok, result.reason, result.node = False, Reason.BLOCKED, hop
                result.message = f"the way into {hop} is blocked"
                return result
            self._sim.apply(
                truth, self._action(self._sim, SkillCall(Skill.NAVIGATE, {"target": hop}))
            )
            if truth.graph.nodes[hop].kind is NodeKind.ROOM and hop not in self._arrived:
                self._arrived.add(hop)
                self._move_things(hop)
        result = self._observe(self._room_assets())
        result.message = f"at {target}"
        return result

    def _pick(self, obj: str) -> SkillResult:
        action = self._action(self._sim, SkillCall(Skill.PICK, {"object": obj}))
        failure = self._sim.check(self.truth, action)
        tried = [self.truth.accessed] if self.truth.accessed else []
        if failure is None and self.faults.grasp and self.random.random() < self.faults.grasp:
            self._inject("grasp", obj)
            result = self._observe(tried)
            result.ok, result.reason = False, Reason.GRASP_FAILED
            result.message = f"the grasp on {obj} did not hold"
            return result
        result = self._act(action, observe=tried, failure=failure)
        if result.reason is Reason.NOT_FOUND:  # say what the robot saw, not where it truly is
            result.message = f"{obj} is not at {tried[0] if tried else 'any accessed asset'}"
        if result.ok:
            self._touched.add(obj)
        return result

    def _place(self, obj: str, asset: str, relation: str) -> SkillResult:
        truth = self.truth
        if not truth.holds(obj):
            held = truth.held_text()
            return SkillResult(False, Reason.NOT_HOLDING, f"holding {held}, not {obj}")
        call = SkillCall(Skill.PLACE, {"object": obj, "asset": asset, "relation": relation})
        action = self._action(self._put, call)
        failure = self._put.check(truth, action)
        if failure is None and self._is_asset(asset):  # on an object: the asset it is at
            truth.accessed = asset
        return self._act(action, observe=[asset], failure=failure, simulator=self._put)

    def _look(self, asset: str, relation: str) -> SkillResult:
        action = self._action(
            self._put, SkillCall(Skill.LOOK, {"asset": asset, "relation": relation})
        )
        failure = self._put.check(self.truth, action)
        if failure is not None:
            return self._failed(failure, [asset] if self._here(asset) else [])
        return self._observe([asset])

    def _switch(self, call: SkillCall) -> SkillResult:
        target = call.args["target"]
        action = self._action(self._sim, call)
        failure = self._sim.check(self.truth, action)
        if failure is not None and failure.cause.value in _ALREADY:
            result = self._observe([target] if self._is_asset(target) else [])
            result.message = failure.reason
            return result
        if failure is None and call.skill is Skill.OPEN and self._happens("stuck", target):
            result = self._observe([target] if self._is_asset(target) else [])
            result.ok, result.reason = False, Reason.STUCK
            result.message = f"{target} will not open"
            return result
        return self._act(
            action, observe=[target] if self._is_asset(target) else [], failure=failure
        )

    # -- helpers -------------------------------------------------------------------------

    def _action(self, simulator: Simulator, call: SkillCall) -> Action:
        """The simulated world's action for a skill call: the one whose robot face it is."""
        action = simulator.action_for(self.truth, robot_skill(call))
        if action is None:  # the skills are the faces of these two vocabularies' actions
            raise AssertionError(f"no {simulator.vocabulary} action carries out {call}")
        return action

    def _act(
        self,
        action: Action,
        *,
        observe: list[str],
        failure: Failure | None = None,
        simulator: Simulator | None = None,
    ) -> SkillResult:
        """Run a checked action (or report its failure), then observe `observe`."""
        simulator = simulator or self._sim
        if failure is None:
            failure = simulator.check(self.truth, action)
        if failure is not None:
            return self._failed(failure, [a for a in observe if self._here(a)])
        simulator.apply(self.truth, action)
        result = self._observe(observe)
        result.message = f"{action} done"
        return result

    def _failed(self, failure: Failure, observe: list[str]) -> SkillResult:
        result = self._observe(observe)
        result.ok = False
        result.reason = _REASONS.get(failure.cause.value, Reason.FAILED)
        result.message = failure.reason
        return result

    def _observe(self, assets: list[str]) -> SkillResult:
        """What the robot sees of `assets`: on each, and inside each container whose
        opening is clear (open, or without a lid: `WorldState.opening_clear`)."""
        truth = self.truth
        result = SkillResult(True)
        seen: dict[str, Seen] = {}
        for asset in dict.fromkeys(assets):
            if not self._is_asset(asset):
                continue
            words = sorted(truth.states(asset))
            if words:
                result.states[asset] = words
            looks = [Relation.ONTOP_OF]
            if truth.is_container(asset) and truth.opening_clear(asset):  # open, or no lid
                looks.append(Relation.INSIDE_OF)
            for relation in looks:
                result.surfaces.append((asset, relation))
                for node in visible(truth, asset, relation):
                    seen[node] = Seen(
                        node,
                        truth.parent(node) or asset,
                        truth.relation(node) or relation,
                        tuple(sorted(truth.states(node))),
                        new=node not in self._known,
                        category=truth.graph.nodes[node].category
                        if node not in self._known
                        else None,
                    )
        result.seen = list(seen.values())
        return result

    def _room_assets(self) -> list[str]:
        room = self.truth.agent_at
        graph = self.truth.graph
        if graph.nodes[room].kind is not NodeKind.ROOM:
            return []
        return [c for c in graph.children(room) if graph.nodes[c].kind is NodeKind.ASSET]

    def _is_asset(self, node: str) -> bool:
        return node in self.truth.graph and self.truth.graph.nodes[node].kind is NodeKind.ASSET

    def _here(self, asset: str) -> bool:
        """Whether `asset` is in the robot's room (so it can see it)."""
        return self._is_asset(asset) and self.truth.room_of(asset) == self.truth.agent_at

    def _inject(self, kind: str, node: str, **facts: str) -> None:
        self.injected.append({"kind": kind, "node": node, "call": self.calls, **facts})

    def _is_blocked(self, place: str) -> bool:
        """Whether the door of a room is blocked: drawn at the first try to enter it."""
        is_room = self.truth.graph.nodes[place].kind is NodeKind.ROOM
        return is_room and self._happens("blocked", place)

    def _happens(self, kind: str, node: str) -> bool:
        """Whether the fault `kind` (stuck, blocked) holds at `node`: drawn at the first ask,
        with the probability `faults` gives it, and kept."""
        drawn = self._drawn[kind]
        if node not in drawn:
            p = getattr(self.faults, kind)
            drawn[node] = bool(p) and self.random.random() < p
            if drawn[node]:
                self._inject(kind, node)
        return drawn[node]

    def _move_things(self, room: str) -> None:
        """`moved` faults: before the robot first arrives, objects went to another surface."""
        p = self.faults.moved
        if not p:
            return
        truth = self.truth
        graph = truth.graph
        surfaces = [
            c
            for c in graph.children(room)
            if graph.nodes[c].kind is NodeKind.ASSET and "release" in graph.nodes[c].affordances
        ]
        resting = [
            (asset, node)
            for asset in graph.children(room)
            if graph.nodes[asset].kind is NodeKind.ASSET
            for node in truth.children(asset)
            if graph.nodes[node].kind is NodeKind.OBJECT and node not in self._touched
        ]
        for asset, node in resting:  # drawn once each, before any moves
            if self.random.random() >= p:
                continue
            others = [s for s in surfaces if s != asset and not truth.is_container(s)]
            others = others or [s for s in surfaces if s != asset]
            if not others:
                continue
            target = self.random.choice(others)
            truth.move(node, target, Relation.ONTOP_OF)
            self._inject("moved", node, **{"from": asset, "to": target})
