"""Sitting and lying (VirtualHome's SIT, LIE, STANDUP): the agent's posture, set by sit(x) /
lie(x) on what affords it and cleared by stand_up(); moving needs the agent standing. The
simulator, its feedback, the solver and the prompts, in both vocabularies."""

from __future__ import annotations

import pytest

from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import rest_scene

GRAPH = rest_scene()
TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def test_sit_lie_and_stand_up():
    sim = Simulator(GRAPH)
    seated = sim.run("access(sofa) > sit(sofa)")
    assert "sitting" in seated.states("agent")
    lying = sim.run("access(sofa) > lie(sofa)")
    assert "lying" in lying.states("agent") and "sitting" not in lying.states("agent")
    up = sim.run(
        f"access(sofa) > lie(sofa) > stand_up() > {TO_KITCHEN} > access(stool) > sit(stool)"
    )
    assert up.states("agent") == {"sitting"}
    assert parse_goal("sitting(agent) and in_room(agent, kitchen)", GRAPH).holds(up)


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (
            "access(sofa) > sit(sofa) > goto(pose1)",
            "step 3 goto(pose1): the agent is sitting; stand_up() first",
        ),
        (
            "access(sofa) > sit(sofa) > lie(sofa)",
            "step 3 lie(sofa): the agent is sitting; stand_up() first",
        ),
        ("stand_up()", "step 1 stand_up(): the agent is already standing"),
        (
            "access(desk) > sit(desk)",
            "step 2 sit(desk): desk cannot be used with sit (its affordances: release)",
        ),
        (
            "sit(sofa)",
            "step 1 sit(sofa): sofa is at sofa, which has not been accessed (accessed: nothing)",
        ),
        (
            f"{TO_KITCHEN} > access(stool) > lie(stool)",
            "step 5 lie(stool): stool cannot be used with lie (its affordances: sit)",
        ),
    ],
)
def test_wrong_posture_steps_say_why(plan, message):
    assert Simulator(GRAPH).verify_plan(plan).feedback == message


def test_lookplangraph_feedback():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    assert sim.verify_plan("lie(sofa) > go_to(kitchen)").feedback == (
        "step 2 go_to(kitchen): the agent is lying; stand_up() first"
    )
    assert sim.verify_plan("sit(stool)").feedback == (
        "step 1 sit(stool): the agent is at office, not in kitchen where stool is"
    )
    assert sim.verify_plan("sit(sofa) > stand_up() > go_to(kitchen) > sit(stool)").ok


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    ("goal", "start", "action"),
    [
        ("sitting(agent) and in_room(agent, kitchen)", "", "sit"),
        ("lying(agent)", "", "lie"),
        ("in_room(agent, kitchen) and not sitting(agent)", "sit", "stand_up"),
    ],
)
def test_the_solver_plans_with_them(vocabulary, goal, start, action):
    vocabulary = get_vocabulary(vocabulary)
    sim = Simulator(GRAPH, vocabulary)
    first = {"sayplan": "access(sofa) > sit(sofa)", "lookplangraph": "sit(sofa)"}[vocabulary.name]
    state = sim.run(first) if start else sim.initial_state()
    formula = parse_goal(goal, GRAPH)
    result = solve(PlanningProblem(GRAPH, formula, state=state, vocabulary=vocabulary))
    assert result.ok, result.stats
    assert action in {a.name for a in result.plan}
    assert formula.holds(sim.run(result.plan, state))


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
def test_prompts_list_them(vocabulary):
    vocabulary = get_vocabulary(vocabulary)
    lines = "\n".join(Simulator(GRAPH, vocabulary).describe_actions(conditions=True))
    assert "sit(<x>): Sit down on a chair, sofa or bed. Needs:" in lines
    assert "lie(<x>): Lie down on a bed or sofa." in lines
    assert "stand_up(): Stand up after sitting or lying down" in lines
    assert "the agent is standing" in lines
