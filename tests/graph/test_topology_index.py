"""The place index answers as the networkx topology does, and the topology built on first use is
the one add_edge builds link by link."""

from __future__ import annotations

import networkx as nx
import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import UnknownNodeError
from sceneplan.graph import SceneGraph
from sceneplan.graph.model import Node, NodeKind


def topology_by_add_edge(graph: SceneGraph, links: list[tuple[str, str]]) -> nx.Graph:
    """The topology as SceneGraph built it eagerly before: places, then links one by one."""
    expected = nx.Graph()
    expected.add_nodes_from(n.id for n in graph if n.kind in (NodeKind.ROOM, NodeKind.POSE))
    for a, b in links:
        if not expected.has_edge(a, b):
            expected.add_edge(a, b, weight=graph._distance(a, b))
    return expected


@pytest.mark.parametrize("env", ["office", "home", "coffee"])
def test_the_lazy_topology_is_the_eager_one(env):
    graph = load_environment(env)
    assert graph._topology is None  # loading builds no networkx graph
    expected = topology_by_add_edge(graph, graph.links())
    topology = graph.topology
    assert list(topology.nodes) == list(expected.nodes)
    assert list(topology.edges(data=True)) == list(expected.edges(data=True))
    assert all(list(topology[n]) == list(expected[n]) for n in expected)
    assert graph.topology is topology  # built once


def test_the_index_answers_as_networkx():
    graph = load_environment("office")
    topology = graph.topology
    for node in graph:
        assert graph.is_place(node.id) == (node.id in topology)
    for place in topology:
        assert graph.neighbours(place) == list(topology.neighbors(place))
        for other in topology:
            assert graph.linked(place, other) == topology.has_edge(place, other)
        for other in topology[place]:
            assert graph.link_length(place, other) == topology[place][other]["weight"]
    assert graph.counts()["links"] == topology.number_of_edges()
    with pytest.raises(UnknownNodeError):
        graph.neighbours("fridge" if "fridge" in graph else "no_such_node")


def test_repeated_and_reversed_links_count_once_and_self_links_are_kept():
    nodes = [
        Node("a", NodeKind.ROOM, position=(0.0, 0.0)),
        Node("b", NodeKind.ROOM, position=(3.0, 4.0)),
        Node("p", NodeKind.POSE),
    ]
    links = [("a", "b"), ("b", "a"), ("a", "b"), ("p", "p"), ("b", "p")]
    graph = SceneGraph.from_nodes(nodes, links)
    assert graph.links() == [("a", "b"), ("p", "p"), ("b", "p")]
    assert graph.link_length("b", "a") == 5.0 and graph.link_length("p", "b") == 1.0
    assert graph.linked("p", "p") and graph.neighbours("b") == ["a", "p"]
    expected = topology_by_add_edge(graph, links)
    assert list(graph.topology.edges(data=True)) == list(expected.edges(data=True))
