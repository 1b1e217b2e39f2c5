"""Every `--help` reads as finished text: no `<bool>`/`<str>` types, no `{env}` in usage lines."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()

PLACEHOLDER = re.compile(r"<(bool|str|int|float|path|text)[a-z ]*>|\{[A-Za-z_]+\}")


def command_paths(command=None, prefix=()) -> list[tuple[str, ...]]:
    command = command or typer.main.get_command(app)
    paths = [prefix]
    for name, sub in getattr(command, "commands", {}).items():
        paths += command_paths(sub, (*prefix, name))
    return paths


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "sceneplan")
def test_help_has_no_placeholders(path):
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert not PLACEHOLDER.findall(result.output), result.output


def test_help_shows_click_style_types_and_argument_names():
    result = runner.invoke(app, ["llm", "check", "--help"], env={"COLUMNS": "200"})
    assert "Usage: sceneplan llm check [OPTIONS] [MODEL]" in result.output
    assert "FLOAT RANGE" in result.output
    result = runner.invoke(app, ["graph", "show", "--help"], env={"COLUMNS": "200"})
    assert "Usage: sceneplan graph show [OPTIONS] ENV_OR_FILE" in result.output
    assert "[building|floor|room|full]" in result.output


# Options that two commands share: the same flag, the same meaning, one declaration (cli/common.py,
# cli/targets.py, cli/paths.py, cli/pddl.py). Look-alikes that differ stay apart: eval's --robot
# and --seed (no default robot, a seed per run) are not execute's.
SHARED = [
    (("plan", "execute"), ("--option", "--llm", "--planner", "--trace", "--json", "--force")),
    (("plan", "execute"), ("--env", "--task", "--tasks", "instruction")),
    (("eval", "execute"), ("--faults", "--open-loop", "--search")),
    (("pddl", "solve"), ("env", "--goal", "--task")),
]


@pytest.mark.parametrize(("commands", "names"), SHARED, ids=lambda v: ",".join(v))
def test_a_shared_option_reads_the_same_in_each_command(commands, names):
    root = typer.main.get_command(app)
    for name in names:
        declared = set()
        for command in commands:
            params = root.commands[command].params
            found = [p for p in params if name in (p.name, *p.opts)]
            assert len(found) == 1, (command, name)
            param = found[0]
            assert param.help, (command, name)
            declared.add((tuple(param.opts), param.metavar, param.help))
        assert len(declared) == 1, (name, declared)
