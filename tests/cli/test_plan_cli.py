"""`sceneplan plan` through typer's runner, against the scripted LLM server."""

import json
import socket

import pytest
from typer.testing import CliRunner

from sayplan_script import contract, expand, plan, switch
from sceneplan.cli import app
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import planner_class, planner_names
from scripted_llm import isolate_llm_env

runner = CliRunner()
REFRIGERATE = get_task("planning-simple-02").reference_plan


@pytest.fixture(autouse=True)
def settings(monkeypatch, tmp_path):
    """No model or key from the machine; fast retries; the cache under tmp_path."""
    isolate_llm_env(monkeypatch, tmp_path)
    config = tmp_path / "config.toml"
    config.write_text("[llm]\ntimeout = 2.0\nmax_retries = 0\nbackoff_base = 0.01\n")
    monkeypatch.setenv("SCENEPLAN_CONFIG", str(config))
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "cache"))


def test_plan_prints_the_search_the_rounds_and_the_verdict(scripted_llm):
    for reply in (expand("cafeteria"), contract("cafeteria"), expand("kitchen"), switch()):
        scripted_llm.enqueue_json(reply)
    scripted_llm.enqueue_json(plan(*[s for s in REFRIGERATE if s != "access(kitchen_bench)"]))
    scripted_llm.enqueue_json(plan(*REFRIGERATE))
    instruction = "Refrigerate the orange left on the kitchen bench."  # a packaged task's
    args = ["plan", "--env", "office", "--llm", scripted_llm.model, instruction]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = [
        "search 1  · expand(cafeteria) done: it shows 7 node(s)",
        "search 2  · contract(cafeteria) done: it hides 7 node(s)",
        "search 3  · expand(kitchen) done:",
        "search 4  ✓ switched to planning after 4 turn(s)",
        "plan 1    plan: goto(kitchen) > pickup(orange1)",
        "plan 1    ✗ step 2 pickup(orange1): orange1 is at kitchen_bench, which has not been",
        "plan 2    ✓ plan verified",
        "task       planning-simple-02 (simple_planning)",
        "explored   cafeteria, kitchen",
        "plan       " + " > ".join(REFRIGERATE),
        "full plan  goto(pose13) > goto(pose14)",
        "executable yes",
        "goal       reached",
        "status     success · 6 LLM call(s)",
    ]
    positions = [out.index(line) for line in lines]
    assert positions == sorted(positions)


def test_json_summary_and_trace_of_a_search_task(scripted_llm, tmp_path):
    scripted_llm.enqueue_json(expand("dining_room1", find=True))
    scripted_llm.enqueue_json(switch(["wine_bottle0"]))
    trace = tmp_path / "episode.json"
    args = ["plan", "--task", "home-simple-02", "--planner", "sayplan_lite", "--json"]
    result = runner.invoke(app, [*args, "--llm", scripted_llm.model, "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["status"] == "success" and summary["answer"] == ["wine_bottle0"]
    assert summary["planner"] == "sayplan_lite" and summary["llm_calls"] == 2
    episode = json.loads(trace.read_text())
    assert len(episode["llm_calls"]) == 2 and episode["explored"] == ["dining_room1"]
    assert episode["llm_calls"][0]["messages"][0]["role"] == "system"


def test_trace_into_a_missing_folder_creates_it(scripted_llm, tmp_path):
    scripted_llm.enqueue_json(expand("dining_room1", find=True))
    scripted_llm.enqueue_json(switch(["wine_bottle0"]))
    trace = tmp_path / "runs" / "today" / "episode.json"
    args = ["plan", "--task", "home-simple-02", "--planner", "sayplan_lite"]
    result = runner.invoke(app, [*args, "--llm", scripted_llm.model, "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    assert "answer     wine_bottle0" in result.stdout
    assert json.loads(trace.read_text())["status"] == "success"


def test_a_trace_that_cannot_be_written_stops_before_any_llm_call(scripted_llm, tmp_path):
    (tmp_path / "a_file").write_text("")
    trace = tmp_path / "a_file" / "episode.json"
    args = ["plan", "--task", "home-simple-02", "--llm", scripted_llm.model, "--trace", str(trace)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"cannot write the trace {trace}" in result.stderr
    assert not scripted_llm.requests


def test_a_wrong_answer_exits_1(scripted_llm):
    scripted_llm.enqueue_json(switch(["bottle0"]))
    args = ["plan", "--task", "home-simple-02", "--llm", scripted_llm.model]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "answer     bottle0" in result.stdout and "correct    no" in result.stdout


def test_no_executable_plan_exits_1(scripted_llm):
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan(*REFRIGERATE))  # without the poses it has to write
    args = ["plan", "-t", "planning-simple-02", "-p", "llm_as_planner", "--llm", scripted_llm.model]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "executable no: step 1 goto(kitchen): kitchen is not reachable directly" in result.stdout
    assert "status     failed" in result.stdout


def test_free_search_instruction_naming_a_node_exits_0(scripted_llm):
    scripted_llm.enqueue_json(expand("bobs_room", find=True))
    scripted_llm.enqueue_json(switch(["coffee_mug"]))
    args = ["plan", "--env", "coffee", "--llm", scripted_llm.model, "Find the blue mug."]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "answer     coffee_mug" in result.stdout


def test_no_model_configured_says_how_to_configure_one():
    result = runner.invoke(app, ["plan", "--task", "planning-simple-02"])
    assert result.exit_code == 2
    assert "error: no LLM configured" in result.stderr and "OPENAI_API_KEY" in result.stderr


def test_server_down_is_an_error_and_the_trace_is_kept(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    trace = tmp_path / "episode.json"
    model = f"openai-compatible:http://127.0.0.1:{port}/v1/m"
    args = ["plan", "--task", "planning-simple-02", "--llm", model, "--trace", str(trace)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert f"error: cannot reach the OpenAI-compatible server at http://127.0.0.1:{port}/v1" in (
        result.stderr
    )
    assert "status     error" in result.stdout
    episode = json.loads(trace.read_text())
    assert episode["status"] == "error" and "cannot reach" in episode["error"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-p", "llm_as_planner", "--max-replans", "3"],
            "planner 'llm_as_planner' has no --max-replans",
        ),
        (["-p", "magic"], "unknown planner 'magic'"),
        (["Close the fridge."], "task planning-simple-02 is 'Refrigerate the orange"),
        (["--env", "home"], "task planning-simple-02 is set in 'office', not 'home'"),
    ],
)
def test_bad_requests(args, message):
    result = runner.invoke(app, ["plan", "-t", "planning-simple-02", "--llm", "ollama:x", *args])
    assert result.exit_code == 2 and message in result.stderr


def test_instruction_or_task_is_required():
    result = runner.invoke(app, ["plan", "--env", "office"])
    assert result.exit_code == 2 and "give an INSTRUCTION" in result.stderr


def test_help_lists_every_planner_with_its_line():
    result = runner.invoke(app, ["plan", "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "Planners (-p NAME; options: `sceneplan planners`):" in text
    for name in planner_names():
        summary = (planner_class(name).__doc__ or "").strip().splitlines()[0]
        assert " ".join(f"{name}: {summary}".split()) in text, name
