"""`sceneplan solve --optimal`: a shortest plan, said to be one, within the time limit."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def test_optimal_prints_a_shortest_plan():
    result = runner.invoke(app, ["solve", "coffee", "--goal", "full(coffee_mug)", "--optimal"])
    assert result.exit_code == 0, result.output
    assert "goal reached" in result.stdout
    assert "shortest plan: 10 steps" in result.stdout
    assert "astar on the focused scope" in result.stdout


def test_optimal_json_reports_the_back_end_and_optimality():
    args = ["solve", "office", "--task", "planning-simple-06", "--optimal", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["planner"] == "astar" and out["stats"]["optimal"] and out["goal_reached"]
    # no round trip: no place is left and then entered again
    moves = [step for step in out["plan"] if step.startswith("goto(")]
    assert len(moves) == len(set(moves))


def test_optimal_out_of_time_exits_3_and_says_what_to_do():
    args = ["solve", "office", "--task", "planning-long-12", "--optimal", "--timeout", "0.05"]
    result = runner.invoke(app, args)
    assert result.exit_code == 3, result.output
    assert "drop --optimal" in result.stdout


def test_the_default_plan_has_no_round_trip():
    """planning-simple-06 had `goto(A) > goto(B) > goto(A)` round trips before post-processing."""
    result = runner.invoke(app, ["solve", "office", "--task", "planning-simple-06", "--json"])
    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)["plan"]
    moves = [step for step in plan if step.startswith("goto(")]
    assert len(moves) == len(set(moves)), plan
