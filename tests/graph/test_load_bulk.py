"""The bulk loaders accept only what the node-by-node validator accepts, and build the same nodes.

`bulk.decode_clean` (a file's bytes, decoded by msgspec) and `bulk.clean_nodes`
(lists already parsed into dicts) may say "not sure" (None) for a valid file,
which only costs time; they must never accept a file the reference validator
(`validate_by_node`, after json's parse) rejects, nor build different nodes.
"""

from __future__ import annotations

import copy
import gc
import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sceneplan.errors import GraphValidationError
from sceneplan.graph import SceneGraph, from_dict, load
from sceneplan.graph.bulk import FIELDS, FORMAT_NAME, FORMAT_VERSION, clean_nodes, decode_clean
from sceneplan.graph.io import FIELD_ORDER, node_record, validate_by_node
from sceneplan.graph.model import Node, NodeKind, Relation

_SYNTHETIC = Path(__file__).resolve().parents[2] / "benchmarks" / "synthetic.py"


def synthetic_building(rooms: int) -> dict[str, Any]:
    """The benchmarks' synthetic building (benchmarks/synthetic.py) as a native-format dict."""
    spec = importlib.util.spec_from_file_location("_load_synthetic", _SYNTHETIC)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.synthetic_building(rooms)


def base_nodes() -> list[dict]:
    return [
        {"id": "house", "kind": "building"},
        {"id": "floor0", "kind": "floor", "parent": "house"},
        {"id": "kitchen", "kind": "room", "parent": "floor0", "position": [0, 1.5, 0]},
        {"id": "hall", "kind": "room", "parent": "floor0", "description": "the hall"},
        {"id": "pose1", "kind": "pose", "parent": "floor0", "position": [1.0, 2.0]},
        {
            "id": "fridge",
            "kind": "asset",
            "parent": "kitchen",
            "state": ["closed"],
            "affordances": ["open", "close", "release"],
        },
        {"id": "bench", "kind": "asset", "parent": "kitchen", "category": "table"},
        {"id": "mug", "kind": "object", "parent": "bench", "relation": "ontop_of"},
        {"id": "tray", "kind": "object", "parent": "bench", "relation": "ontop_of"},
        {"id": "spoon", "kind": "object", "parent": "tray", "relation": "inside_of"},
        {"id": "pen", "kind": "object", "parent": "agent", "relation": "held"},
        {"id": "agent", "kind": "agent", "parent": "hall", "attributes": ["robot"]},
    ]


def base_links() -> list:
    return [["kitchen", "pose1"], ["pose1", "hall"]]


def reference(nodes: list, links: list) -> tuple[dict[str, Node], list, list[str]]:
    problems: list[str] = []
    by_id, valid_links = validate_by_node(copy.deepcopy(nodes), copy.deepcopy(links), problems)
    return by_id, valid_links, problems


def same_nodes(a: dict[str, Node], b: dict[str, Node]) -> bool:
    """Equal nodes in the same order, positions compared as floats (and their types)."""
    return list(a) == list(b) and all(
        x == y and [type(v) for v in x.position or ()] == [type(v) for v in y.position or ()]
        for x, y in zip(a.values(), b.values(), strict=True)
    )


def test_a_valid_file_takes_the_bulk_path_and_builds_the_reference_nodes():
    clean = clean_nodes(base_nodes(), base_links())
    assert clean is not None
    by_id, links, problems = reference(base_nodes(), base_links())
    assert problems == []
    assert same_nodes(clean[0], by_id)
    assert clean[1] == links
    assert clean[0]["kitchen"].position == (0.0, 1.5, 0.0)
    assert clean[0]["mug"].kind is NodeKind.OBJECT and clean[0]["pen"].relation is Relation.HELD


def test_the_synthetic_building_takes_the_bulk_path():
    data = synthetic_building(20)
    clean = clean_nodes(data["nodes"], data["links"])
    assert clean is not None
    by_id, links, problems = reference(data["nodes"], data["links"])
    assert problems == [] and same_nodes(clean[0], by_id) and clean[1] == links


# Values a hand-edited or generated file might hold where a field is expected.
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([10**400, 2**63, -0.0, 1e308, math.inf, -math.inf, math.nan]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            "",
            " ",
            "kitchen",
            "hall",
            "pose1",
            "house",
            "floor0",
            "bench",
            "tray",
            "mug",
            "spoon",
            "agent",
            "fridge",
            "ghost",
            "my mug",
            "a\nb",
            "é",
            "x\ud800",
            *(k.value for k in NodeKind),
            *(r.value for r in Relation),
        ]
    ),
)
JSON_VALUES = st.one_of(
    JSON_SCALARS,
    st.lists(JSON_SCALARS, max_size=4),
    st.lists(st.lists(JSON_SCALARS, max_size=2), max_size=2),
    st.dictionaries(st.sampled_from(["id", "x"]), JSON_SCALARS, max_size=2),
)
FIELD_NAMES = st.sampled_from([*sorted(FIELDS), "room", "extra"])


@st.composite
def mutated(draw) -> tuple[list, list]:
    nodes, links = base_nodes(), base_links()
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "drop", "duplicate", "replace", "link"]))
        index = draw(st.integers(0, len(nodes) - 1))
        node = nodes[index]
        if action == "set" and isinstance(node, dict):
            node[draw(FIELD_NAMES)] = draw(JSON_VALUES)
        elif action == "drop" and isinstance(node, dict) and node:
            node.pop(draw(st.sampled_from(sorted(node))))
        elif action == "duplicate":
            nodes.append(copy.deepcopy(node))
        elif action == "replace":
            nodes[index] = draw(JSON_VALUES)
        elif action == "link":
            links.append(draw(st.one_of(JSON_VALUES, st.lists(JSON_SCALARS, max_size=3))))
    return nodes, links


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
@pytest.mark.slow
def test_bulk_never_accepts_what_the_reference_rejects(case):
    nodes, links = case
    snapshot = copy.deepcopy((nodes, links))
    clean = clean_nodes(nodes, links)
    assert repr((nodes, links)) == repr(snapshot)  # the input is not changed
    if clean is None:
        return
    by_id, valid_links, problems = reference(nodes, links)
    assert problems == []
    assert same_nodes(clean[0], by_id)
    assert clean[1] == valid_links


# -- decoding a file's bytes with msgspec ---------------------------------------------


def native_bytes(data: dict) -> bytes:
    return json.dumps(data).encode("utf-8")  # NaN and infinities as json writes them


def native(nodes: list, links: list) -> dict:
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "nodes": nodes, "links": links}


def test_a_valid_file_decodes_to_the_reference_nodes():
    data = {**native(base_nodes(), base_links()), "name": "home", "description": "a house"}
    clean = decode_clean(native_bytes(data))
    assert clean is not None
    by_id, links, problems = reference(base_nodes(), base_links())
    assert problems == [] and same_nodes(clean.nodes, by_id) and clean.links == links
    assert (clean.name, clean.description) == ("home", "a house")
    assert clean.nodes["bench"].explicit_category == "table"
    assert clean.nodes["kitchen"].position == (0.0, 1.5, 0.0)


def test_the_synthetic_building_decodes_in_bulk():
    data = synthetic_building(20)
    clean = decode_clean(native_bytes(data))
    assert clean is not None
    by_id, links, problems = reference(data["nodes"], data["links"])
    assert problems == [] and same_nodes(clean.nodes, by_id) and clean.links == links


def test_decoded_nodes_stay_out_of_the_cyclic_gc(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(native_bytes(synthetic_building(2)))
    graph = load(path)
    assert not any(map(gc.is_tracked, graph))


HEADER_KEYS = st.sampled_from(["format", "version", "name", "description", "links", "extra"])


@st.composite
def mutated_files(draw) -> dict:
    nodes, links = draw(mutated())
    data: dict[str, Any] = {**native(nodes, links), "name": "g", "description": ""}
    for _ in range(draw(st.integers(0, 2))):
        key = draw(HEADER_KEYS)
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(st.one_of(JSON_VALUES, st.sampled_from([1.0, True, FORMAT_NAME])))
    return data


NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70),  # past 64 bits: json reads an int, msgspec a float
    st.floats(allow_nan=False, allow_infinity=False),
)
OPTIONAL_VALUES = {
    "description": st.one_of(st.none(), st.text(max_size=5)),
    "category": st.one_of(st.none(), st.text(max_size=5)),
    "position": st.one_of(st.none(), st.lists(NUMBERS, min_size=2, max_size=3)),
    "affordances": st.lists(st.text(max_size=3), max_size=3),
    "state": st.lists(st.text(max_size=3), max_size=3),
    "attributes": st.lists(st.text(max_size=3), max_size=3),
}


@st.composite
def valid_files(draw) -> dict:
    """The base scene with optional fields set to values that any loader must take."""
    nodes = base_nodes()
    for _ in range(draw(st.integers(1, 4))):
        node = nodes[draw(st.integers(0, len(nodes) - 1))]
        key = draw(st.sampled_from(sorted(OPTIONAL_VALUES)))
        if draw(st.booleans()):
            node[key] = draw(OPTIONAL_VALUES[key])
        else:
            node.pop(key, None)
    data: dict[str, Any] = {**native(nodes, base_links()), "name": draw(st.text(max_size=5))}
    if draw(st.booleans()):
        data["extra"] = draw(JSON_VALUES)
    return data


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(valid_files(), mutated_files()))
@pytest.mark.slow
def test_decoding_never_accepts_what_the_reference_rejects(data):
    raw = native_bytes(data)
    clean = decode_clean(raw)
    if clean is None:
        return
    parsed = json.loads(raw)
    try:
        graph = from_dict(copy.deepcopy(parsed))  # the header's checks
    except GraphValidationError as exc:
        pytest.fail(f"decoded a file the reference rejects: {exc}")
    by_id, links, problems = reference(parsed["nodes"], parsed.get("links", []))
    assert problems == []
    assert same_nodes(clean.nodes, by_id)
    assert clean.links == links
    assert (clean.name, clean.description) == (graph.name, graph.description)


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "sceneplan-graph", "version": 1.0, "nodes": [{"id": "a", "kind": "room"}]}',
        '{"format": "sceneplan-graph", "version": 1, "nodes": [{"id": "a", "kind": "room", '
        '"parent": []}]}',
        '{"format": "sceneplan-graph", "version": 1, "nodes": [{"id": "a", "kind": "room", '
        '"description": "x\\ud800"}]}',
        '{"format": "sceneplan-graph", "version": 1, "nodes": [{"id": "f", "kind": "floor"}, '
        '{"id": "a", "kind": "room", "parent": ["f"]}]}',
    ],
    ids=["version-1.0", "parent-empty-list", "lone-surrogate", "parent-one-list"],
)
def test_files_msgspec_refuses_but_json_takes_still_load(tmp_path, text):
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    assert decode_clean(path.read_bytes()) is None
    assert "a" in load(path)


# -- the tree built in bulk is the tree add_edge builds ----------------------------------


def tree_by_add_edge(nodes: list[Node]) -> nx.DiGraph:
    tree = nx.DiGraph()
    by_id = {n.id: n for n in nodes}
    tree.add_nodes_from(by_id)
    for node in by_id.values():
        if node.parent is not None:
            tree.add_edge(node.parent, node.id)
    return tree


def same_tree(a: nx.DiGraph, b: nx.DiGraph) -> bool:
    return (
        list(a.nodes) == list(b.nodes)
        and list(a.edges) == list(b.edges)
        and all(list(a.successors(n)) == list(b.successors(n)) for n in a)
        and all(list(a.predecessors(n)) == list(b.predecessors(n)) for n in a)
        and nx.utils.graphs_equal(a, b)
    )


def test_the_tree_matches_add_edge_in_order_and_in_data():
    graph = from_dict(synthetic_building(3))
    expected = tree_by_add_edge(list(graph))
    assert same_tree(graph.tree, expected)
    graph.tree.add_edge("building", "extra")  # still a working networkx graph
    assert graph.tree.has_edge("building", "extra") and "extra" in graph.tree
    assert graph.tree["floor0"]["office0"] is graph.tree.pred["office0"]["floor0"]


def test_from_nodes_keeps_a_missing_parent_and_the_last_duplicate():
    nodes = [
        Node("b", NodeKind.ROOM, parent="ghost"),
        Node("a", NodeKind.ROOM),
        Node("c", NodeKind.ASSET, parent="a"),
        Node("a", NodeKind.ROOM, description="second"),
        Node("d", NodeKind.ASSET, parent="ghost"),
    ]
    graph = SceneGraph.from_nodes(iter(nodes))
    assert same_tree(graph.tree, tree_by_add_edge(nodes))
    assert list(graph.tree) == ["b", "a", "c", "d", "ghost"]
    assert graph.nodes["a"].description == "second"
    assert graph.children("ghost") == ["b", "d"] and graph.children("a") == ["c"]


def test_the_file_record_is_node_with_the_types_a_json_file_gives():
    """The per-node validator's model, derived from Node, is the file format written by hand."""
    from pydantic import FiniteFloat

    fields = node_record().model_fields
    assert {name: field.annotation for name, field in fields.items()} == {
        "id": str,
        "kind": NodeKind,
        "parent": str | None | list[str],  # a list, to be reported as two parents
        "relation": Relation | None,
        "category": str | None,
        "affordances": list[str],
        "state": list[str],
        "attributes": list[str],
        "position": list[FiniteFloat] | None,
        "description": str | None,
    }
    written = ["id", "kind", "parent", "relation", "category", "affordances", "state"]
    assert list(fields) == list(FIELD_ORDER) == [*written, "attributes", "position", "description"]
    assert set(fields) == FIELDS
    assert [name for name, field in fields.items() if field.is_required()] == ["id", "kind"]
    assert fields["state"].default == [] and fields["parent"].default is None


def test_children_answer_from_the_index_as_the_tree_would():
    graph = from_dict(synthetic_building(3))
    assert graph._tree is None  # loading builds no networkx tree
    for node_id in graph.nodes:
        assert graph.children(node_id) == list(graph.tree.successors(node_id))
    assert (
        list(graph.descendants("floor0")) == list(nx.dfs_preorder_nodes(graph.tree, "floor0"))[1:]
    )
    with pytest.raises(nx.NetworkXError):
        graph.children("no_such_node")
