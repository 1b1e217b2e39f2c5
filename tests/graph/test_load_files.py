"""`load` parses with orjson, and with json what orjson refuses: same graphs, same errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sceneplan.errors import BadInputError, GraphValidationError
from sceneplan.graph import from_dict, load, to_dict

NODES = [
    {"id": "house", "kind": "building"},
    {"id": "floor0", "kind": "floor", "parent": "house"},
    {"id": "kitchen", "kind": "room", "parent": "floor0", "position": [1, 2.5]},
    {"id": "pose1", "kind": "pose", "parent": "floor0"},
    {"id": "agent", "kind": "agent", "parent": "kitchen"},
]


def graph_text(**node_patch) -> str:
    nodes = [dict(n) for n in NODES]
    nodes[2].update(node_patch)
    data = {
        "format": "sceneplan-graph",
        "version": 1,
        "nodes": nodes,
        "links": [["kitchen", "pose1"]],
    }
    return json.dumps(data, ensure_ascii=False)


def write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "g.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8", "surrogatepass"))
    return path


def test_a_valid_file_loads_as_from_dict_builds_it(tmp_path):
    path = write(tmp_path, graph_text(description="plain ☕ text"))
    assert to_dict(load(path)) == to_dict(from_dict(json.loads(path.read_text("utf-8"))))


def test_a_lone_surrogate_that_only_json_takes_still_loads(tmp_path):
    path = write(
        tmp_path, graph_text().replace('"kind": "room"', '"kind": "room", "description": "\\ud800"')
    )
    assert load(path).nodes["kitchen"].description == "\ud800"


def test_nan_that_only_json_takes_gets_the_field_message(tmp_path):
    path = write(tmp_path, graph_text().replace("[1, 2.5]", "[NaN, 2.5]"))
    with pytest.raises(GraphValidationError) as info:
        load(path)
    assert "node 'kitchen': field 'position': Input should be a finite number" in str(info.value)


def test_integers_beyond_64_bits_load_as_json_reads_them(tmp_path):
    path = write(tmp_path, graph_text().replace("[1, 2.5]", "[100000000000000000000, 2.5]"))
    assert load(path).nodes["kitchen"].position == (1e20, 2.5)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xef\xbb\xbf{}", "not valid JSON (line 1, column 1: Unexpected UTF-8 BOM"),
        (b'{"a": "\xff"}', "not UTF-8 text (byte 7)"),
        (b'{\r\r  "a": ]}', "not valid JSON (line 3, column 8: Expecting value)"),
        (b'{\r\n  "a": ]}', "not valid JSON (line 2, column 8: Expecting value)"),
        (b"", "not valid JSON (line 1, column 1: Expecting value)"),
    ],
)
def test_unparsable_files_get_json_s_message(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(BadInputError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: ") or str(info.value).startswith("cannot read")
    assert message in str(info.value)


def test_a_missing_file_is_one_message(tmp_path):
    with pytest.raises(BadInputError, match=r"cannot read scene graph file .*missing\.json"):
        load(tmp_path / "missing.json")
