"""Bad graph files and plans through `sceneplan graph check` and `sceneplan verify`.

Every row is a command line a new user might try (issue 16). Each asserts the
exit status (2 for bad input, 1 for a plan that is not executable, 0 where the
plan runs and a warning names what was left out), that no traceback is shown,
and a message naming the problem. Every bug fixed adds its row.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def _graph(**patch: dict) -> dict:
    """A small valid graph, with `patch` mapping a node id to fields to set on it."""
    nodes = [
        {"id": "house", "kind": "building"},
        {"id": "floor0", "kind": "floor", "parent": "house"},
        {"id": "kitchen", "kind": "room", "parent": "floor0"},
        {"id": "hall", "kind": "room", "parent": "floor0"},
        {"id": "pose1", "kind": "pose", "parent": "floor0"},
        {
            "id": "fridge",
            "kind": "asset",
            "parent": "kitchen",
            "state": ["closed"],
            "affordances": ["open", "close"],
        },
        {"id": "agent", "kind": "agent", "parent": "hall"},
    ]
    for node in nodes:
        node.update(patch.get(node["id"], {}))
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "nodes": nodes,
        "links": [["kitchen", "pose1"], ["pose1", "hall"]],
    }


def _with_node(node: dict, **patch: dict) -> dict:
    data = _graph(**patch)
    data["nodes"].append(node)
    return data


# Graph files written into a scratch folder: name -> JSON text.
GRAPHS = {
    "good.json": json.dumps(_graph()),
    "broken.json": '{"format": "sceneplan-graph", "nodes": [}',
    "list.json": "[1, 2]",
    "old_format.json": json.dumps({**_graph(), "format": "other-graph"}),
    "building_parent.json": json.dumps(
        _with_node({"id": "campus", "kind": "building"}, house={"parent": "campus"})
    ),
    "id_space.json": json.dumps(_with_node({"id": "my room", "kind": "room"})),
    "id_arrow.json": json.dumps(_with_node({"id": "a>b", "kind": "room"})),
    "id_empty.json": json.dumps(_with_node({"id": "", "kind": "room"})),
    "id_paren.json": json.dumps(_with_node({"id": "mug(2)", "kind": "room"})),
    "nan.json": json.dumps(_graph(hall={"position": [float("nan"), 0.0]})),
    "inf.json": json.dumps(_graph(hall={"position": [0.0, float("inf")]})),
    "position_1d.json": json.dumps(_graph(hall={"position": [1.0]}, pose1={"position": [0, 1]})),
    "position_here.json": json.dumps(_graph(kitchen={"position": "here"})),
    "duplicate.json": json.dumps(_with_node({"id": "kitchen", "kind": "room"})),
    "unknown_kind.json": json.dumps(_with_node({"id": "robot1", "kind": "robot"})),
    "unknown_link.json": json.dumps({**_graph(), "links": [["kitchen", "cellar"]]}),
    "unknown_parent.json": json.dumps(_graph(fridge={"parent": "kitchn"})),
    "parent_number.json": json.dumps(_graph(fridge={"parent": 5})),
    "sayplan_links.json": json.dumps({"nodes": {"room": [{"id": "kitchen"}]}, "links": 5}),
}

# Plan files: name -> bytes.
PLANS = {
    "plan.txt": b"goto(kitchen)\naccess(fridge)\nopen(fridge)\ndone\n",
    "empty.txt": b"\n  \n",
    "empty.json": b"[]",
    "broken_plan.json": b"[not json",
    "numbers.json": b"[1, 2]",
    "latin1.txt": "goto(caf\xe9)".encode("latin-1"),
    "latin1.json": '{"name": "caf\xe9"}'.encode("latin-1"),
}

# A graph problem: (file, text the message must contain). Each is run through
# `graph check FILE` and `verify FILE done`, both exit 2.
GRAPH_ROWS = [
    ("missing.json", "cannot read scene graph file missing.json: No such file"),
    ("broken.json", "broken.json: not valid JSON (line 1"),
    ("latin1.json", "cannot read scene graph file latin1.json: not UTF-8 text"),
    ("list.json", "the top level must be a JSON object"),
    ("old_format.json", "field 'format' must be 'sceneplan-graph'"),
    (
        "building_parent.json",
        "node 'house': field 'parent': a building has no parent; remove the field",
    ),
    ("id_space.json", "node 'my room': field 'id': 'my room' is not a valid node id"),
    ("id_arrow.json", "node 'a>b': field 'id': 'a>b' is not a valid node id"),
    ("id_empty.json", "node #7 (empty id): field 'id': '' is not a valid node id"),
    ("id_paren.json", "an id is one or more letters, digits, '_', '-' or '.'"),
    ("nan.json", "node 'hall': field 'position': Input should be a finite number"),
    ("inf.json", "node 'hall': field 'position': Input should be a finite number"),
    ("position_1d.json", "node 'hall': field 'position': must be [x, y] or [x, y, z]"),
    ("position_here.json", "1 problem(s) in the scene graph - node 'kitchen': field 'position'"),
    ("duplicate.json", "node 'kitchen': field 'id': duplicate id"),
    ("unknown_kind.json", "node 'robot1': field 'kind': unknown value 'robot'"),
    ("unknown_link.json", "link #0 kitchen<->cellar: unknown node 'cellar'"),
    ("unknown_parent.json", "node 'fridge': field 'parent': unknown parent 'kitchn'"),
    ("parent_number.json", "node 'fridge': field 'parent': must be the id of one node, found 5"),
    ("sayplan_links.json", "field 'links' must be a list of 'a<->b' strings"),
]

# A plan problem: (arguments after `verify`, exit status, text the output must contain).
PLAN_ROWS = [
    # input errors: exit 2
    (["coffee", ""], 2, "the plan is empty: give actions separated by '>'"),
    (["coffee", "   "], 2, "the plan is empty"),
    (["coffee", " > "], 2, "the plan is empty"),
    (["coffee", "@empty.txt"], 2, "the plan is empty"),
    (["coffee", "empty.json"], 2, "the plan is empty"),
    (["coffee", "goto(bobs_room) access(wardrobe1)"], 2, "e.g. 'goto(bobs_room) > access("),
    (["coffee", "missing.txt"], 2, "no such file: missing.txt"),
    (["coffee", "@missing.txt"], 2, "cannot read plan file missing.txt: No such file"),
    (["coffee", "plans/plan.json"], 2, "no such file: plans/plan.json"),
    (["coffee", "broken_plan.json"], 2, "broken_plan.json: not a valid JSON list of actions"),
    (["coffee", "good.json"], 2, "good.json: a JSON object, not a plan"),
    (["coffee", "numbers.json"], 2, "step 1: an action must be a string"),
    (["coffee", "@latin1.txt"], 2, "cannot read plan file latin1.txt: not UTF-8 text"),
    (["coffee", "goto(kitchen) -> done"], 2, "separate the steps with '>' alone (not '->'"),
    (["coffee", "a_folder/"], 2, "a_folder/ is a folder, not a plan file"),
    (["coffee", "@a_folder"], 2, "cannot read plan file a_folder: it is a directory, not a file"),
    (["coffee", "x" * 5000], 1, "'" + "x" * 5000 + "' is not an action"),
    (["coffee", "goto(kitchen) > pickup(mug"], 2, "step 2: cannot parse action 'pickup(mug'"),
    (["coffee", "pickup(my mug)"], 2, "argument 'my mug' is not a node id"),
    (["nowhere", "done"], 2, "unknown environment 'nowhere'"),
    (["coffee", "done", "--vocabulary", "pddl"], 2, "unknown action vocabulary 'pddl'"),
    # plans that do not run: exit 1, the step and why
    (["coffee", "goto(kitchen, bobs_room)"], 1, "takes 1 argument(s), got 2"),
    (["coffee", "goto()"], 1, "takes 1 argument(s), got 0"),
    (["coffee", "fly(kitchen)"], 1, "step 1 fly(kitchen)"),
    (["coffee", "goto(atlantis)"], 1, "step 1 goto(atlantis)"),
    (["coffee", "done(kitchen)"], 1, "takes 0 argument(s), got 1"),
    (["good.json", "goto(kitchen) > open(fridge)"], 1, "not executable"),
    # steps after done(): run, and a warning names the steps left out
    (["coffee", "done > goto(kitchen)"], 0, "warning: 1 step after done() not run: goto(kitchen)"),
    (["good.json", "@plan.txt"], 0, "executable (5 steps)"),
]


def _flat(text: str) -> str:
    """The output without line wrapping."""
    return " ".join(text.split())


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch) -> Path:
    """A working folder holding GRAPHS and PLANS."""
    for name, text in GRAPHS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for name, data in PLANS.items():
        if name not in GRAPHS:
            (tmp_path / name).write_bytes(data)
    (tmp_path / "a_folder").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(args: list[str], status: int, message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert _flat(message) in _flat(result.output), result.output


@pytest.mark.parametrize(("command"), ["graph check", "verify"])
@pytest.mark.parametrize(("file", "message"), GRAPH_ROWS, ids=[r[0] for r in GRAPH_ROWS])
def test_bad_graph_file_is_one_message(scratch, command, file, message):
    args = [*command.split(), file] + (["done"] if command == "verify" else [])
    _check(args, 2, message)


def test_a_bad_field_is_not_reported_again_for_its_links(scratch):
    result = runner.invoke(app, ["graph", "check", "position_here.json"])
    assert "unknown node" not in result.output and "unknown parent" not in result.output


@pytest.mark.parametrize(
    ("args", "status", "message"), PLAN_ROWS, ids=[" ".join(r[0])[:60] for r in PLAN_ROWS]
)
def test_bad_plan_is_one_message(scratch, args, status, message):
    _check(["verify", *args], status, message)


def test_the_good_graph_passes_the_check(scratch):
    _check(["graph", "check", "good.json"], 0, "ok good.json: a valid scene graph")
