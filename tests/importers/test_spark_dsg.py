"""The Spark-DSG importer on graphs built with the spark_dsg API, and on Spark-DSG's own file."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("spark_dsg", reason="the spark-dsg importer needs spark_dsg (the spark extra)")

import spark_dsg

import dsg_scenes as scenes
from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.graph import NodeKind, load
from sceneplan.graph.io import save
from sceneplan.importers import import_source
from sceneplan.importers.spark_dsg import update
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator

DATA = Path(__file__).parent / "data"
APARTMENT = Path(__file__).resolve().parents[2].parent / "shared/data/spark-dsg/apartment_dsg.json"
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, list(map(str, args)))


@pytest.fixture
def house_file(tmp_path: Path) -> Path:
    return scenes.save(scenes.house(), tmp_path / "house.json")


def test_house_mapping_rules(house_file):
    imported = import_source("spark-dsg", house_file)
    g, report = imported.graph, imported.report
    # every node of the file is counted once
    assert sum(report.counts().values()) == scenes.house().num_nodes() == 19
    # rooms: labelspace class + symbol index, or their own name (transliterated, kept in full)
    assert g.node("kitchen0").category == "kitchen" and g.node("hallway1").kind is NodeKind.ROOM
    living = g.node("wohnzimmer_fur_gaste")
    assert "Wohnzimmer für Gäste" in living.description and living.category == "living_room"
    # movable vs fixed by class; the cup two place hops from the kitchen rests on its table
    assert g.node("cup1").kind is NodeKind.OBJECT and "pickup" in g.node("cup1").affordances
    assert g.node("cup1").parent == "table2" and g.node("table2").parent == "kitchen0"
    assert "closed" in g.node("cabinet6").state
    book = g.node("shuji")  # named 書籍 in the file
    assert book.category == "book" and "書籍" in book.description
    assert book.parent == "floor_wohnzimmer_fur_gaste"  # no asset there: a derived floor
    # an unknown class is kept fixed and reported; a wall is no node
    assert g.node("glorp4").kind is NodeKind.ASSET
    reasons = report.to_dict()
    assert any("unknown class 'glorp'" in r for r in reasons["guessed"])
    assert reasons["dropped"]["object -> nothing: wall is part of the building"] == 1
    # the room-room edge is a link; the robot is at the newest agent node's place (hallway)
    assert ("hallway1", "kitchen0") in g.links()
    assert g.node("agent").parent == "pose3"
    assert reasons["dropped"]["agent: an older node of the trajectory"] == 3


def test_binary_file_reads_as_the_json_one(tmp_path, house_file):
    binary = scenes.save(scenes.house(), tmp_path / "house.sparkdsg")
    a = import_source("spark-dsg", house_file).graph
    b = import_source("spark-dsg", binary).graph
    assert sorted(n.id for n in a) == sorted(n.id for n in b) and a.links() == b.links()


def test_solve_pick_up_a_cup_from_the_cli(tmp_path, house_file):
    out = tmp_path / "house_scene.json"
    result = cli("graph", "import", "--from", "spark-dsg", house_file, out)
    assert result.exit_code == 0, result.output
    assert cli("graph", "check", out).exit_code == 0
    result = cli("solve", out, "--goal", "held(cup1)")
    assert result.exit_code == 0 and "goal reached" in result.output, result.output
    result = cli("solve", out, "--goal", "ontop_of(shuji, table2)")
    assert result.exit_code == 0 and "goal reached" in result.output, result.output
    shown = cli("graph", "show", out, "--expand", "wohnzimmer_fur_gaste")
    assert "named 書籍, label 12 (book)" in shown.output  # the original label, readable


def test_rooms_only_graph_navigates_and_no_path_is_no_plan(tmp_path):
    src = scenes.save(scenes.rooms_only(), tmp_path / "rooms.json")
    out = tmp_path / "rooms_scene.json"
    assert cli("graph", "import", "--from", "spark-dsg", src, out).exit_code == 0
    g = load(out)
    assert sorted(g.links()) == [("room0", "room1"), ("room1", "room2")]
    result = cli("solve", out, "--goal", "agent_at(room2)")
    assert result.exit_code == 0 and "goto(room1) > goto(room2)" in result.output
    result = cli("solve", out, "--goal", "agent_at(room3)")  # joined to nothing
    assert result.exit_code == 1 and "no plan exists" in result.output


def _place_2d(g, i: int, pos) -> None:
    """A 2D place (places layer, partition 1), as spark_dsg 1.1 and Hydra write them."""
    attrs = spark_dsg.Place2dNodeAttributes()
    attrs.position = np.array(pos, dtype=float)
    g.add_node(3, scenes.P(i), attrs, 1)


def test_objects_reach_their_room_through_2d_places(tmp_path):
    g = scenes.house()
    _place_2d(g, 40, [4.2, 0, 0])  # a kitchen region reaching towards the hallway
    g.insert_edge(scenes.P(40), scenes.R(0))
    _place_2d(g, 41, [30, 0, 0])  # a region no path leads from to a room
    scenes.add_object(g, 9, 15, [4.6, 0, 0.5], place=40)  # nearer the hallway's centre
    scenes.add_place(g, 42, [31, 0, 0])
    imported = import_source("spark-dsg", scenes.save(g, tmp_path / "h.json"))
    graph, report = imported.graph, imported.report.to_dict()
    assert graph.room_of("cabinet9") == "kitchen0"
    assert graph.node("pose40").kind is NodeKind.POSE and graph.linked("kitchen0", "pose40")
    assert report["mapped"]["2D place -> pose"] == 1
    assert report["dropped"]["place in no room (no path of places leads to a room)"] == 2
    assert "pose41" not in graph and "pose42" not in graph
    assert sum(imported.report.counts().values()) == g.num_nodes()


def test_movable_and_fixed_overrides(tmp_path, house_file):
    out = tmp_path / "o.json"
    args = ("graph", "import", "--from", "spark-dsg", house_file, out, "--force")
    assert cli(*args, "--movable", "glorp", "--fixed", "cup").exit_code == 0
    g = load(out)
    assert g.node("glorp4").kind is NodeKind.OBJECT and g.node("cup1").kind is NodeKind.ASSET
    result = cli(*args, "--movable", "cup", "--fixed", "cup")
    assert result.exit_code == 2 and "both --movable and --fixed" in result.output
    result = cli("graph", "import", "--from", "virtualhome", house_file, out, "--movable", "cup")
    assert result.exit_code == 2 and "not of virtualhome" in result.output


def test_labelspace_file_for_a_file_without_one(tmp_path):
    g = spark_dsg.DynamicSceneGraph()
    scenes.add_room(g, 0, None, [0, 0, 0])
    scenes.add_place(g, 0, [0, 0, 0])
    g.insert_edge(scenes.P(0), scenes.R(0))
    scenes.add_object(g, 0, 7, [0, 0, 1], place=0)
    src = scenes.save(g, tmp_path / "nolabels.json")
    labels = tmp_path / "labels.yaml"
    labels.write_text("label_names:\n  - {label: 7, name: laptop}\n")
    out = tmp_path / "o.json"
    result = cli("graph", "import", "--from", "spark-dsg", src, out, "--labelspace", labels)
    assert result.exit_code == 0, result.output
    assert load(out).node("laptop0").kind is NodeKind.OBJECT
    result = cli("graph", "import", "--from", "spark-dsg", src, out, "--force")
    assert result.exit_code == 2 and "give --labelspace NAME or FILE" in result.output
    assert "they fit" in result.output and "mpcat40" in result.output  # label 7: many spaces
    args = ("graph", "import", "--from", "spark-dsg", src, out, "--force", "--labelspace")
    result = cli(*args, "uhumans2")  # Hydra's uHumans2 apartment: 7 is a couch
    assert result.exit_code == 0 and "uhumans2_apartment" in result.output, result.output
    assert load(out).node("couch0").kind is NodeKind.ASSET
    result = cli(*args, "mpcat40")  # mpcat40: 7 is a cabinet
    assert load(out).node("cabinet0").kind is NodeKind.ASSET
    result = cli(*args, "mpcat41")
    assert result.exit_code == 2 and "no packaged label space of that name" in result.output
    assert "mpcat40" in result.output
    labels.write_text("[1, 2]\n")
    result = cli(
        "graph", "import", "--from", "spark-dsg", src, out, "--labelspace", labels, "--force"
    )
    assert result.exit_code == 2 and "label_names" in result.output


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("hello", "bad.json", "parse error"),
        ('{"nodes": []}', "other.json", "not found"),
        ("x", "scene.txt", "reads .json, .sparkdsg"),
    ],
)
def test_unreadable_files_exit_2_quoting_spark_dsg(tmp_path, content, name, expected):
    src = tmp_path / name
    src.write_text(content)
    result = cli("graph", "import", "--from", "spark-dsg", src, tmp_path / "o.json")
    assert result.exit_code == 2 and expected in result.output, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("source", [None, "a", True, -1, 2**64])
def test_an_edge_that_names_no_node_id_is_bad_input(tmp_path, source):
    # beside a dangling edge, which the importer would leave out, an edge whose end is not
    # a node id at all: spark_dsg's reason, not a TypeError from naming the dangling one
    data = json.loads((DATA / "two_nodes.dsg.json").read_text())
    ids = [node["id"] for node in data["nodes"]]
    edge = {"info": {"type": "EdgeAttributes", "weight": 1.0, "weighted": False, "metadata": {}}}
    data["edges"] = [
        {**edge, "source": source, "target": ids[0]},
        {**edge, "source": ids[0], "target": 7},
    ]
    path = tmp_path / "bad_edges.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BadInputError, match=r"bad_edges\.json: not a Spark-DSG file spark_dsg can"):
        import_source("spark-dsg", path)


def test_a_graph_without_rooms_is_refused(tmp_path):
    g = spark_dsg.DynamicSceneGraph()
    scenes.add_place(g, 0, [0, 0, 0])
    with pytest.raises(BadInputError, match="no room nodes"):
        import_source("spark-dsg", scenes.save(g, tmp_path / "norooms.json"))


def test_live_update_keeps_ids_moves_and_adds(tmp_path, house_file):
    first = import_source("spark-dsg", house_file).graph
    later = scenes.save(scenes.house(later=True), tmp_path / "later.sparkdsg")
    updated = update(first, later)
    g = updated.graph
    for node in first:  # every id of the first import is still there
        assert node.id in g
    assert g.node("kitchen3").kind is NodeKind.ROOM and g.node("cup7").kind is NodeKind.OBJECT
    assert g.node("cup1").parent == "floor_hallway1"  # Hydra saw it move to the hallway
    assert g.node("agent").parent == "pose6"  # the robot follows the newest agent node
    result = Simulator(g).verify_plan(["goto(kitchen3)", "access(floor_kitchen3)", "pickup(cup7)"])
    assert result.ok, result.feedback
    assert parse_goal("held(cup7)", g).holds(result.final_state)


def test_update_keeps_the_state_the_scene_gained(tmp_path, house_file):
    first = import_source("spark-dsg", house_file).graph
    data = json.loads(json.dumps(_native(first)))
    for node in data["nodes"]:
        if node["id"] == "cabinet6":
            node["state"] = ["open"]
    opened = tmp_path / "opened.json"
    opened.write_text(json.dumps(data))
    later = scenes.save(scenes.house(later=True), tmp_path / "later.json")
    g = update(load(opened), later).graph
    assert "open" in g.node("cabinet6").state


def _native(graph):
    from sceneplan.graph.io import to_dict

    return to_dict(graph)


@pytest.mark.skipif(not APARTMENT.is_file(), reason="needs ../shared/data/spark-dsg")
@pytest.mark.slow
def test_spark_dsg_apartment_file(tmp_path):
    out = tmp_path / "apt.json"
    args = ("graph", "import", "--from", "spark-dsg", APARTMENT, out, "--json")
    result = cli(*args)
    assert result.exit_code == 2 and "--labelspace" in result.output  # the file names none
    result = cli(*args, "--labelspace", "uhumans2")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{") :])["report"]
    counted = sum(sum(report[o].values()) for o in ("mapped", "guessed", "dropped"))
    assert counted == 296  # every node of the file: 7 objects, 185 places, 1 room, ...
    assert any("outdated encoding" in note for note in report["notes"])
    g = load(out)
    things = [n for n in g if n.kind in (NodeKind.ASSET, NodeKind.OBJECT) and n.category != "floor"]
    assert len(things) == 7 and sum(n.kind is NodeKind.OBJECT for n in things) == 2
    assert cli("graph", "check", out).exit_code == 0
    assert nx.is_connected(g.topology)  # every pose reaches the room
    assert g.node("agent").parent in g.topology
    save(g, tmp_path / "again.json")


def test_a_node_named_by_its_class_in_a_file_without_labelspace():
    imported = import_source("spark-dsg", DATA / "two_nodes.dsg.json")
    mug = imported.graph.node("mug")  # named "mug", label 1 (an appliance in uHumans2)
    assert mug.kind is NodeKind.OBJECT and mug.category == "mug"
    assert imported.graph.node("agent").parent == "kitchen"  # no agent node: the first room
    assert any("no agent node" in note for note in imported.report.notes)


def test_pieces_hydra_left_apart_are_joined_where_its_own_edges_reach(tmp_path):
    g = scenes.house()  # places 0..5 in a chain; its longest place edge is 3 m
    scenes.add_room(g, 3, 1, [14, 0, 0])
    scenes.add_place(g, 7, [12.5, 0, 0])  # 2.5 m from the living room's place p5
    g.insert_edge(scenes.P(7), scenes.R(3))
    scenes.add_room(g, 4, 2, [40, 0, 0])
    scenes.add_place(g, 8, [40, 0, 0])  # 27.5 m from anything
    g.insert_edge(scenes.P(8), scenes.R(4))
    out = tmp_path / "o.json"
    result = cli("graph", "import", "--from", "spark-dsg", scenes.save(g, tmp_path / "h.json"), out)
    assert result.exit_code == 0, result.output
    graph = load(out)
    assert graph.linked("pose5", "pose7")
    assert "pose5 - pose7: joins two pieces no edge of the file joins (2.5 m apart" in result.output
    assert "hallway4 stay apart: no place of theirs is within 3.0 m" in result.output
    check = cli("graph", "check", out)
    assert check.exit_code == 1 and "cannot reach 1 room(s)" in check.output
    assert "hallway4" in check.output


def test_labels_only_one_packaged_space_names_are_read_with_it_said_first(tmp_path):
    g = spark_dsg.DynamicSceneGraph()
    scenes.add_room(g, 0, None, [0, 0, 0])
    scenes.add_place(g, 0, [0, 0, 0])
    g.insert_edge(scenes.P(0), scenes.R(0))
    scenes.add_object(g, 0, 120, [0, 0, 1], place=0)  # 120: only ADE20K's full space has it
    src = scenes.save(g, tmp_path / "nolabels.json")
    result = cli("graph", "import", "--from", "spark-dsg", src, tmp_path / "o.json")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[1]  # after "wrote ..."
    assert first.startswith("spark-dsg: ") and "Hydra's ade20k_full label space" in first
    assert "food120" not in result.output and load(tmp_path / "o.json").node("food0")
