"""The exported PDDL and the simulator agree: same verdict on every plan, same final state.

The independent judge is unified-planning's SequentialPlanValidator on the
exported domain and problem. Each plan's goal is the simulator's final state
written as literals (every placement, hand, place, access and state-word fact,
true or false), so a VALID verdict means the two final states agree.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

pytest.importorskip("unified_planning", reason="the differential test needs unified-planning")

import unified_planning.shortcuts as ups
from unified_planning.engines.plan_validator import SequentialPlanValidator
from unified_planning.engines.results import ValidationResultStatus
from unified_planning.io import PDDLReader

from sceneplan.datasets import load_environment
from sceneplan.graph import from_dict
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.pddl import export_pddl, plan_pddl, state_facts
from sceneplan.world import SAYPLAN, Action, Simulator, parse_goal
from scenes import kitchen, kitchen_dict, node

ups.get_environment().credits_stream = None
TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def nested_scene():
    """Objects in objects, an appliance object, a held object at the start, a dead-end pose."""
    data = kitchen_dict()
    data["name"] = "nested"
    data["nodes"] = [n for n in data["nodes"] if n["id"] not in ("agent", "apple")] + [
        node(
            "crate",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "open", "close", "release"],
            state=["open"],
        ),
        node(
            "tin",
            "object",
            "crate",
            relation="inside_of",
            affordances=["pickup", "open", "close", "release"],
            state=["closed"],
        ),
        node("cup", "object", "tin", relation="inside_of", affordances=["pickup"], state=["empty"]),
        node(
            "kettle",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "turn_on", "turn_off", "release"],
            state=["off"],
        ),
        node("egg", "object", "kettle", relation="ontop_of", affordances=["pickup"]),
        node("pose3", "pose", position=[6.0, 3.0]),
        node("agent", "agent", "office"),
        node("apple", "object", "agent", relation="held", affordances=["pickup"]),
    ]
    data["links"].append(["kitchen", "pose3"])
    return from_dict(data, "nested")


SCENES = {"kitchen": kitchen, "coffee": lambda: load_environment("coffee"), "nested": nested_scene}
REFERENCE_PLANS = {
    "kitchen": [
        f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(coffee_machine) > release(mug) > "
        "turn_on(coffee_machine)",
        f"{TO_KITCHEN} > access(fridge) > open(fridge) > pickup(soup) > access(bench) > "
        "release(soup) > access(cabinet) > pickup(box) > access(fridge) > release(box)",
        f"{TO_KITCHEN} > access(bench) > pickup(plate) > access(dishwasher) > release(plate) > "
        "close(dishwasher) > turn_on(dishwasher) > open(dishwasher) > pickup(plate)",
        f"{TO_KITCHEN} > access(cabinet) > pickup(pen)",
        f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(fridge) > release(mug) > done > "
        "goto(office)",
    ],
    "coffee": [
        "goto(pose1) > goto(toms_room) > goto(pose5) > goto(kitchen) > access(fridge)",
        "access(wardrobe1) > open(wardrobe1) > pickup(coffee_mug) > goto(pose1) > goto(toms_room) "
        "> goto(pose5) > goto(kitchen) > access(coffee_machine) > release(coffee_mug) > "
        "turn_on(coffee_machine) > pickup(coffee_mug)",
    ],
    "nested": [
        f"{TO_KITCHEN} > access(bench) > release(apple) > open(tin) > pickup(cup) > "
        "access(coffee_machine) > turn_on(coffee_machine) > release(cup)",
        f"{TO_KITCHEN} > access(bench) > release(apple) > turn_on(kettle) > pickup(crate) > "
        "access(microwave) > open(microwave) > release(crate) > close(microwave) > "
        "turn_on(microwave)",
        f"{TO_KITCHEN} > access(bench) > release(apple) > pickup(kettle) > access(fridge) > "
        "open(fridge) > release(kettle) > turn_on(kettle)",
    ],
}


@cache
def judged(scene: str):
    """The scene, its simulator, and the exported problem parsed once by unified-planning."""
    graph = SCENES[scene]()
    files = export_pddl(graph)
    problem = PDDLReader().parse_problem_string(files.domain, files.problem)
    return graph, Simulator(graph), problem


def fluent_universe(graph) -> set[str]:
    """Every dynamic fact the goal of a comparison talks about."""
    things = [n.id for n in graph if n.kind in (NodeKind.ASSET, NodeKind.OBJECT)]
    items = [n.id for n in graph if n.kind is NodeKind.OBJECT]
    places = [n.id for n in graph if n.kind in (NodeKind.ROOM, NodeKind.POSE)]
    words = ("open", "closed", "on", "off", "hot", "cold", "clean", "dirty", "full", "empty")
    out = {"(handempty)"}
    out |= {f"(agent_at {p})" for p in places}
    out |= {f"(accessed {a.id})" for a in graph.of_kind(NodeKind.ASSET)}
    out |= {f"(holding {o})" for o in items}
    out |= {f"(is_{w} {x})" for w in words for x in things}
    for o in items:
        for y in things:
            out |= {f"({p} {o} {y})" for p in ("ontop_of", "inside_of", "below", "enclosed")}
    return out


def up_goal(problem, facts: set[str], universe: set[str]):
    def expression(fact: str):
        name, *args = fact.strip("()").split()
        return problem.fluent(name)(*(problem.object(a) for a in args))

    parts = [expression(f) for f in sorted(facts)]
    parts += [ups.Not(expression(f)) for f in sorted(universe - facts)]
    return ups.And(*parts)


def judge(scene: str, plan: list[Action] | str):
    """(simulator verification, UP validation result) for one plan."""
    graph, sim, problem = judged(scene)
    result = sim.verify_plan(plan)
    end = result.final_state
    goal_problem = problem.clone()
    goal_problem.clear_goals()
    goal_problem.add_goal(up_goal(problem, set(state_facts(end)), fluent_universe(graph)))
    up_plan = PDDLReader().parse_plan_string(goal_problem, plan_pddl(result.plan))
    return result, SequentialPlanValidator().validate(goal_problem, up_plan)


def assert_agree(scene: str, plan) -> None:
    result, verdict = judge(scene, plan)
    if result.ok:
        assert verdict.status is ValidationResultStatus.VALID, (
            f"simulator: executable; validator: {verdict.reason} {verdict.inapplicable_action}"
        )
    else:
        assert verdict.status is ValidationResultStatus.INVALID
        assert str(verdict.inapplicable_action) == str(result.failure.action)


def random_walk(scene: str, seed: int, length: int = 9) -> list[Action]:
    """Mostly executable steps (so deep states occur), ending with one arbitrary action."""
    graph, sim, _ = judged(scene)
    rng = random.Random(seed)
    candidates = [
        Action(s.name, (n.id,))
        for s in SAYPLAN.values()
        if s.params
        for n in graph
        if n.kind in s.params[0].kinds
    ]
    state, plan = sim.initial_state(), []
    for _ in range(length):
        valid = [a for a in candidates if sim.check(state, a) is None]
        useful = [a for a in valid if a.name != "goto"] or valid
        action = rng.choice(useful if rng.random() < 0.7 else valid)
        state, _ = sim.step(state, action)
        plan.append(action)
    plan.append(rng.choice(candidates))
    return plan


@pytest.mark.parametrize(
    ("scene", "plan"), [(s, p) for s, plans in REFERENCE_PLANS.items() for p in plans]
)
def test_reference_plans_agree(scene, plan):
    assert_agree(scene, plan)


@pytest.mark.parametrize(
    ("scene", "seed"),
    [(s, k) for s, n in (("kitchen", 4), ("coffee", 2), ("nested", 4)) for k in range(n)],
)
def test_random_plans_agree(scene, seed):
    assert_agree(scene, random_walk(scene, seed))


GOALS = [
    "hot(egg) or within(cup, kitchen)",
    "forall o in kind:object: (in_room(o, kitchen) implies not held(o))",
    "exists c in kind:asset: (inside_of(crate, c) and closed(c))",
    "within(cup, bench) and not handempty() and agent_at(kitchen)",
    "in_room(agent, kitchen) and within(apple, agent) and not at(crate, bench)",
]


@pytest.mark.parametrize("goal", GOALS)
def test_goal_translation_agrees_with_goal_check(goal):
    graph = nested_scene()
    sim = Simulator(graph)
    plan = REFERENCE_PLANS["nested"][1]
    end = sim.run(plan)
    files = export_pddl(graph, goal)
    problem = PDDLReader().parse_problem_string(files.domain, files.problem)
    up_plan = PDDLReader().parse_plan_string(problem, plan_pddl(plan))
    verdict = SequentialPlanValidator().validate(problem, up_plan)
    expected = parse_goal(goal, graph).holds(end)
    assert (verdict.status is ValidationResultStatus.VALID) == expected
