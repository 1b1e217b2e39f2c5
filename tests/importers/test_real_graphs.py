"""The Spark-DSG and Matterport3D importers on real files no one here wrote (real-graphs/)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("spark_dsg", reason="these importers need spark_dsg (the spark extra)")

from sceneplan.cli import app
from sceneplan.graph import NodeKind, load
from sceneplan.importers.taxonomy import classify

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real-graphs"
IGX = REAL / "apartment_igx_dsg.json"
X8F5_DSG = REAL / "x8F5xyUWy9e_0_gt_partial_dsg_1447.json"
X8F5_HOUSE = REAL / "x8F5xyUWy9e.house"
# slow: the real public graphs
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not IGX.is_file(), reason="needs ../shared/data/real-graphs"),
]
FIXTURES = ("radiator", "faucet", "water_heater", "column", "railing", "ledge", "fireplace")
runner = CliRunner()


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _object_labels(path: Path) -> Counter:
    nodes = json.loads(path.read_text())["nodes"]
    return Counter(
        n["attributes"]["semantic_label"]
        for n in nodes
        if n["attributes"].get("type") == "ObjectNodeAttributes"
    )


def test_igx_apartment_loads_without_its_dangling_edges_and_keeps_every_object(tmp_path):
    out = tmp_path / "igx.json"
    result = cli("graph", "import", "--from", "spark-dsg", IGX, out, "--labelspace", "uhumans2")
    assert result.exit_code == 0, result.output
    assert "refused 6 edge(s) naming nodes the file does not have" in result.output
    graph = load(out)
    things = [n for n in graph if n.kind in (NodeKind.ASSET, NodeKind.OBJECT)]
    assert len(things) == sum(_object_labels(IGX).values()) == 27
    lamp = next(n for n in things if n.category == "lamp")
    assert cli("solve", out, "--goal", f"held({lamp.id})").exit_code == 0


def test_a_dsg_without_a_label_space_asks_for_one_then_reads_mpcat40(tmp_path):
    out = tmp_path / "x8f5.json"
    args = ("graph", "import", "--from", "spark-dsg", X8F5_DSG, out)
    result = cli(*args)
    assert result.exit_code == 2 and "give --labelspace NAME or FILE" in result.output
    assert "mpcat40" in result.output and not out.exists()
    result = cli(*args, "--labelspace", "mpcat40")
    assert result.exit_code == 0, result.output
    graph = load(out)
    labels = _object_labels(X8F5_DSG)  # mpcat40: 3 chair, 11 bed, 15 sink
    by_category = Counter(n.category for n in graph if n.kind is NodeKind.ASSET)
    assert (by_category["chair"], by_category["bed"], by_category["sink"]) == (
        labels[3],
        labels[11],
        labels[15],
    )
    movable = {n.category for n in graph.of_kind(NodeKind.OBJECT)}
    assert movable and all(classify(c).kind == "object" for c in movable)
    assert not movable & set(FIXTURES)


def test_the_mp3d_house_has_no_movable_fixture(tmp_path):
    out = tmp_path / "house.json"
    assert cli("graph", "import", "--from", "mp3d", X8F5_HOUSE, out).exit_code == 0
    graph = load(out)
    fixtures = [n for n in graph if n.category in FIXTURES]
    assert {n.category for n in fixtures} >= {"radiator", "faucet", "ledge"}
    assert all(n.kind is NodeKind.ASSET and "pickup" not in n.affordances for n in fixtures)
    movable = {n.category for n in graph.of_kind(NodeKind.OBJECT)}
    assert movable <= {"towel", "plant", "speaker", "robe", "coat"}, movable
    assert graph.node("radiator31").kind is NodeKind.ASSET
    result = cli("solve", out, "--goal", "held(radiator31)")
    assert result.exit_code == 1, result.output
