"""The PDDL export is linear in the building, and the focused problem is the solver's own."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import load_suite
from sceneplan.graph import from_dict
from sceneplan.graph.model import NodeKind
from sceneplan.runs import resolve
from sceneplan.symbolic.pddl import (
    export_pddl,
    focused_problem,
    plan_from_pddl,
    plan_pddl,
)
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.textinput import parse_sexp
from sceneplan.world.rules import APPLIANCE_FUNCTIONS
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary

SYNTHETIC = Path(__file__).resolve().parents[2] / "benchmarks" / "synthetic.py"


@cache
def synthetic(rooms: int):
    spec = importlib.util.spec_from_file_location("_synthetic_for_pddl", SYNTHETIC)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return from_dict(module.synthetic_building(rooms, items_per_room=20))


def init_facts(problem: str) -> list[str]:
    init = problem[problem.index("(:init") : problem.index("(:goal")]
    return re.findall(r"\([a-z_0-9\- ]+\)", init)


def test_appliance_functions_are_one_fact_per_appliance_not_per_pair():
    graph = load_environment("office")
    facts = init_facts(export_pddl(graph, "handempty()").problem)
    appliances = [n for n in graph if n.category in APPLIANCE_FUNCTIONS]
    assert len([f for f in facts if f.startswith("(makes_")]) == len(appliances)
    objects = [n for n in graph if n.kind is NodeKind.OBJECT]
    assert len([f for f in facts if f.startswith("(takes_")]) <= len(objects)


@pytest.mark.slow
def test_the_problem_grows_linearly_with_the_building():
    small, large = (len(export_pddl(synthetic(n), "handempty()").problem) for n in (40, 160))
    assert large < 4.4 * small, (small, large)


def test_hidden_choices_range_over_narrow_types():
    domain = export_pddl(load_environment("office")).domain
    # the pair quantifiers of the old domain (every object with every thing) are gone
    assert "(?d - item ?y - thing)" not in domain and "(?acc - asset ?d - item)" not in domain
    assert "makes_hot ?a - object ?o - object" not in domain
    office = export_pddl(load_environment("office")).problem
    assert re.search(r"- (hot|cold|full|clean)_appliance", office)
    assert "- surface" in office and "- device" in office


def macro(plan) -> list[str]:
    """A pose-level plan as the solver's macro plan: each run of moves is its last move."""
    out: list[str] = []
    for step in map(str, plan):
        if step.startswith("goto(") and out and out[-1].startswith("goto("):
            out[-1] = step
        else:
            out.append(step)
    return out


def validate(files, plan, graph) -> bool:
    pytest.importorskip("unified_planning", reason="validating PDDL needs unified-planning")
    import unified_planning.shortcuts as ups
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader

    ups.get_environment().credits_stream = None
    problem = PDDLReader().parse_problem_string(files.domain, files.problem)
    parsed = PDDLReader().parse_plan_string(problem, plan_pddl(plan, graph))
    return (
        SequentialPlanValidator().validate(problem, parsed).status is ValidationResultStatus.VALID
    )


@pytest.mark.parametrize("task_id", ["planning-simple-02", "planning-simple-06"])
@pytest.mark.slow
def test_the_focused_problem_accepts_the_solvers_macro_plan(task_id):
    task = next(t for t in load_suite("office-planning") if t.id == task_id)
    graph = resolve(task).graph
    files = focused_problem(graph, task.goal)
    declared = files.problem[files.problem.index("(:objects") : files.problem.index("(:init")]
    assert len(declared.split()) < len(graph) / 4  # a small part of the building
    result = solve(PlanningProblem(graph, task.goal))
    assert validate(files, macro(result.plan), graph)
    assert not validate(files, macro(result.plan)[:-1], graph)  # and its goal is the task's


@pytest.mark.slow
def test_an_office_oracle_plan_validates_on_the_whole_graph():
    task = next(t for t in load_suite("office-planning") if t.id == "planning-simple-06")
    graph = resolve(task).graph
    result = solve(PlanningProblem(graph, task.goal))
    assert validate(export_pddl(graph, task.goal), result.plan, graph)


def goal_text(problem: str) -> str:
    return problem[problem.index("(:goal") :]


def test_an_exact_count_of_objects_in_a_room_is_a_goal_over_located_atoms():
    # planning-long-10 ("exactly three bottles in the meeting room") ran Fast Downward's
    # translator out of memory while each "within the room" was a disjunction of existentials
    task = next(t for t in load_suite("office-planning") if t.id == "planning-long-10")
    graph = resolve(task).graph
    goal = goal_text(export_pddl(graph, task.goal).problem)
    assert "exists" not in goal and "holding" not in goal
    assert goal.count("(located bottled_water1 meeting_room1)") == 10  # 6 of 3 + 4 of 4
    assert len(goal) < 3000


def test_an_empty_hand_in_the_goal_folds_away_what_the_robot_carries():
    graph = load_environment("office")
    with_hand = goal_text(export_pddl(graph, "handempty() and within(apple1, kitchen)").problem)
    without = goal_text(export_pddl(graph, "within(apple1, kitchen)").problem)
    assert with_hand.startswith("(:goal (and (handempty) (located apple1 kitchen)))")
    # without it, the apple may also be carried into the kitchen
    assert "(holding apple1)" in without and "(located apple1 kitchen)" in without
    # a floor is reached through the rooms on it
    floor = next(n.id for n in graph if n.kind is NodeKind.FLOOR)
    assert "(exists (?r" in goal_text(export_pddl(graph, f"within(apple1, {floor})").problem)


def test_what_an_action_leaves_implicit_is_a_parameter_not_a_quantifier():
    domain = export_pddl(load_environment("office"), "handempty()").domain
    for name in ("goto", "access", "pickup", "release"):
        action = domain[domain.index(f"(:action {name}\n") :].split("(:action", 2)[1]
        assert "- place)" not in action.split(":effect")[1]  # no forall over places
        assert "- room)" not in action and "(?acc - asset)" not in action, name
    goto = domain[domain.index("(:action goto\n") :]
    assert ":parameters (?x - place ?at_here - place ?at_slot - object ?at_me - robot)" in goto


def test_plan_pddl_fills_the_hidden_parameters_and_plan_from_pddl_drops_them():
    task = next(t for t in load_suite("office-planning") if t.id == "planning-simple-06")
    graph = resolve(task).graph
    plan = [str(a) for a in solve(PlanningProblem(graph, task.goal)).plan]
    text = plan_pddl(plan, graph)
    agent = graph.agent.id
    first = text.splitlines()[0]
    assert first.startswith("(goto ") and first.endswith(f" {agent} {agent})")  # nothing accessed
    pickup = next(line for line in text.splitlines() if line.startswith("(pickup "))
    assert len(pickup.split()) == 4  # object, the agent's room, the asset under it
    assert plan_from_pddl(text, graph) == plan
    # an action the simulator refuses still gets a value of each hidden parameter's type
    refused = plan_pddl(["release(" + plan[0][5:-1] + ")"], graph)
    assert refused.count(" ") == 3


def test_putting_down_what_is_held_binds_it_as_a_parameter():
    # LookPlanGraph's put_on(a) names no held object: the hidden `held` binds it, where a
    # `forall (?held - item)` made a validator expand every effect for every object
    graph = load_environment("office")
    domain = export_pddl(graph, "handempty()", vocabulary=LOOKPLANGRAPH).domain
    for name in ("put_on", "put_inside"):
        action = domain[domain.index(f"(:action {name}\n") :].split("(:action", 2)[1]
        assert ":parameters (?a - thing ?at_room - room ?at_held - item)" in action
        assert "(holding ?at_held)" in action and "?held" not in action
    # SayPlan's release_on(o, r) holds its own parameter: no hidden term for it
    release_on = domain_of(graph, "sayplan").split("(:action release_on\n")[1]
    assert "?at_held" not in release_on.split("(:action")[0]
    plan = ["go_to(kitchen)", "pick_up(apple1)", "put_on(kitchen_bench)"]
    lines = plan_pddl(plan, graph, vocabulary=LOOKPLANGRAPH).splitlines()
    assert lines[-1] == "(put_on kitchen_bench kitchen apple1)"
    assert plan_from_pddl("\n".join(lines), graph, LOOKPLANGRAPH) == plan


def domain_of(graph, vocabulary: str) -> str:
    return export_pddl(graph, "handempty()", vocabulary=get_vocabulary(vocabulary)).domain


@pytest.mark.slow
def test_the_benchmarks_goal_actions_write_each_way_to_the_goal_as_an_action(monkeypatch):
    # benchmarks/pddl_export.py --disjunctive compiles a goal into one action per term of
    # its disjunctive normal form, to tell which part of lama-first stalls on planning-long-10
    monkeypatch.syspath_prepend(str(SYNTHETIC.parent))
    bench = importlib.import_module("pddl_export")
    terms = bench._dnf(parse_sexp("(and (or (p a) (p b)) (not (and (p a) (p b))) (q))"))
    assert sorted(map(sorted, terms)) == [
        ["(not (p a))", "(p b)", "(q)"],
        ["(not (p b))", "(p a)", "(q)"],
    ]
    task = next(t for t in load_suite("office-planning") if t.id == "planning-long-10")
    graph = resolve(task).graph
    files, count = bench.goal_actions(export_pddl(graph, task.goal))
    assert count == 10  # three of the five bottles in the meeting room, the other two not
    assert files.problem.endswith("(:goal (goal_reached)))\n")
    actions = files.domain.split("(:action reach_goal_")[1:]
    for action in actions:
        assert action.count("(located ") == 5 and action.count("(not (located ") == 2
    pytest.importorskip("unified_planning", reason="parsing PDDL needs unified-planning")
    from unified_planning.io import PDDLReader

    problem = PDDLReader().parse_problem_string(files.domain, files.problem)
    assert len([a for a in problem.actions if a.name.startswith("reach_goal_")]) == 10
