"""`sceneplan plan` with the ReAct-family planners, through typer's runner and the scripted LLM."""

import json

import pytest
from typer.testing import CliRunner

from react_script import act, goal
from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()


@pytest.fixture(autouse=True)
def settings(monkeypatch, tmp_path):
    """No model or key from the machine; the cache under tmp_path."""
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "cache"))


def test_sclplan_shows_the_goal_the_global_plan_and_react_steps(scripted_llm):
    scripted_llm.enqueue_json(goal("inside_of(coffee_mug, bed1)"))  # unsolvable
    scripted_llm.enqueue_json(act("pickup(coffee_mug)"))
    scripted_llm.enqueue_json(act("done()"))
    args = ["plan", "-p", "sclplan", "-o", "loop=once", "--env", "coffee"]
    result = runner.invoke(app, [*args, "--llm", scripted_llm.model, "Pick up the blue mug."])
    assert result.exit_code == 0, result.output
    lines = [
        "sclplan · ",
        "goal 1    plan: inside_of(coffee_mug, bed1)",
        "react 1   ✓ pickup(coffee_mug) could not run yet",
        "react 2   ✓ done() succeeded",
        "plan       access(wardrobe1) > open(wardrobe1) > pickup(coffee_mug) > done()",
        "executable yes",
        "status     success · 3 LLM call(s)",
    ]
    positions = [result.stdout.index(line) for line in lines]
    assert positions == sorted(positions)


def test_react_step_cap_from_the_command_line(scripted_llm, tmp_path):
    scripted_llm.enqueue_json(act("access(wardrobe1)"))
    trace = tmp_path / "episode.json"
    args = ["plan", "-p", "react", "--env", "coffee", "--llm", scripted_llm.model]
    result = runner.invoke(
        app, [*args, "--max-steps", "1", "--trace", str(trace), "Open the wardrobe."]
    )
    assert result.exit_code == 1 and len(scripted_llm.requests) == 1
    episode = json.loads(trace.read_text())
    assert episode["plan"] == ["access(wardrobe1)"] and episode["executable"] is False
    assert episode["extra"]["sclplan"]["react_predictions"] == 1


def test_search_flags_are_refused_for_react():
    result = runner.invoke(app, ["plan", "-p", "react", "-t", "planning-simple-02",
                                 "--llm", "ollama:x", "--max-turns", "3"])  # fmt: skip
    assert result.exit_code == 2 and "planner 'react' has no --max-turns option" in result.stderr
