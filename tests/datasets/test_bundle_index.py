"""The bundles' index (`datasets/bundles/index.json`): current, used, and never trusted when
stale."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

from sceneplan.datasets import registry
from sceneplan.datasets.packaged_index import INDEX_FILE

FOLDER = resources.files("sceneplan.datasets") / "bundles"


def clear_caches() -> None:
    for cached in (registry.bundle_spans, registry._bundle_index, registry._read_bundle):
        cached.cache_clear()


@pytest.fixture
def fresh_caches():
    clear_caches()
    yield
    clear_caches()


@pytest.mark.slow
def test_the_shipped_index_is_what_the_command_writes():
    shipped = json.loads((FOLDER / INDEX_FILE).read_text(encoding="utf-8"))
    assert shipped == registry.build_bundle_index()


def test_every_member_read_through_the_index_is_the_member_of_the_whole_bundle():
    spans = registry.bundle_spans()
    assert spans is not None
    for entry in spans:
        bundle = registry._read_bundle(entry["file"])
        assert list(entry["members"]) == list(bundle["graphs"])
        for name in entry["members"]:
            indexed = registry._indexed_member(name)
            assert registry.member_graph(indexed, name) == registry.member_graph(bundle, name)


def test_loading_one_member_decodes_no_whole_bundle(fresh_caches, monkeypatch):
    monkeypatch.setattr(registry, "_read_bundle", None)
    graph = registry.load_environment("behavior-clean_a_led_screen")
    assert "television_receiver_1" in graph


def test_a_stale_index_is_ignored(tmp_path, monkeypatch, fresh_caches):
    folder = tmp_path / "bundles"
    shutil.copytree(Path(str(FOLDER)), folder)
    monkeypatch.setattr(registry, "_BUNDLES", folder)
    name = "virtualhome-447_2"
    expected = registry.load_environment(name)
    assert registry.bundle_spans() is not None
    bundle = json.loads((folder / "virtualhome.json").read_text(encoding="utf-8"))
    bundle["description"] += " (edited)"  # every member moves in the file
    (folder / "virtualhome.json").write_text(json.dumps(bundle), encoding="utf-8")
    clear_caches()
    assert registry.bundle_spans() is None
    assert registry.load_environment(name).nodes == expected.nodes


def test_json_spans_find_every_value_whatever_the_layout():
    data = '{ "a" : [1, {"x": "}"}],\n"é": "ü" , "c":{}}'.encode()
    spans = registry.json_spans(data)
    values = {k: json.loads(data[o : o + n]) for k, (o, n) in spans.items()}
    assert values == json.loads(data)
