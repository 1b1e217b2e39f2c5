"""The packaged Home environment (Klickitat) and its 30 SayPlan search tasks.

Every task answer is recomputed here from the graph's content, so a change to
the graph that breaks an instruction fails a test instead of silently making
the benchmark wrong.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest
import yaml

from sceneplan.graph import NodeKind, SceneGraph, load

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO / "src" / "sceneplan" / "datasets"
HOME_JSON = DATASETS / "environments" / "home.json"
TASKS_YAML = DATASETS / "tasks" / "home_search.yaml"
BUILD_SCRIPT = REPO / "scripts" / "build_home.py"
KLICKITAT = REPO.parent / "shared" / "data" / "klickitat"

# World knowledge the instructions rely on, written down once.
INTERNET_DEVICES = {"laptop", "cell_phone", "computer", "tablet"}
ELECTRONICS = INTERNET_DEVICES | {"tv", "game_console", "speaker", "baby_monitor", "radio"}
POTASSIUM_RICH = {"banana", "potato", "avocado", "spinach", "beans", "dried_apricot"}
MEAT_DISHES = {"roast_chicken", "steak", "pork_ribs", "beef_stew", "chicken_kebab"}
VEGETARIAN_DISHES = {"vegetable_lasagna", "garden_salad", "vegetable_curry"}
BABY_THINGS = {"crib", "rattle", "baby_bottle", "teddy_bear"}
HEATERS = {"microwave", "oven", "stove"}


@pytest.fixture(scope="module")
def home() -> SceneGraph:
    return load(HOME_JSON)


@pytest.fixture(scope="module")
def tasks() -> list[dict]:
    return yaml.safe_load(TASKS_YAML.read_text(encoding="utf-8"))


# -- helpers -------------------------------------------------------------------


def rooms(g: SceneGraph, category: str | None = None) -> list[str]:
    return [n.id for n in g.of_kind(NodeKind.ROOM) if category in (None, n.category)]


def contents(g: SceneGraph, room: str) -> list[str]:
    """The assets and objects in a room."""
    return [d for d in g.descendants(room) if g.nodes[d].kind in (NodeKind.ASSET, NodeKind.OBJECT)]


def categories_in(g: SceneGraph, room: str) -> Counter:
    return Counter(g.nodes[d].category for d in contents(g, room))


def of_category(g: SceneGraph, *names: str) -> list[str]:
    return [n.id for n in g if n.category in names]


def topology(g: SceneGraph) -> nx.Graph:
    """The room/pose graph from the file's links, weighted by Euclidean distance."""
    graph = nx.Graph()
    for a, b in g.links():
        pa, pb = g.nodes[a].position, g.nodes[b].position
        graph.add_edge(a, b, weight=math.dist(pa, pb))
    return graph


def only(values: list | set) -> object:
    assert len(values) == 1, f"expected exactly one, got {sorted(values)}"
    return next(iter(values))


def only_set(sets: list[set[str]]) -> set[str]:
    assert len(sets) == 1, f"expected one match, got {sets}"
    return sets[0]


def unique_argmax(scores: dict[str, float]) -> str:
    best = max(scores.values())
    return only([k for k, v in scores.items() if v == best])


# -- the graph -----------------------------------------------------------------


def test_counts(home: SceneGraph):
    counts = home.counts()
    assert counts["building"] == 1
    assert counts["floor"] == 3
    assert counts["room"] == 28
    assert counts["agent"] == 1
    assert 105 <= counts["asset"] + counts["object"] <= 120  # paper: 112
    per_floor = Counter(home.nodes[r].parent for r in rooms(home))
    assert sorted(per_floor.values()) == [6, 10, 12]


def test_room_names_follow_sayplan(home: SceneGraph):
    names = set(rooms(home))
    sayplan = (
        [f"bathroom{i}" for i in range(5)]
        + [f"bedroom{i}" for i in range(4)]
        + ["closet0", "closet1", "dining_room0", "dining_room1", "dining_room2"]
        + ["home_office0", "kitchen0", "kitchen1", "playroom0"]
        + ["living_room0", "living_room1", "living_room2"]
    )
    assert set(sayplan) <= names
    assert {"lobby0", "corridor0", "staircase0"} <= names


def test_every_room_reachable_from_every_other(home: SceneGraph):
    graph = topology(home)
    assert set(rooms(home)) <= set(graph)
    assert nx.is_connected(graph)
    for a, b in home.links():
        kinds = {home.nodes[a].kind, home.nodes[b].kind}
        assert kinds <= {NodeKind.ROOM, NodeKind.POSE}
        assert NodeKind.POSE in kinds, f"rooms {a} and {b} must meet through a pose"


def test_poses_have_positions_and_stairs_join_floors(home: SceneGraph):
    poses = home.of_kind(NodeKind.POSE)
    assert poses and all(p.position is not None and len(p.position) == 3 for p in poses)
    floor_of = {n.id: n.parent for n in home if n.kind in (NodeKind.ROOM, NodeKind.POSE)}
    crossings = {frozenset((floor_of[a], floor_of[b])) for a, b in home.links()}
    assert {frozenset(("floor0", "floor1")), frozenset(("floor1", "floor2"))} <= crossings
    graph = topology(home)
    for stair in rooms(home, "staircase"):
        near = nx.single_source_shortest_path_length(graph, stair, cutoff=2)
        assert any(floor_of[n] != floor_of[stair] for n in near), f"{stair} leads nowhere"


def test_objects_rest_on_surfaces_or_in_containers(home: SceneGraph):
    for node in home.of_kind(NodeKind.OBJECT):
        assert node.relation is not None and node.relation.value in ("ontop_of", "inside_of")
        assert "pickup" in node.affordances
        parent = home.nodes[node.parent]
        assert parent.kind in (NodeKind.ASSET, NodeKind.OBJECT)
        if node.relation.value == "inside_of":
            assert "open" in parent.affordances, f"{node.id} is inside a non-container"
        else:
            assert "release" in parent.affordances, f"{node.id} rests on a non-surface"


def test_agent_in_a_room(home: SceneGraph):
    assert home.nodes[home.agent.parent].kind is NodeKind.ROOM


def test_build_is_deterministic_and_matches_committed_file(tmp_path: Path, monkeypatch):
    if not (KLICKITAT / "Klickitat.tiny_verified.json").exists():
        pytest.skip("Klickitat source data not available")
    spec = importlib.util.spec_from_file_location("build_home", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "build_home", module)  # dataclasses look it up
    spec.loader.exec_module(module)
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert module.main([str(KLICKITAT), "--out", str(first)]) == 0
    assert module.main([str(KLICKITAT), "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() == HOME_JSON.read_bytes(), "rerun scripts/build_home.py"


# -- the tasks -----------------------------------------------------------------


def test_task_file_shape(tasks: list[dict]):
    assert len(tasks) == 30
    assert len({t["id"] for t in tasks}) == 30
    assert len({t["instruction"] for t in tasks}) == 30
    families = Counter(t["family"] for t in tasks)
    assert families == {"simple_search": 15, "complex_search": 15}
    for task in tasks:
        assert task["suite"] == "home-search"
        assert task["environment"] == "home"
        assert task["source"] in ("SayPlan App. C.1.2", "SayPlan App. C.2.2")
        assert task["answer"] == "none" or isinstance(task["answer"], list)
        if task["answer"] == "none":
            assert task.get("note"), f"{task['id']}: a task without answer needs a note"


def test_task_loader_accepts_the_file():
    tasks_module = pytest.importorskip("sceneplan.datasets.tasks")
    loaded = tasks_module.load_task_file(TASKS_YAML)
    assert [t.id for t in loaded][:2] == ["home-simple-01", "home-simple-02"]
    assert len(loaded) == 30


def test_answers_name_existing_nodes(home: SceneGraph, tasks: list[dict]):
    for task in tasks:
        answer = [] if task["answer"] == "none" else task["answer"]
        for node_id in answer:
            assert node_id in home, f"{task['id']}: unknown node {node_id}"
            assert home.nodes[node_id].kind in (NodeKind.ROOM, NodeKind.ASSET, NodeKind.OBJECT)
        for room in task.get("answer_rooms", []):
            assert home.nodes[room].kind is NodeKind.ROOM, f"{task['id']}: {room}"
        if "answer_rooms" in task:
            assert {home.room_of(n) for n in answer} <= set(task["answer_rooms"])
        if "answer_count" in task:
            assert 2 <= task["answer_count"] <= len(answer)


# Each function recomputes one task's answer set from the graph (None: no answer).
EXPECTED: dict[str, Callable[[SceneGraph], set[str] | None]] = {}


def expects(task_id: str):
    def register(fn):
        EXPECTED[task_id] = fn
        return fn

    return register


@expects("home-simple-01")
def _foobar(g):
    assert not [n.id for n in g if "foobar" in f"{n.id} {n.category} {n.description}".lower()]
    return None


@expects("home-simple-02")
def _wine(g):
    return {n.id for n in g if "wine" in f"{n.id} {n.description}".lower()}


@expects("home-simple-03")
def _thorns(g):
    return {p for p in of_category(g, "potted_plant") if "thorny" in g.nodes[p].attributes}


@expects("home-simple-04")
def _thirsty(g):
    return {p for p in of_category(g, "potted_plant") if "dry" in g.nodes[p].state}


@expects("home-simple-05")
def _no_toilet(g):
    return {r for r in rooms(g, "bathroom") if not categories_in(g, r)["toilet"]}


@expects("home-simple-06")
def _rattle(g):
    return set(of_category(g, "rattle"))


@expects("home-simple-07")
def _suitcase(g):
    found = {g.room_of(s) for s in of_category(g, "suitcase")}
    assert {g.nodes[r].category for r in found} <= {"bedroom", "living_room"}
    return found


@expects("home-simple-08")
def _ball(g):
    return {g.room_of(b) for b in of_category(g, "ball")}


@expects("home-simple-09")
def _book_on_bed(g):
    return {b for b in of_category(g, "book") if g.nodes[g.nodes[b].parent].category == "bed"}


@expects("home-simple-10")
def _empty_vase_by_sink(g):
    empty = {v for v in of_category(g, "vase") if "empty" in g.nodes[v].state}
    assert len(empty) >= 2, "a second empty vase makes the sink condition matter"
    by_sink = {v for v in empty if g.nodes[g.nodes[v].parent].category == "sink"}
    assert by_sink == {v for v in empty if categories_in(g, g.room_of(v))["sink"]}
    return by_sink


@expects("home-simple-11")
def _baby_monitor_dining_room(g):
    need = ("dining_table", "chair", "baby_monitor")
    return {r for r in rooms(g, "dining_room") if all(categories_in(g, r)[c] for c in need)}


@expects("home-simple-12")
def _chair_outside_dining(g):
    return {c for c in of_category(g, "chair") if g.nodes[g.room_of(c)].category != "dining_room"}


@expects("home-simple-13")
def _shave(g):
    return {
        r for r in rooms(g) if categories_in(g, r)["razor"] and categories_in(g, r)["shaving_cream"]
    }


@expects("home-simple-14")
def _pillows(g):
    found = {r for r in rooms(g, "bedroom") if categories_in(g, r)["pillow"]}
    assert len(found) == 2
    return found


@expects("home-simple-15")
def _no_pillows(g):
    found = {r for r in rooms(g, "bedroom") if not categories_in(g, r)["pillow"]}
    assert len(found) == 2
    return found


@expects("home-complex-01")
def _chatgpt(g):
    return {g.room_of(d) for d in of_category(g, *INTERNET_DEVICES)}


@expects("home-complex-02")
def _electronics(g):
    scores = {r: sum(categories_in(g, r)[c] for c in ELECTRONICS) for r in rooms(g, "living_room")}
    return {unique_argmax(scores)}


@expects("home-complex-03")
def _potassium(g):
    return set(of_category(g, *POTASSIUM_RICH))


@expects("home-complex-04")
def _socks(g):
    socks = of_category(g, "sock")
    pairs = [
        {a, b}
        for a, b in itertools.combinations(socks, 2)
        if set(g.nodes[a].attributes) == set(g.nodes[b].attributes)
        and {g.nodes[g.room_of(a)].category, g.nodes[g.room_of(b)].category}
        == {"bedroom", "living_room"}
    ]
    return only_set(pairs)


@expects("home-complex-05")
def _cactus(g):
    return {p for p in of_category(g, "potted_plant") if "succulent" in g.nodes[p].attributes}


@expects("home-complex-06")
def _five_chairs(g):
    return {r for r in rooms(g, "dining_room") if categories_in(g, r)["chair"] == 5}


@expects("home-complex-07")
def _closest_bedroom(g):
    office = only(rooms(g, "home_office"))
    distance = nx.single_source_dijkstra_path_length(topology(g), office)
    return {unique_argmax({r: -distance[r] for r in rooms(g, "bedroom")})}


@expects("home-complex-08")
def _bowls(g):
    counts = {r: categories_in(g, r)["bowl"] for r in rooms(g, "bedroom")}
    top = unique_argmax(counts)
    others = [v for r, v in counts.items() if r != top]
    assert counts[top] >= 3 and counts[top] > 2 * max(others)
    return {top}


@expects("home-complex-09")
def _empty_bedroom(g):
    return {r for r in rooms(g, "bedroom") if not contents(g, r)}


@expects("home-complex-10")
def _plants_bathroom(g):
    return {unique_argmax({r: categories_in(g, r)["potted_plant"] for r in rooms(g, "bathroom")})}


@expects("home-complex-11")
def _heat_outside_kitchen(g):
    heaters = [h for h in of_category(g, *HEATERS) if g.nodes[g.room_of(h)].category != "kitchen"]
    return {g.room_of(h) for h in heaters}  # the question asks for somewhere: a room


@expects("home-complex-12")
def _child_room(g):
    return {g.room_of(x) for x in of_category(g, *BABY_THINGS)}


@expects("home-complex-13")
def _chairs(g):
    chairs = set(of_category(g, "chair"))
    assert len(chairs) >= 15
    return chairs


@expects("home-complex-14")
def _vegetarian_dinner(g):
    dishes = of_category(g, *MEAT_DISHES, *VEGETARIAN_DISHES)
    by_room: dict[str, set[str]] = {}
    for dish in dishes:
        by_room.setdefault(g.room_of(dish), set()).add(dish)
    assert {g.nodes[r].category for r in by_room} == {"dining_room"}
    vegetarian = [
        found  # the question asks to locate the dinner: the dish
        for room, found in by_room.items()
        if all(g.nodes[d].category in VEGETARIAN_DISHES for d in found)
    ]
    assert len(by_room) >= 2, "a non-vegetarian dinner elsewhere makes the choice matter"
    return only_set(vegetarian)


@expects("home-complex-15")
def _tie(g):
    assert not of_category(g, "tie")
    assert len(rooms(g, "closet")) == 2
    return None


def test_every_task_has_a_check(tasks: list[dict]):
    assert set(EXPECTED) == {t["id"] for t in tasks}


@pytest.mark.parametrize("task_id", sorted(EXPECTED))
def test_answer_follows_from_graph(home: SceneGraph, tasks: list[dict], task_id: str):
    task = next(t for t in tasks if t["id"] == task_id)
    expected = EXPECTED[task_id](home)
    if expected is None:
        assert task["answer"] == "none"
    else:
        assert expected, f"{task_id}: the graph gives no answer"
        assert set(task["answer"]) == expected


def test_packaged_by_name():
    from sceneplan.datasets import list_environments, load_environment

    assert "home" in list_environments()
    assert load_environment("home").counts()["room"] == 28
