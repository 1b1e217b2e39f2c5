"""SCLPlan Tables III-IV from stored Episodes, against values computed by hand, and their report."""

from __future__ import annotations

import pytest

from sceneplan.eval.metrics import compute
from sceneplan.eval.report import render
from sceneplan.eval.store import Record
from sceneplan.planners.episode import Episode, LLMCall, SimCall, Status
from sceneplan.planners.records import SclplanMetrics

approx = pytest.approx


def ep(planner: str, status: Status, tokens: int, **info) -> Episode:
    """An Episode with the metrics the ReAct-family planners record (see planners.execution)."""
    planner_n, pv_n, react_n = info.pop("actions")
    pv = info.pop("pv_corrected", None)
    metrics = SclplanMetrics(
        env_steps=info.pop("env_steps"),
        actions={"planner": planner_n, "pv": pv_n, "react": react_n},
        react_predictions=info.pop("predictions"),
        react_invalid=info.pop("invalid"),
        pv_corrected=pv,
        **info,
    )
    return Episode(planner, "m", "office", "t", task_id="t", family="simple_planning",
                   status=status, llm_calls=[LLMCall("react", [], "", input_tokens=tokens)],
                   sclplan=metrics)  # fmt: skip


FIXTURE = [
    # sclplan: one global plan of 10 steps; one fallback to ReAct with PV (3 of 4 invalid fixed)
    ep("sclplan", Status.SUCCESS, 100, actions=(10, 0, 0), env_steps=10, predictions=0,
       invalid=0, pv_corrected=0, global_plan_found=True, solver="gbfs"),
    ep("sclplan", Status.FAILED, 300, actions=(0, 6, 4), env_steps=10, predictions=8,
       invalid=4, pv_corrected=3, global_plan_found=False, solver="gbfs"),
    # react: 2 of 10 predictions invalid, no PV
    ep("react", Status.SUCCESS, 1000, actions=(0, 0, 8), env_steps=10, predictions=10,
       invalid=2),
    ep("react", Status.ERROR, 500, actions=(0, 0, 2), env_steps=2, predictions=2, invalid=0),
    # planners that do not record these metrics are left out
    Episode("sayplan", "m", "office", "t", task_id="t", status=Status.SUCCESS),
]  # fmt: skip


@pytest.fixture(scope="module")
def metrics():
    return compute([Record("office-planning", i, e) for i, e in enumerate(FIXTURE, start=1)])


def test_rows_pool_the_counts_of_each_planner(metrics):
    react, sclplan = metrics["sclplan"]
    assert (sclplan["planner"], sclplan["environment"], sclplan["n"]) == ("sclplan", "office", 2)
    assert sclplan["success"] == 0.5 and sclplan["tokens"] == approx(200)
    assert sclplan["env_steps"] == approx(10)
    assert sclplan["planner_actions"] == approx(0.5) and sclplan["pv_actions"] == approx(0.3)
    assert sclplan["react_actions"] == approx(0.2)
    assert sclplan["react_invalid"] == approx(0.5) and sclplan["pv_corrected"] == approx(0.75)
    assert sclplan["global_plan_found"] == 0.5
    assert (react["planner"], react["n"], react["success"]) == ("react", 2, 0.5)
    assert react["react_actions"] == 1.0 and react["pv_actions"] == 0.0
    assert react["react_invalid"] == approx(2 / 12) and react["env_steps"] == approx(6)
    assert react["pv_corrected"] is None and react["global_plan_found"] is None


def test_report_has_the_table(metrics):
    text = render(metrics, "md")
    section = text.split("## ReAct, precondition verification and the global planner")[1]
    assert section.startswith(" (SCLPlan Tables III-IV)")
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    assert lines[0].startswith("| Planner | Model | Environment | n | Task success | Tokens |")
    assert lines[1:3] == [  # the measured rows; the paper's follow
        "| react | m | office | 2 | 50.0% | 750 | 6.0 | - | - | - | 100.0% | 0.0% | 0.0% |",
        "| sclplan | m | office | 2 | 50.0% | 200 | 10.0 | 50.0% | 75.0% | 50.0% | 20.0% "
        "| 30.0% | 50.0% |",
    ]
    assert lines[3].startswith("| [paper III] react | GPT-4o-mini | ALFWorld | - | 35.1% |")
    assert "Symbolic planner of each row: sclplan (m): gbfs." in text
    # one renderer: the full report's section is `--table sclplan-3`'s, paper rows included
    alone = render(metrics, "md", table_name="sclplan-3").split("\n\n", 1)[1]
    assert alone.split("\n\nPublished numbers")[0] in text


def test_no_table_without_such_episodes():
    assert compute([Record("s", 1, FIXTURE[-1])])["sclplan"] == []
    assert "SCLPlan Tables III-IV" not in render(compute([Record("s", 1, FIXTURE[-1])]), "md")


def test_env_steps_are_one_definition_in_tables_ii_and_iii():
    """Actions sent to the environment (SCLPlan), precondition checks counted apart: the
    same runs give the same env steps in the repeatability table and in Table III."""
    steps = [SimCall("step", "pickup(mug)", True)] * 8 + [SimCall("step", "open(x)", False)] * 2
    calls = steps + [SimCall("check", "pickup(mug)", False, "", "not_accessed")] * 3
    episodes = []
    for run in (1, 2):
        e = Episode("react_pv", "m", "office", "do it", task_id="t1")
        e.status, e.sim_calls = Status.SUCCESS, list(calls)
        e.sclplan = SclplanMetrics(
            env_steps=10, actions={"planner": 0, "pv": 3, "react": 5},
            react_predictions=6, react_invalid=3, pv_corrected=3,
        )  # fmt: skip
        episodes.append(Record("office", run, e))
    metrics = compute(episodes)
    [table3] = metrics["sclplan"]
    [table2] = metrics["repeatability"]
    assert table3["env_steps"] == table2["steps_mean"] == 10.0
    assert table3["checks"] == table2["checks_mean"] == 3.0


def test_tokens_per_task_of_each_phase_beside_table_two():
    calls = [LLMCall("goal", [], "", input_tokens=300, output_tokens=20)]
    calls += [LLMCall("react", [], "", input_tokens=1000, output_tokens=30)] * 2
    one = ep("sclplan", Status.SUCCESS, 0, actions=(4, 0, 2), env_steps=6, predictions=2,
             invalid=0, pv_corrected=0, global_plan_found=True)  # fmt: skip
    one.llm_calls = calls
    two = ep("sclplan", Status.SUCCESS, 0, actions=(4, 0, 0), env_steps=4, predictions=0,
             invalid=0, pv_corrected=0, global_plan_found=True)  # fmt: skip
    two.llm_calls = calls[:1]
    metrics = compute([Record("alfworld-valid-unseen", 1, e) for e in (one, two)])
    [row] = metrics["sclplan"]
    assert (row["goal_tokens"], row["react_tokens"], row["rooms_tokens"]) == (320, 1030, 0)
    text = render(metrics, "md", table_name="sclplan-2")
    assert "| sclplan | m | 2 | 320 | 1,030 | 0 | 1,350 |" in text
    assert "| [paper] sclplan | GPT-4o-mini | 10 | - | - | - | 1,700 (±100) |" in text


def test_lookplangraphs_rows_name_their_correction_cap():
    episode = Episode("lookplangraph", "m", "office", "t", task_id="t", goal="held(mug1)",
                      status=Status.FAILED, correction_cap="per_action")  # fmt: skip
    metrics = compute([Record("office-planning", 1, episode)])
    assert metrics["lookplangraph"][0]["corrections"] == "per_action"
    text = render(metrics, "md", table_name="lookplangraph-2")
    assert "Correction cap of each row: lookplangraph (m): per action." in text
