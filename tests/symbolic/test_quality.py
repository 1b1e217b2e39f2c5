"""Plans a robot would want: no removable detour, travel-aware costs, optimal search,
and post-processing whose cost does not grow with the square of the plan."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import load_suite
from sceneplan.graph import from_dict
from sceneplan.graph.model import NodeKind
from sceneplan.runs import resolve
from sceneplan.symbolic import improve as improve_module
from sceneplan.symbolic import solver as solver_module
from sceneplan.symbolic.build import build_task
from sceneplan.symbolic.postprocess import PlanRun, removable_detours, remove_detours
from sceneplan.symbolic.scope import focused_scope
from sceneplan.symbolic.solver import PlanningProblem, eliminate_redundant, solve
from sceneplan.symbolic.travel import travel_for
from sceneplan.world import Simulator, parse_plan
from sceneplan.world.goal_forms import ground, literals, wrong_literals
from sceneplan.world.state import WorldState

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@cache
def plan_quality():
    """benchmarks/plan_quality.py, whose test set (Office tasks, generated problems) we use."""
    spec = importlib.util.spec_from_file_location("_plan_quality", BENCHMARKS / "plan_quality.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def quality_cases():
    quality = plan_quality()
    return [*quality.office_cases(), *quality.generated_cases(40)]


@pytest.mark.parametrize("case", quality_cases(), ids=lambda c: c.name)
@pytest.mark.slow
def test_no_removable_detour_survives_post_processing(case):
    problem = PlanningProblem(case.graph, case.goal)
    result = solve(problem)
    assert result.ok, result.status
    run = PlanRun(problem, problem.state, result.plan)
    assert removable_detours(run) == []


def coffee(goal: str = "open(wardrobe1)"):
    return PlanningProblem(load_environment("coffee"), goal)


def test_a_round_trip_is_removed_whole():
    problem = coffee()
    plan = (
        "goto(pose1) > goto(toms_room) > goto(pose5) > goto(toms_room) > goto(pose1) > "
        "goto(bobs_room) > access(wardrobe1) > open(wardrobe1)"
    )
    run = PlanRun(problem, problem.state, plan)
    assert (0, 6) in removable_detours(run)
    assert [str(a) for a in remove_detours(run)] == ["access(wardrobe1)", "open(wardrobe1)"]
    assert removable_detours(run) == []


def test_a_side_trip_that_does_something_needed_stays():
    problem = coffee("open(wardrobe1) and open(wardrobe2)")
    sim = Simulator(problem.graph)
    plan = parse_plan(
        "access(wardrobe1) > open(wardrobe1) > goto(pose1) > goto(toms_room) > "
        "access(wardrobe2) > open(wardrobe2)"
    )
    assert sim.verify_plan(plan).ok
    run = PlanRun(problem, problem.state, plan)
    assert remove_detours(run) == plan


class CountingSimulator(Simulator):
    steps = 0

    def step(self, state, action):
        CountingSimulator.steps += 1
        return super().step(state, action)


def test_elimination_replays_only_until_the_plans_agree_again():
    """A long walk and one useless access: far fewer simulated steps than the plan's length
    squared (re-verifying the whole plan per removal would take about that many)."""
    synthetic_building = plan_quality().synthetic_building
    graph = from_dict(synthetic_building(40, items_per_room=8, rooms_per_floor=40))
    state = WorldState(graph)
    rooms = sorted((n for n in graph if n.kind is NodeKind.ROOM), key=lambda n: -n.position[0])
    for room in (r.id for r in rooms):  # the farthest room with a closed container and more
        assets = [a for a in graph.children(room) if graph.nodes[a].kind is NodeKind.ASSET]
        boxes = [
            a
            for a in assets
            if "closed" in state.states(a) and "open" in graph.nodes[a].affordances
        ]
        if boxes and len(assets) > 1:
            box = boxes[0]
            break
    other = next(a for a in assets if a != box)
    problem = PlanningProblem(graph, f"open({box})")
    path = travel_for(graph).expand_plan([f"goto({room})"], start=state.agent_at)
    padded = [*path, *parse_plan(f"access({other}) > access({box}) > open({box})")]
    sim = CountingSimulator(graph)
    CountingSimulator.steps = 0
    kept = eliminate_redundant(problem, sim, problem.state, padded)
    n = len(padded)
    assert [str(a) for a in kept] == [*map(str, path), f"access({box})", f"open({box})"]
    assert n > 40 and CountingSimulator.steps < 6 * n, (CountingSimulator.steps, n)


def test_the_whole_graph_is_not_built_when_the_focus_succeeds(monkeypatch):
    def refuse(graph):
        raise AssertionError("full_scope built although the focused scope had a plan")

    monkeypatch.setattr(solver_module, "full_scope", refuse)
    task = next(t for t in load_suite("office-planning") if t.id == "planning-simple-06")
    assert solve(PlanningProblem(resolve(task).graph, task.goal)).ok


def test_a_macro_move_costs_the_steps_it_expands_into():
    problem = coffee("full(coffee_mug)")
    goal = ground(problem.goal, problem.graph)
    state = problem.state
    scope = focused_scope(state, [a for a, _ in wrong_literals(goal, state)], literals(goal))
    travel = travel_for(problem.graph)
    task = build_task(state, scope, goal, travel=travel.steps)
    moves = [a for a in task.actions if a.action is not None and a.action.name == "goto"]
    assert moves
    for move in moves:
        source = next(f[1] for f in (task.facts[i] for i in move.pre) if f[0] == "at")
        assert move.cost == travel.steps(source, move.action.args[0]) > 0


def test_optimal_finds_the_shortest_plan_and_says_so():
    problem = coffee("full(coffee_mug)")
    best = solve(problem, optimal=True)
    assert best.ok and best.planner == "astar" and best.stats["optimal"]
    assert len(best.plan) == 10
    default = solve(coffee("full(coffee_mug)"))
    assert len(default.plan) >= len(best.plan)


def test_optimal_search_can_run_out_of_time():
    task = next(t for t in load_suite("office-planning") if t.id == "planning-long-12")
    result = solve(PlanningProblem(resolve(task).graph, task.goal), optimal=True, timeout=0.05)
    assert result.status.value == "timeout"


def test_the_first_plan_is_improved_to_the_optimum_on_a_small_task():
    """planning-simple-05: the greedy plan is nearly twice the shortest; the A* pass finds it."""
    task = next(t for t in load_suite("office-planning") if t.id == "planning-simple-05")
    graph = resolve(task).graph
    greedy = solve(PlanningProblem(graph, task.goal), improve=False)
    improved = solve(PlanningProblem(graph, task.goal))
    best = solve(PlanningProblem(graph, task.goal), optimal=True)
    assert len(improved.plan) == len(best.plan) <= len(greedy.plan)
    assert improved.stats["optimal"]


def test_the_improvement_search_on_a_large_task_is_bounded_by_its_work(monkeypatch):
    """Each h_max evaluation reads every action and conditional effect (the task's size):
    a larger task gets fewer."""
    budgets: list[tuple[int, int]] = []
    astar = improve_module.astar

    def recording(task, timeout, max_evaluated=None, **options):
        budgets.append((task.size, max_evaluated))
        return astar(task, timeout, max_evaluated=max_evaluated, **options)

    monkeypatch.setattr(improve_module, "astar", recording)
    monkeypatch.setattr(improve_module, "IMPROVE_MAX_WORK", 50_000)
    task = next(t for t in load_suite("office-planning") if t.id == "planning-simple-05")
    result = solve(PlanningProblem(resolve(task).graph, task.goal))
    assert result.ok and budgets
    size, evaluations = budgets[0]
    assert evaluations == 50_000 // size < improve_module.IMPROVE_EVALS


@pytest.mark.slow
def test_a_task_size_counts_each_conditional_effect_as_the_heuristics_read_it(monkeypatch):
    """`GroundTask.size` is what one evaluation reads: an action and each of its
    conditional effects (a substance pour has one per substance it may carry)."""
    from sceneplan.symbolic.gbfs import CompiledTask
    from scenes import substance_scene

    captured = []
    improve = solver_module._improve

    def recording(task, outcome, result, remaining):
        captured.append(task)
        return improve(task, outcome, result, remaining)

    monkeypatch.setattr(solver_module, "_improve", recording)
    assert solve(PlanningProblem(substance_scene(), "covered(bowl, water)")).ok
    task = captured[0]
    assert task.size == len(CompiledTask(task).relaxed) > len(task.actions)
