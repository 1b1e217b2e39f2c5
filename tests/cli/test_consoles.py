"""The commands' consoles read the terminal's width and colour settings of each command run,
not of the first one in the process (tests, and anything else that runs many commands)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # consoles in subprocesses

TREE = ["graph", "show", "coffee", "-e", "bobs_room", "--tree"]


def outputs_after(first_columns: str | None) -> list[str]:
    """In a fresh interpreter: `graph stats` under COLUMNS=first_columns (None: unset), then
    the tree under COLUMNS=200 and then under 50; the two trees' outputs."""
    code = (
        "import json, sys\n"
        "from typer.testing import CliRunner\n"
        "from sceneplan.cli import app\n"
        "runner = CliRunner()\n"
        "first = json.loads(sys.argv[1])\n"
        "env = {} if first is None else {'COLUMNS': first}\n"
        "assert runner.invoke(app, ['graph', 'stats', 'coffee'], env=env).exit_code == 0\n"
        f"tree = {TREE!r}\n"
        "out = [runner.invoke(app, tree, env={'COLUMNS': c}).output for c in ('200', '50')]\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(first_columns)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def test_a_command_prints_at_its_own_width_whatever_ran_before_it():
    wide, narrow = outputs_after(None)
    assert max(map(len, wide.splitlines())) > 50  # the tree is wider than 50 columns
    assert max(map(len, narrow.splitlines())) <= 50
    assert outputs_after("60") == [wide, narrow]  # not held at the first command's 60
