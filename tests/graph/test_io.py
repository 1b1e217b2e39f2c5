"""Native JSON round trip, the SayPlan import, and every validation message."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from sceneplan.datasets import list_environments
from sceneplan.errors import BadInputError, GraphValidationError
from sceneplan.graph import NodeKind, Relation, from_dict, load, save, to_dict

ENVIRONMENTS = resources.files("sceneplan.datasets") / "environments"
COFFEE = Path(str(ENVIRONMENTS / "coffee.json"))

# The graph of SayPlan App. L, written as printed there (its "+" and "↔" edges included).
APP_L = {
    "nodes": {
        "room": [
            {"id": "bobs_room"},
            {"id": "toms_room"},
            {"id": "jacks_room"},
            {"id": "kitchen"},
            {"id": "livingroom"},
        ],
        "pose": [{"id": f"pose{i}"} for i in range(1, 6)],
        "agent": [{"location": "bobs_room", "id": "agent"}],
        "asset": [
            {"room": "toms_room", "state": "free", "affordances": ["release"], "id": "bed2"},
            {
                "room": "toms_room",
                "state": "closed",
                "affordances": ["open", "close", "release"],
                "id": "wardrobe2",
            },
            {
                "room": "kitchen",
                "state": "closed",
                "affordances": ["open", "close", "release"],
                "id": "fridge",
            },
            {
                "room": "kitchen",
                "affordances": ["turn_on", "turn_off"],
                "state": "off",
                "id": "coffee_machine",
            },
            {"room": "bobs_room", "state": "free", "affordances": ["release"], "id": "bed1"},
            {
                "room": "bobs_room",
                "state": "closed",
                "affordances": ["open", "close", "release"],
                "id": "wardrobe1",
            },
        ],
        "object": [
            {
                "affordances": ["pickup"],
                "state": "inside_of(wardrobe1)",
                "attributes": "blue",
                "id": "coffee_mug",
            }
        ],
    },
    "links": [
        "bobs_room + pose1",
        "bobs_room + agent",
        "bobs_room + bed1",
        "bobs_room + wardrobe1",
        "toms_room↔pose1",
        "toms_room↔pose2",
        "toms_room↔pose5",
        "toms_room↔bed2",
        "toms_room↔wardrobe2",
        "jacks_room↔pose2",
        "jacks_room↔pose3",
        "kitchen↔pose3",
        "kitchen↔pose4",
        "kitchen↔pose5",
        "kitchen↔fridge",
        "kitchen↔coffee_machine",
        "livingroom↔pose4",
        "wardrobe1↔coffee_mug",
    ],
}


def native(*extra: dict, links: list | None = None, drop: str = "", **patch) -> dict:
    """A small valid native graph, plus `extra` nodes, minus node `drop`, with node patches.

    `patch` maps a node id to the fields to set on it (a value of None deletes the field).
    """
    nodes = [
        {"id": "house", "kind": "building"},
        {"id": "floor0", "kind": "floor", "parent": "house"},
        {"id": "kitchen", "kind": "room", "parent": "floor0"},
        {"id": "hall", "kind": "room", "parent": "floor0"},
        {"id": "pose1", "kind": "pose", "parent": "floor0"},
        {"id": "fridge", "kind": "asset", "parent": "kitchen", "state": ["closed"]},
        {"id": "bench", "kind": "asset", "parent": "kitchen"},
        {"id": "mug", "kind": "object", "parent": "bench", "relation": "ontop_of"},
        {"id": "agent", "kind": "agent", "parent": "hall"},
    ]
    nodes = [n for n in nodes if n["id"] != drop]
    for node in nodes:
        for field, value in patch.get(node["id"], {}).items():
            if value is None:
                node.pop(field)
            else:
                node[field] = value
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "tiny",
        "nodes": [*nodes, *extra],
        "links": [["kitchen", "pose1"], ["pose1", "hall"]] if links is None else links,
    }


def problems_of(tmp_path: Path, data: dict) -> str:
    """Write `data` to a file, load it, and return the validation message (which must name it)."""
    path = tmp_path / "bad_graph.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GraphValidationError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


# -- round trip ----------------------------------------------------------------------


@pytest.mark.parametrize("name", list_environments())
def test_packaged_environment_to_dict_gives_back_the_file(name, tmp_path):
    path = ENVIRONMENTS / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert to_dict(from_dict(data)) == data
    save(load(path), tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()


def test_save_load_save_is_byte_identical(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    save(load(COFFEE), first)
    save(load(first), second)
    assert first.read_bytes() == second.read_bytes()
    assert json.loads(first.read_text(encoding="utf-8")) == json.loads(COFFEE.read_text())


def test_round_trip_keeps_every_field(tmp_path):
    data = native(
        mug={"category": "cup", "attributes": ["blue"], "affordances": ["pickup"]},
        kitchen={"position": [1.5, 2.0, 0.0], "description": "open-plan, with a café"},
    )
    path = tmp_path / "g.json"
    save(from_dict(data), path)
    assert to_dict(load(path)) == {**data, "description": ""}
    assert "café" in path.read_text(encoding="utf-8")


# -- SayPlan appendix format ----------------------------------------------------------


def test_sayplan_app_l_example_matches_the_coffee_environment():
    imported, coffee = from_dict(APP_L, "app_l"), load(COFFEE)
    assert {n.id for n in imported} == {n.id for n in coffee} - {"house", "floor0"}
    for node in imported:
        expected = coffee.node(node.id)
        assert node.kind is expected.kind
        assert node.relation is expected.relation
        if node.kind not in (NodeKind.ROOM, NodeKind.POSE):  # coffee.json adds a floor
            assert node.parent == expected.parent, node.id
    assert {frozenset(e) for e in imported.links()} == {frozenset(e) for e in coffee.links()}
    # Beds and wardrobes are as printed; coffee.json adds to the fridge ("on"), the coffee
    # machine ("release", attributes) and the mug ("empty") what the simulator needs.
    for node_id in ("bed1", "bed2", "wardrobe1", "wardrobe2"):
        a, b = imported.node(node_id), coffee.node(node_id)
        assert (a.affordances, a.state, a.attributes) == (b.affordances, b.state, b.attributes)
    mug = imported.node("coffee_mug")
    assert (mug.parent, mug.relation, mug.attributes) == (
        "wardrobe1",
        Relation.INSIDE_OF,
        ("blue",),
    )
    assert mug.state == ()  # "inside_of(wardrobe1)" is a relation, not a state word
    assert imported.agent.parent == "bobs_room"


def test_sayplan_object_linked_to_two_assets(tmp_path):
    data = json.loads(json.dumps(APP_L))
    data["links"].append("wardrobe2<->coffee_mug")
    message = problems_of(tmp_path, data)
    assert "node 'coffee_mug': field 'parent'" in message
    assert "two parents (wardrobe1, wardrobe2)" in message


def test_sayplan_object_without_relation_state_takes_its_linked_asset():
    data = json.loads(json.dumps(APP_L))
    del data["nodes"]["object"][0]["state"]
    mug = from_dict(data).node("coffee_mug")
    assert (mug.parent, mug.relation) == ("wardrobe1", Relation.ONTOP_OF)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["links"].append("kitchen--pose1"), "link 'kitchen--pose1': expected the form"),
        (lambda d: d["links"].append("kitchen<->pose9"), "unknown node 'pose9'"),
        (lambda d: d["nodes"]["room"].append({"name": "attic"}), "nodes.room: entry"),
        (lambda d: d["nodes"].update(room="kitchen"), "nodes.room: must be a list"),
        (lambda d: d.update(links=5), "field 'links' must be a list of 'a<->b' strings"),
    ],
)
def test_sayplan_format_problems(tmp_path, change, expected):
    data = json.loads(json.dumps(APP_L))
    change(data)
    assert expected in problems_of(tmp_path, data)


# -- validation: every problem names the file, the node and the field ------------------

CASES = {
    "duplicate id": (native({"id": "kitchen", "kind": "room"}), "kitchen", "id", "duplicate id"),
    "unknown parent": (native(fridge={"parent": "kitchn"}), "fridge", "parent", "'kitchn'"),
    "two parents": (
        native(mug={"parent": ["bench", "fridge"]}),
        "mug",
        "parent",
        "two parents (bench, fridge)",
    ),
    "unknown kind": (native({"id": "robot1", "kind": "robot"}), "robot1", "kind", "'robot'"),
    "containment cycle": (
        native(
            {"id": "box", "kind": "object", "parent": "tray", "relation": "inside_of"},
            {"id": "tray", "kind": "object", "parent": "box", "relation": "ontop_of"},
        ),
        "box",
        "parent",
        "containment cycle box -> tray -> box",
    ),
    "missing id": (native({"kind": "room"}), "#9 (no id)", "id", "missing required field"),
    "missing kind": (native({"id": "attic"}), "attic", "kind", "missing required field"),
    "missing parent of an asset": (
        native(fridge={"parent": None}),
        "fridge",
        "parent",
        "missing required field for an asset",
    ),
    "missing relation of an object": (
        native(mug={"relation": None}),
        "mug",
        "relation",
        "missing required field for an object",
    ),
    "unknown field": (native(fridge={"colour": "white"}), "fridge", "colour", "unknown field"),
    "wrong type (list)": (native(fridge={"state": "closed"}), "fridge", "state", "valid list"),
    "wrong type (number)": (native(hall={"position": [1, "x"]}), "hall", "position", "number"),
    "wrong type (id)": (native({"id": 7, "kind": "room"}), "#9 (no id)", "id", "valid string"),
    "parent of the wrong kind": (
        native(fridge={"parent": "pose1"}),
        "fridge",
        "parent",
        "'pose1' is a pose; the parent of an asset must be a room",
    ),
    "relation that does not fit": (
        native(mug={"relation": "held"}),
        "mug",
        "relation",
        "'held' does not fit parent 'bench'",
    ),
    "relation on a non-object": (
        native(fridge={"relation": "inside_of"}),
        "fridge",
        "relation",
        "only objects have a relation",
    ),
    "unknown relation": (native(mug={"relation": "under"}), "mug", "relation", "'under'"),
    "building with a parent": (
        native({"id": "campus", "kind": "building"}, house={"parent": "campus"}),
        "house",
        "parent",
        "a building has no parent; remove the field (found 'campus')",
    ),
    "parent of an object of the wrong kind": (
        native(mug={"parent": "kitchen"}),
        "mug",
        "parent",
        "the parent of an object must be an agent or an asset or an object",
    ),
    "id with a space": (
        native({"id": "my mug", "kind": "object", "parent": "bench", "relation": "ontop_of"}),
        "my mug",
        "id",
        "'my mug' is not a valid node id; an id is one or more letters, digits, '_', '-' or '.'",
    ),
    "id with a '>'": (native({"id": "a>b", "kind": "room"}), "a>b", "id", "not a valid node id"),
    "id that is not a plan token": (
        native({"id": "mug(2)", "kind": "room"}),
        "mug(2)",
        "id",
        "not a valid node id",
    ),
    "empty id": (native({"id": "", "kind": "room"}), "#9 (empty id)", "id", "not a valid node id"),
    "blank id": (
        native({"id": "  ", "kind": "room"}),
        "#9 (empty id)",
        "id",
        "not a valid node id",
    ),
    "NaN position": (
        native(hall={"position": [float("nan"), 0.0]}),
        "hall",
        "position",
        "finite number",
    ),
    "position of one number": (
        native(hall={"position": [1.0]}),
        "hall",
        "position",
        "must be [x, y] or [x, y, z] in metres, found 1 number(s)",
    ),
    "parent that is not an id": (
        native(fridge={"parent": 5}),
        "fridge",
        "parent",
        "must be the id of one node, found 5",
    ),
    "empty position": (native(hall={"position": []}), "hall", "position", "found 0 number(s)"),
    "infinite position": (
        native(hall={"position": [0.0, float("inf")]}),
        "hall",
        "position",
        "finite number",
    ),
}


@pytest.mark.parametrize(("data", "node", "field", "detail"), CASES.values(), ids=CASES.keys())
def test_validation_message_names_file_node_and_field(tmp_path, data, node, field, detail):
    message = problems_of(tmp_path, data)
    assert f"node {node if node.startswith('#') else repr(node)}: field '{field}'" in message
    assert detail in message


LINK_CASES = {
    "unknown end": ([["kitchen", "cellar"]], "link #0 kitchen<->cellar: unknown node 'cellar'"),
    "not a place": (
        [["kitchen", "fridge"]],
        "link #0 kitchen<->fridge: 'fridge' is an asset; links join rooms and poses only",
    ),
    "not a pair": ([["kitchen"]], "link #0: must be a pair of node ids, found ['kitchen']"),
    "not a list": ("kitchen<->pose1", "field 'links' must be a list"),
}


@pytest.mark.parametrize(("links", "expected"), LINK_CASES.values(), ids=LINK_CASES.keys())
def test_bad_links(tmp_path, links, expected):
    assert expected in problems_of(tmp_path, native(links=links))


@pytest.mark.parametrize(
    ("patch", "expected"),
    [
        ({"format": "graphml"}, "field 'format' must be 'sceneplan-graph', found 'graphml'"),
        ({"format": None}, "field 'format' must be 'sceneplan-graph', found None"),
        ({"version": 2}, "field 'version' must be 1, found 2"),
        ({"nodes": "kitchen"}, "field 'nodes' must be a list"),
    ],
)
def test_wrong_format_or_version(tmp_path, patch, expected):
    data = {**native(), **patch}
    assert expected in problems_of(tmp_path, {k: v for k, v in data.items() if v is not None})


def test_two_agents(tmp_path):
    message = problems_of(tmp_path, native({"id": "robot2", "kind": "agent", "parent": "hall"}))
    assert "2 agent nodes (agent, robot2); at most one" in message


def test_every_problem_is_reported_at_once(tmp_path):
    data = native({"id": "robot1", "kind": "robot"}, fridge={"parent": "kitchn"})
    message = problems_of(tmp_path, data)
    assert "2 problem(s)" in message
    assert "node 'robot1': field 'kind'" in message
    assert "node 'fridge': field 'parent'" in message


def test_top_level_must_be_an_object(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    with pytest.raises(GraphValidationError, match="the top level must be a JSON object") as info:
        load(path)
    assert str(path) in str(info.value)


def test_non_json_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "sceneplan-graph",\n "nodes": [}')
    with pytest.raises(BadInputError) as info:
        load(path)
    assert str(info.value) == f"{path}: not valid JSON (line 2, column 12: Expecting value)"


@pytest.mark.parametrize("kind", ["missing", "directory", "latin-1"])
def test_unreadable_file(tmp_path, kind):
    path = tmp_path / "nowhere.json"
    if kind == "directory":
        path.mkdir()
    if kind == "latin-1":
        path.write_bytes('{"name": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(BadInputError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"cannot read scene graph file {path}: ")
    expected = {"missing": "No such file", "directory": "directory", "latin-1": "not UTF-8 text"}
    assert expected[kind] in message


@pytest.mark.parametrize(
    "patch",
    [
        {"kitchen": {"position": "here"}},
        {"kitchen": {"kind": "kitchenette"}},
        {"kitchen": {"colour": "white"}},
    ],
    ids=["bad position", "bad kind", "unknown field"],
)
def test_one_bad_field_is_reported_once_not_as_unknown_nodes(tmp_path, patch):
    # kitchen is the parent of two assets and the end of a link: none of them is reported
    message = problems_of(tmp_path, native(**patch))
    assert ": 1 problem(s) in the scene graph" in message, message
    assert "node 'kitchen': field '" in message
    assert "unknown node" not in message and "unknown parent" not in message


def test_a_rejected_id_is_reported_once(tmp_path):
    data = native(drop="kitchen")
    data["nodes"].append({"id": "the kitchen", "kind": "room", "parent": "floor0"})
    data["links"] = [["the kitchen", "pose1"], ["pose1", "hall"]]
    for node in data["nodes"]:
        if node.get("parent") == "kitchen":
            node["parent"] = "the kitchen"
    message = problems_of(tmp_path, data)
    assert ": 1 problem(s) in the scene graph" in message, message
    assert "node 'the kitchen': field 'id'" in message


def test_a_field_of_two_types_is_reported_once(tmp_path):
    message = problems_of(tmp_path, native(fridge={"parent": [3]}))
    assert ": 1 problem(s) in the scene graph" in message, message


def test_name_and_description_are_strings(tmp_path):
    message = problems_of(tmp_path, {**native(), "name": {"a": 1}, "description": 7})
    assert "field 'name' must be a string, found {'a': 1}" in message
    assert "field 'description' must be a string, found 7" in message


def test_sayplan_ids_with_dots_are_read():
    data = json.loads(json.dumps(APP_L))
    data["nodes"]["pose"].append({"id": "pose.6"})
    data["links"].append("kitchen<->pose.6")
    assert ("kitchen", "pose.6") in from_dict(data).links()
