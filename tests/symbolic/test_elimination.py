from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sceneplan.datasets import load_environment
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.solver import PlanningProblem, eliminate_redundant, solve
from sceneplan.world import Action, Simulator, parse_plan
from scenes import kitchen


def test_useless_steps_are_dropped_and_the_plan_stays_valid():
    graph = kitchen()
    problem = PlanningProblem(graph, "inside_of(soup, microwave)")
    padded = parse_plan(
        "goto(pose1) > goto(pose2) > goto(kitchen) > access(bench) > access(fridge) > "
        "open(fridge) > pickup(soup) > access(cabinet) > access(microwave) > open(microwave) > "
        "release(soup) > access(bench)"
    )
    sim = Simulator(graph)
    kept = eliminate_redundant(problem, sim, problem.state, padded)
    assert [str(a) for a in kept] == [
        "goto(pose1)", "goto(pose2)", "goto(kitchen)", "access(fridge)", "open(fridge)",
        "pickup(soup)", "access(microwave)", "open(microwave)", "release(soup)",
    ]  # fmt: skip


def test_solve_reports_what_it_eliminated():
    result = solve(PlanningProblem(kitchen(), "inside_of(soup, microwave)"))
    assert result.ok and result.stats["eliminated"] >= 0
    assert str(result.plan[-1]) == "release(soup)"


# --- more cases on the coffee scene ---------------------------------------------------------

COFFEE_PLAN = (
    "access(wardrobe1) > open(wardrobe1) > pickup(coffee_mug) > goto(pose1) > goto(toms_room) > "
    "goto(pose5) > goto(kitchen) > access(coffee_machine) > turn_on(coffee_machine) > "
    "release(coffee_mug)"
)


def coffee_problem(goal: str = "full(coffee_mug)"):
    graph = load_environment("coffee")
    return PlanningProblem(graph, goal), Simulator(graph)


def eliminate(problem, sim, plan) -> list[str]:
    return [str(a) for a in eliminate_redundant(problem, sim, problem.state, parse_plan(plan))]


def reaches_goal(problem, sim, plan) -> bool:
    verification = sim.verify_plan(plan, problem.state)
    return verification.ok and problem.goal.holds(verification.final_state)


def test_a_minimal_plan_is_unchanged():
    problem, sim = coffee_problem()
    assert eliminate(problem, sim, COFFEE_PLAN) == COFFEE_PLAN.split(" > ")


def test_a_detour_through_another_pose_loses_exactly_its_steps():
    problem, sim = coffee_problem()
    detour = COFFEE_PLAN.replace(
        "goto(toms_room) > ", "goto(toms_room) > goto(pose2) > goto(toms_room) > "
    )
    assert len(parse_plan(detour)) == len(parse_plan(COFFEE_PLAN)) + 2
    kept = eliminate(problem, sim, detour)
    assert kept == COFFEE_PLAN.split(" > ")
    assert reaches_goal(problem, sim, parse_plan(kept))


def test_an_access_nothing_uses_is_dropped():
    problem, sim = coffee_problem()
    padded = "access(bed1) > " + COFFEE_PLAN.replace(
        "goto(kitchen) > ", "goto(kitchen) > access(fridge) > "
    )
    assert eliminate(problem, sim, padded) == COFFEE_PLAN.split(" > ")


@pytest.mark.parametrize(
    "side_trip",
    [
        "access(wardrobe2) > open(wardrobe2) > ",
        "access(wardrobe2) > open(wardrobe2) > close(wardrobe2) > ",
    ],
)
def test_a_side_trip_loses_all_its_steps(side_trip):
    problem, sim = coffee_problem()
    padded = COFFEE_PLAN.replace("goto(toms_room) > ", "goto(toms_room) > " + side_trip)
    assert reaches_goal(problem, sim, parse_plan(padded))
    assert eliminate(problem, sim, padded) == COFFEE_PLAN.split(" > ")


def test_elimination_keeps_a_target_action_executable():
    graph = load_environment("coffee")
    sim = Simulator(graph)
    problem = PlanningProblem(graph, target="pickup(coffee_mug)")
    padded = "goto(pose1) > goto(bobs_room) > access(bed1) > access(wardrobe1) > open(wardrobe1)"
    kept = eliminate_redundant(problem, sim, problem.state, parse_plan(padded))
    assert [str(a) for a in kept] == ["access(wardrobe1)", "open(wardrobe1)"]
    assert sim.check(sim.run(kept), problem.target) is None


def test_elimination_plans_from_the_problems_state():
    graph = load_environment("coffee")
    sim = Simulator(graph)
    state = sim.run(["access(wardrobe1)", "open(wardrobe1)", "pickup(coffee_mug)"])
    problem = PlanningProblem(graph, "ontop_of(coffee_mug, bed1)", state=state)
    padded = parse_plan("access(wardrobe1) > access(bed1) > release(coffee_mug)")
    kept = eliminate_redundant(problem, sim, state, padded)
    assert [str(a) for a in kept] == ["access(bed1)", "release(coffee_mug)"]


# --- property: whatever is inserted, what comes out still runs and reaches the goal -----------

GOALS = [
    "full(coffee_mug)",
    "inside_of(coffee_mug, fridge) and closed(fridge)",
    "ontop_of(coffee_mug, bed2) and open(wardrobe2)",
]


@cache
def solved(goal: str):
    problem, sim = coffee_problem(goal)
    result = solve(problem, timeout=30)
    assert result.ok
    return problem, sim, tuple(result.plan)


@cache
def coffee_actions() -> tuple[Action, ...]:
    """Every ground action of the coffee scene (most are not executable at a given point)."""
    graph = load_environment("coffee")
    nodes = [n for n in graph if n.kind in (NodeKind.ROOM, NodeKind.POSE, NodeKind.ASSET)]
    out = [Action("goto", (n.id,)) for n in nodes if n.kind is not NodeKind.ASSET]
    for n in graph.of_kind(NodeKind.ASSET):
        out += [Action(name, (n.id,)) for name in ("access", "open", "close", "turn_on")]
    out += [Action(name, ("coffee_mug",)) for name in ("pickup", "release")]
    return tuple(out)


def padded_plan(problem, sim, plan, choices: dict[int, list[int]]) -> list[Action]:
    """`plan` with actions inserted before step `position`: each pick is one of the actions
    executable there, kept when the rest of the plan still reaches the goal after it."""
    padded: list[Action] = []
    for position in range(len(plan) + 1):
        for pick in choices.get(position, ()):
            state = sim.run(padded, problem.state)
            executable = [a for a in coffee_actions() if sim.check(state, a) is None]
            extra = executable[pick % len(executable)]
            if reaches_goal(problem, sim, [*padded, extra, *plan[position:]]):
                padded.append(extra)
        if position < len(plan):
            padded.append(plan[position])
    return padded


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), goal=st.sampled_from(GOALS))
@pytest.mark.slow
def test_elimination_never_returns_a_plan_the_simulator_rejects(data, goal):
    problem, sim, plan = solved(goal)
    choices = data.draw(
        st.dictionaries(
            st.integers(0, len(plan)),
            st.lists(st.integers(0, 100), min_size=1, max_size=3),
            max_size=4,
        )
    )
    padded = padded_plan(problem, sim, plan, choices)
    assert reaches_goal(problem, sim, padded)
    kept = eliminate_redundant(problem, sim, problem.state, padded)
    assert reaches_goal(problem, sim, kept)
    assert len(kept) <= len(padded)
    remaining = iter(padded)
    assert all(step in remaining for step in kept)  # an ordered subsequence of the input
