import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import UnknownNodeError, UnreachableError
from sceneplan.graph import from_dict
from sceneplan.nav import Navigator
from sceneplan.world import Simulator, parse_action
from scenes import kitchen, kitchen_dict, node


def test_dijkstra_uses_euclidean_weights():
    data = kitchen_dict()
    # a direct link that is longer than the two-pose corridor must not be preferred
    data["nodes"].append(node("detour", "pose", position=[3.0, 10.0]))
    data["links"] += [["office", "detour"], ["detour", "kitchen"]]
    nav = Navigator(from_dict(data))
    assert nav.shortest_path("office", "kitchen") == ["office", "pose1", "pose2", "kitchen"]
    assert nav.path_length("office", "kitchen") == pytest.approx(6.0)


def test_hop_count_without_positions():
    data = kitchen_dict()
    for item in data["nodes"]:
        item.pop("position", None)
    data["nodes"].append(node("shortcut", "pose"))
    data["links"] += [["office", "shortcut"], ["shortcut", "kitchen"]]
    assert Navigator(from_dict(data)).shortest_path("office", "kitchen") == [
        "office",
        "shortcut",
        "kitchen",
    ]


def test_expand_plan_inserts_poses_and_tracks_position():
    nav = Navigator(kitchen())
    plan = nav.expand_plan("goto(kitchen) > access(fridge) > goto(office) > goto(office)")
    assert [str(a) for a in plan] == [
        "goto(pose1)",
        "goto(pose2)",
        "goto(kitchen)",
        "access(fridge)",
        "goto(pose2)",
        "goto(pose1)",
        "goto(office)",
        "goto(office)",
    ]


def test_unknown_targets_are_left_for_the_simulator():
    graph = kitchen()
    plan = Navigator(graph).expand_plan("goto(pantry) > goto(desk)")
    assert [str(a) for a in plan] == ["goto(pantry)", "goto(desk)"]
    assert Simulator(graph).verify_plan(plan).failure.cause.value == "unknown_node"


@pytest.mark.parametrize("step", ["goto(kitchen, office)", "goto()", "goto"])
def test_goto_with_wrong_arity_is_kept_for_the_simulator(step):
    graph = kitchen()
    plan = Navigator(graph).expand_plan(f"{step} > done")
    assert plan == [parse_action(step), parse_action("done")]
    failure = Simulator(graph).verify_plan(plan).failure
    assert failure.cause.value == "wrong_arity" and failure.index == 0


def test_steps_after_done_are_kept_as_written():
    graph = kitchen()
    plan = Navigator(graph).expand_plan("goto(kitchen) > done > goto(office)")
    assert [str(a) for a in plan][-2:] == ["done()", "goto(office)"]
    assert Simulator(graph).verify_plan(plan).ignored == [parse_action("goto(office)")]


def test_unreachable_room_is_a_clear_error():
    data = kitchen_dict()
    data["nodes"].append(node("attic", "room"))
    nav = Navigator(from_dict(data))
    with pytest.raises(UnreachableError, match="no path from office to attic"):
        nav.expand_plan("goto(attic)")
    with pytest.raises(UnreachableError, match="'desk' is an asset, not a room or pose"):
        nav.shortest_path("office", "desk")
    with pytest.raises(UnknownNodeError, match="unknown node 'atic'"):
        nav.shortest_path("office", "atic")


def test_coffee_story_app_l():
    """The App. L replanning story: the first plan fails on the closed wardrobe."""
    graph = load_environment("coffee")
    nav, sim = Navigator(graph), Simulator(graph)
    first = (
        "goto(bobs_room) > access(wardrobe1) > pickup(coffee_mug) > goto(kitchen) > "
        "access(coffee_machine) > release(coffee_mug) > turn_on(coffee_machine) > "
        "turn_off(coffee_machine) > pickup(coffee_mug) > goto(toms_room) > "
        "access(wardrobe2) > release(coffee_mug) > done"
    )
    result = sim.verify_plan(nav.expand_plan(first))
    assert result.failure.message == (
        "step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed"
    )
    second = first.replace("access(wardrobe1) >", "access(wardrobe1) > open(wardrobe1) >")
    expanded = nav.expand_plan(second)
    assert [str(a) for a in expanded[4:9]] == [
        "goto(pose1)",
        "goto(toms_room)",
        "goto(pose5)",
        "goto(kitchen)",
        "access(coffee_machine)",
    ]
    result = sim.verify_plan(expanded)
    assert result.ok
    assert result.final_state.states("coffee_mug") == {"full"}
    assert result.final_state.room_of("coffee_mug") == "toms_room"


def _places(graph):
    return [n for n in graph.nodes if graph.is_place(n)]


@pytest.mark.parametrize("env", ["coffee", "office", "home"])
@pytest.mark.slow
def test_paths_are_networkx_bidirectional_dijkstra_paths(env):
    """Every pair of places: the same path networkx gives on the topology, ties included."""
    import networkx as nx

    graph = load_environment(env)
    nav = Navigator(graph)
    places = _places(graph)
    for source in places:
        for target in places:
            expected = nx.bidirectional_dijkstra(graph.topology, source, target)[1]
            assert nav.shortest_path(source, target) == expected, (source, target)


def test_paths_match_networkx_on_generated_meshes_with_ties():
    """Random meshes of unit-length links (many equal paths) and a split component."""
    import random

    import networkx as nx

    rng = random.Random(7)
    for trial in range(20):
        names = [f"r{i}" for i in range(14)]
        nodes = [{"id": "floor0", "kind": "floor"}]
        nodes += [{"id": n, "kind": "room", "parent": "floor0"} for n in names]
        nodes.append({"id": "robot", "kind": "agent", "parent": names[0]})
        links = {tuple(sorted(rng.sample(names, 2))) for _ in range(22)}
        data = {"format": "sceneplan-graph", "version": 1, "name": "mesh", "nodes": nodes}
        graph = from_dict(data | {"links": [list(link) for link in sorted(links)]})
        nav = Navigator(graph)
        for source in names:
            for target in names:
                try:
                    expected = nx.bidirectional_dijkstra(graph.topology, source, target)[1]
                except nx.NetworkXNoPath:
                    with pytest.raises(UnreachableError, match="no chain of links"):
                        nav.shortest_path(source, target)
                    continue
                assert nav.shortest_path(source, target) == expected, (trial, source, target)


def test_navigating_does_not_build_the_networkx_topology():
    graph = load_environment("office")
    Navigator(graph).expand_plan("goto(kitchen) > goto(mobile_robotics_lab)")
    assert graph._topology is None


@pytest.mark.parametrize("env", ["coffee", "office", "home"])
def test_distances_are_networkx_single_source_dijkstra_lengths(env):
    """From every place: the same lengths, in the same order, as networkx on the topology."""
    import networkx as nx

    graph = load_environment(env)
    nav = Navigator(graph)
    for source in _places(graph):
        expected = nx.single_source_dijkstra_path_length(graph.topology, source)
        got = nav.distances_from(source)
        assert list(got.items()) == list(expected.items()), source


def test_distances_reach_only_the_linked_component_and_refuse_a_non_place():
    graph = from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": "split",
            "nodes": [
                {"id": "floor0", "kind": "floor"},
                *({"id": r, "kind": "room", "parent": "floor0"} for r in ("a", "b", "c")),
                {"id": "robot", "kind": "agent", "parent": "a"},
            ],
            "links": [["a", "b"]],
        }
    )
    assert Navigator(graph).distances_from("a") == {"a": 0.0, "b": 1.0}
    assert Navigator(graph).distances_from("c") == {"c": 0.0}
    with pytest.raises(UnknownNodeError):
        Navigator(graph).distances_from("robot")
