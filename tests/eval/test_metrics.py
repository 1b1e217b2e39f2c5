"""Metrics against values computed by hand on a fixture of stored Episodes."""

from __future__ import annotations

import math

import pytest

from sceneplan.eval.metrics import compute
from sceneplan.eval.report import render
from sceneplan.eval.store import Record, Store
from sceneplan.planners.episode import Episode, ErrorType, LLMCall, SearchTurn, SimCall, Status
from sceneplan.planners.records import EvalFacts

approx = pytest.approx


def ep(task_id, family, env, status, **fields) -> Episode:
    return Episode(
        planner=fields.pop("planner", "a"),
        model=fields.pop("model", "m1"),
        environment=env,
        instruction=task_id,
        task_id=task_id,
        family=family,
        status=status,
        **fields,
    )


def turns(graph: list[int], prompt: list[int]) -> list[SearchTurn]:
    return [
        SearchTurn(i, "expand", f"room{i}", True, "", graph_tokens=g, prompt_tokens=p)
        for i, (g, p) in enumerate(zip(graph, prompt, strict=True), start=1)
    ]


def call(input_tokens=100, output_tokens=10, cost=0.01, latency=1.0) -> LLMCall:
    return LLMCall("plan", [], "", input_tokens=input_tokens, output_tokens=output_tokens,
                   cost_usd=cost, latency_s=latency)  # fmt: skip


def sims(n: int) -> list[SimCall]:
    return [SimCall("step", "goto(kitchen)", True)] * n


MOVED_X = {
    "moved": {
        "x": {"parent": "fridge", "relation": "inside_of"},
        "agent": {"parent": "kitchen", "relation": None},
    },
    "state": {"fridge": ["open"]},
}

FIXTURE = [
    # search, planner a: 1 of 3 correct; subgraph known for 2
    Record("home-search", 1, ep("s1", "simple_search", "home", Status.SUCCESS,
        answer_correct=True, answer_room_explored=True, search=turns([100, 200, 150],
        [1000, 1100, 1050]), eval=EvalFacts(explored_rooms=["r1", "r2"]))),
    Record("home-search", 1, ep("s2", "simple_search", "home", Status.FAILED,
        answer_correct=False, answer_room_explored=False, search=turns([300], [1200]),
        eval=EvalFacts(explored_rooms=["r1", "r2", "r3", "r4"]))),
    Record("home-search", 1, ep("s3", "simple_search", "home", Status.ERROR, error="boom")),
    # planning, planner a
    Record("office-planning", 1, ep("p1", "simple_planning", "office", Status.SUCCESS, goal="g",
        executable=True, correct=True, goal_reached=True,
        plan=["goto(kitchen)", "pickup(x)", "done"], final_changes=MOVED_X,
        llm_calls=[call(), call()], wall_time_s=3.0,
        eval=EvalFacts(important=["x"], right=["x"], observed=["x", "fridge", "b", "c"]),
    )),
    Record("office-planning", 1, ep("p2", "simple_planning", "office", Status.FAILED, goal="g",
        executable=False, correct=True, goal_reached=False, error_type=ErrorType.MISSING_POSE,
        replans=2,
        plan=["a(b)", "c(d)"], wall_time_s=1.0, eval=EvalFacts(important=["x", "y"]))),
    Record("office-planning", 1, ep("p3", "long_horizon", "office", Status.FAILED, goal="g",
        executable=True, correct=False, goal_reached=False,
        error_type=ErrorType.MISSING_ACTION, replans=1,
        plan=["a(1)", "b(2)", "c(3)", "d(4)", "done()"], final_changes={"state": {"z": ["on"]}},
        eval=EvalFacts(important=["z", "w"], right=[], observed=["z", "w", "q"]))),
    Record("office-planning", 1, ep("p4", "long_horizon", "office", Status.ERROR, goal="g",
        correct=False, error="down")),
    # repeatability, planner b: t1 three runs, t2 two runs; stored before correctness was
    *(
        Record("rep", run, ep(task, "simple_planning", "office", status, planner="b", model="m2",
            llm_calls=[call(input_tokens=tokens, output_tokens=0)], sim_calls=sims(steps),
            executable=True, goal_reached=status is Status.SUCCESS))
        for task, run, status, tokens, steps in [
            ("t1", 1, Status.SUCCESS, 100, 1),
            ("t1", 2, Status.FAILED, 200, 2),
            ("t1", 3, Status.SUCCESS, 300, 3),
            ("t2", 1, Status.SUCCESS, 50, 1),
            ("t2", 2, Status.SUCCESS, 50, 1),
        ]
    ),
]  # fmt: skip


@pytest.fixture(scope="module")
def metrics():
    return compute(FIXTURE)


def rows(metrics, section, **where):
    return [r for r in metrics[section] if all(r.get(k) == v for k, v in where.items())]


def test_search(metrics):
    [row] = rows(metrics, "search", planner="a")
    assert row["environment"] == "home" and row["family"] == "simple_search" and row["n"] == 3
    assert row["answered"] == approx(1 / 3)
    assert row["found"] == approx(1 / 2) and row["found_n"] == 2
    assert row["explored_rooms"] == approx(3.0)
    assert row["search_turns"] == approx(4 / 3)


def test_planning_per_family_and_over_both(metrics):
    simple, long, both = (
        rows(metrics, "planning", planner="a", family=f)[0]
        for f in ("simple_planning", "long_horizon", "planning")
    )
    # p2 is correct but not executable: the three measures are independent
    assert (simple["n"], simple["correctness"], simple["executability"]) == (2, 1.0, 0.5)
    assert simple["success"] == 0.5
    assert simple["replans"] == approx(1.0) and simple["missing_pose"] == approx(0.5)
    assert (long["correctness"], long["executability"], long["replans"]) == (0.0, 0.5, 0.5)
    assert long["success"] == 0.0 and long["missing_action"] == approx(0.5)
    assert both["n"] == 4 and both["correctness"] == approx(0.5)
    assert both["success"] == approx(0.25)
    assert both["executability"] == approx(0.5) and both["replans"] == approx(0.75)
    assert both["missing_action"] == both["missing_pose"] == approx(0.25)
    assert both["wrong_action"] == both["incomplete_search"] == both["hallucinated_node"] == 0


def test_correctness_is_unknown_for_episodes_stored_before_it_was_measured(metrics):
    [old] = rows(metrics, "planning", planner="b", family="simple_planning")
    assert old["correctness"] is None and old["success"] == approx(4 / 5)


def test_lookplangraph_sr_apa_apl_nrr(metrics):
    [row] = rows(metrics, "lookplangraph", planner="a")
    assert row["suite"] == "office-planning" and row["n"] == 4
    assert row["sr"] == approx(0.25)
    assert row["apa"] == approx((1 / 2 + 0 + 0 + 0) / 4)  # p1: x right, fridge needlessly opened
    assert row["apl"] == approx((2 + 2 + 4 + 0) / 4)  # `done` is not counted
    assert row["nrr"] == approx((4 / 1 + 3 / 2) / 2)  # only where observed nodes are known


def test_cost(metrics):
    [row] = rows(metrics, "cost", planner="a", family="simple_planning")
    assert row["n"] == 2 and row["llm_calls"] == approx(1.0)
    assert row["input_tokens"] == approx(100) and row["output_tokens"] == approx(10)
    assert row["cost_usd"] == approx(0.01) and row["cost_total_usd"] == approx(0.02)
    assert row["llm_latency_s"] == approx(1.0) and row["wall_time_s"] == approx(2.0)


def test_the_cost_of_a_model_without_a_price_is_unknown_not_zero():
    priced = ep("t-01", "simple_planning", "home", Status.SUCCESS, llm_calls=[call()])
    unpriced = ep("t-02", "simple_planning", "home", Status.SUCCESS, llm_calls=[call(cost=None)])
    assert unpriced.cost_usd is None and unpriced.summary()["cost_usd"] is None
    [row] = compute([Record("s", 1, priced), Record("s", 1, unpriced)])["cost"]
    assert row["cost_usd"] is None and row["cost_total_usd"] is None
    assert "| a | m1 | Simple planning | 2 | 1.00 | 100 | 10 | n/a | n/a |" in render(
        compute([Record("s", 1, priced), Record("s", 1, unpriced)]), "md"
    )


def test_token_progression(metrics):
    got = [(r["turn"], r["n"], r["graph_tokens"], r["prompt_tokens"]) for r in
           rows(metrics, "token_progression", planner="a")]  # fmt: skip
    assert got == [(1, 2, 200, 1100), (2, 1, 200, 1100), (3, 1, 150, 1050)]


def test_repeatability(metrics):
    per_task = {r["task_id"]: r for r in rows(metrics, "repeatability_tasks")}
    assert set(per_task) == {"t1", "t2"}  # planner a ran every task once
    t1 = per_task["t1"]
    assert t1["runs"] == 3 and t1["success_mean"] == approx(2 / 3)
    assert t1["success_std"] == approx(math.sqrt(2) / 3)
    assert t1["tokens_mean"] == approx(200) and t1["tokens_std"] == approx(math.sqrt(20000 / 3))
    assert t1["steps_mean"] == approx(2) and t1["steps_std"] == approx(math.sqrt(2 / 3))
    [row] = rows(metrics, "repeatability", planner="b")
    assert (row["tasks"], row["runs"]) == (2, 3)
    assert row["success_mean"] == approx((2 / 3 + 1) / 2)
    assert row["success_std"] == approx(math.sqrt(2) / 6)
    assert row["tokens_mean"] == approx(125) and row["steps_std"] == approx(math.sqrt(2 / 3) / 2)


def test_overview(metrics):
    a, b = metrics["overview"]
    assert (a["planner"], a["episodes"], a["tasks"], a["runs"]) == ("a", 7, 7, 1)
    assert (a["success"], a["failed"], a["error"]) == (2, 3, 2)
    assert (b["planner"], b["model"], b["episodes"], b["tasks"], b["runs"]) == ("b", "m2", 5, 2, 3)


def test_metrics_read_back_from_a_store_are_the_same(tmp_path, metrics):
    with Store(tmp_path / "r.db") as store:
        for record in FIXTURE:
            store.put(record.suite, record.run, record.episode)
        assert compute(store.records()) == metrics


def test_an_empty_store_has_empty_sections():
    assert all(rows == [] for rows in compute([]).values())
