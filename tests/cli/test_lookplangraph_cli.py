"""`sceneplan plan` under partial observability: lookplangraph, --perception, --observe."""

import json

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()
ORANGE = "Refrigerate the orange left on the kitchen bench."


@pytest.fixture(autouse=True)
def settings(monkeypatch, tmp_path):
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "cache"))


def move(name, target=""):
    return {"chain_of_thought": ["..."], "next_move": {"function_name": name,
                                                       "function_target": target}}  # fmt: skip


def test_lookplangraph_with_a_noisy_perception_records_its_looks(scripted_llm, tmp_path):
    for reply in (move("go_to", "kitchen"), move("look_on", "kitchen_bench"), move("done")):
        scripted_llm.enqueue_json(reply)
    trace = tmp_path / "run.json"
    args = ["plan", "--planner", "lookplangraph", "--env", "office", "--llm", scripted_llm.model]
    args += ["--perception", "simulated:gpt4o-like", "--trace", str(trace), ORANGE]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output  # done, but the orange is still on the bench
    episode = json.loads(trace.read_text())
    assert episode["task_id"] == "planning-simple-02"
    assert episode["options"] == {"perception": "simulated:gpt4o-like"}
    assert episode["extra"]["observe"]["perception"] == "simulated:gpt4o-like"
    look = episode["steps"][1]
    assert look["action"] == "look_on(kitchen_bench)" and look["ok"] and look["expected"]
    assert [s["action"] for s in episode["steps"]] == [
        "go_to(kitchen)", "look_on(kitchen_bench)", "done()"
    ]  # fmt: skip


def test_the_partial_oracle_repairs_a_stale_map_from_the_command_line(tmp_path):
    trace = tmp_path / "run.json"
    args = ["plan", "-p", "oracle", "--observe", "partial", "-t", "dynamic-office-01"]
    result = runner.invoke(app, [*args, "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    steps = json.loads(trace.read_text())["steps"]
    refused = [s for s in steps if not s["ok"]]
    assert (
        refused[0]["cause"] == "stale_memory"
        and "orange1 is not on kitchen_bench" in (refused[0]["feedback"])
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--perception", "simulated:turbo"], "bad perception 'simulated:turbo'"),
        (["--perception", "xray"], "unknown perception 'xray'"),
        (["--observe", "sometimes", "-p", "sayplan"], "option 'observe'"),
        (["--observe", "partial", "-p", "react"], "planner 'react' has no --observe option"),
    ],
)
def test_bad_perception_and_observe_are_one_line_errors(args, message):
    base = ["plan", "-t", "planning-simple-02", "--llm", "ollama:x"]
    if "-p" not in args:
        base += ["-p", "lookplangraph"]
    result = runner.invoke(app, [*base, *args])
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
