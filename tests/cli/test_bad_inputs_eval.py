"""Bad inputs to `eval`, `report` and `tasks`: each is one message and exit 2, before any work.

Every row is a command line a new user might try (issue 16): output paths
that cannot be written, stores that are not stores, task files with
problems, options out of range. Each row asserts the exit status, that no
traceback is shown, and a message naming the problem; and that a refused
`eval` leaves no results store behind. Every bug fixed adds its row.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()
EVAL = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]

# (arguments, exit status, text the output must contain). Paths are relative to a
# scratch folder holding `a_file.txt`, `a_folder/` and `bad_tasks.yaml` (rows of TASKS).
ROWS = [
    # the results store
    ([*EVAL, "--out", "missing_dir/x.db"], 2, "the folder missing_dir does not exist"),
    ([*EVAL, "--out", "a_file.txt/x.db"], 2, "the folder a_file.txt is a file"),
    ([*EVAL, "--out", "a_file.txt"], 2, "a_file.txt: not a sceneplan results store"),
    ([*EVAL, "--out", "a_folder"], 2, "the results store a_folder is a folder; give a file name"),
    (["report", "no_such.db"], 2, "no results store at no_such.db"),
    (["report", "a_file.txt"], 2, "a_file.txt: not a sceneplan results store"),
    # report outputs and options
    (
        ["report", "store.db", "--plots", "a_file.txt"],
        2,
        "the plots folder a_file.txt is an existing file, not a folder",
    ),
    (["report", "store.db", "--format", "xml"], 2, "unknown report format 'xml'"),
    # eval options and names
    ([*EVAL, "--stop-after", "0", "--out", "r.db"], 2, "Invalid value for '--stop-after'"),
    ([*EVAL, "--runs", "0", "--out", "r.db"], 2, "Invalid value for '--runs'"),
    (["eval", "-s", "nope", "-p", "oracle", "--out", "r.db"], 2, "unknown suite 'nope'"),
    (
        ["eval", "-s", "office-planning", "-p", "magic", "--out", "r.db"],
        2,
        "unknown planner 'magic'",
    ),
    (
        ["eval", "-s", "office-planning", "-t", "nope-01", "-p", "oracle", "--out", "r.db"],
        2,
        "task(s) nope-01 not in suite(s) office-planning",
    ),
    (
        ["eval", "-s", "office-planning", "-p", "sayplan", "--out", "r.db"],
        2,
        "no LLM configured",
    ),
    # task files: every problem at once, before any run
    (["tasks", "check", "missing.yaml"], 2, "no such task file: missing.yaml"),
    (["tasks", "check", "nope"], 2, "unknown suite 'nope'"),
    (["tasks", "check", "a_file.txt"], 2, "a_file.txt: a task file is a YAML list of tasks"),
    (
        ["tasks", "check", "bad_tasks.yaml"],
        2,
        "bad_tasks.yaml: 2 problem(s) - task 'x-01': field 'goal': goal 'full(cofee_mug)': "
        "unknown node 'cofee_mug' (did you mean coffee_mug?) - task 'x-02': field "
        "'environment': unknown environment 'nowhere'",
    ),
    (
        ["eval", "-s", "bad_tasks.yaml", "-p", "oracle", "--out", "r.db"],
        2,
        "2 problem(s) in the task files - bad_tasks.yaml: task 'x-01': field 'goal'",
    ),
    (
        ["eval", "-s", "bad_tasks.yaml,bad_fields.yaml", "-p", "oracle", "--out", "r.db"],
        2,
        "3 problem(s) in the task files - bad_tasks.yaml: task 'x-01': field 'goal'",
    ),
    (
        ["eval", "-s", "bad_tasks.yaml,bad_fields.yaml", "-p", "oracle", "--out", "r.db"],
        2,
        "- bad_fields.yaml: task 'y-01': field 'family': must be one of simple_search",
    ),
    (["eval", "-s", "missing.yaml", "-p", "oracle", "--out", "r.db"], 2, "no such task file"),
    # store merge
    (["store", "merge", "store.db", "--out", "store.db"], 2, "is also one of the stores to merge"),
    (["store", "merge", "a_file.txt", "--out", "m.db"], 2, "a_file.txt: not a sceneplan results"),
    (["store", "merge", "no_such.db", "--out", "m.db"], 2, "no results store at no_such.db"),
    (["store", "merge", "store.db", "--out", "missing_dir/m.db"], 2, "missing_dir does not exist"),
]

BAD_TASKS = """
- {id: x-01, suite: s, family: simple_planning, environment: coffee, instruction: a,
   goal: 'full(cofee_mug)'}
- {id: x-02, suite: s, family: simple_planning, environment: nowhere, instruction: b,
   goal: 'closed(fridge)'}
"""


def _flat(text: str) -> str:
    """The output without rich's box drawing and line wrapping."""
    return " ".join(text.replace("│", " ").split())


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "a_file.txt").write_text("not a store, not a folder\n")
    (tmp_path / "a_folder").mkdir()
    (tmp_path / "bad_tasks.yaml").write_text(BAD_TASKS)
    (tmp_path / "bad_fields.yaml").write_text(
        "- {id: y-01, suite: s, family: cooking, environment: coffee, instruction: c,\n"
        "   goal: 'true'}\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SCENEPLAN_LLM", raising=False)
    monkeypatch.delenv("SCENEPLAN_CONFIG", raising=False)
    return tmp_path


@pytest.mark.parametrize(("args", "status", "message"), ROWS, ids=[" ".join(r[0]) for r in ROWS])
def test_bad_input_is_one_message(args, status, message, scratch: Path):
    if "store.db" in args:
        made = runner.invoke(app, [*EVAL, "--out", "store.db"])
        assert made.exit_code == 0, made.output
    before = sorted(p.name for p in scratch.iterdir())
    result = runner.invoke(app, args)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert _flat(message) in _flat(result.output), result.output
    # nothing written: no empty store, no plots folder
    assert sorted(p.name for p in scratch.iterdir()) == before
