"""Bad inputs to `solve`, `pddl` and `plan`: each is one message and exit 2, before any work.

Every row is a command line a new user might try (issue 16): numeric options
out of range, output paths that cannot be written, goals naming what does
not exist. Each row asserts the exit status, that no traceback is shown, and
a message naming the problem. Every bug fixed adds its row.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.cli import solve as solve_cli
from sceneplan.symbolic.solver import SolveResult, SolveStatus

runner = CliRunner()
GOAL = ["--goal", "full(coffee_mug)"]


# (arguments, exit status, text the output must contain). Paths are relative to a
# scratch folder holding `a_file.txt`.
ROWS = [
    # numeric options: ranges, and nan/inf refused by name
    (["solve", "coffee", *GOAL, "--timeout", "-5"], 2, "Invalid value for '--timeout'"),
    (["solve", "coffee", *GOAL, "--timeout", "0"], 2, "positive, finite number of seconds"),
    (["solve", "coffee", *GOAL, "--timeout", "nan"], 2, "not nan"),
    (["solve", "coffee", *GOAL, "--timeout", "inf"], 2, "not inf"),
    (["solve", "coffee", *GOAL, "--timeout", "soon"], 2, "Invalid value for '--timeout'"),
    (["plan", "-t", "planning-simple-02", "--max-turns", "0"], 2, "--max-turns"),
    (["plan", "-t", "planning-simple-02", "--max-replans", "-1"], 2, "--max-replans"),
    (["plan", "-t", "planning-simple-02", "--max-steps", "0"], 2, "--max-steps"),
    (
        ["plan", "-t", "planning-simple-02", "-p", "oracle", "-o", "timeout=nan"],
        2,
        "option 'timeout' should be a finite number (got 'nan')",
    ),
    # names: one message listing what is known
    (["solve", "coffee", *GOAL, "--planner", "magic"], 2, "unknown symbolic planner 'magic'"),
    (["solve", "nowhere", *GOAL], 2, "unknown environment 'nowhere'"),
    (["pddl", "coffee", "--task", "nope", "--out", "pddl"], 2, "unknown task 'nope'"),
    # output paths: checked before any work, one message
    (
        ["plan", "-t", "planning-simple-02", "--llm", "ollama:x", "--trace", "a_file.txt/r.json"],
        2,
        "cannot write the trace a_file.txt/r.json: a_file.txt is a file, not a folder",
    ),
    (
        ["plan", "-t", "planning-simple-02", "--llm", "ollama:x", "--trace", "."],
        2,
        "the trace . is a folder; give a file name",
    ),
    (
        ["pddl", "coffee", *GOAL, "--out", "a_file.txt"],
        2,
        "the PDDL folder a_file.txt is an existing file, not a folder",
    ),
    (
        ["pddl", "coffee", *GOAL, "--out", "a_file.txt/pddl"],
        2,
        "cannot write the PDDL folder a_file.txt/pddl: a_file.txt is a file, not a folder",
    ),
    # goals naming what does not exist: a goal error, not "no plan"
    (["solve", "coffee", "--goal", "levitating(coffee_mug)"], 2, "unknown predicate 'levitating'"),
    (
        ["solve", "coffee", "--goal", "ful(coffee_mug)"],
        2,
        "unknown predicate 'ful' (did you mean full?)",
    ),
    (
        ["pddl", "coffee", "--goal", "levitating(coffee_mug)", "--out", "pddl"],
        2,
        "predicates are ontop_of, inside_of",
    ),
    (["solve", "coffee", "--goal", "full(cofee_mug)"], 2, "unknown node 'cofee_mug'"),
    (["solve", "coffee", "--goal", "full(coffee_mug"], 2, "expected ')'"),
    (["solve", "coffee"], 2, "give a goal: --goal"),
    # no plan: exit 1, said in words
    (["solve", "coffee", "--goal", "held(coffee_mug) and handempty()"], 1, "no plan exists"),
]


def _flat(text: str) -> str:
    """The output without rich's box drawing and line wrapping."""
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize(("args", "status", "message"), ROWS, ids=[" ".join(r[0]) for r in ROWS])
def test_bad_input_is_one_message(args, status, message, tmp_path: Path, monkeypatch):
    (tmp_path / "a_file.txt").write_text("not a folder\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert _flat(message) in _flat(result.output), result.output


def test_solve_timeout_is_not_no_plan(monkeypatch):
    """A search that ran out of time exits 3 and says so; 'no plan exists' is exit 1."""

    def timed_out(problem, timeout, planner):
        return SolveResult(SolveStatus.TIMEOUT, [], planner, scope="full")

    monkeypatch.setattr(solve_cli, "solve", timed_out)
    result = runner.invoke(app, ["solve", "coffee", *GOAL, "--timeout", "0.5"])
    assert result.exit_code == solve_cli.EXIT_TIMEOUT == 3, result.output
    assert "timeout: no plan found within 0.5 s of CPU; try a larger --timeout" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify", "x" * 5000, "done()"], "unknown environment 'xxxx"),
        (["plan", "-p", "sclplan", "-o", "timeout=inf", "--env", "coffee", "Go."], "timeout"),
    ],
)
def test_more_bad_inputs_are_one_message(args, message):
    result = CliRunner().invoke(app, [*args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and message in result.output
