"""`graph check`, `solve` and `verify` say why no plan can exist, with their exit codes.

graph check: 0 ok, 1 a room the robot cannot reach from its start, 2 a broken
graph; solve and verify: 1 with the reason (fixed, nothing there accepts it,
the room cannot be reached), 2 for a thing no room holds (the graph is refused
before any search, naming it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()

NODES = [
    {"id": "kitchen", "kind": "room", "position": [0.0, 0.0]},
    {"id": "hall", "kind": "room", "position": [4.0, 0.0]},
    {"id": "shed", "kind": "room", "position": [40.0, 0.0]},  # no link reaches it
    {"id": "table", "kind": "asset", "parent": "kitchen", "affordances": ["release"]},
    {"id": "radiator", "kind": "asset", "parent": "kitchen"},
    {"id": "shelf", "kind": "asset", "parent": "hall", "affordances": ["release"]},
    {"id": "cup", "kind": "object", "parent": "table", "relation": "ontop_of",
     "affordances": ["pickup"]},
    {"id": "statue", "kind": "object", "parent": "table", "relation": "ontop_of"},
    {"id": "bench", "kind": "asset", "parent": "shed", "affordances": ["release"]},
    {"id": "saw", "kind": "object", "parent": "bench", "relation": "ontop_of",
     "affordances": ["pickup"]},
    {"id": "agent", "kind": "agent", "parent": "kitchen"},
]  # fmt: skip


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "scene.json"
    data = {"format": "sceneplan-graph", "version": 1, "name": "why", "nodes": NODES,
            "links": [["kitchen", "hall"]]}  # fmt: skip
    path.write_text(json.dumps(data))
    return path


def test_graph_check_warns_of_rooms_the_robot_cannot_reach(scene):
    result = cli("graph", "check", scene)
    assert result.exit_code == 1, result.output
    assert "ok" in result.output and "cannot reach 1 room(s)" in result.output
    assert "shed" in result.output and "(kitchen)" in result.output
    result = cli("graph", "check", scene, "--json")
    assert result.exit_code == 1 and json.loads(result.output)["unreachable_rooms"] == ["shed"]
    assert cli("graph", "check", "examples/two_rooms.json").exit_code == 0


@pytest.mark.parametrize(
    ("goal", "reason"),
    [
        ("held(radiator)", "radiator is fixed: it is an asset with affordances none"),
        ("held(statue)", "statue is fixed: it is an object with affordances none"),
        ("ontop_of(cup, radiator)", "nothing there accepts it: radiator takes nothing"),
        ("ontop_of(saw, shelf)", "shed cannot be reached: no path of rooms and poses"),
    ],
)
def test_solve_says_why_there_is_no_plan(scene, goal, reason):
    result = cli("solve", scene, "--goal", goal)
    assert result.exit_code == 1, result.output
    assert "no plan exists" in result.output and reason in result.output, result.output
    result = cli("solve", scene, "--goal", goal, "--json")
    assert result.exit_code == 1 and any(reason in why for why in json.loads(result.output)["why"])


def test_solve_plans_what_the_scene_allows(scene):
    result = cli("solve", scene, "--goal", "ontop_of(cup, shelf)")
    assert result.exit_code == 0 and "goal reached" in result.output, result.output
    assert "why" not in result.output


def test_verify_says_why_a_step_fails(scene):
    result = cli("verify", scene, "access(table) > pickup(radiator)")
    assert result.exit_code == 1
    assert "why: radiator is fixed" in result.output, result.output
    result = cli("verify", scene, "goto(shed)")  # inserting the poses finds no path: bad input
    assert result.exit_code == 2 and "no chain of links connects them" in result.output
    result = cli("verify", scene, "goto(shed)", "--no-expand")
    assert result.exit_code == 1
    assert "why: shed cannot be reached" in result.output, result.output
    result = cli("verify", scene, "goto(shed)", "--no-expand", "--json")
    assert result.exit_code == 1 and json.loads(result.output)["why"]


def test_a_thing_no_room_holds_is_refused_before_any_search(scene, tmp_path):
    data = json.loads(scene.read_text())
    data["nodes"] += [
        {"id": "floor0", "kind": "floor"},
        {"id": "crate", "kind": "asset", "parent": "floor0", "affordances": ["release"]},
    ]
    scene.write_text(json.dumps(data))
    result = cli("solve", scene, "--goal", "ontop_of(cup, crate)")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "'crate'" in result.output and "must be a room" in result.output, result.output


def test_the_library_names_a_thing_no_room_holds():
    from sceneplan.graph import SceneGraph
    from sceneplan.graph.model import Node, NodeKind
    from sceneplan.world import parse_goal
    from sceneplan.world.why import why_no_plan

    graph = SceneGraph.from_nodes(
        [
            Node("kitchen", NodeKind.ROOM),
            Node("floor0", NodeKind.FLOOR),
            Node("table", NodeKind.ASSET, parent="kitchen", affordances=("release",)),
            Node("crate", NodeKind.ASSET, parent="floor0", affordances=("release",)),
            Node("cup", NodeKind.OBJECT, parent="table", affordances=("pickup",)),
            Node("agent", NodeKind.AGENT, parent="kitchen"),
        ]
    )
    reasons = why_no_plan(graph, parse_goal("ontop_of(cup, crate)", graph))
    assert reasons == ["crate is in no room: no room holds it, so nothing reaches it"]
    assert why_no_plan(graph, parse_goal("ontop_of(cup, table)", graph)) == []


@pytest.fixture
def fixed_task(tmp_path: Path, scene: Path) -> Path:
    """A task whose goal holds a fixed thing: no planner can reach it."""
    path = tmp_path / "tasks.yaml"
    path.write_text(
        f"- id: hold-radiator\n  suite: mine\n  family: simple_planning\n"
        f"  environment: {scene}\n  instruction: Hold the radiator.\n  goal: held(radiator)\n"
    )
    return path


def test_plan_with_the_oracle_says_why_there_is_no_plan(fixed_task: Path):
    result = cli("plan", "-p", "oracle", "--tasks", fixed_task, "--task", "hold-radiator")
    assert result.exit_code == 1, result.output
    assert "no usable plan from the model" not in result.output  # the oracle has no model
    assert "found no plan (unsolvable): radiator is fixed" in " ".join(result.output.split())


def test_execute_says_why_nothing_was_sent_to_the_robot(fixed_task: Path):
    result = cli("execute", "-p", "oracle", "--tasks", fixed_task, "--task", "hold-radiator")
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "the planner's plan is not executable (the symbolic planner found no plan" in text
    assert "radiator is fixed" in text
