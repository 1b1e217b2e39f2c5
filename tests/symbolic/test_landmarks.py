"""LM-cut (`symbolic/landmarks.py`): a lower bound on the cheapest plan, and the
improvement step it stops when the plan in hand cannot be beaten."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ground_tasks import Builder, chain, trap
from sceneplan.datasets.tasks import get_task
from sceneplan.runs import resolve
from sceneplan.symbolic import improve as improve_module
from sceneplan.symbolic.gbfs import INF, CompiledTask, fact_mask
from sceneplan.symbolic.landmarks import lm_cut
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.symbolic.task import GroundTask


def shortest(task: GroundTask) -> float:
    """The fewest steps to the goal, by breadth-first search over states (INF: none)."""
    c = CompiledTask(task)
    start = fact_mask(task.init)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if c.is_goal(state):
            return depth[state]
        for index in c.applicable(state):
            child = c.successor(state, index)
            if child not in depth:
                depth[child] = depth[state] + 1
                queue.append(child)
    return INF


def bounds(task: GroundTask) -> tuple[float, float]:
    """h_max and LM-cut of the task's start, every action costing 1."""
    c = CompiledTask(task)
    start = fact_mask(task.init)
    return c.h_max(start), lm_cut(c, start, [1] * len(task.actions))


def test_independent_goals_add_up_where_h_max_counts_one():
    b = Builder()
    for name in ("a", "b", "c"):
        b.action(f"make_{name}", add=[name])
    task = b.task(goal=["a", "b", "c"])
    assert bounds(task) == (1, 3) and shortest(task) == 3


def test_one_step_with_two_conditional_effects_counts_once():
    """A step whose conditional effects reach two goals is one step of a plan: its
    relaxed actions share its cost (counted per effect, the bound would be 2)."""
    b = Builder()
    b.action("switch", effects=[b.when(add=["lamp_on"]), b.when(add=["fan_on"])])
    b.action("lamp", add=["lamp_on"])
    b.action("fan", add=["fan_on"])
    task = b.task(goal=["lamp_on", "fan_on"])
    assert bounds(task) == (1, 1) and shortest(task) == 1


def test_a_chain_costs_its_length_and_an_unreachable_goal_is_inf():
    assert bounds(chain(5, distractors=2))[1] == 5
    b = Builder()
    b.action("useless", add=["x"])
    assert bounds(b.task(goal=["y"]))[1] == INF
    assert bounds(trap(2))[1] <= shortest(trap(2))  # (INF: the trap has no plan)


@st.composite
def small_tasks(draw) -> GroundTask:
    """Random tasks over six facts: a few actions, some with a conditional effect."""
    facts = [f"f{i}" for i in range(6)]
    subsets = st.lists(st.sampled_from(facts), max_size=2, unique=True)
    b = Builder()
    for i in range(draw(st.integers(1, 7))):
        effects = []
        if draw(st.booleans()):
            effects.append(b.when(pre=draw(subsets), add=draw(subsets)))
        b.action(
            f"a{i}", pre=draw(subsets), add=draw(subsets), delete=draw(subsets), effects=effects
        )
    return b.task(init=draw(subsets), goal=draw(st.lists(st.sampled_from(facts), max_size=3)))


@settings(max_examples=150, deadline=None)
@given(small_tasks())
def test_lm_cut_lies_between_h_max_and_the_shortest_plan(task):
    h_max, landmarks = bounds(task)
    assert h_max <= landmarks <= shortest(task)


@pytest.mark.parametrize("task_id", ["planning-simple-03", "planning-long-02"])
def test_the_improvement_step_stops_when_landmarks_reach_the_plan_in_hand(task_id, monkeypatch):
    """On these the greedy plan is a shortest one; h_max at the start is 9 of its 13 and 16
    steps, the landmark bound all of them: the A* pass proves it without evaluating a state
    (it evaluated 7 and 8 before it ended without a cheaper plan)."""
    calls = []
    bound = improve_module.lm_cut

    def recording(task, state, costs):
        calls.append(bound(task, state, costs))
        return calls[-1]

    monkeypatch.setattr(improve_module, "lm_cut", recording)
    task = get_task(task_id)
    result = solve(PlanningProblem(resolve(task).graph, task.goal))
    assert result.ok and result.stats["optimal"] and not result.stats["improved"]
    assert result.stats["improve_evaluated"] == 0
    assert calls == [len(result.plan)]
