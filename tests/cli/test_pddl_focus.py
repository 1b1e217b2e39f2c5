"""`sceneplan pddl --focus`: the focused problem the solver plans on."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def test_focus_writes_a_small_problem_with_the_tasks_goal(tmp_path: Path):
    whole, focused = tmp_path / "whole", tmp_path / "focused"
    task = ["office", "--task", "planning-simple-02"]
    assert runner.invoke(app, ["pddl", *task, "--out", str(whole)]).exit_code == 0
    result = runner.invoke(app, ["pddl", *task, "--focus", "--out", str(focused)])
    assert result.exit_code == 0, result.output
    assert "(focused)" in result.stdout
    small = (focused / "problem.pddl").read_text(encoding="utf-8")
    large = (whole / "problem.pddl").read_text(encoding="utf-8")
    assert len(small) * 10 < len(large)
    assert "(:goal (and (inside_of orange1 fridge) (is_closed fridge)))" in small
    # every two places of the focus are linked: moves are macro moves
    assert "(linked kitchen " in small or "(linked " in small


def test_focus_needs_a_goal(tmp_path: Path):
    result = runner.invoke(app, ["pddl", "office", "--focus", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "give a goal" in result.output
