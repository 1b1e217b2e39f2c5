"""`sceneplan graph stats` and `sceneplan graph show` through typer's test runner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets import load_environment
from sceneplan.graph import collapse, save, view_to_text

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_stats_table():
    result = run("graph", "stats", "coffee")
    assert result.exit_code == 0, result.output
    assert "coffee: 20 nodes, 19 hierarchy edges, 10 topology links" in result.output
    assert "collapsed graph" in result.output and "% fewer" in result.output


def test_stats_json():
    result = run("graph", "stats", "coffee", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["nodes"] == {
        "building": 1,
        "floor": 1,
        "room": 5,
        "pose": 5,
        "asset": 6,
        "object": 1,
        "agent": 1,
    }
    assert data["edges"] == {"hierarchy": 19, "topology": 10}
    tokens = data["tokens"]
    assert tokens["full"]["tokens"] > tokens["collapsed"]["tokens"]
    assert 0 < tokens["reduction_percent"] < 100
    assert [row["entity"] for row in tokens["kinds"]][-1] == "links"


def test_show_prints_the_prompt_text():
    result = run("graph", "show", "coffee", "--compact")
    assert result.exit_code == 0, result.output
    assert result.stdout == view_to_text(collapse(load_environment("coffee"))) + "\n"


def test_show_expanded_json():
    result = run("graph", "show", "coffee", "--expand", "kitchen", "-e", "bobs_room", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["memory"] == ["kitchen", "bobs_room"]
    assert data["level"] == "room" and data["tokens"] > 0
    assert [a["id"] for a in data["view"]["nodes"]["asset"]] == [
        "bed1",
        "wardrobe1",
        "fridge",
        "coffee_machine",
    ]


def test_show_a_file_with_positions_at_floor_level(tmp_path):
    path = tmp_path / "copy.json"
    save(load_environment("coffee"), path)
    result = run("graph", "show", str(path), "--level", "floor", "-e", "floor0", "--positions")
    assert result.exit_code == 0, result.output
    rooms = json.loads(result.stdout)["nodes"]["room"]
    assert rooms[0] == {"id": "bobs_room", "position": [0.0, 0.0]}


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith("error: ")
    return result.output


@pytest.mark.parametrize("command", ["stats", "show"])
def test_non_json_file_is_one_line_error(tmp_path, command):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    output = one_line_error(run("graph", command, str(path)))
    assert output.count("\n") == 1
    assert f"{path}: not valid JSON" in output


def test_invalid_graph_names_file_and_node(tmp_path):
    path = tmp_path / "bad.json"
    nodes = [{"id": "kitchen", "kind": "room"}, {"id": "fridge", "kind": "asset"}]
    path.write_text(json.dumps({"format": "sceneplan-graph", "version": 1, "nodes": nodes}))
    output = one_line_error(run("graph", "stats", str(path)))
    assert output.splitlines()[0] == f"error: {path}: 1 problem(s) in the scene graph"
    assert "node 'fridge': field 'parent'" in output


def test_unknown_environment_and_bad_expand():
    assert "did you mean 'coffee'?" in one_line_error(run("graph", "stats", "cofee"))
    output = one_line_error(run("graph", "show", "coffee", "-e", "fridge"))
    assert output.startswith("error: cannot expand 'fridge': it is an asset;")
    assert output.count("\n") == 1
