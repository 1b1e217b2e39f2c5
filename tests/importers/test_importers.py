"""The importers on small hand-written files: graphs, tasks, reports, and bad input.

Nothing here needs bddl, virtualhome-eval or spark-dsg: the BEHAVIOR tests
give the importer a small taxonomy (data/taxonomy.json); one test that needs
the real bddl taxonomy skips without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.graph import NodeKind
from sceneplan.importers import Imported, ImportReport, import_source, list_importers
from sceneplan.importers.behavior import convert, read_problem
from sceneplan.importers.behavior.taxonomy import DictTaxonomy
from sceneplan.importers.virtualhome import convert_task, read_graph
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import LOOKPLANGRAPH, SAYPLAN

DATA = Path(__file__).parent / "data"
KLICKITAT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "klickitat"
runner = CliRunner()


@pytest.fixture(scope="module")
def taxonomy() -> DictTaxonomy:
    return DictTaxonomy(json.loads((DATA / "taxonomy.json").read_text()))


def test_report_counts_by_reason():
    report = ImportReport("x")
    report.mapped("room", 2)
    report.guessed("door pose")
    other = ImportReport("y")
    other.dropped("wall", 3)
    report.merge(other)
    assert report.counts() == {"mapped": 2, "guessed": 1, "dropped": 3}
    assert report.to_dict()["dropped"] == {"wall": 3}
    assert "dropped  3  wall" in report.text()


def test_builtin_importers_and_unknown_name():
    assert list_importers()[:4] == ["stanford3dsg", "behavior", "virtualhome", "spark-dsg"]
    with pytest.raises(BadInputError, match=r"unknown importer 'behaviour'.*did you mean"):
        import_source("behaviour", DATA / "put_away.bddl")


# -- BEHAVIOR ------------------------------------------------------------------------------


def test_behavior_scene_fixed_from_taxonomy_not_from_ontop(taxonomy):
    imported = convert(read_problem(DATA / "put_away.bddl"), taxonomy)
    g = imported.graph
    assert {n.id for n in g.of_kind(NodeKind.ROOM)} == {"living_room", "kitchen"}
    shelf = g.node("shelf_1")  # written `ontop` of the floor, but a sceneObject
    assert shelf.kind is NodeKind.ASSET and shelf.parent == "living_room"
    assert g.node("box_1").kind is NodeKind.OBJECT and g.node("box_1").parent == "floor_1"
    assert "receptacle" in g.node("box_1").affordances  # fillable, no lid
    assert g.node("cabinet_1").state == ("closed",)
    assert "cabinet_2" not in g and "agent" in g  # the wildcard instance is dropped
    assert (
        imported.report.counts_by["dropped"]["wildcard instance (_*): any further ones of its kind"]
        == 1
    )
    assert g.node("agent").parent == "living_room"


def test_behavior_task_goal_instruction_and_oracle(taxonomy):
    imported = convert(read_problem(DATA / "put_away.bddl"), taxonomy, suite="mine")
    (task,) = imported.tasks
    # BEHAVIOR's inside is a body's (in a box in the cabinet counts): `inside`, not `inside_of`
    assert task.goal == (
        "inside(candle_1, cabinet_1) and inside(candle_2, cabinet_1) and not open(cabinet_1)"
    )
    for name in ("candle 1", "candle 2", "cabinet 1"):
        assert name in task.instruction
    from sceneplan.symbolic.solver import PlanningProblem, solve

    result = solve(PlanningProblem(imported.graph, task.goal, vocabulary=LOOKPLANGRAPH), 30)
    assert result.ok
    run = Simulator(imported.graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)


def test_behavior_dust_is_the_state_dirty_and_wiping_cleans_it(taxonomy):
    imported = convert(read_problem(DATA / "dusty_shelf.bddl"), taxonomy)
    graph = imported.graph
    assert "dust_1" not in graph  # a substance, no node
    assert "dirty" in graph.node("shelf_1").state and "dirty" in graph.node("jar_1").state
    assert "wipe" in graph.node("jar_1").affordances
    (task,) = imported.tasks
    assert task.goal == ("not dirty(shelf_1) and not dirty(jar_1) and ontop_of(jar_1, table_1)")
    assert "clean the dust off shelf 1" in task.instruction
    from sceneplan.symbolic.solver import PlanningProblem, solve

    result = solve(PlanningProblem(graph, task.goal, vocabulary=LOOKPLANGRAPH), 30)
    assert result.ok and {a.name for a in result.plan} >= {"wipe", "put_on"}
    run = Simulator(graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert run.ok and parse_goal(task.goal, graph).holds(run.final_state)


def test_behavior_cloth_folds_and_unfolds(taxonomy):
    imported = convert(read_problem(DATA / "fold_towels.bddl"), taxonomy)
    graph = imported.graph
    assert graph.node("towel_1").state == ("folded",)
    assert graph.node("towel_2").state == ("unfolded",)  # cloth lies spread out unless folded
    assert {"fold", "unfold"} <= set(graph.node("shirt_1").affordances)
    assert "fold" not in graph.node("table_1").affordances
    (task,) = imported.tasks
    assert task.goal == (
        "folded(towel_1) and inside(towel_1, cabinet_1) and folded(towel_2) "
        "and inside(towel_2, cabinet_1) and not folded(shirt_1)"
    )
    from sceneplan.symbolic.solver import PlanningProblem, solve

    for vocabulary in (LOOKPLANGRAPH, SAYPLAN):
        result = solve(PlanningProblem(graph, task.goal, vocabulary=vocabulary), 30)
        assert result.ok and {a.name for a in result.plan} >= {"fold", "unfold"}
        run = Simulator(graph, vocabulary).verify_plan([str(a) for a in result.plan])
        assert run.ok and parse_goal(task.goal, graph).holds(run.final_state)


def test_behavior_cloth_overlaid_or_draped_rests_on_what_it_covers(taxonomy):
    # the graph has no geometry: a tablecloth over a table, or a towel over a chair, is on it
    imported = convert(read_problem(DATA / "cover_table.bddl"), taxonomy)
    graph = imported.graph
    assert (graph.node("towel_1").parent, graph.node("towel_1").relation.value) == (
        "chair_1",
        "ontop_of",
    )
    assert imported.report.counts_by["guessed"]["draped read as ontop (the graph has no geometry)"]
    (task,) = imported.tasks
    assert task.goal == "ontop_of(tablecloth_1, table_1) and not ontop_of(towel_1, chair_1)"
    assert "spread tablecloth 1 over table 1" in task.instruction
    assert "take towel 1 off chair 1" in task.instruction
    from sceneplan.symbolic.solver import PlanningProblem, solve

    result = solve(PlanningProblem(graph, task.goal, vocabulary=LOOKPLANGRAPH), 30)
    run = Simulator(graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert result.ok and run.ok and parse_goal(task.goal, graph).holds(run.final_state)


def test_behavior_a_thing_with_no_place_is_placed_with_what_rests_on_it(tmp_path, taxonomy):
    # a curtain draped on a rod that no inroom fact places: the rod goes on the floor of
    # the first room by rule (not food), and the curtain stays draped on it
    text = (DATA / "cover_table.bddl").read_text()
    text = text.replace("chair.n.01_1 - chair.n.01", "curtain_rod.n.01_1 - curtain_rod.n.01")
    text = text.replace("(inroom chair.n.01_1 dining_room)", "")
    text = text.replace("chair.n.01_1", "curtain_rod.n.01_1")
    path = tmp_path / "rod.bddl"
    path.write_text(text)
    imported = convert(read_problem(path), taxonomy)
    assert imported.graph.node("curtain_rod_1").parent == "floor_dining_room"
    assert imported.graph.node("towel_1").parent == "curtain_rod_1"
    guessed = imported.report.counts_by["guessed"]
    assert guessed["object with no place: on the floor of the first room"] == 1
    assert not any("no place" in gap for gap in imported.extra["gaps"])


def test_behavior_inexpressible_goal_is_a_gap_not_a_task(taxonomy):
    imported = convert(read_problem(DATA / "glittering.bddl"), taxonomy)
    assert imported.tasks == []
    assert "goal uses predicate glittering" in imported.extra["gaps"]
    assert imported.report.counts_by["dropped"]["task: goal uses predicate glittering"] == 1


def test_behavior_bad_input(tmp_path, taxonomy):
    bad = tmp_path / "x.bddl"
    bad.write_text("(define (domain omnigibson))")
    with pytest.raises(BadInputError, match="not BDDL"):
        read_problem(bad)
    with pytest.raises(BadInputError, match=r"cannot read the BDDL problem .*: No such file"):
        read_problem(tmp_path / "missing.bddl")
    bad.write_bytes(b"(define (problem caf\xe9))")
    with pytest.raises(
        BadInputError, match=r"the BDDL problem .*x\.bddl: not UTF-8 text \(byte 20\)"
    ):
        read_problem(bad)
    text = (DATA / "put_away.bddl").read_text().replace("box.n.01", "boxx.n.01")
    bad.write_text(text)
    with pytest.raises(BadInputError, match=r"unknown synset 'boxx\.n\.01'"):
        convert(read_problem(bad), taxonomy)


def test_behavior_unknown_synset_from_the_cli(tmp_path):
    pytest.importorskip("bddl", reason="needs the bddl taxonomy (pip install '.[behavior]')")
    bad = tmp_path / "x.bddl"
    bad.write_text((DATA / "put_away.bddl").read_text().replace("box.n.01", "boxx.n.01"))
    result = runner.invoke(
        app, ["graph", "import", "--from", "behavior", str(bad), str(tmp_path / "o.json")]
    )
    assert result.exit_code == 2 and "unknown synset 'boxx.n.01'" in result.output
    assert "Traceback" not in result.output


# -- VirtualHome ---------------------------------------------------------------------------


def vh_task(goal: dict) -> Imported:
    data = read_graph(DATA / "kitchen.vh.json")
    program = (DATA / "fridge_apple.txt").read_text()
    return convert_task("t1", data, goal, program, suite="mine")


def test_virtualhome_scene_parents():
    imported = vh_task({"goal": [], "actions": []})
    g = imported.graph
    assert g.node("mug_20").parent == "kitchen_table_10"  # ON
    assert g.node("apple_21").parent == "kitchen_table_10"  # only a room edge, CLOSE to a table
    assert g.node("book_22").parent == "floor_bedroom"  # nothing near: a room-floor asset
    assert g.node("floor_bedroom").kind is NodeKind.ASSET
    assert "wall_12" not in g and g.node("agent").parent == "bedroom"
    assert g.node("fridge_11").state == ("closed", "on")


def test_virtualhome_goal_and_program():
    goal = {
        "goal": [
            {"from_id": 21, "relation_type": "INSIDE", "to_id": 11},
            {"id": 11, "class_name": "fridge", "state": "CLOSED"},
        ],
        "actions": [],
    }
    (task,) = vh_task(goal).tasks
    assert task.goal == "inside_of(apple_21, fridge_11) and closed(fridge_11)"
    assert task.instruction.startswith("Put the apple in the fridge. Walk to the kitchen")
    assert task.reference_plan == [
        "go_to(kitchen)",
        "pick_up(apple_21)",
        "open(fridge_11)",
        "put_inside(fridge_11)",
        "close(fridge_11)",
        "done()",
    ]


def test_virtualhome_inexpressible_goal():
    goal = {
        "goal": [{"id": 11, "class_name": "fridge", "state": "GLITTERING"}],
        "actions": ["DRINK"],
    }
    imported = vh_task(goal)
    assert imported.tasks == []
    assert set(imported.extra["gaps"]) >= {"goal uses state glittering", "goal needs action drink"}


def test_virtualhome_edge_to_a_missing_node(tmp_path):
    data = json.loads((DATA / "kitchen.vh.json").read_text())
    data["edges"].append({"from_id": 20, "relation_type": "ON", "to_id": 99})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(
        app, ["graph", "import", "--from", "virtualhome", str(bad), str(tmp_path / "o.json")]
    )
    assert result.exit_code == 2
    assert "edge 20 ON 99 names node 99, which the graph does not have" in result.output
    assert "Traceback" not in result.output


# -- Stanford 3DSG, the CLI (Spark-DSG: test_spark_dsg.py) ---------------------------------


def test_not_bddl_from_the_cli(tmp_path):
    result = runner.invoke(
        app,
        [
            "graph",
            "import",
            "--from",
            "behavior",
            str(DATA / "kitchen.vh.json"),
            str(tmp_path / "o.json"),
        ],
    )
    assert result.exit_code == 2 and "not BDDL" in result.output


@pytest.mark.skipif(not KLICKITAT.is_dir(), reason="needs ../shared/data/klickitat")
def test_stanford3dsg_cli_prints_the_report(tmp_path):
    out = tmp_path / "k.json"
    result = runner.invoke(
        app,
        [
            "graph",
            "import",
            "--from",
            "stanford3dsg",
            str(KLICKITAT / "Klickitat.tiny_verified.json"),
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "28 room" in result.output and "guessed  47  door pose" in result.output
    assert json.loads(out.read_text())["format"] == "sceneplan-graph"


def test_cli_writes_tasks(tmp_path):
    pytest.importorskip(
        "bddl", reason="the CLI reads synsets from bddl (pip install '.[behavior]')"
    )
    out, tasks = tmp_path / "g.json", tmp_path / "t.yaml"
    result = runner.invoke(
        app,
        [
            "graph",
            "import",
            "--from",
            "behavior",
            str(DATA / "put_away.bddl"),
            str(out),
            "--tasks",
            str(tasks),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    from sceneplan.datasets.tasks import load_task_file

    (task,) = load_task_file(tasks)
    assert task.environment == str(out)
