"""`sceneplan execute` through typer's test runner: output, exit codes, the trace."""

import json
import socket

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["execute", *args])


@pytest.mark.slow
def test_the_issue_command_reaches_the_goal_and_writes_the_trace(tmp_path):
    trace = tmp_path / "runs" / "out.json"
    result = invoke(
        *("--env", "office", "--task", "planning-long-03", "--planner", "oracle"),
        *("--robot", "sim", "--faults", "moved:0.3,grasp:0.1", "--seed", "7"),
        *("--trace", str(trace)),
    )
    assert result.exit_code == 0, result.output
    assert "goal       reached" in result.output and "status     success" in result.output
    data = json.loads(trace.read_text())
    assert data["status"] == "success"
    assert data["extra"]["execute"]["injected"] and data["extra"]["execute"]["seed"] == 7
    assert len(data["steps"]) == data["extra"]["execute"]["steps"]


@pytest.mark.slow
def test_a_goal_not_reached_exits_1(tmp_path):
    result = invoke("--task", "planning-simple-02", "--faults", "blocked:1", "--json")
    assert result.exit_code == 1, result.output
    summary = json.loads(result.output)
    assert summary["status"] == "failed" and summary["execute"]["stopped"]


def test_open_loop_stops_at_the_first_failure():
    result = invoke("--task", "planning-simple-02", "--faults", "grasp:1", "--open-loop")
    assert result.exit_code == 1
    assert "✗ pickup(orange1)  grasp_failed" in result.output
    assert "↻" not in result.output and "0 replan(s)" in result.output


def test_a_bad_fault_spec_exits_2_before_planning():
    result = invoke("--task", "planning-simple-02", "--faults", "wobbly:0.2")
    assert result.exit_code == 2
    assert result.output.startswith("error: unknown fault 'wobbly'")


def test_an_unknown_robot_exits_2():
    result = invoke("--task", "planning-simple-02", "--robot", "r2d2")
    assert result.exit_code == 2 and "unknown robot 'r2d2'" in result.output


def test_an_unreachable_robot_exits_2_and_still_writes_the_trace(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    trace = tmp_path / "out.json"
    url = f"http://127.0.0.1:{port}"
    result = invoke("--task", "planning-simple-02", "--robot", url, "--trace", str(trace))
    assert result.exit_code == 2
    assert f"error: cannot reach the robot server at {url}" in result.output
    assert "Traceback" not in result.output
    data = json.loads(trace.read_text())
    assert data["status"] == "error" and data["extra"]["execute"]["rounds"]


def test_a_task_and_an_instruction_together_are_refused():
    result = invoke("Close the cabinet.", "--task", "planning-simple-01")
    assert result.exit_code == 2 and "not both" in result.output


MINE = """\
- id: mine-01
  suite: mine
  family: simple_planning
  environment: office
  instruction: Put the orange on the kitchen bench.
  world_script:
    - ontop_of(orange1, lunch_table)
  memory: prior
  goal: ontop_of(orange1, kitchen_bench)
- id: mine-02
  suite: mine
  family: simple_planning
  environment: office
  instruction: Bring the orange to the lunch table.
  goal: ontop_of(orange1, lunch_table)
"""


def test_a_users_task_file_runs_on_the_stale_map(tmp_path):
    tasks = tmp_path / "mine.yaml"
    tasks.write_text(MINE)
    result = invoke("--tasks", str(tasks), "--task", "mine-01", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)["execute"]
    assert record["confirmed"] and record["corrections"] >= 2  # missing, then found
    planned = runner.invoke(app, ["plan", "--tasks", str(tasks), "-t", "mine-02", "-p", "oracle"])
    assert planned.exit_code == 0 and "task       mine-02" in planned.output


def test_a_task_file_without_the_id_asked_for_exits_2_naming_its_ids(tmp_path):
    tasks = tmp_path / "mine.yaml"
    tasks.write_text(MINE)
    result = invoke("--tasks", str(tasks), "--task", "dyn-01")
    assert result.exit_code == 2
    assert "no task 'dyn-01' in" in result.output and "its ids: mine-01, mine-02" in result.output
    result = invoke("--tasks", str(tasks))
    assert result.exit_code == 2 and "holds 2 tasks; pick one with --task ID" in result.output
    assert "Traceback" not in result.output
