"""BEHAVIOR-1K's appliances: ovens, stoves, grills and toasters cook (and heat and thaw),
a microwave heats and thaws, an `electric_refrigerator` (always running) cools and
freezes. The simulator, the solver (both vocabularies) and the PDDL export agree."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.rules import APPLIANCE_FUNCTIONS, appliance_function, appliance_gives
from sceneplan.world.state import EXCLUSIVE_STATES
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import bake_dict, bake_scene

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"
GRAPH = bake_scene()


def test_the_tables_give_behaviors_appliances_their_functions():
    assert EXCLUSIVE_STATES["frozen"] == "thawed" and EXCLUSIVE_STATES["thawed"] == "frozen"
    for cooker in ("oven", "stove", "grill", "toaster", "toaster_oven"):
        assert set(APPLIANCE_FUNCTIONS[cooker]) == {"thawed", "hot", "cooked"}
    assert set(APPLIANCE_FUNCTIONS["microwave"]) == {"thawed", "hot"}
    assert APPLIANCE_FUNCTIONS["electric_refrigerator"] == APPLIANCE_FUNCTIONS["freezer"]
    assert appliance_gives("electric_refrigerator", "frozen", "pie")
    assert not appliance_gives("microwave", "cooked", "pie")
    # one PDDL function per group of categories that give the same words
    assert appliance_function("oven") == appliance_function("toaster")
    assert appliance_function("electric_refrigerator").pddl_type == "frozen_appliance"


def test_an_oven_cooks_heats_and_thaws_what_is_inside_it():
    end = Simulator(GRAPH).run(
        f"{TO_KITCHEN} > access(bench) > pickup(pie) > access(oven) > open(oven) > "
        "release(pie) > close(oven) > turn_on(oven)"
    )
    assert end.states("pie") >= {"hot", "cooked", "thawed"}
    assert "frozen" not in end.states("pie")
    assert parse_goal("hot(pie) and not frozen(pie) and not raw(pie)", GRAPH).holds(end)


def test_a_grill_cooks_what_stands_on_it_and_a_toaster_what_is_in_it():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    end = sim.run(
        "go_to(kitchen) > turn_on(grill) > pick_up(steak) > put_on(grill) > "
        "pick_up(bread) > put_inside(toaster) > turn_on(toaster)"
    )
    assert {"cooked", "hot"} <= end.states("steak") and "raw" not in end.states("steak")
    assert {"cooked", "hot"} <= end.states("bread")
    # on top of the toaster is not in it: a container appliance acts on what is inside
    top = sim.run("go_to(kitchen) > turn_on(toaster) > pick_up(bread) > put_on(toaster)")
    assert "cooked" not in top.states("bread")


def test_the_refrigerator_runs_without_a_switch_and_freezes_what_is_put_in_it():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    end = sim.run(
        "go_to(kitchen) > turn_on(oven) > open(oven) > pick_up(steak) > put_inside(oven) > "
        "pick_up(steak) > open(electric_refrigerator) > put_inside(electric_refrigerator)"
    )
    assert {"cold", "frozen", "cooked"} <= end.states("steak")
    assert not {"hot", "thawed"} & end.states("steak")
    failure = sim.verify_plan("go_to(kitchen) > turn_on(electric_refrigerator)").failure
    assert failure is not None and failure.cause == "no_affordance"


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    ("goal", "appliance"),
    [
        ("not frozen(pie) and hot(pie)", None),
        ("cooked(steak) and ontop_of(steak, bench)", None),
        ("cooked(bread) and hot(bread)", None),
        ("frozen(steak) and cooked(steak)", "electric_refrigerator"),
        ("frozen(bread)", "electric_refrigerator"),
    ],
)
def test_the_solver_reaches_appliance_goals_and_the_simulator_agrees(vocabulary, goal, appliance):
    vocabulary = get_vocabulary(vocabulary)
    result = solve(PlanningProblem(GRAPH, goal, vocabulary=vocabulary), 30)
    assert result.ok, result.status
    run = Simulator(GRAPH, vocabulary).verify_plan([str(a) for a in result.plan])
    assert run.ok and parse_goal(goal, GRAPH).holds(run.final_state)
    if appliance is not None:
        assert any(appliance in str(a) for a in result.plan)


def test_a_microwave_does_not_cook_so_a_raw_thing_stays_raw_there():
    data = bake_dict()
    data["nodes"] = [n for n in data["nodes"] if n["id"] not in ("oven", "grill", "toaster")]
    graph = from_dict(data, "microwave only")
    result = solve(PlanningProblem(graph, "cooked(steak)", vocabulary=LOOKPLANGRAPH), 30)
    assert result.status.value == "unsolvable"
    warm = solve(PlanningProblem(graph, "hot(pie) and not frozen(pie)"), 30)
    assert warm.ok and any("microwave" in str(a) for a in warm.plan)


def test_the_importer_runs_the_refrigerator_and_lets_the_toaster_hold_bread():
    pytest.importorskip("bddl", reason="needs the behavior extra's taxonomy")
    from sceneplan.importers.behavior import convert
    from sceneplan.importers.behavior.bddl import parse_problem
    from sceneplan.importers.behavior.taxonomy import default_taxonomy

    text = """(define (problem t-0) (:domain omnigibson)
     (:objects toaster.n.02_1 - toaster.n.02 bread_slice.n.01_1 - bread_slice.n.01
        electric_refrigerator.n.01_1 - electric_refrigerator.n.01
        countertop.n.01_1 - countertop.n.01 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
     (:init (ontop toaster.n.02_1 countertop.n.01_1) (ontop bread_slice.n.01_1 countertop.n.01_1)
        (inroom countertop.n.01_1 kitchen) (inroom electric_refrigerator.n.01_1 kitchen)
        (inroom floor.n.01_1 kitchen) (ontop agent.n.01_1 floor.n.01_1))
     (:goal (and (cooked ?bread_slice.n.01_1) (frozen ?bread_slice.n.01_1))))"""
    imported = convert(parse_problem(text, "t"), default_taxonomy())
    graph = imported.graph
    assert "on" in graph.node("electric_refrigerator_1").state
    assert {"receptacle", "release"} <= set(graph.node("toaster_1").affordances)
    (task,) = imported.tasks
    result = solve(PlanningProblem(graph, task.goal, vocabulary=LOOKPLANGRAPH), 30)
    assert result.ok
    run = Simulator(graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert run.ok and parse_goal(task.goal, graph).holds(run.final_state)


def test_the_importer_says_which_appliance_a_goal_lacks():
    pytest.importorskip("bddl", reason="needs the behavior extra's taxonomy")
    from sceneplan.importers.behavior import convert
    from sceneplan.importers.behavior.bddl import parse_problem
    from sceneplan.importers.behavior.taxonomy import default_taxonomy

    text = """(define (problem t-0) (:domain omnigibson)
     (:objects fruitcake.n.02_1 - fruitcake.n.02 countertop.n.01_1 - countertop.n.01
        floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
     (:init (ontop fruitcake.n.02_1 countertop.n.01_1) (hot fruitcake.n.02_1)
        (inroom countertop.n.01_1 kitchen) (inroom floor.n.01_1 kitchen)
        (ontop agent.n.01_1 floor.n.01_1))
     (:goal (and (not (hot ?fruitcake.n.02_1)))))"""
    imported = convert(parse_problem(text, "t"), default_taxonomy())
    assert imported.tasks == []
    assert imported.extra["gaps"] == ["goal needs not hot: no appliance of the scene gives cold"]
