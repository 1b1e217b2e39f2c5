"""The README's commands work as written: the opening lines and the bring-your-own-graph example."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets import load_environment

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "two_rooms.json"

runner = CliRunner()


def bash_blocks() -> list[list[str]]:
    """The lines of each ```bash block of the README."""
    return [block.splitlines() for block in re.findall(r"```bash\n(.*?)```", README, re.DOTALL)]


def sceneplan_args(line: str) -> list[str]:
    """The arguments of the `sceneplan` command on `line` (after any `&&`), without comments."""
    command = line.split("&&")[-1].strip()
    args = shlex.split(command, comments=True)
    assert args[0] == "sceneplan", line
    return args[1:]


@pytest.fixture(autouse=True)
def in_the_clone(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_the_two_opening_commands():
    first, second = bash_blocks()[0][:2]
    assert first.startswith("pip install . && sceneplan verify coffee ")
    assert second == "pip install -e '.[dev]' && python -m pytest -n auto"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == second.split("&&")[-1].strip()  # CI runs the README's test command
    result = runner.invoke(app, sceneplan_args(first))
    assert result.exit_code == 0, result.output
    assert (
        result.output.splitlines()[-1] == "executable (17 steps)" or "executable" in result.output
    )


def test_the_example_graph_is_valid_and_minimal():
    graph = load_environment(str(EXAMPLE))
    kinds = sorted(node.kind.value for node in graph.nodes.values())
    assert kinds == ["agent", "asset", "object", "pose", "room", "room"]
    assert sorted(map(sorted, graph.links())) == [["kitchen", "pose1"], ["living_room", "pose1"]]
    assert json.loads(EXAMPLE.read_text())["format"] == "sceneplan-graph"


def own_graph_block() -> list[str]:
    section = README.split("## Your own scene graph", 1)[1]
    lines = next(b for b in bash_blocks() if any("examples/two_rooms.json" in x for x in b))
    assert lines[0] in section
    return [line for line in lines if line.startswith("sceneplan ")]


def test_the_readme_checks_and_verifies_the_example():
    commands = own_graph_block()
    check = next(c for c in commands if c.startswith("sceneplan graph check"))
    result = runner.invoke(app, sceneplan_args(check))
    assert result.exit_code == 0, result.output
    assert "ok examples/two_rooms.json: a valid scene graph" in result.output
    verify = next(c for c in commands if c.startswith("sceneplan verify"))
    result = runner.invoke(app, sceneplan_args(verify))
    assert result.exit_code == 0, result.output
    assert "executable (8 steps)" in result.output
    assert "executable (8 steps)" in README  # the output the README shows
    show = next(c for c in commands if c.startswith("sceneplan graph show"))
    result = runner.invoke(app, sceneplan_args(show))
    assert result.exit_code == 0 and "milk_carton" not in result.output  # collapsed view


def test_the_90_instructions_are_three_suites_of_30():
    assert "three suites of 30" in README
    for suite in ("office-search", "home-search", "office-planning"):
        assert f"`{suite}`" in README
        listed = runner.invoke(app, ["tasks", "list", suite, "--json"])
        assert listed.exit_code == 0, listed.output
        assert len(json.loads(listed.stdout)) == 30


def test_install_from_a_clone():
    assert "pip install '.[plots]'" in README
    assert "pip install 'sceneplan[plots]'" not in README
