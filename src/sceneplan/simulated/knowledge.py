"""What the stand-in knows of a run: the task's goal, the true world, and the plans to it.

It reads the world as the prompt shows it (the scene graph of a ReAct turn, the memory
graph of a LookPlanGraph turn: where the robot is, what it holds, where each object shown
lies and its state words) over the world it knows, and plans from there to the task's
goal with the symbolic planner, as the oracle does. Plans are kept by the state they
start from, so a loop that goes step by step as planned solves once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.nav import Navigator
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, solve
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task
from sceneplan.world.vocabulary import Vocabulary

SOLVE_TIMEOUT = 30.0
_ROBOT = re.compile(r"accessed asset: (\S+)")


@dataclass
class Knowledge:
    """The task and the world of one run, and the plans found so far (per vocabulary)."""

    task: Task
    graph: SceneGraph
    # precondition steps the model has skipped in a next-action loop: it keeps believing
    # they are not needed for the rest of the run (a real model repeats such a mistake)
    skipped: set[str] = field(default_factory=set)
    _plans: dict[tuple[Vocabulary, str], list[Action] | None] = field(default_factory=dict)
    _simulators: dict[Vocabulary, Simulator] = field(default_factory=dict)

    @property
    def goal(self) -> Formula | None:
        """The task's formal goal (None for a search task)."""
        return parse_goal(self.task.goal, self.graph) if self.task.goal else None

    def simulator(self, vocabulary: Vocabulary) -> Simulator:
        """A simulator of the true world in `vocabulary`."""
        if vocabulary not in self._simulators:
            self._simulators[vocabulary] = Simulator(self.graph, vocabulary)
        return self._simulators[vocabulary]

    def moves(self, vocabulary: Vocabulary) -> frozenset[str]:
        """The actions of `vocabulary` that move the robot through poses."""
        return Navigator(self.graph, vocabulary).moves

    def is_pose(self, node: str) -> bool:
        """Whether `node` is a pose of the world."""
        found = self.graph.nodes.get(node)
        return found is not None and found.kind is NodeKind.POSE

    def plan(self, vocabulary: Vocabulary, state: WorldState | None = None) -> list[Action] | None:
        """A plan from `state` (default: the start) to the goal, None if none is found."""
        simulator = self.simulator(vocabulary)
        state = state if state is not None else simulator.initial_state()
        key = (vocabulary, _key(state))
        if key not in self._plans:
            goal = self.goal
            if goal is None:
                return None
            if goal.holds(state):
                self._plans[key] = []
            else:
                problem = PlanningProblem(
                    self.graph, self.task.goal, state=state, vocabulary=vocabulary
                )
                result = solve(problem, SOLVE_TIMEOUT, DEFAULT_PLANNER)
                self._plans[key] = list(result.plan) if result.ok else None
                if result.ok:
                    self._remember_suffixes(vocabulary, state, list(result.plan))
        return self._plans[key]

    def _remember_suffixes(
        self, vocabulary: Vocabulary, state: WorldState, plan: list[Action]
    ) -> None:
        """Keep the rest of `plan` for each state it passes through."""
        simulator = self.simulator(vocabulary)
        for index, action in enumerate(plan):
            state, failure = simulator.step(state, action)
            if failure is not None:
                return
            self._plans.setdefault((vocabulary, _key(state)), plan[index + 1 :])

    def needed_rooms(self, vocabulary: Vocabulary) -> list[str]:
        """The rooms a search must open to solve the task: those of the answer (and those
        the task says to search), or those the plan acts in."""
        task, graph = self.task, self.graph
        if task.is_search:
            holding = task.answer_rooms or [
                room for node in task.answers if (room := graph.room_of(node)) is not None
            ]
            return list(dict.fromkeys([*sorted(holding), *task.must_explore]))
        rooms: list[str] = []
        for action in self.plan(vocabulary) or []:
            for arg in action.args:
                node = graph.nodes.get(arg)
                if node is None or node.kind is NodeKind.POSE:
                    continue
                room = arg if node.kind is NodeKind.ROOM else graph.room_of(arg)
                if room is not None:
                    rooms.append(room)
        return list(dict.fromkeys(rooms))

    def answer(self) -> list[str]:
        """A search task's answer: as many nodes of its answer set as it asks for."""
        return sorted(self.task.answers)[: self.task.needed]

    def state_shown(self, graph_json: str, robot: str | None, vocabulary: Vocabulary) -> WorldState:
        """The world as a prompt shows it: the shown facts over the world the model knows.

        `graph_json` is the prompt's scene or memory graph; `robot` its robot line, which
        names the accessed asset (vocabularies that access).
        """
        state = self.simulator(vocabulary).initial_state()
        try:
            data = json.loads(graph_json)
        except ValueError:
            return state
        nodes = data.get("nodes", {}) if isinstance(data, dict) else {}
        for kind, entries in nodes.items():
            for entry in entries:
                _overlay(state, kind, entry if isinstance(entry, dict) else {"id": entry})
        found = _ROBOT.search(robot or "")
        if found is not None:
            state.accessed = None if found.group(1) == "none" else found.group(1)
        return state

    def shown_nodes(self, graph_json: str) -> set[str]:
        """The ids a prompt's graph shows."""
        try:
            nodes = json.loads(graph_json).get("nodes", {})
        except (ValueError, AttributeError):
            return set()
        return {e if isinstance(e, str) else str(e.get("id")) for es in nodes.values() for e in es}


def _overlay(state: WorldState, kind: str, entry: dict[str, Any]) -> None:
    """Put what one shown node says (where it is, its state words) into `state`.

    Both shapes of a prompt's graph are read: the scene graph's (`"inside_of": parent`,
    `state`) and LookPlanGraph's memory graph's (`relation`, `related_to`, `states`).
    """
    node_id = str(entry.get("id"))
    if node_id not in state.graph.nodes:
        return
    if kind == NodeKind.AGENT.value and entry.get("location") in state.graph.nodes:
        state.move(node_id, str(entry["location"]), None)
        return
    if kind == NodeKind.OBJECT.value:
        placed = [(r, entry.get(r.value)) for r in Relation if entry.get(r.value) is not None]
        if entry.get("relation") in Relation.__members__.values():
            placed.append((Relation(entry["relation"]), entry.get("related_to")))
        for relation, parent in placed:
            if relation is Relation.HELD:
                state.take(node_id)
            elif parent in state.graph.nodes:
                state.let_go(node_id)
                state.move(node_id, str(parent), relation)
    if kind in (NodeKind.ASSET.value, NodeKind.OBJECT.value):
        shown = tuple(entry.get("state", entry.get("states", ())))
        state.replace_states(node_id, tuple(state.states(node_id)), shown)


def _key(state: WorldState) -> str:
    """What tells two states apart, as text."""
    return json.dumps([state.changes(), state.agent_at, state.held, state.accessed], sort_keys=True)
