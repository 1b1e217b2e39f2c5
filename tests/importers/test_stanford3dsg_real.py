"""The Stanford 3D Scene Graph importer on the 70 buildings of Gibson's tiny split, and .npz files.

Each building imports (exit 0) and a pick-and-place goal on a thing a hand
carries, ending in another room, is solved and verified. The `.npz` files are
built here from the JSON ones, as the dataset stores them (one pickled dict,
`output`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.graph import NodeKind, load
from sceneplan.graph.io import to_dict
from sceneplan.importers import import_source
from sceneplan.importers.stanford3dsg.geometry import Box
from sceneplan.importers.taxonomy import classify
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real-graphs"
BUILDINGS = sorted((REAL / "stanford3dsg").glob("*.json"))
needs_data = pytest.mark.skipif(not BUILDINGS, reason="needs ../shared/data/real-graphs")
runner = CliRunner()


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _data(name: str) -> dict:
    return json.loads((REAL / "stanford3dsg" / name).read_text())


@needs_data
@pytest.mark.parametrize("path", BUILDINGS, ids=lambda p: p.name.removesuffix(".json"))
@pytest.mark.slow
def test_every_building_imports_and_plans_a_pick_and_place(path, tmp_path):
    out = tmp_path / "g.json"
    result = cli("graph", "import", "--from", "stanford3dsg", path, out)
    assert result.exit_code == 0, result.output
    graph = load(out)
    assert nx.is_connected(graph.topology), "some room cannot be reached"
    movable = [n for n in graph.of_kind(NodeKind.OBJECT) if "pickup" in n.affordances]
    if not movable:  # the file has nothing a hand carries (Stockman's verified output)
        classes = {o["class_"] for o in _data(path.name)["objects"]}
        assert all(classify(c) is None or classify(c).kind != "object" for c in classes)
        return
    thing = movable[0]
    home = graph.room_of(thing.id)
    target = next(
        n
        for n in reversed(graph.of_kind(NodeKind.ASSET))
        if "release" in n.affordances
        and "open" not in n.affordances
        and graph.room_of(n.id) != home
    )
    goal = parse_goal(f"ontop_of({thing.id}, {target.id})", graph)
    result = solve(PlanningProblem(graph, goal), timeout=20)
    assert result.ok, result.status
    verification = Simulator(graph).verify_plan(result.plan)
    assert verification.ok and goal.holds(verification.final_state), verification.feedback


@needs_data
@pytest.mark.parametrize("name", ["Corozal.tiny_verified.json", "Leonardo.tiny_verified.json"])
def test_an_object_with_no_room_goes_to_the_room_holding_it_else_the_nearest_of_its_floor(name):
    data = _data(name)
    imported = import_source("stanford3dsg", REAL / "stanford3dsg" / name)
    graph, guessed = imported.graph, imported.report.to_dict()["guessed"]
    orphans = [o for o in data["objects"] if o["parent_room"] is None]
    assert sum(n for r, n in guessed.items() if r.startswith("object room: none")) == len(orphans)
    box_of = {
        tuple(_cm(r["location"])): Box.around(r["location"], r["size"]) for r in data["rooms"]
    }
    for item in orphans:
        (node,) = [n for n in graph if n.position and list(n.position) == _cm(item["location"])]
        room = graph.node(graph.room_of(node.id))
        x, y, z = item["location"]
        holding = [
            b for b in box_of.values() if b.distance_to(x, y) < 0.05 and b.zmin <= z <= b.zmax
        ]
        box = box_of[tuple(room.position)]
        if holding:
            assert box in holding
        else:  # the nearest room of the floor it was put on
            floor_rooms = [r for r in graph.of_kind(NodeKind.ROOM) if r.parent == room.parent]
            assert box.distance_to(x, y) == min(
                box_of[tuple(r.position)].distance_to(x, y) for r in floor_rooms
            )
    cups = [o for o in orphans if o["class_"] in ("cup", "wine glass")]
    assert cups  # things a hand carries, whatever the dataset's affordances say
    for cup in cups:
        (node,) = [n for n in graph if n.position and list(n.position) == _cm(cup["location"])]
        assert node.kind is NodeKind.OBJECT and "pickup" in node.affordances


def _cm(values) -> list[float]:
    return [round(v, 2) + 0.0 for v in values]


@needs_data
def test_a_floor_named_c1_is_floor_c_and_no_room_is_left_apart():
    imported = import_source("stanford3dsg", REAL / "stanford3dsg/Newfields.tiny_verified.json")
    graph = imported.graph
    assert len(graph.of_kind(NodeKind.FLOOR)) == 3  # A, B, C: C1 is C
    assert graph.node("empty_room0").parent == graph.node("corridor3").parent
    assert "floor C1 read as floor C (its rooms are at C's height)" in imported.report.notes
    assert nx.is_connected(graph.topology)


def test_a_misspelt_category_and_apart_rooms_are_read_and_joined(tmp_path):
    rooms = [
        _room(1, "A", "staricase", (0, 0, 1.5), (2, 2, 3)),
        _room(2, "A", "kitchen", (2.0, 0, 1.5), (2, 2, 3)),  # touches the stairs
        _room(3, "A", "bedroom", (9.0, 0, 1.5), (2, 2, 3)),  # touches no other room
        _room(4, "B", "corridor", (0, 0, 4.5), (2, 2, 3)),  # above the stairs
        _room(5, "C", "lobby", (30, 0, 7.5), (2, 2, 3)),  # no staircase reaches it
    ]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"rooms": rooms, "objects": []}))
    imported = import_source("stanford3dsg", path)
    graph, report = imported.graph, imported.report
    assert "staircase0" in graph and "room category 'staricase' read as 'staircase'" in report.notes
    assert nx.is_connected(graph.topology)
    guessed = report.to_dict()["guessed"]
    assert guessed["door pose: joins rooms touching no other to the closest room"] == 1
    assert guessed["stair pose: joins a floor no staircase reaches"] == 2
    assert any(
        "bedroom0" in note and "joined at their closest point" in note for note in report.notes
    )


def _room(rid, floor, category, location, size) -> dict:
    return {"id": rid, "floor_number": floor, "scene_category": category, "location": location,
            "size": size}  # fmt: skip


def test_the_taxonomy_decides_what_a_hand_carries(tmp_path):
    rooms = [_room(1, "A", "kitchen", (0, 0, 1.5), (6, 6, 3))]
    classes = ["cup", "wine glass", "spoon", "radiator", "bicycle", "glorp", "dining table"]
    objects = [
        {"id": i, "class_": c, "parent_room": 1, "location": [i * 0.3, 0, 1], "size": [0.1] * 3,
         "action_affordance": ["pick up"] if c in ("glorp", "bicycle") else []}
        for i, c in enumerate(classes, 1)
    ]  # fmt: skip
    path = tmp_path / "kitchen.json"
    path.write_text(json.dumps({"rooms": rooms, "objects": objects}))
    imported = import_source("stanford3dsg", path)
    kind = {n.id: n.kind for n in imported.graph}
    assert [kind[i] for i in ("cup0", "wine_glass0", "spoon0")] == [NodeKind.OBJECT] * 3
    assert [kind[i] for i in ("radiator0", "bicycle0", "glorp0")] == [NodeKind.ASSET] * 3
    hint = (
        "object -> fixed asset: unknown class 'glorp' kept fixed "
        "(--movable glorp or --fixed glorp to say)"
    )
    assert imported.report.to_dict()["guessed"][hint] == 1
    forced = import_source("stanford3dsg", path, movable=["glorp"], fixed=["cup"])
    assert forced.graph.node("glorp0").kind is NodeKind.OBJECT
    assert forced.graph.node("cup0").kind is NodeKind.ASSET


# -- the dataset's own .npz -----------------------------------------------------------------


def _npz(data: dict, path: Path) -> Path:
    """A 3DSceneGraph_NAME.npz as the dataset writes it: records by id, arrays for vectors."""

    def record(item: dict) -> dict:
        return {k: np.array(v) if k in ("location", "size") else v for k, v in item.items()}

    output = {
        "building": {"name": path.stem.removeprefix("3DSceneGraph_")},
        "room": {r["id"]: record(r) for r in data["rooms"]},
        "object": {o["id"]: record(o) for o in data["objects"]},
    }
    np.savez_compressed(path, output=output)
    return path


@needs_data
def test_an_npz_imports_to_the_same_graph_as_its_json(tmp_path):
    source = REAL / "stanford3dsg/Leonardo.tiny_verified.json"
    npz = _npz(json.loads(source.read_text()), tmp_path / "3DSceneGraph_Leonardo.npz")
    from_json, from_npz = (import_source("stanford3dsg", p) for p in (source, npz))
    assert to_dict(from_npz.graph) == to_dict(from_json.graph)
    assert from_npz.report.to_dict() == from_json.report.to_dict()
    out = tmp_path / "l.json"
    assert cli("graph", "import", "--from", "stanford3dsg", npz, out).exit_code == 0


def test_an_npz_numpy_1_wrote_reads_too(tmp_path):
    import io
    import pickle
    import zipfile

    rooms = {1: _room(1, "A", "kitchen", (0, 0, 1.5), (6, 6, 3))}
    rooms[1]["location"] = np.array(rooms[1]["location"], dtype=float)
    objects = {1: {"id": 1, "class_": "cup", "parent_room": None, "location": np.zeros(3),
                   "size": np.full(3, 0.1)}}  # fmt: skip
    body = pickle.dumps(np.array({"room": rooms, "object": objects}, dtype=object), protocol=2)
    body = body.replace(b"numpy._core.multiarray", b"numpy.core.multiarray")  # numpy 1's names
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "|O", "fortran_order": False, "shape": ()}
    )
    path = tmp_path / "3DSceneGraph_Old.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("output.npy", header.getvalue() + body)
    graph = import_source("stanford3dsg", path).graph
    assert graph.node("cup0").kind is NodeKind.OBJECT and graph.room_of("cup0") == "kitchen0"


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_an_npz_carrying_a_function_is_refused_and_nothing_runs(tmp_path):
    marker = tmp_path / "ran"
    rooms = {1: _room(1, "A", "kitchen", (0, 0, 1.5), (6, 6, 3))}
    np.savez(
        tmp_path / "3DSceneGraph_Evil.npz", output={"room": rooms, "object": {1: _Payload(marker)}}
    )
    with pytest.raises(BadInputError, match=r"refused: its pickle names posix\.system|nt\.system"):
        import_source("stanford3dsg", tmp_path / "3DSceneGraph_Evil.npz")
    result = cli(
        "graph",
        "import",
        "--from",
        "stanford3dsg",
        tmp_path / "3DSceneGraph_Evil.npz",
        tmp_path / "o.json",
    )
    assert result.exit_code == 2 and "nothing from it was run" in result.output
    assert "Traceback" not in result.output
    assert not marker.exists() and not (tmp_path / "o.json").exists()
