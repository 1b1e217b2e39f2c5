"""Every CLI command, given hostile values in each of its inputs: never a traceback.

Each template is one command line with one slot `X`; each hostile value goes
in the slot in turn (issue 26: 418 inputs a new user tried). The command may
accept the value or refuse it, but it must end with an exit status, not an
exception: in-process through CliRunner (fast), and a few through the real
console script, whose stderr must hold no "Traceback".
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "two_rooms.json"

# Hostile values, as a new user might pass them: files of every wrong kind, paths that
# cannot be, numbers too big or not numbers, URLs that are not.
VALUES = [
    "",
    " ",
    "deep.json",
    "binary.bin",
    "empty.file",
    "a_folder",
    "missing.json",
    "/proc/sceneplan/x.json",
    "99999999999999999999",
    "-1",
    "nan",
    "::::",
    "a" * 300,
    "héllo wörld ☃",
]

SIM = ["--robot", "sim"]
ORACLE = ["-p", "oracle"]
EVAL = ["eval", "-s", "office-planning", "-t", "planning-simple-02", *ORACLE]
TEMPLATES = [
    ["graph", "stats", "X"],
    ["graph", "check", "X"],
    ["graph", "check", "X", "--json"],
    ["graph", "show", "X"],
    ["graph", "show", "coffee", "--expand", "X"],
    ["graph", "show", "coffee", "--level", "X"],
    ["graph", "import", "--from", "virtualhome", "X", "out.json"],
    ["graph", "import", "--from", "virtualhome", "vh.json", "X"],
    ["graph", "import", "--from", "X", "vh.json", "out.json"],
    ["graph", "import", "--from", "alfworld", "X", "out.json"],
    ["graph", "import", "--from", "stanford3dsg", "X", "out.json"],
    ["graph", "import", "--from", "behavior", "X", "out.json"],
    ["graph", "import", "--from", "spark-dsg", "X", "out.json"],
    ["verify", "X", "done()"],
    ["verify", "coffee", "X"],
    ["verify", "coffee", "@X"],
    ["verify", "coffee", "done()", "--vocabulary", "X"],
    ["tasks", "list", "X"],
    ["tasks", "show", "X"],
    ["tasks", "check", "X"],
    ["tasks", "stats", "X"],
    ["llm", "check", "X"],
    ["llm", "check", "ollama:m", "--timeout", "X"],
    ["plan", "X", *ORACLE],
    ["plan", "--task", "X", *ORACLE],
    ["plan", "--task", "planning-simple-02", "-p", "X"],
    ["plan", "--task", "planning-simple-02", *ORACLE, "-o", "X"],
    ["plan", "--task", "planning-simple-02", *ORACLE, "--trace", "X"],
    ["plan", "--task", "planning-simple-02", *ORACLE, "--observe", "X"],
    ["plan", "Put the milk away", "--env", "X", *ORACLE],
    ["plan", "--task", "planning-simple-02", "-p", "sayplan", "--llm", "X"],
    ["planners", "--json", "X"],
    [*EVAL, "--out", "X"],
    ["eval", "-s", "X", *ORACLE, "--out", "r.db"],
    ["eval", "-s", "office-planning", "-t", "X", *ORACLE, "--out", "r.db"],
    ["eval", "-s", "office-planning", "-p", "X", "--out", "r.db"],
    [*EVAL, "--runs", "X", "--out", "r.db"],
    [*EVAL, "--concurrency", "X", "--out", "r.db"],
    [*EVAL, "--robot", "X", "--out", "r.db"],
    [*EVAL, *SIM, "--faults", "X", "--out", "r.db"],
    [*EVAL, *SIM, "--seed", "X", "--out", "r.db"],
    ["report", "X"],
    ["report", "--compare", "X", "store.db"],
    ["report", "store.db", "--table", "X"],
    ["report", "store.db", "--format", "X"],
    ["store", "merge", "X", "--out", "merged.db"],
    ["store", "merge", "store.db", "--out", "X"],
    ["pddl", "X", "--out", "pd"],
    ["pddl", "coffee", "--out", "X"],
    ["pddl", "coffee", "--goal", "X", "--out", "pd"],
    ["pddl", "coffee", "--task", "X", "--out", "pd"],
    ["solve", "X", "--goal", "full(coffee_mug)"],
    ["solve", "coffee", "--goal", "X"],
    ["solve", "coffee", "--task", "X"],
    ["solve", "coffee", "--goal", "full(coffee_mug)", "--timeout", "X"],
    ["solve", "coffee", "--goal", "full(coffee_mug)", "--planner", "X"],
    ["view", "X", "-o", "v.html"],
    ["view", "--episode", "X", "-o", "v.html"],
    ["view", "--store", "X", "--task", "planning-simple-02", *ORACLE, "-o", "v.html"],
    ["view", "--store", "store.db", "--task", "X", *ORACLE, "-o", "v.html"],
    ["view", "--store", "store.db", "--task", "planning-simple-02", *ORACLE, "--run", "X"],
    ["view", "coffee", "-o", "X"],
    ["execute", "X", *ORACLE, "--env", "coffee"],
    ["execute", "--task", "X", *ORACLE],
    ["execute", "--task", "planning-simple-02", *ORACLE, "--robot", "X"],
    ["execute", "--task", "planning-simple-02", *ORACLE, *SIM, "--faults", "X"],
    ["execute", "--task", "planning-simple-02", *ORACLE, "--trace", "X"],
    ["execute", "--task", "planning-simple-02", *ORACLE, "--replan", "X"],
    ["execute", "--task", "planning-simple-02", *ORACLE, "--max-replans", "X"],
]


def _write_hostile_files(folder: Path) -> None:
    """A file of every wrong kind (rewritten before each test: a command may take one)."""
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (folder / "empty.file").write_bytes(b"")
    (folder / "a_folder").mkdir(exist_ok=True)
    (folder / "vh.json").write_text(
        (ROOT / "tests" / "importers" / "data" / "kitchen.vh.json").read_text()
    )
    (folder / "two_rooms.json").write_text(EXAMPLE.read_text())


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A folder with the hostile files and a small results store."""
    folder = tmp_path_factory.mktemp("hostile")
    _write_hostile_files(folder)
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        made = runner.invoke(app, [*EVAL, "--out", "store.db"])
        assert made.exit_code == 0, made.output
    finally:
        os.chdir(cwd)
    return folder


@pytest.fixture
def in_scratch(scratch, monkeypatch, tmp_path):
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # refused at once, never waited on
    monkeypatch.chdir(scratch)
    _write_hostile_files(scratch)
    return scratch


def _outputs_left(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.mark.parametrize("template", TEMPLATES, ids=[" ".join(t) for t in TEMPLATES])
@pytest.mark.slow
def test_no_traceback(in_scratch, template):
    before = _outputs_left(in_scratch)
    for value in VALUES:
        args = [value if a == "X" else a.replace("@X", "@" + value) for a in template]
        result = runner.invoke(app, args)
        where = f"sceneplan {' '.join(args)[:200]} -> {result.exit_code}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{where}: {result.exception!r}"
        )
        assert "Traceback" not in result.output, where
        assert result.exit_code in (0, 1, 2, 3), where
        for name in _outputs_left(in_scratch) - before:  # what a run wrote: not kept across
            path = in_scratch / name
            path.unlink() if path.is_file() else None
    assert (in_scratch / "store.db").stat().st_size > 0


# Through the console script: the real argv, stderr as the user sees it.
SUBPROCESS = [
    (["graph", "check", "deep.json"], "nested too deeply"),
    (["tasks", "check", "binary.bin"], "not UTF-8 text"),
    (["report", "empty.file"], "is empty (0 bytes)"),
    (["eval", "-s", "office-planning", *ORACLE, "--runs", "99999999999999999999"], "--runs"),
]


@pytest.mark.parametrize(("args", "message"), SUBPROCESS, ids=[a[1] for a, _ in SUBPROCESS])
@pytest.mark.slow
def test_console_script(tmp_path, args, message):
    _write_hostile_files(tmp_path)
    script = Path(sys.executable).with_name("sceneplan")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "sceneplan.cli"]
    done = subprocess.run(
        [*command, *args], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert message in done.stderr + done.stdout
