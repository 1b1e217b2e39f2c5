from sceneplan.symbolic.solver import PlanningProblem, eliminate_redundant, solve
from sceneplan.world import Simulator, parse_plan
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
