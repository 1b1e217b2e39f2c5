"""Freezing (BEHAVIOR-1K's and VirtualHome's `frozen`): a freezer's function gives `cold` and
`frozen`, a fridge's only `cold`; the simulator, its feedback, the solver and the PDDL, in
both vocabularies. The Office freezer keeps giving `cold`."""

from __future__ import annotations

import pytest

from sceneplan.datasets import load_environment
from sceneplan.symbolic.pddl import export_pddl
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.rules import appliance_function
from sceneplan.world.vocabularies import get_vocabulary
from scenes import frost_scene

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


GRAPH = frost_scene()


def test_a_freezer_freezes_and_a_fridge_only_cools():
    sim = Simulator(GRAPH)
    end = sim.run(
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(freezer) > open(freezer) > "
        "release(apple) > access(fridge) > open(fridge) > pickup(soup) > release(soup)"
    )
    assert {"cold", "frozen"} <= end.states("apple")
    assert "cold" in end.states("soup") and "frozen" not in end.states("soup")


def test_taking_from_a_closed_freezer_says_why():
    plan = (
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(freezer) > open(freezer) > "
        "release(apple) > close(freezer) > pickup(apple)"
    )
    assert Simulator(GRAPH).verify_plan(plan).feedback == (
        "step 10 pickup(apple): apple is inside freezer, which is closed"
    )


def test_a_fridge_does_not_reach_a_frozen_goal():
    end = Simulator(GRAPH).run(
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(fridge) > open(fridge) > "
        "release(apple)"
    )
    goal = parse_goal("frozen(apple)", GRAPH)
    assert not goal.holds(end) and "cold" in end.states("apple")


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
def test_the_solver_freezes_with_the_freezer(vocabulary):
    vocabulary = get_vocabulary(vocabulary)
    formula = parse_goal("frozen(apple) and held(apple)", GRAPH)
    result = solve(PlanningProblem(GRAPH, formula, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    assert "freezer" in {arg for a in result.plan for arg in a.args}
    assert formula.holds(Simulator(GRAPH, vocabulary).run(result.plan))


def test_the_pddl_types_the_freezer_by_its_function():
    assert appliance_function("freezer").words == ("cold", "frozen")
    files = export_pddl(GRAPH, "frozen(apple)")
    assert "freezer - frozen_appliance" in files.problem
    assert "(makes_frozen freezer)" in files.problem and "(makes_cold fridge)" in files.problem
    assert "(is_frozen ?" in files.domain


def test_the_office_freezer_still_gives_cold():
    office = load_environment("office")
    result = solve(PlanningProblem(office, "cold(orange1) and inside_of(orange1, freezer)"))
    assert result.ok
    end = Simulator(office).run(result.plan)
    assert {"cold", "frozen"} <= end.states("orange1")
