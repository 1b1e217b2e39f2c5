"""Round three of hostile inputs (issue 40): endless files, deep nesting, huge numbers, output
the system refuses. Each is one line naming the problem, exit 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan import envvars
from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()

TASK = """- id: t1
  suite: mine
  family: simple_planning
  instruction: Put the mug away.
  environment: {environment}
  goal: "{goal}"
"""
DEEP_GOAL = "(" * 20_000 + "held(coffee_mug)" + ")" * 20_000
NOTS = "not " * 20_000 + "held(coffee_mug)"
BIG_COUNT = "forn " + "9" * 5000 + " m in mug: held(m)"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "zero.yaml").write_text(TASK.format(environment="/dev/zero", goal="held(mug)"))
    (tmp_path / "deep_goal.yaml").write_text(TASK.format(environment="coffee", goal=DEEP_GOAL))
    (tmp_path / "digits_goal.yaml").write_text(TASK.format(environment="coffee", goal=BIG_COUNT))
    (tmp_path / "deep.bddl").write_text(
        "(define (problem p) (:domain d) (:objects a - b) (:init "
        + "(not " * 50_000
        + "(x a)"
        + ")" * 50_000
        + ") (:goal (x a)))"
    )
    (tmp_path / "deep.toml").write_text("[llm]\nx = " + "[" * 50_000 + "]" * 50_000 + "\n")
    (tmp_path / "digits.toml").write_text("[llm]\nmax_retries = " + "9" * 5000 + "\n")
    (tmp_path / "binary.toml").write_bytes(b"[llm]\nmodel = '\xff\xfe'\n")
    (tmp_path / "binary.yaml").write_bytes(b"1: \xff\xfe")
    (tmp_path / "deep.yaml").write_text("1: " + "[" * 5000)
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe{}")
    (tmp_path / "a_folder").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    return tmp_path


SPARK = Path(__file__).resolve().parents[1] / "importers" / "data" / "two_nodes.dsg.json"
LABELSPACE = ["graph", "import", "--from", "spark-dsg", str(SPARK), "o.json", "--labelspace"]
CASES = [
    (["tasks", "check", "zero.yaml"], "cannot read scene graph file /dev/zero: it is a device"),
    (["plan", "--tasks", "zero.yaml", "--task", "t1", "-p", "oracle"], "it is a device"),
    (["graph", "check", "fifo.json"], "it is a named pipe, not a regular file"),
    (["graph", "import", "--from", "mp3d", "fifo.json", "o.json"], "named pipe"),
    (["graph", "import", "--from", "spark-dsg", "fifo.json", "o.json"], "named pipe"),
    (["solve", "coffee", "--goal", DEEP_GOAL], "nested more than 64 levels deep"),
    (["solve", "coffee", "--goal", NOTS], "nested more than 64 levels deep"),
    (["solve", "coffee", "--goal", BIG_COUNT], "a number of 5,000 digits"),
    (["tasks", "check", "deep_goal.yaml"], "nested more than 64 levels deep"),
    (["tasks", "check", "digits_goal.yaml"], "a number of 5,000 digits"),
    (["graph", "import", "--from", "behavior", "deep.bddl", "o.json"], "nested too deeply"),
    (
        [*LABELSPACE, "binary.yaml"],
        "cannot read --labelspace binary.yaml: not UTF-8 text (byte 3)",
    ),
    (
        [*LABELSPACE, "deep.yaml"],
        "deep.yaml: nested too deeply",
    ),
    (
        ["plan", "--task", "planning-simple-02", "-p", "sayplan", "--llm", "replay:binary.jsonl"],
        "cannot read the LLM transcript binary.jsonl: not UTF-8 text (byte 0)",
    ),
    (
        ["execute", "--task", "planning-simple-02", "-p", "oracle", "--robot", "http://[::1"],
        "the robot URL 'http://[::1' is not usable",
    ),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
@pytest.mark.slow
def test_one_line_and_exit_2(folder, args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit | None), repr(result.exception)
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("a_folder", "cannot read the config file a_folder: it is a directory, not a file"),
        ("deep.toml", "deep.toml: nested too deeply"),
        ("digits.toml", "digits.toml: a number of more than 4,300 digits"),
        ("binary.toml", "cannot read the config file binary.toml: not UTF-8 text (byte 15)"),
    ],
)
def test_a_config_file_that_cannot_be_read_is_one_line(folder, monkeypatch, config, message):
    monkeypatch.setenv(envvars.CONFIG, config)
    result = runner.invoke(app, ["llm", "check", "ollama:m"])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())


def _script() -> list[str]:
    script = Path(sys.executable).with_name("sceneplan")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sceneplan.cli"]


@pytest.mark.slow
def test_output_the_terminal_cannot_encode_is_replaced_not_a_traceback(tmp_path):
    done = subprocess.run(
        [*_script(), "execute", "--task", "planning-simple-02", "-p", "oracle"],
        env=os.environ | {"PYTHONIOENCODING": "ascii"},
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"status     success ?" in done.stdout  # the check mark, as the terminal can show it


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.slow
def test_output_to_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*_script(), "tasks", "list"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"
