"""The place hierarchy above rooms (graph/zones.py) and the hierarchical views over it."""

from __future__ import annotations

import json

import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import UnknownNodeError, ViewError
from sceneplan.graph import collapse, from_dict, view_to_dict, view_to_text
from sceneplan.graph.views import collapse_hierarchy
from sceneplan.graph.zones import FANOUT, ZONE_ROOMS, Hierarchy


def corridor_building(floors: int, rooms_per_floor: int, zones: dict[str, str] | None = None):
    """Floors of one corridor each (a pose per room), stairs between first poses.

    Rooms alternate kinds office, kitchen, lab; `zones` gives rooms a `zone:` attribute.
    """
    nodes = [{"id": "tower", "kind": "building"}]
    links = []
    kinds = ("office", "kitchen", "lab")
    for f in range(floors):
        nodes.append({"id": f"floor{f}", "kind": "floor", "parent": "tower"})
        for i in range(rooms_per_floor):
            n = f * rooms_per_floor + i
            room = {"id": f"{kinds[n % 3]}{n}", "kind": "room", "parent": f"floor{f}"}
            if zones and room["id"] in zones:
                room["attributes"] = [f"zone:{zones[room['id']]}"]
            nodes += [room, {"id": f"p{n}", "kind": "pose", "parent": f"floor{f}"}]
            links.append([room["id"], f"p{n}"])
            if i:
                links.append([f"p{n - 1}", f"p{n}"])
            elif f:
                links.append([f"p{n - rooms_per_floor}", f"p{n}"])
    nodes.append({"id": "desk0", "kind": "asset", "parent": "office0"})
    nodes.append({"id": "agent", "kind": "agent", "parent": "office0"})
    return from_dict({"format": "sceneplan-graph", "version": 1, "nodes": nodes, "links": links})


def graph_room(graph, n: int) -> str:
    return next(r for r in (f"office{n}", f"kitchen{n}", f"lab{n}") if r in graph)


def test_a_long_corridor_is_cut_into_even_stretches_of_neighbouring_rooms():
    graph = corridor_building(1, 50)
    hierarchy = Hierarchy(graph)
    zones = hierarchy.children("floor0")
    assert zones == ["floor0_zone1", "floor0_zone2", "floor0_zone3"]
    sizes = [sum(hierarchy.rooms(z).values()) for z in zones]
    assert sizes == [17, 17, 16] and max(sizes) <= ZONE_ROOMS
    # a zone is a stretch of the corridor: its rooms are consecutive, with their poses
    second = hierarchy.children("floor0_zone2")
    rooms = [n for n in second if graph.nodes[n].kind.value == "room"]
    assert rooms == [graph_room(graph, i) for i in range(17, 34)]
    assert {f"p{i}" for i in range(17, 34)} <= set(second)  # each room with its door
    assert hierarchy.summary("floor0_zone1") == "17 rooms: office ×6, kitchen ×6, lab ×5"
    assert hierarchy.summary("floor0") == "50 rooms: office ×17, kitchen ×17, lab ×16"
    assert hierarchy.parent("p20") == "floor0_zone2" and hierarchy.parent("floor0") == "tower"
    assert hierarchy.ancestors("desk0") == ["office0", "floor0_zone1", "floor0", "tower"]


def test_small_floors_keep_their_rooms_and_many_floors_are_grouped():
    assert Hierarchy(corridor_building(3, 5)).children("floor1")[:2] == ["lab5", "p5"]
    hierarchy = Hierarchy(corridor_building(25, 2))
    groups = hierarchy.children("tower")
    assert groups == ["floor0_to_floor8", "floor9_to_floor16", "floor17_to_floor24"]
    assert all(hierarchy.kind(g) == "floor_group" for g in groups)
    assert len(hierarchy.children(groups[0])) <= FANOUT
    assert hierarchy.summary(groups[2]) == "16 rooms: kitchen ×6, lab ×5, office ×5"
    assert hierarchy.depth() == 3  # building, a floor group, a floor


def test_zones_the_graph_names_are_kept_and_poses_join_them():
    zones = {"office0": "east wing", "kitchen1": "east wing", "lab2": "west"}
    graph = corridor_building(1, 4, zones)
    hierarchy = Hierarchy(graph)
    # office3 and the corridor's end p3 are in no zone: they stay beside the zones
    assert hierarchy.children("floor0") == ["east_wing", "west", "office3", "p3"]
    assert hierarchy.children("east_wing") == ["office0", "p0", "kitchen1", "p1"]
    assert hierarchy.children("west") == ["lab2", "p2"]  # p2 is lab2's door, not p1's neighbour
    assert hierarchy.groups["east_wing"].given and hierarchy.kind("west") == "zone"
    assert hierarchy.summary("east_wing") == "2 rooms: office, kitchen"


def test_group_ids_never_take_a_nodes_id():
    graph = corridor_building(1, 30)
    data = {
        "format": "sceneplan-graph",
        "version": 1,
        "nodes": [
            *[
                {"id": n.id, "kind": n.kind.value, **({"parent": n.parent} if n.parent else {})}
                for n in graph
            ],
            {"id": "floor0_zone1", "kind": "room", "parent": "floor0"},
        ],
        "links": [list(link) for link in graph.links()],
    }
    hierarchy = Hierarchy(from_dict(data))
    assert "floor0_zone1" not in hierarchy.groups
    assert hierarchy.children("floor0")[0] == "floor0_zone1_2"


def test_the_same_graph_gives_the_same_hierarchy_and_text():
    first, second = corridor_building(12, 30), corridor_building(12, 30)
    assert view_to_text(collapse_hierarchy(first)) == view_to_text(collapse_hierarchy(second))
    assert Hierarchy(first).groups == Hierarchy(second).groups


# -- views ---------------------------------------------------------------------------


def test_the_initial_view_opens_the_building_and_lone_containers_only():
    view = collapse_hierarchy(corridor_building(1, 50))
    assert view.expanded == ["tower", "floor0"] and view.memory == []
    assert view.visible_nodes() == [
        "tower",
        "floor0",
        "agent",
        *[f"floor0_zone{i}" for i in (1, 2, 3)],
    ]
    data = view_to_dict(view)["nodes"]
    assert data["building"] == ["tower"] and data["floor"] == ["floor0"]  # expanded: no summary
    assert data["zone"][0] == {
        "id": "floor0_zone1",
        "summary": "17 rooms: office ×6, kitchen ×6, lab ×5",
    }
    assert "room" not in data and "links" not in view_to_dict(view)


def test_expand_and_contract_work_at_every_level():
    view = collapse_hierarchy(corridor_building(12, 30))
    assert [view.kind(n) for n in view.expand("floor0_to_floor5")] == ["floor"] * 6
    assert view.expand("floor2") == ["floor2_zone1", "floor2_zone2"]
    shown = view.expand("floor2_zone2")
    assert "office75" in shown and "p75" in shown
    assert view.expand("office75") == []  # a room with nothing in it
    text = json.loads(view_to_text(view))
    assert "floor2_zone2" in text["nodes"]["zone"]  # expanded: the bare id
    assert {"p75": ["office75"]}.items() <= text["links"].items()
    hidden = view.contract("floor0_to_floor5")
    assert "office75" in hidden and "floor2_zone2" in hidden
    assert view.memory == ["floor0_to_floor5", "floor2", "floor2_zone2", "office75"]
    assert view.visible_nodes() == collapse_hierarchy(corridor_building(12, 30)).visible_nodes()


def test_a_hidden_node_says_what_to_expand_first():
    view = collapse_hierarchy(corridor_building(12, 30))
    with pytest.raises(ViewError, match="expand floor group 'floor6_to_floor11' first"):
        view.expand("floor9")
    view.expand("floor0_to_floor5")
    with pytest.raises(ViewError, match="expand floor 'floor1' first"):
        view.expand("kitchen40")
    with pytest.raises(ViewError, match="only rooms, zones, floors, floor groups and the building"):
        view.expand("p3")
    with pytest.raises(UnknownNodeError, match="floor0_zone9"):
        view.expand("floor0_zone9")
    assert view.reveal("desk0")[-1] == "desk0" and "desk0" in view


def test_rooms_mode_is_sayplans_collapse():
    office = load_environment("office")
    assert collapse(office).hierarchy is None
    assert collapse(office).visible_nodes() != collapse_hierarchy(office).visible_nodes()
    rooms = [n.id for n in office if n.kind.value == "room"]
    assert set(rooms) <= set(collapse(office).visible_nodes())
