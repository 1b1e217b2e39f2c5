"""Views (collapse, expand, contract, memory) and their prompt text."""

from __future__ import annotations

import json

import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError, UnknownNodeError, ViewError
from sceneplan.graph import (
    collapse,
    from_dict,
    full_view,
    to_dict,
    view_parts,
    view_to_dict,
    view_to_text,
)
from scenes import kitchen

ROOMS = ["bobs_room", "toms_room", "jacks_room", "kitchen", "livingroom"]
POSES = ["pose1", "pose2", "pose3", "pose4", "pose5"]


@pytest.fixture
def coffee():
    return load_environment("coffee")


def two_floors():
    """A building with two floors; the agent holds a tray with a cup on it."""
    nodes = [
        {"id": "house", "kind": "building"},
        {"id": "floor0", "kind": "floor", "parent": "house"},
        {"id": "floor1", "kind": "floor", "parent": "house"},
        {"id": "lobby", "kind": "room", "parent": "floor0", "position": [0.123, 4.567]},
        {"id": "stairs0", "kind": "pose", "parent": "floor0"},
        {"id": "stairs1", "kind": "pose", "parent": "floor1"},
        {"id": "attic", "kind": "room", "parent": "floor1", "description": "dusty"},
        {"id": "chest", "kind": "asset", "parent": "attic", "state": ["closed"]},
        {"id": "doll", "kind": "object", "parent": "chest", "relation": "inside_of"},
        {"id": "agent", "kind": "agent", "parent": "lobby"},
        {"id": "tray", "kind": "object", "parent": "agent", "relation": "held"},
        {"id": "cup", "kind": "object", "parent": "tray", "relation": "ontop_of"},
    ]
    links = [["lobby", "stairs0"], ["stairs0", "stairs1"], ["stairs1", "attic"]]
    return from_dict({"format": "sceneplan-graph", "version": 1, "nodes": nodes, "links": links})


# -- collapse -----------------------------------------------------------------------


def test_collapse_to_rooms_shows_building_floors_rooms_poses_and_agent(coffee):
    view = collapse(coffee)
    assert view.visible_nodes() == ["house", "floor0", *ROOMS, *POSES, "agent"]
    assert view.expanded == ["house", "floor0"]
    assert view.memory == []
    assert not view.visible("fridge")
    assert view.visible("kitchen")


def test_collapse_to_floors_and_building(coffee):
    assert collapse(coffee, "floor").visible_nodes() == ["house", "floor0", "agent"]
    assert collapse(coffee, "floor").expanded == ["house"]
    assert collapse(coffee, "building").visible_nodes() == ["house", "agent"]
    assert collapse(coffee, "building").expanded == []


def test_full_view_shows_everything(coffee):
    view = full_view(coffee)
    assert view.visible_nodes() == [n.id for n in coffee]
    assert view.expanded == ["house", "floor0", *ROOMS]


def test_unknown_level(coffee):
    with pytest.raises(BadInputError, match="unknown view level 'rooms'; expected one of"):
        collapse(coffee, "rooms")


def test_the_agent_and_what_it_holds_are_always_visible():
    view = collapse(two_floors(), "building")
    assert view.visible_nodes() == ["house", "agent", "tray", "cup"]


def test_rooms_without_a_floor_are_top_level():
    view = collapse(kitchen(), "building")
    assert view.visible_nodes() == ["office", "kitchen", "pose1", "pose2", "agent"]


# -- expand, contract, memory ----------------------------------------------------------


def test_expand_room_reveals_assets_and_all_objects_under_them():
    view = collapse(kitchen())
    revealed = view.expand("kitchen")
    assert revealed[:3] == ["fridge", "soup", "microwave"]  # depth first, file order
    assert {"cabinet", "box", "pen"} <= set(revealed)  # pen is inside box inside cabinet
    assert not view.visible("desk")
    assert view.expanded == ["kitchen"]
    assert view.memory == ["kitchen"]


def test_contract_hides_what_expand_revealed_and_memory_keeps_it(coffee):
    view = collapse(coffee)
    before = view.visible_nodes()
    assert view.expand("bobs_room") == ["bed1", "wardrobe1", "coffee_mug"]
    assert view.contract("bobs_room") == ["bed1", "wardrobe1", "coffee_mug"]
    assert view.visible_nodes() == before
    assert view.memory == ["bobs_room"]
    assert view.expanded == ["house", "floor0"]


def test_memory_is_ordered_without_repeats(coffee):
    view = collapse(coffee)
    for command, node in [  # the sequence of SayPlan App. K, then a repeat
        ("expand", "toms_room"),
        ("expand", "kitchen"),
        ("expand", "jacks_room"),
        ("contract", "jacks_room"),
        ("expand", "bobs_room"),
        ("contract", "toms_room"),
        ("expand", "toms_room"),
    ]:
        getattr(view, command)(node)
    assert view.memory == ["toms_room", "kitchen", "jacks_room", "bobs_room"]
    assert view.expanded == ["house", "floor0", "kitchen", "bobs_room", "toms_room"]


def test_expanding_a_room_does_not_touch_the_agent_in_it(coffee):
    view = collapse(coffee)
    assert "agent" not in view.expand("bobs_room")
    assert "agent" not in view.contract("bobs_room")
    assert view.visible("agent")


def test_contract_floor_contracts_its_expanded_rooms(coffee):
    view = collapse(coffee)
    view.expand("kitchen")
    hidden = view.contract("floor0")
    assert {"fridge", "coffee_machine", "kitchen", "pose3"} <= set(hidden)
    assert view.visible_nodes() == ["house", "floor0", "agent"]
    assert view.expanded == ["house"]
    assert view.expand("floor0") == [*ROOMS, *POSES]
    assert not view.visible("fridge")  # the kitchen comes back contracted
    assert view.memory == ["kitchen", "floor0"]


def test_contract_building_hides_everything_under_it():
    view = collapse(two_floors())
    view.expand("attic")
    view.contract("house")
    assert view.visible_nodes() == ["house", "agent", "tray", "cup"]
    assert view.expanded == []
    assert view.expand("house") == ["floor0", "floor1"]
    assert view.expand("floor1") == ["stairs1", "attic"]


# -- messages an LLM gets back ----------------------------------------------------------

ONLY = "only rooms, floors and the building can be"


def error(action) -> str:
    with pytest.raises(ViewError) as info:
        action()
    return str(info.value)


def test_expand_asset_message(coffee):
    view = collapse(coffee)
    assert error(lambda: view.expand("fridge")) == (
        f"cannot expand 'fridge': it is an asset; {ONLY} expanded "
        "(its objects appear when you expand its room 'kitchen')"
    )
    view.expand("kitchen")
    assert error(lambda: view.expand("fridge")) == (
        f"cannot expand 'fridge': it is an asset; {ONLY} expanded "
        "(its objects are already shown: its room 'kitchen' is expanded)"
    )


def test_expand_object_pose_agent_messages(coffee):
    view = collapse(coffee)
    assert error(lambda: view.expand("coffee_mug")) == (
        f"cannot expand 'coffee_mug': it is an object; {ONLY} expanded "
        "(it appears when you expand its room 'bobs_room')"
    )
    view.expand("bobs_room")
    assert error(lambda: view.expand("coffee_mug")).endswith(
        "(it is already shown: its room 'bobs_room' is expanded)"
    )
    assert error(lambda: view.expand("pose1")) == (
        f"cannot expand 'pose1': it is a pose; {ONLY} expanded "
        "(poses connect rooms and hold nothing)"
    )
    assert error(lambda: view.expand("agent")) == (
        f"cannot expand 'agent': it is the agent; {ONLY} expanded (the agent is always shown)"
    )


def test_held_object_message():
    view = collapse(two_floors())
    assert error(lambda: view.expand("cup")) == (
        f"cannot expand 'cup': it is an object; {ONLY} expanded (the agent is holding it)"
    )


def test_contract_non_expandable_message(coffee):
    assert error(lambda: collapse(coffee).contract("wardrobe1")) == (
        f"cannot contract 'wardrobe1': it is an asset; {ONLY} contracted "
        "(contract its room 'bobs_room' to hide it)"
    )


def test_already_expanded_and_not_expanded_messages(coffee):
    view = collapse(coffee)
    assert (
        error(lambda: view.contract("kitchen")) == "cannot contract 'kitchen': it is not expanded"
    )
    view.expand("kitchen")
    assert (
        error(lambda: view.expand("kitchen")) == "cannot expand 'kitchen': it is already expanded"
    )
    assert error(lambda: view.expand("floor0")) == "cannot expand 'floor0': it is already expanded"


def test_not_visible_message_names_what_to_expand_first():
    view = collapse(two_floors(), "building")
    assert error(lambda: view.expand("attic")) == (
        "cannot expand 'attic': it is not visible; expand building 'house' first"
    )
    view.expand("house")
    assert error(lambda: view.expand("attic")) == (
        "cannot expand 'attic': it is not visible; expand floor 'floor1' first"
    )


def test_unknown_node_suggests_close_names(coffee):
    view = collapse(coffee)
    for action in (view.expand, view.contract, view.visible):
        with pytest.raises(UnknownNodeError) as info:
            action("kitchn")
        assert str(info.value) == "unknown node 'kitchn' (did you mean kitchen?)"


def test_a_failed_action_changes_nothing(coffee):
    view = collapse(coffee)
    view.expand("kitchen")
    before = (view.visible_nodes(), view.expanded, view.memory)
    for action in (lambda: view.expand("fridge"), lambda: view.contract("bobs_room")):
        with pytest.raises(ViewError):
            action()
    assert (view.visible_nodes(), view.expanded, view.memory) == before


# -- serialization -------------------------------------------------------------------------


def test_collapsed_coffee_text_is_sayplan_shaped(coffee):
    text = view_to_text(collapse(coffee))
    assert text.startswith(
        '{"nodes":{"building":["house"],"floor":["floor0"],"room":["bobs_room","toms_room",'
    )
    assert (
        '"agent":[{"id":"agent","location":"bobs_room"}]},"links":{"pose1":["bobs_room"],' in text
    )
    # each edge once, under the end with more edges: kitchen<->pose3, kitchen<->pose4, ...
    assert text.endswith('"kitchen":["pose3","pose4","pose5"],"pose4":["livingroom"]}}')
    assert " " not in text and "asset" not in text
    links = json.loads(text)["links"]
    edges = {frozenset((a, b)) for a, ends in links.items() for b in ends}
    assert edges == {frozenset(link) for link in coffee.links()}
    assert sum(map(len, links.values())) == len(coffee.links())


def test_expanded_entries_have_their_fields_in_a_fixed_order(coffee):
    view = collapse(coffee)
    view.expand("bobs_room")
    view.expand("kitchen")
    data = view_to_dict(view)
    assert data["nodes"]["object"] == [
        {
            "id": "coffee_mug",
            "inside_of": "wardrobe1",
            "state": ["empty"],
            "affordances": ["pickup"],
            "attributes": ["blue"],
        }
    ]
    assert list(data["nodes"]["asset"][3]) == ["id", "room", "state", "affordances", "attributes"]
    assert [a["id"] for a in data["nodes"]["asset"]] == [  # file order, not expansion order
        "bed1",
        "wardrobe1",
        "fridge",
        "coffee_machine",
    ]


def test_floors_descriptions_positions_and_held_objects():
    view = collapse(two_floors())
    view.expand("attic")
    nodes = view_to_dict(view, positions=True)["nodes"]
    assert nodes["room"] == [
        {"id": "lobby", "floor": "floor0", "position": [0.12, 4.57]},
        {"id": "attic", "floor": "floor1", "description": "dusty"},
    ]
    assert nodes["object"] == [
        {"id": "doll", "inside_of": "chest"},
        {"id": "tray", "held": "agent"},
        {"id": "cup", "ontop_of": "tray"},
    ]
    assert "position" not in view_to_text(view)


def test_links_need_both_ends_visible(coffee):
    assert "links" not in view_to_dict(collapse(coffee, "floor"))
    view = collapse(two_floors())
    view.contract("floor1")
    assert view_to_dict(view)["links"] == {"lobby": ["stairs0"]}


def test_same_view_same_bytes_whatever_the_order_of_expansion(coffee):
    first, second = collapse(coffee), collapse(load_environment("coffee"))
    first.expand("kitchen")
    first.expand("toms_room")
    second.expand("jacks_room")
    second.expand("toms_room")
    second.expand("kitchen")
    second.contract("jacks_room")
    assert view_to_text(first) == view_to_text(second)
    assert view_to_text(first) == view_to_text(first)


def test_hidden_objects_do_not_change_the_collapsed_text(coffee):
    data = to_dict(coffee)
    before = collapse(coffee)
    before.expand("toms_room")
    data["nodes"] += [
        {"id": f"apple{i}", "kind": "object", "parent": "fridge", "relation": "inside_of"}
        for i in range(500)
    ]
    after = collapse(from_dict(data))
    after.expand("toms_room")
    assert view_to_text(after) == view_to_text(before)
    assert view_to_text(collapse(from_dict(data))) == view_to_text(collapse(coffee))


def test_parts_are_the_fragments_of_the_text(coffee):
    view = collapse(coffee)
    view.expand("kitchen")
    text, parts = view_to_text(view), view_parts(view)
    assert list(parts) == ["building", "floor", "room", "pose", "agent", "asset", "links"]
    assert parts["asset"].count == 2 and parts["links"].count == 10
    assert parts["asset"].text.startswith('"asset":[{"id":"fridge"')
    assert all(part.text in text for part in parts.values())
    assert json.loads("{" + ",".join(p.text for n, p in parts.items() if n != "links") + "}")
