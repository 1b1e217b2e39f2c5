"""Shorten a valid plan: drop steps and detours whose removal keeps it valid.

A *detour* is a contiguous part of a plan that leaves a place and comes back
to it (`goto(A) > goto(B) > goto(A)`, or a side trip that does something
nothing later needs); besides detours, single steps are removed too.

Removals are tried in the simulator, so what comes out is valid, and
incrementally: the states before each step are kept, a removal is replayed
from the state before it, and the replay stops as soon as it reaches a state
of the plan as it was (the rest of the plan then runs as before), so one
attempt costs the steps until the plans agree again, not the whole plan.

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.symbolic.solver import PlanningProblem
>>> problem = PlanningProblem(load_environment("coffee"), "open(wardrobe1)")
>>> problem.state.agent_at
'bobs_room'
>>> run = PlanRun(problem, problem.state, "goto(pose1) > goto(toms_room) > goto(pose1) > "
...               "goto(bobs_room) > access(wardrobe1) > open(wardrobe1)")
>>> [str(a) for a in remove_detours(run)]
['access(wardrobe1)', 'open(wardrobe1)']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from sceneplan.errors import PlanExecutionError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.goals import Then
from sceneplan.world.simulator import PlanLike, Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import Vocabulary


class Problem(Protocol):
    """What a plan is checked against (`symbolic.solver.PlanningProblem` is one)."""

    graph: SceneGraph
    goal: Any  # a goal Formula, or None with a target
    target: Any  # an Action to make executable, or None with a goal
    vocabulary: Vocabulary


class PlanRun:
    """A valid plan with the state before each step (`states[k]`; `states[-1]` is the end)."""

    def __init__(
        self,
        problem: Problem,
        state: WorldState,
        plan: PlanLike,
        simulator: Simulator | None = None,
    ):
        self.problem = problem
        # an ordered goal is judged over the whole run: a replay that reaches an earlier
        # state may not have gone through the same states, so it is replayed to the end
        self.ordered = isinstance(problem.goal, Then)
        self.simulator = simulator or Simulator(problem.graph, problem.vocabulary)
        self.plan: list[Action] = parse_plan(plan)
        self.states: list[WorldState] = [state]
        for index, action in enumerate(self.plan):
            new, failure = self.simulator.step(self.states[-1], action)
            if failure is not None:
                raise PlanExecutionError(f"step {index + 1} {failure.message}")
            self.states.append(new)
        if not self.reached(self.states[-1]):
            raise PlanExecutionError("the plan does not reach the problem's goal")

    def reached(self, state: WorldState) -> bool:
        """Whether `state` reaches the problem's goal (or lets its target action run)."""
        target = self.problem.target
        if isinstance(target, Action):
            return self.simulator.check(state, target) is None
        return self.problem.goal.holds(state)

    def place(self, k: int) -> str:
        """Where the agent is before step k (after the plan, for k = len(plan))."""
        return self.states[k].agent_at

    def without(self, start: int, stop: int) -> bool:
        """Remove steps start..stop-1 if the plan stays valid; True when removed."""
        plan, states, sim = self.plan, self.states, self.simulator
        current, replayed = states[start], list[WorldState]()
        for k in range(stop, len(plan)):
            if not self.ordered and _same(current, states[k]):  # from here on, as it did
                self._splice(start, stop, replayed, states[k:])
                return True
            new, failure = sim.step(current, plan[k])
            if failure is not None:
                return False
            replayed.append(current)
            current = new
        if (not self.ordered and _same(current, states[-1])) or self.reached(current):
            self._splice(start, stop, replayed, [current])
            return True
        return False

    def _splice(self, start: int, stop: int, replayed: list, rest: list) -> None:
        self.plan[start:] = self.plan[stop:]
        self.states[start:] = replayed + rest

    def detours(self) -> Iterator[tuple[int, int]]:
        """Candidate detours (start, stop): steps start..stop-1 leave a place (a move first)
        and come back to it (a move last).

        Longest first from each start, so a whole round trip goes before its parts.
        """
        by_place: dict[str, list[int]] = {}
        for k in range(len(self.plan) + 1):
            by_place.setdefault(self.place(k), []).append(k)
        for start in range(len(self.plan)):
            if self.place(start + 1) == self.place(start):
                continue  # step `start` does not move
            for stop in reversed(by_place[self.place(start)]):
                if stop <= start + 1:
                    break
                if self.place(stop - 1) != self.place(stop):  # arrived by a move
                    yield start, stop


def _same(a: WorldState, b: WorldState) -> bool:
    if a is b:
        return True
    return (
        a.agent_at == b.agent_at
        and a.accessed == b.accessed
        and a.held == b.held
        and a.done == b.done
        and a.changes() == b.changes()
    )


def eliminate_steps(run: PlanRun) -> bool:
    """Greedy action elimination, from the last step backwards; True if any step went."""
    changed = False
    index = len(run.plan) - 1
    while index >= 0:
        if index < len(run.plan) and run.without(index, index + 1):
            changed = True
        index -= 1
    return changed


def eliminate_detours(run: PlanRun) -> bool:
    """Remove removable detours (longest first); True if any went."""
    changed = True
    any_change = False
    while changed:
        changed = False
        for start, stop in list(run.detours()):
            same_place = stop <= len(run.plan) and run.place(start) == run.place(stop)
            if same_place and run.without(start, stop):
                changed = any_change = True
                break  # indices moved: list the candidates again
    return any_change


def remove_detours(run: PlanRun) -> list[Action]:
    """The plan with every removable detour and step removed (until none is left)."""
    while eliminate_detours(run) | eliminate_steps(run):
        pass
    return list(run.plan)


def removable_detours(run: PlanRun) -> list[tuple[int, int]]:
    """Every detour or single step of the plan whose removal keeps it valid (none after
    `remove_detours`). Checked from scratch, for tests and benchmarks."""
    out = []
    candidates = {(k, k + 1) for k in range(len(run.plan))} | set(run.detours())
    for start, stop in sorted(candidates):
        trial = run.plan[:start] + run.plan[stop:]
        result = run.simulator.verify_plan(trial, run.states[0])
        if result.ok and run.reached(result.final_state):
            out.append((start, stop))
    return out
