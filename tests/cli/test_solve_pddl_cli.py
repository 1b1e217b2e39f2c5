"""`sceneplan solve --task` and `sceneplan pddl --task` start from the task's start state.

A task's `initial` facts (docs/tasks.md) change where things are before the
plan begins; both commands take that state from `sceneplan.runs.resolve`, the
one code path that builds a task's start graph.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()
HELD = "planning-simple-15"  # "Throw what the agent is holding in the bin": held(sweet_wrapper)


def test_solve_starts_with_the_wrapper_in_hand():
    result = runner.invoke(app, ["solve", "office", "--task", HELD, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["goal_reached"] and out["verification"]["ok"]
    plan = out["plan"]
    assert not any("pickup(sweet_wrapper)" in step for step in plan), plan
    assert "robot_lounge1" not in " ".join(plan), "it walked to fetch the wrapper"
    assert "release(sweet_wrapper)" in plan


def test_solve_text_output_verifies_in_the_task_start():
    result = runner.invoke(app, ["solve", "office", "--task", HELD])
    assert result.exit_code == 0, result.output
    assert "goal reached" in result.stdout and "pickup(sweet_wrapper)" not in result.stdout


def test_solve_with_a_bare_goal_uses_the_stored_graph():
    # no task, no initial facts: the wrapper is still on the lounge's coffee table
    result = runner.invoke(
        app,
        ["solve", "office", "--goal", "inside_of(sweet_wrapper, rubbish_bin)", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert "pickup(sweet_wrapper)" in json.loads(result.stdout)["plan"]


def test_pddl_problem_states_what_the_agent_holds(tmp_path: Path):
    result = runner.invoke(app, ["pddl", "office", "--task", HELD, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    problem = (tmp_path / "problem.pddl").read_text(encoding="utf-8")
    init = problem[problem.index("(:init") : problem.index("(:goal")]
    assert re.search(r"\(holding sweet_wrapper\)", init)
    assert "(handempty)" not in init
    assert not re.search(r"\((ontop_of|inside_of) sweet_wrapper ", init)


def test_pddl_without_a_task_keeps_the_stored_state(tmp_path: Path):
    result = runner.invoke(app, ["pddl", "office", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    problem = (tmp_path / "problem.pddl").read_text(encoding="utf-8")
    init = problem[problem.index("(:init") :]
    assert "(handempty)" in init and "(ontop_of sweet_wrapper coffee_table)" in init


def test_task_and_goal_together_is_one_line_error():
    result = runner.invoke(app, ["solve", "office", "--task", HELD, "--goal", "closed(fridge)"])
    assert result.exit_code == 2 and "give --task or --goal, not both" in result.stderr


def test_pddl_without_a_goal_says_the_goal_is_empty(tmp_path: Path):
    result = runner.invoke(app, ["pddl", "coffee", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "note: no --goal or --task, so the problem's goal is (and)" in result.stdout
    problem = (tmp_path / "problem.pddl").read_text(encoding="utf-8")
    assert "; No goal was given (--goal or --task)" in problem
    assert problem.rstrip().endswith("(:goal (and)))")
    reader = pytest.importorskip("unified_planning.io").PDDLReader()
    parsed = reader.parse_problem(str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"))
    assert parsed.goals == [] or all(g.is_true() for g in parsed.goals)


def test_pddl_with_a_goal_has_no_such_note(tmp_path: Path):
    result = runner.invoke(
        app, ["pddl", "coffee", "--goal", "full(coffee_mug)", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0 and "note:" not in result.stdout
    assert "No goal was given" not in (tmp_path / "problem.pddl").read_text(encoding="utf-8")
