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
