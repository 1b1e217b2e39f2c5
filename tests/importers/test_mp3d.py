"""The Matterport3D importer on a hand-written two-room house and on a real one."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

pytest.importorskip("spark_dsg", reason="the mp3d importer needs spark_dsg.mp3d (the spark extra)")

from sceneplan.cli import app
from sceneplan.graph import NodeKind, load
from sceneplan.importers import import_source

DATA = Path(__file__).parent / "data"
HOUSE = (
    Path(__file__).resolve().parents[2].parent / "shared/data/spark-dsg/example_mp3d_scene.house"
)
runner = CliRunner()


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_two_rooms_mapping():
    imported = import_source("mp3d", DATA / "two_rooms.house")
    g, report = imported.graph, imported.report
    assert g.node("kitchen0").category == "kitchen" and g.node("kitchen0").parent == "floor0"
    assert g.node("bedroom1").kind is NodeKind.ROOM
    assert g.node("mug3").kind is NodeKind.OBJECT and g.node("mug3").parent == "kitchen_counter2"
    assert "closed" in g.node("kitchen_cabinet6").state
    # the door object joins the two regions through a pose at the door
    assert sorted(g.links()) == [("bedroom1", "door1"), ("door1", "kitchen0")]
    # every object, region, level and the house is counted once: 7 + 3 + 1 + 1
    assert sum(report.counts().values()) == 12
    dropped = report.to_dict()["dropped"]
    assert dropped["region labelled junk (Z)"] == 1
    assert dropped["object -> nothing: wall is part of the building"] == 1
    assert g.node("agent").parent == "kitchen0"


def test_solve_moves_an_object_between_rooms(tmp_path):
    out = tmp_path / "house.json"
    assert cli("graph", "import", "--from", "mp3d", DATA / "two_rooms.house", out).exit_code == 0
    result = cli("solve", out, "--goal", "ontop_of(mug3, bed4)")
    assert result.exit_code == 0 and "goal reached" in result.output, result.output
    assert "goto(bedroom1)" in result.output


def test_fixed_override_and_bad_files(tmp_path):
    out = tmp_path / "o.json"
    args = ("graph", "import", "--from", "mp3d", DATA / "two_rooms.house", out, "--force")
    assert cli(*args, "--fixed", "mug").exit_code == 0
    assert load(out).node("mug3").kind is NodeKind.ASSET
    assert cli(*args, "--labelspace", "x.yaml").exit_code == 2
    text = tmp_path / "notes.house"
    text.write_text("just some text\n")
    result = cli("graph", "import", "--from", "mp3d", text, out, "--force")
    assert result.exit_code == 2 and "not a Matterport3D house file" in result.output
    binary = tmp_path / "blob.house"
    binary.write_bytes(bytes(range(256)) * 4)
    result = cli("graph", "import", "--from", "mp3d", binary, out)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output


@pytest.mark.skipif(not HOUSE.is_file(), reason="needs ../shared/data/spark-dsg")
def test_example_house(tmp_path):
    out = tmp_path / "house.json"
    result = cli("graph", "import", "--from", "mp3d", HOUSE, out)
    assert result.exit_code == 0, result.output
    assert cli("graph", "check", out).exit_code == 0
    g = load(out)
    assert len([n for n in g if n.kind is NodeKind.ROOM]) == 10
    assert nx.is_connected(g.topology)  # doors and open plans join every room
    # a towel from the bathroom to the bed
    result = cli("solve", out, "--goal", "ontop_of(towel25, bed5)")
    assert result.exit_code == 0 and "goal reached" in result.output, result.output
