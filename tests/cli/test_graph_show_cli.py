"""`sceneplan graph show` (indented JSON, --compact, --tree) and `sceneplan graph check`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets import load_environment
from sceneplan.graph import collapse, view_to_text

runner = CliRunner()


def test_show_pretty_prints_indented_json():
    result = runner.invoke(app, ["graph", "show", "coffee", "-e", "kitchen"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith('{\n  "nodes": {\n    "building": [\n')
    view = collapse(load_environment("coffee"), "room")
    view.expand("kitchen")
    assert json.loads(result.output) == json.loads(view_to_text(view))


def test_show_compact_is_the_exact_text_the_llm_gets():
    result = runner.invoke(app, ["graph", "show", "coffee", "--compact"])
    assert result.exit_code == 0, result.output
    assert result.output == view_to_text(collapse(load_environment("coffee"), "room")) + "\n"


def test_show_tree_draws_the_hierarchy_and_links():
    result = runner.invoke(
        app, ["graph", "show", "coffee", "-e", "bobs_room", "--tree"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "coffee"
    wardrobe = next(i for i, line in enumerate(lines) if "wardrobe1 asset" in line)
    mug = lines[wardrobe + 1]
    assert "coffee_mug object" in mug and "state: empty" in mug
    assert mug.index("coffee_mug") > lines[wardrobe].index("wardrobe1")  # one level deeper
    assert "state: closed; affordances: open, close, release" in lines[wardrobe]
    assert any("links (10)" in line for line in lines)
    assert any("bobs_room <-> pose1" in line for line in lines)
    assert "{" not in result.output


def test_show_takes_one_output_form():
    result = runner.invoke(app, ["graph", "show", "coffee", "--tree", "--json"])
    assert result.exit_code == 2
    assert "choose one of --tree, --compact and --json" in result.output


def test_check_accepts_a_valid_graph():
    result = runner.invoke(app, ["graph", "check", "coffee"])
    assert result.exit_code == 0, result.output
    assert "ok coffee: a valid scene graph" in result.output
    data = json.loads(runner.invoke(app, ["graph", "check", "coffee", "--json"]).output)
    assert data["ok"] is True and data["nodes"]["room"] == 5 and data["links"] == 10


def test_check_lists_the_problems_of_a_bad_graph(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "sceneplan-graph", "nodes": "many"}')
    result = runner.invoke(app, ["graph", "check", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "error: " in result.output
    assert str(path) in result.output or "bad.json" in result.output
