"""The improvement step (`symbolic/improve.py`): anytime search below the plan in hand, then
A* with h_max that gives up when its f-layers cannot reach the bound within its budget."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ground_tasks import Builder, LateClock, execute, trap
from sceneplan.datasets.tasks import get_task
from sceneplan.runs import resolve
from sceneplan.symbolic import astar as astar_module
from sceneplan.symbolic import improve as improve_module
from sceneplan.symbolic.astar import astar, hopeless
from sceneplan.symbolic.gbfs import CompiledTask, SearchOutcome, fact_mask
from sceneplan.symbolic.improve import bounded_search, improve
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.actions import Action


def shortcut_task(length: int):
    """A chain of `length` steps to the goal, and a way of two steps (take the key, then
    open the door at the start, which leads to the goal)."""
    b = Builder()
    for i in range(length):
        b.action(f"step{i}", pre=[f"p{i}"], add=[f"p{i + 1}"], delete=[f"p{i}"])
    b.action("take_key", neg=["key"], add=["key"])
    b.action("open_door", pre=["p0", "key"], add=[f"p{length}"])
    return b.task(init=["p0"], goal=[f"p{length}"])


def test_the_anytime_search_finds_the_cheapest_plan_below_the_bound_and_proves_it():
    task = shortcut_task(6)
    c = CompiledTask(task)
    found, exhausted = bounded_search(c, c, fact_mask(task.init), 6, 1000, float("inf"))
    assert found.status == "plan" and len(found.plan) == 2 and exhausted
    assert task.is_goal(execute(task, found.plan))


def test_the_anytime_search_with_nothing_cheaper_exhausts_without_a_plan():
    task = shortcut_task(6)
    c = CompiledTask(task)
    found, exhausted = bounded_search(c, c, fact_mask(task.init), 2, 1000, float("inf"))
    assert found.status == "limit" and found.plan == [] and exhausted


def test_the_anytime_search_out_of_evaluations_proves_nothing():
    task = shortcut_task(6)
    c = CompiledTask(task)
    found, exhausted = bounded_search(c, c, fact_mask(task.init), 6, 1, float("inf"))
    assert found.evaluated == 1 and not exhausted


def test_an_exhausted_anytime_search_proves_the_plan_without_a_star(monkeypatch):
    """An errand away and back: the greedy plan (leave, fetch, return) is cheapest, though
    h_max and LM-cut give 2 of its 3 (the relaxed robot never has to come back). The
    anytime search prunes every state below 3 and runs out of them: that is the proof, and
    A* is not run to make it again."""
    b = Builder()
    b.action("leave", pre=["home"], add=["away"], delete=["home"])
    b.action("fetch", pre=["away"], add=["item"])
    b.action("return", pre=["away"], add=["home"], delete=["away"])
    task = b.task(init=["home"], goal=["item", "home"])
    task.actions[:] = [replace(a, action=Action(a.name, ())) for a in task.actions]  # steps

    def no_a_star(*args, **kwargs):
        raise AssertionError("A* was run after the anytime search had proved the plan")

    monkeypatch.setattr(improve_module, "astar", no_a_star)
    first = SearchOutcome("plan", [0, 1, 2])
    result = improve(task, first, timeout=10)
    assert result.optimal and result.outcome is first and result.evaluated == 0
    assert result.anytime_evaluated > 0


def test_geometric_layers_far_from_the_bound_are_hopeless():
    """planting_trees' layers (f, evaluations before it) with the bound 21: each layer
    costs two to three times the one before, so f = 21 is out of reach of 10,000."""
    layers = [(-1, 0), (6, 62), (7, 129), (8, 425)]
    assert hopeless(layers, 21, 10_000)
    assert not hopeless(layers, 10, 10_000)  # two more layers: within the budget
    assert not hopeless(layers[:3], 21, 10_000)  # too few evaluations to tell


def test_slowly_growing_layers_are_searched_to_the_end():
    """loading_the_car's layers: A* exhausts the states below 17 after 598 evaluations."""
    layers = [(-1, 0), (12, 69), (13, 123), (14, 203), (15, 289), (16, 428)]
    for end in range(3, len(layers) + 1):
        assert not hopeless(layers[:end], 17, 10_000)


def test_a_star_counts_its_timeout_in_cpu_of_its_thread(monkeypatch):
    """The trap has 768 states and no plan: A* reads its clock before it has seen them."""
    monkeypatch.setattr(astar_module, "time", LateClock())
    outcome = astar(trap(8), timeout=10)
    assert outcome.status == "timeout" and outcome.expanded <= 64


@pytest.mark.parametrize(
    ("task_id", "steps"),
    [("behavior-1k-planting_trees", 21), ("behavior-1k-cook_pork_ribs", 16)],
)
def test_behavior_plans_are_as_short_as_the_optimum(task_id, steps):
    """The greedy plans have 28 and 19 steps (Fast Downward's lama-first 27 and 20); the
    optima (its A*) 21 and 16. A* with h_max ran out of 10,000 evaluations on both; the
    anytime search finds the optimum in a few hundred, and A* gives up early."""
    task = get_task(task_id)
    result = solve(PlanningProblem(resolve(task).graph, task.goal))
    assert result.ok and len(result.plan) == steps
    assert result.stats["anytime_evaluated"] + result.stats["improve_evaluated"] < 3000


@pytest.mark.slow
def test_a_star_below_a_greedy_plan_searches_its_whole_budget():
    """planning-long-07: the anytime search finds nothing below the greedy 51 steps, and A*
    finds the 33-step plan after about 9,000 evaluations, though its early layers, carried
    on to 51, looked hopeless (slow: about a second of A*)."""
    task = get_task("planning-long-07")
    result = solve(PlanningProblem(resolve(task).graph, task.goal))
    assert result.ok and len(result.plan) == 33 and result.stats["improved"]
