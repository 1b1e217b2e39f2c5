"""Planner options on the command line: `plan -o KEY=VALUE` and `sceneplan planners`."""

import json

import pytest
from typer.testing import CliRunner

from react_script import act, goal
from sceneplan.cli import app
from sceneplan.planners import PLANNERS
from scripted_llm import isolate_llm_env

runner = CliRunner()


@pytest.fixture(autouse=True)
def settings(monkeypatch, tmp_path):
    """No model or key from the machine; the cache under tmp_path."""
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "cache"))


def test_options_set_with_o_reach_the_planner_and_the_trace(scripted_llm, tmp_path):
    scripted_llm.enqueue_json(goal("inside_of(coffee_mug, bed1)"))  # unsolvable: ReAct takes over
    scripted_llm.enqueue_json(act("access(wardrobe1)"))
    trace = tmp_path / "episode.json"
    args = ["plan", "-p", "sclplan", "--env", "coffee", "--llm", scripted_llm.model]
    args += ["-o", "planner=gbfs", "-o", "timeout=5", "--option", "max_steps=1", "-o", "loop=once"]
    result = runner.invoke(app, [*args, "--trace", str(trace), "Open the wardrobe."])
    assert result.exit_code == 1, result.output  # one step, and not done
    episode = json.loads(trace.read_text())
    assert episode["options"] == {"timeout": 5.0, "max_steps": 1, "loop": "once"}  # gbfs: default
    assert episode["extra"]["sclplan"]["react_predictions"] == 1


def test_a_flag_is_a_shortcut_for_its_option(scripted_llm, tmp_path):
    scripted_llm.enqueue_json(act("access(wardrobe1)"))
    trace = tmp_path / "episode.json"
    args = ["plan", "-p", "react", "--env", "coffee", "--llm", scripted_llm.model]
    result = runner.invoke(app, [*args, "--max-steps", "1", "--trace", str(trace), "Open it."])
    assert result.exit_code == 1 and json.loads(trace.read_text())["options"] == {"max_steps": 1}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "max_steps=0"], "planner 'react': option 'max_steps' should be greater than"),
        (["-o", "max_steps=many"], "option 'max_steps' should be a valid integer"),
        (["-o", "turbo=1"], "planner 'react': no option 'turbo'; options of react: max_steps"),
        (["-o", "max_steps"], "--option: option 'max_steps' must be written KEY=VALUE"),
        (["-o", "max_steps=2", "-o", "max_steps=3"], "option 'max_steps' is given twice"),
        (["--max-steps", "2", "-o", "max_steps=3"], "--max-steps and -o max_steps=... both"),
        (["--max-turns", "3"], "planner 'react' has no --max-turns option"),
    ],
)
def test_bad_options_are_one_line_errors(args, message):
    result = runner.invoke(app, ["plan", "-p", "react", "-t", "planning-simple-02",
                                 "--llm", "ollama:x", *args])  # fmt: skip
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_planners_lists_every_planner_with_its_options():
    result = runner.invoke(app, ["planners"])
    assert result.exit_code == 0, result.output
    for name in PLANNERS:
        assert f"\n{name}  (built-in; " in f"\n{result.stdout}"
    assert "sclplan  (built-in; needs an LLM)  SCLPlan: an LLM goal" in result.stdout
    assert "oracle  (built-in; no LLM)" in result.stdout
    sclplan = result.stdout[result.stdout.index("sclplan  (") :]
    lines = [line.split(maxsplit=3) for line in sclplan.splitlines()[1:8]]
    assert lines == [
        ["option", "type", "default", "description"],
        [
            "max_steps",
            "int|None",
            "null",
            "cap on ReAct steps (model replies); default 25 in ALFWorld (SCLPlan's), else 72 "
            "(2x the longest oracle plan)",
        ],
        ["path_planner", "bool", "true", lines[2][3]],
        ["graph_budget", "int", "8000", lines[3][3]],
        ["planner", "str", "gbfs", lines[4][3]],
        ["pv_timeout", "float", "10.0", "seconds per precondition verification"],
        ["timeout", "float", "30.0", "seconds for the global plan (the same symbolic planner)"],
    ]


def test_planners_as_json():
    result = runner.invoke(app, ["planners", "--json"])
    assert result.exit_code == 0, result.output
    listed = {entry["name"]: entry for entry in json.loads(result.stdout)}
    assert set(PLANNERS) <= set(listed)
    sclplan = {row["name"]: row for row in listed["sclplan"]["options"]}
    assert sclplan["max_steps"] == {
        "name": "max_steps",
        "type": "int|None",
        "default": None,
        "required": False,
        "description": "cap on ReAct steps (model replies); default 25 in ALFWorld (SCLPlan's), "
        "else 72 (2x the longest oracle plan)",
    }
    assert set(sclplan) == {
        *("max_steps", "path_planner", "graph_budget", "planner", "pv_timeout", "timeout", "loop")
    }
    assert listed["oracle"]["needs_llm"] is False and listed["sayplan"]["source"] == "built-in"


@pytest.mark.parametrize(
    "command",
    [
        ["plan", "-p", "sayplan_lite", "-o", "actions=sayplan", "-t", "planning-simple-02"],
        [
            *("eval", "-s", "office-planning", "-t", "planning-simple-02"),
            *("-p", "sayplan_lite[actions=sayplan]", "--out", "{out}"),
        ],
    ],
)
def test_an_option_value_the_planner_cannot_use_is_refused_with_its_name(command, tmp_path):
    """SayPlan Lite plans with the room-level actions only: `actions=sayplan` is refused
    (it was accepted and ignored), naming the planner and the one value it takes; eval
    refuses it before it makes its store."""
    args = [a.format(out=tmp_path / "r.db") for a in command]
    result = runner.invoke(app, [*args, "--llm", "ollama:x"], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        "error: planner 'sayplan_lite': option 'actions' should be 'lookplangraph' (got "
        "'sayplan'); options of sayplan_lite: collapse, collapse_budget, max_search_turns, "
        "dialogue, max_replans, perception, memory, observe, actions (`sceneplan planners` "
        "describes them)"
    ]
    assert not (tmp_path / "r.db").exists()


def test_actions_that_do_not_look_are_refused_on_memory():
    """On memory SayPlan plans with the actions that look: `actions=sayplan` with
    `observe=partial` was accepted and ignored; it is refused, naming the planner."""
    args = ["plan", "-p", "sayplan", "-o", "actions=sayplan", "-o", "observe=partial"]
    result = runner.invoke(app, [*args, "-t", "planning-simple-02", "--llm", "ollama:x"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        "error: planner 'sayplan': option 'actions' cannot be sayplan with observe=partial: "
        "plans on memory use lookplangraph's actions, which look (got 'sayplan')"
    )
    assert len(result.stderr.strip().splitlines()) == 1
