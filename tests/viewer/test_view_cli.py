"""`sceneplan view` without a browser: what it writes, where from, and its one-line errors."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner
from viewer_runs import failing_sayplan_episode

from sceneplan.cli import app
from sceneplan.eval.store import Store
from sceneplan.planners import Episode
from sceneplan.viewer import environment_page, page_data
from sceneplan.viewer.layout import layout_floors
from sceneplan.viewer.serve import serve_in_background
from sceneplan.viewer.sources import Shown, from_environment

runner = CliRunner()


def data_of(html: str) -> dict:
    match = re.search(
        r'<script id="viewer-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert match is not None
    return json.loads(match.group(1))


def test_the_page_is_self_contained():
    html = environment_page("office")
    assert "<script src" not in html and "<link" not in html and "@import" not in html
    assert re.findall(r"https?://[^\s\"'<)]+", html) == ["http://www.w3.org/2000/svg"]  # a name
    data = data_of(html)
    assert data["format"] == "sceneplan-view" and data["graph"]["name"] == "office"
    assert len(data["graph"]["ids"]) == 226


def test_text_from_the_graph_cannot_end_the_data_element(tmp_path):
    graph = from_environment("coffee").graph
    graph.description = "</script><script>alert(1)</script>"
    from sceneplan.viewer import render_page

    html = render_page(Shown(graph))
    assert html.count("</script>") == 2  # the data element's and the page script's
    assert data_of(html)["graph"]["description"] == graph.description


def test_positions_are_kept_and_graphs_without_them_get_a_grid():
    office = layout_floors(from_environment("office").graph)
    assert len(office) == 1 and office[0].positioned
    assert ("kitchen", 86.0, -4.0) in office[0].rooms  # north up: y is flipped
    nodes = [
        {"id": "f0", "kind": "floor"},
        *({"id": f"r{i}", "kind": "room", "parent": "f0"} for i in range(5)),
        {"id": "p0", "kind": "pose", "parent": "f0"},
        {"id": "loose", "kind": "room"},
    ]
    from sceneplan.graph import from_dict

    graph = from_dict(
        {"format": "sceneplan-graph", "version": 1, "nodes": nodes, "links": [["r0", "p0"]]}
    )
    floors = layout_floors(graph)
    assert [f.floor for f in floors] == ["f0", None]  # places under no floor come last
    grid = floors[0]
    assert not grid.positioned
    assert len({(x, y) for _, x, y in grid.rooms}) == 5  # no two rooms on one spot
    assert grid.poses[0][1] == grid.rooms[0][1]  # a pose sits by the room it links


def test_view_writes_a_default_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["view", "coffee"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "view-coffee.html").is_file()
    assert "wrote view-coffee.html" in result.output


def test_view_a_graph_file(tmp_path):
    source = Path(__file__).resolve().parents[2] / "examples"
    files = sorted(source.glob("*.json"))
    graph_file = next(f for f in files if '"sceneplan-graph"' in f.read_text())
    out = tmp_path / "g.html"
    result = runner.invoke(app, ["view", str(graph_file), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert data_of(out.read_text())["graph"]["ids"]


def test_view_a_stored_run(tmp_path, scripted_llm):
    episode = failing_sayplan_episode(scripted_llm)
    store_path = tmp_path / "results.db"
    with Store(store_path) as store:
        for run in (1, 0):
            store.put("coffee", run, episode)
    out = tmp_path / "stored.html"
    args = ["view", "--store", str(store_path), "--task", "coffee-01", "--planner", "sayplan"]
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "showing run 0 of runs 0, 1" in result.output
    data = data_of(out.read_text())
    assert data["episode"]["summary"]["task_id"] == "coffee-01"
    assert data["episode"]["plan"]["failing"] == 2

    result = runner.invoke(app, [*args, "--run", "1", "-o", str(out), "--force"])
    assert result.exit_code == 0 and "showing run" not in result.output


BAD = [
    (["view", "no_such_graph.json"], "cannot read scene graph file no_such_graph.json"),
    (["view", "no_such_env"], "unknown environment 'no_such_env'"),
    (["view", "--episode", "missing.json"], "cannot read the episode missing.json"),
    (
        ["view", "--episode", "{latin1}"],
        "cannot read the episode latin1.json: not UTF-8 text (byte 13)",
    ),
    (["view", "--episode", "{not_json}"], "not valid JSON"),
    (["view", "--episode", "{list}"], "not a sceneplan episode (the top level is not an object)"),
    (["view", "--episode", "{fields}"], "a malformed sceneplan episode"),
    (["view", "--episode", "{types}"], "a malformed sceneplan episode"),
    (["view", "--episode", "{elsewhere}"], "cannot load the graph the run started in"),
    (["view", "--store", "missing.db", "--task", "t", "--planner", "p"], "no results store"),
    (["view", "--store", "{store}", "--task", "nope", "--planner", "sayplan"], "no run of task"),
    (["view", "--store", "{store}", "--task", "coffee-01", "--planner", "react"], "by: sayplan"),
    (["view", "--store", "{store}"], "--store needs --task ID and --planner NAME"),
    (["view"], "give one of ENV_OR_FILE"),
    (["view", "office", "--episode", "x.json"], "got ENV_OR_FILE and --episode"),
    (["view", "office", "--task", "x"], "go with --store"),
    (["view", "office", "-o", "{folder}"], "is a folder"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_message_and_exit_2(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not_json.json").write_text("{oops")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "fields.json").write_text(
        json.dumps(
            {
                "planner": "p",
                "model": "m",
                "environment": "coffee",
                "instruction": "i",
                "search": [{"nonsense": 1}],
            }
        )
    )
    typed = Episode("sayplan", "m", "coffee", "Make Tom a coffee.").to_dict()
    typed["search"] = [
        {
            "turn": 1,
            "command": "expand",
            "node": "kitchen",
            "ok": True,
            "feedback": "",
            "graph_tokens": 1,
            "memory": 7,
        }
    ]
    (tmp_path / "types.json").write_text(json.dumps(typed))
    elsewhere = Episode("sayplan", "m", "/gone/graph.json", "Make Tom a coffee.").to_dict()
    (tmp_path / "elsewhere.json").write_text(json.dumps(elsewhere))
    with Store(tmp_path / "results.db") as store:
        episode = Episode("sayplan", "m", "coffee", "Make Tom a coffee.", task_id="coffee-01")
        store.put("coffee", 0, episode)
    (tmp_path / "folder").mkdir()
    names = {
        "not_json": "not_json.json",
        "latin1": "latin1.json",
        "list": "list.json",
        "fields": "fields.json",
        "types": "types.json",
        "elsewhere": "elsewhere.json",
        "store": "results.db",
        "folder": "folder",
    }
    args = [a.format(**names) if a.startswith("{") else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in result.output
    assert result.output.count("error:") == 1


def test_serve_answers_on_loopback_only():
    server, address = serve_in_background("<!DOCTYPE html><p>hi</p>")
    try:
        assert address.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(address, timeout=5) as response:
            assert response.read() == b"<!DOCTYPE html><p>hi</p>"
            assert response.headers["Content-Type"] == "text/html; charset=utf-8"
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(address + "other", timeout=5)
        assert missing.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_page_data_of_a_run_without_a_plan():
    episode = Episode("sayplan", "m", "coffee", "Make Tom a coffee.")
    data = page_data(Shown(from_environment("coffee").graph, episode))
    assert data["episode"]["plan"]["steps"] == [] and data["episode"]["memory"] is None


def test_view_serve_opens_the_browser_on_the_page(tmp_path, monkeypatch):
    from sceneplan.cli import view as view_cli

    fetched: list[bytes] = []

    def open_browser(address: str) -> bool:
        assert address.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(address, timeout=5) as response:
            fetched.append(response.read())
        return True

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt  # Ctrl-C while serving

    monkeypatch.setattr(view_cli.webbrowser, "open", open_browser)
    monkeypatch.setattr(view_cli.time, "sleep", interrupted)
    out = tmp_path / "served.html"
    result = runner.invoke(app, ["view", "coffee", "-o", str(out), "--serve"])
    assert result.exit_code == 0, result.output
    assert "serving http://127.0.0.1:" in result.output
    assert fetched == [out.read_bytes()]


def test_a_hierarchical_search_is_replayed_from_the_top_of_the_hierarchy():
    from sceneplan.graph import Node, NodeKind, SceneGraph
    from sceneplan.planners.episode import SearchTurn
    from sceneplan.viewer.episode_data import search_turns

    rooms = [Node(f"office{i}", NodeKind.ROOM, parent="floor0") for i in range(30)]
    kept = [Node("desk", NodeKind.ASSET, parent="office20")]
    graph = SceneGraph.from_nodes([Node("floor0", NodeKind.FLOOR), *rooms, *kept])
    episode = Episode("sayplan", "m", "big", "Find the desk.")
    episode.view = "hierarchy"
    episode.search = [
        SearchTurn(1, "expand", "floor0_zone2", True, "", 40),
        SearchTurn(2, "expand", "office20", True, "", 60),
        SearchTurn(3, "contract", "floor0_zone2", True, "", 70),
    ]
    turns = search_turns(episode, graph)
    assert turns["replayed"]
    assert [t["open_after"] for t in turns["turns"]] == [[], ["office20"], []]
    # the same trace read as a rooms-view search cannot be replayed: no such node there
    del episode.view
    assert not search_turns(episode, graph)["replayed"]
