"""Importers' checks at the read step: versions they do not know, files cut short, names a
problem does not declare, and live updates that account for every node (issue 40)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.importers import import_source
from sceneplan.importers.behavior.bddl import parse_problem

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
HOUSE = SHARED / "spark-dsg" / "example_mp3d_scene.house"
runner = CliRunner()


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_a_bddl_init_naming_an_undeclared_object_is_refused():
    text = (DATA / "put_away.bddl").read_text()
    ghost = text.replace("(ontop box.n.01_1 floor.n.01_1)", "(ontop ghost.n.01_1 floor.n.01_1)")
    with pytest.raises(BadInputError, match=r"names ghost.n.01_1, which :objects does not"):
        parse_problem(ghost, "ghost.bddl")
    assert parse_problem(text, "put_away.bddl").name == "putting_away_candles"


def _activities() -> list[Path]:
    """The activity definitions the bddl package ships (the behavior extra, in dev)."""
    bddl = pytest.importorskip("bddl", reason="the behavior extra ships the activities")
    return sorted((Path(bddl.__file__).parent / "activity_definitions").glob("*/problem0.bddl"))


def test_every_activity_bddl_ships_passes_the_read_checks():
    files = _activities()
    assert len(files) > 1000
    for path in files:
        problem = parse_problem(path.read_text(encoding="utf-8"), str(path))
        assert problem.objects and problem.init and problem.goal


def test_a_real_activitys_init_naming_an_undeclared_object_is_refused():
    for path in _activities()[::50]:
        text = path.read_text(encoding="utf-8")
        init = text.index("(:init")
        problem = parse_problem(text, str(path))
        name = problem.init[0][1]  # the object of its first fact
        ghost = text[:init] + re.sub(
            rf"(?<=\s){re.escape(name)}(?=[\s)])", "ghost.n.01_1", text[init:], count=1
        )
        with pytest.raises(BadInputError, match=r"names ghost.n.01_1, which :objects does not"):
            parse_problem(ghost, str(path))


@pytest.mark.skipif(not HOUSE.exists(), reason="needs /work/shared/data/spark-dsg")
def test_a_house_file_of_an_unknown_version_or_cut_short_is_refused(tmp_path):
    pytest.importorskip("spark_dsg")
    text = HOUSE.read_text()
    newer = tmp_path / "newer.house"
    newer.write_text(text.replace("ASCII 1.1", "ASCII 9.9", 1))
    result = cli("graph", "import", "--from", "mp3d", newer, tmp_path / "a.json")
    assert result.exit_code == 2
    assert "begins 'ASCII 9.9', not 'ASCII 1.1'" in " ".join(result.output.split())
    half = tmp_path / "half.house"
    half.write_text(text[: len(text) // 2])
    result = cli("graph", "import", "--from", "mp3d", half, tmp_path / "b.json")
    assert result.exit_code == 2
    assert "the header declares 1,659 categories, the file has" in " ".join(result.output.split())
    assert not (tmp_path / "b.json").exists()
    assert cli("graph", "import", "--from", "mp3d", HOUSE, tmp_path / "c.json").exit_code == 0


REAL_HOUSE = SHARED / "real-graphs" / "x8F5xyUWy9e.house"  # every kind of line, as released


@pytest.mark.skipif(not REAL_HOUSE.exists(), reason="needs /work/shared/data/real-graphs")
@pytest.mark.parametrize(
    ("cut", "message"),
    [
        # cut inside the images, panoramas or segments: kinds sceneplan does not read
        (("I", 100, ""), "the header declares 774 images, the file has 100 (I lines)"),
        (("P", 10, ""), "the header declares 43 portals and panoramas, the file has 10"),
        (("E", 50, "E  50 3"), "the last line, one of the segments (E), has 3 of its 19 fields"),
    ],
)
def test_a_house_file_cut_in_a_kind_sceneplan_does_not_read_is_refused(tmp_path, cut, message):
    pytest.importorskip("spark_dsg")
    kind, kept, partial = cut
    lines = REAL_HOUSE.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(kind))
    cut_copy = tmp_path / "cut.house"
    cut_copy.write_text("".join(lines[: start + kept]) + partial)
    result = cli("graph", "import", "--from", "mp3d", cut_copy, tmp_path / "out.json")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "the file is cut short; copy it again" in " ".join(result.output.split())


@pytest.mark.skipif(not (HOUSE.exists() and REAL_HOUSE.exists()), reason="needs /work/shared/data")
def test_spark_dsgs_example_without_images_and_most_segments_still_imports(tmp_path):
    """Its header declares 864 images, 48 panoramas and 27,703 segments; it has none, none
    and 6, every one whole: nothing the importer reads is missing."""
    from sceneplan.importers.mp3d import check_house

    check_house(HOUSE)
    check_house(REAL_HOUSE)


def test_a_live_update_keeps_every_node_the_newer_file_lacks(tmp_path):
    """Nodes whose parent went too (the objects of a room Hydra forgot) are kept with it,
    and the note counts them all."""
    from sceneplan.graph.io import to_dict
    from sceneplan.importers.spark_dsg import convert
    from sceneplan.importers.spark_dsg.load import load_dsg
    from sceneplan.importers.spark_dsg.mapping import kept_ids

    pytest.importorskip("spark_dsg")
    import dsg_scenes as scenes
    from sceneplan.importers.spark_dsg import update

    house_file = scenes.save(scenes.house(), tmp_path / "house.json")
    first = import_source("spark-dsg", house_file).graph
    fewer = scenes.save(scenes.rooms_only(), tmp_path / "rooms.json")
    updated = update(first, fewer)
    ids = kept_ids(to_dict(first)["nodes"])
    fresh = convert(load_dsg(fewer)[0], name=first.name, keep_ids=ids).graph
    lacking = [node.id for node in first if node.id not in fresh]
    assert any(first.node(n).parent in lacking for n in lacking)  # some went with their parent
    for node in first:
        assert node.id in updated.graph
    assert any(f"{len(lacking)} node(s) of the scene" in note for note in updated.report.notes)


def test_a_file_of_a_newer_spark_dsg_is_refused(tmp_path):
    pytest.importorskip("spark_dsg")
    data = json.loads((DATA / "two_nodes.dsg.json").read_text())
    data["SPARK_DSG_header"]["version"] = {"major": 99, "minor": 0, "patch": 0}
    newer = tmp_path / "v99.json"
    newer.write_text(json.dumps(data))
    result = cli("graph", "import", "--from", "spark-dsg", newer, tmp_path / "o.json")
    assert result.exit_code == 2
    assert "written by Spark-DSG 99.0.0, newer than the spark_dsg" in " ".join(
        result.output.split()
    )
    data["SPARK_DSG_header"]["version"] = "new"
    newer.write_text(json.dumps(data))
    with pytest.raises(BadInputError, match="the Spark-DSG header's version is 'new'"):
        import_source("spark-dsg", newer)
