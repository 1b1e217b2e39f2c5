"""`sceneplan eval --robot sim --faults ...` and `report --table faults`; sayplan under faults."""

import asyncio
import json

import pytest
from typer.testing import CliRunner

from sayplan_script import expand, plan, switch
from sceneplan.cli import app
from sceneplan.datasets.tasks import get_task, load_suite
from sceneplan.eval.faults import Execution, fault_curves, fault_rows, render_faults
from sceneplan.eval.runner import evaluate
from sceneplan.eval.store import Store
from sceneplan.execute import execute
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Status

runner = CliRunner()
TASKS = [
    t for t in load_suite("office-planning") if t.id in ("planning-simple-02", "planning-long-06")
]


@pytest.mark.slow
def test_runs_under_faults_are_stored_beside_the_fault_free_ones(tmp_path):
    out = tmp_path / "results.db"
    evaluate(TASKS, ["oracle"], [], out, runs=2, execution=Execution(faults="moved:0.3,grasp:0.1"))
    evaluate(TASKS, ["oracle"], [], out, runs=1)
    with Store(out, create=False) as store:
        records = store.records()
    assert len(records) == 6
    executed = [r for r in records if "@faults" in r.episode.options]
    assert len(executed) == 4
    seeds = {(r.episode.task_id, r.episode.execute.seed) for r in executed}
    assert {s for _, s in seeds} == {0, 1}  # run r uses seed + r - 1
    rows = fault_rows(r.episode for r in records)
    assert [(r.planner, r.faults, r.loop, r.runs) for r in rows] == [
        ("oracle", "moved:0.3,grasp:0.1", "closed", 4)
    ]
    assert rows[0].success == 1.0


def test_a_second_eval_skips_what_is_stored_under_the_same_faults(tmp_path):
    out = tmp_path / "results.db"
    execution = Execution(faults="grasp:0.2", seed=3)
    assert evaluate(TASKS[:1], ["oracle"], [], out, execution=execution).done == 1
    assert evaluate(TASKS[:1], ["oracle"], [], out, execution=execution).skipped == 1
    other = Execution(faults="grasp:0.2", seed=3, closed_loop=False)
    assert evaluate(TASKS[:1], ["oracle"], [], out, execution=other).done == 1


@pytest.mark.slow
def test_eval_and_report_on_the_command_line(tmp_path):
    out = tmp_path / "r.db"
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]
    args += ["--robot", "sim", "--faults", "moved:0.5", "--runs", "2", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    opened = runner.invoke(app, [*args, "--open-loop"])
    assert opened.exit_code == 0, opened.output
    report = runner.invoke(app, ["report", str(out), "--table", "faults"])
    assert report.exit_code == 0, report.output
    assert "| oracle | moved:0.5 | closed | 2 | 100.0 % |" in report.output
    assert "| oracle | moved:0.5 | open | 2 |" in report.output


@pytest.mark.slow
def test_the_fault_plot_is_written(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.db"
    for spec in ("none", "grasp:0.5"):
        evaluate(TASKS[:1], ["oracle"], [], out, execution=Execution(faults=spec))
    result = runner.invoke(app, ["report", str(out), "--table", "faults", "--plots", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "faults.png").stat().st_size > 1000


def test_faults_without_a_robot_are_refused():
    args = ["eval", "-s", "office-planning", "-p", "oracle", "--faults", "grasp:0.1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "go with --robot" in result.output


def test_sayplan_scripted_recovers_under_faults_with_the_solver(scripted_llm):
    task = get_task("planning-simple-02")
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan(*task.reference_plan))
    with scripted_llm.client() as llm:
        planner = get_planner("sayplan")
        closed = asyncio.run(execute(planner, task, llm=llm, faults="moved:1", seed=1))
    assert len(closed.llm_calls) == 3 and closed.status is Status.SUCCESS
    assert closed.replans >= 1
    assert {r.source for r in closed.execute.rounds[1:]} == {"symbolic"}
    rows = fault_rows([closed])
    assert rows[0].planner == "sayplan" and fault_curves(rows) == {
        "moved": {("sayplan", "closed"): [(1.0, 1.0)]}
    }
    assert "| sayplan | moved:1 | closed | 1 | 100.0 % |" in render_faults(rows)
    json.dumps(closed.to_dict())  # the trace is JSON


@pytest.mark.slow
def test_eval_on_a_stale_map_reports_corrections_looks_and_calls(tmp_path):
    out = tmp_path / "r.db"
    args = ["eval", "-s", "home-moved", "-t", "home-moved-04", "-t", "home-moved-10"]
    args += ["-p", "oracle", "--robot", "sim", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, [*args, "--open-loop"]).exit_code == 0
    with Store(out, create=False) as store:
        rows = fault_rows(r.episode for r in store.records())
    closed, opened = rows
    assert (closed.loop, closed.success, opened.loop, opened.success) == ("closed", 1.0, "open", 0)
    assert closed.corrections >= 2 and closed.looks > 0 and closed.calls > closed.looks
    assert closed.failed_steps == 0  # no robot call failed: the map was wrong, not the robot
    assert opened.corrections == 0
    report = runner.invoke(app, ["report", str(out), "--table", "faults"])
    assert "| corrections/run | looks/run | skill calls/run |" in report.output
    line = next(x for x in report.output.splitlines() if "| closed |" in x)
    assert f"| {closed.corrections:.2f} | {closed.looks:.1f} | {closed.calls:.1f} |" in line
