"""The LAPKT back end (`symbolic/lapkt_backend.py`): BFS(f) in a recycled worker process."""

from __future__ import annotations

import math
import time

import pytest

pytest.importorskip("lapkt", reason="the bfsf back end needs LAPKT: pip install 'sceneplan[lapkt]'")

from ground_tasks import Builder, chain, execute, names, trap
from sceneplan.datasets import load_environment
from sceneplan.symbolic import lapkt_backend
from sceneplan.symbolic.lapkt_backend import LapktBFSf
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, solve
from sceneplan.world import Simulator, parse_goal


@pytest.fixture(scope="module")
def bfsf():
    backend = LapktBFSf()
    yield backend
    backend.close()


def machine_task(already_on: bool):
    """Turning the machine on fills the mug only when the mug is in it."""
    b = Builder()
    b.action("turn_on", neg=["on"], add=["on"], effects=[b.when(pre=["mug_in"], add=["full"])])
    b.action("turn_off", pre=["on"], delete=["on"])
    b.action("put_mug", pre=["holding"], add=["mug_in"], delete=["holding"])
    return b.task(init=["holding", *(["on"] if already_on else [])], goal=["full"])


# --- hand-built tasks -----------------------------------------------------------------------


def test_bfsf_solves_a_chain(bfsf):
    task = chain(6, distractors=3)
    outcome = bfsf.search(task, timeout=10)
    assert outcome.status == "plan"
    assert names(task, outcome.plan) == [f"step{i}" for i in range(6)]
    assert task.is_goal(execute(task, outcome.plan))


def test_bfsf_returns_the_empty_plan_when_the_start_is_a_goal(bfsf):
    b = Builder()
    b.action("noop", pre=["a"], add=["b"])
    outcome = bfsf.search(b.task(init=["a", "g"], goal=["g"]), timeout=10)
    assert (outcome.status, outcome.plan) == ("plan", [])


def test_bfsf_plans_around_a_negative_precondition(bfsf):
    b = Builder()
    b.action("enter", pre=["at_door"], neg=["locked"], add=["inside"])
    b.action("unlock", pre=["at_door", "key"], delete=["locked"])
    b.action("take_key", neg=["key"], add=["key"])
    task = b.task(init=["at_door", "locked"], goal=["inside"])
    outcome = bfsf.search(task, timeout=10)
    assert names(task, outcome.plan) == ["take_key", "unlock", "enter"]


@pytest.mark.parametrize("already_on", [False, True])
def test_bfsf_handles_conditional_effects(bfsf, already_on):
    task = machine_task(already_on)
    outcome = bfsf.search(task, timeout=10)
    assert outcome.status == "plan"
    assert task.is_goal(execute(task, outcome.plan))
    assert names(task, outcome.plan)[-1] == "turn_on"


def test_bfsf_reaches_a_negative_goal(bfsf):
    b = Builder()
    b.action("tidy", pre=["clutter", "here"], delete=["clutter"])
    b.action("go", neg=["here"], add=["here"])
    task = b.task(init=["clutter"], goal_neg=["clutter"])
    outcome = bfsf.search(task, timeout=10)
    assert names(task, outcome.plan) == ["go", "tidy"]


@pytest.mark.parametrize("kind", ["dead_start", "trap"])
def test_bfsf_reports_no_plan_for_an_unsolvable_task(bfsf, kind):
    if kind == "dead_start":
        b = Builder()
        b.action("needs_c", pre=["c"], add=["g"])
        task = b.task(init=["a"], goal=["g"])
    else:
        task = trap(2)  # solvable ignoring deletes, unsolvable in fact
    outcome = bfsf.search(task, timeout=10)
    assert outcome.status == "unsolvable", outcome


def test_bfsf_honours_its_timeout_and_the_next_search_gets_a_fresh_worker(bfsf):
    bfsf.search(chain(2), timeout=10)  # start the worker outside the timed part
    started = time.perf_counter()
    outcome = bfsf.search(trap(30), timeout=0.5)  # 2^30 states, no plan
    elapsed = time.perf_counter() - started
    assert outcome.status == "timeout" and outcome.plan == []
    assert elapsed < 3.0
    assert bfsf._process is None  # the overrunning worker was killed
    task = chain(3)
    assert names(task, bfsf.search(task, timeout=10).plan) == ["step0", "step1", "step2"]


def test_a_search_that_raises_does_not_leave_its_reply_for_the_next_one():
    backend = LapktBFSf()
    try:
        with pytest.raises(ValueError):
            backend.search(chain(2), timeout=math.nan)
        task = chain(4)
        outcome = backend.search(task, timeout=10)
        assert names(task, outcome.plan) == ["step0", "step1", "step2", "step3"]
    finally:
        backend.close()


def test_a_dead_worker_is_replaced(bfsf):
    bfsf.search(chain(1), timeout=10)
    process = bfsf._process
    process.kill()
    process.wait()
    task = chain(2)
    assert bfsf.search(task, timeout=10).status == "plan"
    assert bfsf._process is not process and bfsf._process.poll() is None


def test_the_worker_is_recycled_after_a_number_of_solves(monkeypatch):
    monkeypatch.setattr(lapkt_backend, "RECYCLE_AFTER", 2)
    backend = LapktBFSf()
    try:
        pids = []
        for _ in range(3):
            assert backend.search(chain(2), timeout=10).status == "plan"
            pids.append(backend._process.pid)
        assert pids[0] == pids[1] != pids[2]
    finally:
        backend.close()
    assert backend._process is None


# --- through solve --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environment", "goal"),
    [
        ("coffee", "full(coffee_mug)"),
        ("coffee", "full(coffee_mug) and in_room(coffee_mug, toms_room)"),
        ("office", "inside_of(orange1, fridge) and closed(fridge)"),
        ("office", "hot(chicken_kebab)"),
    ],
)
def test_bfsf_plans_validate_in_the_simulator(environment, goal):
    graph = load_environment(environment)
    result = solve(PlanningProblem(graph, goal), timeout=30, planner="bfsf")
    assert result.status is SolveStatus.PLAN and result.planner == "bfsf"
    verification = Simulator(graph).verify_plan(result.plan)
    assert verification.ok, verification.feedback
    assert parse_goal(goal, graph).holds(verification.final_state)


def test_solve_with_bfsf_reports_an_unsolvable_goal():
    graph = load_environment("coffee")
    result = solve(PlanningProblem(graph, "hot(coffee_mug)"), timeout=30, planner="bfsf")
    assert result.status is SolveStatus.UNSOLVABLE


def test_lapkt_output_does_not_reach_the_callers_stdout(capfd):
    capfd.readouterr()
    graph = load_environment("coffee")
    backend = LapktBFSf()  # a new worker, so its start-up is captured too
    try:
        b = Builder()
        b.action("go", pre=["a"], add=["g"])
        assert backend.search(b.task(init=["a"], goal=["g"]), timeout=10).plan == [0]
    finally:
        backend.close()
    result = solve(PlanningProblem(graph, "full(coffee_mug)"), timeout=30, planner="bfsf")
    assert result.ok
    captured = capfd.readouterr()
    assert captured.out == ""
    assert captured.err == ""
