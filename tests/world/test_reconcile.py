"""The one reconciliation of memory with an observation (world/reconcile.py): what it adds,
moves and forgets, in which order, and the changes it records."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.graph.model import Relation
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.reconcile import Change, Changes, Sighting, forget, reconcile, restate
from scenes import node

ON, IN = Relation.ONTOP_OF, Relation.INSIDE_OF
BENCH = ("bench", ON)


@pytest.fixture
def memory() -> Memory:
    """A kitchen: a tray on the bench with a cup on it, a mug on the table, a box on the
    shelf with a pen inside, a spoon in the agent's hand."""
    return Memory(
        from_dict(
            {
                "format": "sceneplan-graph",
                "version": 1,
                "name": "reconcile",
                "nodes": [
                    node("kitchen", "room"),
                    node("bench", "asset", "kitchen", affordances=["release"]),
                    node("table", "asset", "kitchen", affordances=["release"]),
                    node("shelf", "asset", "kitchen", affordances=["release"]),
                    node("tray", "object", "bench", relation="ontop_of", affordances=["pickup"]),
                    node("cup", "object", "tray", relation="ontop_of", affordances=["pickup"]),
                    node("mug", "object", "table", relation="ontop_of", affordances=["pickup"]),
                    node(
                        "box",
                        "object",
                        "shelf",
                        relation="ontop_of",
                        affordances=["pickup", "open", "close", "release"],
                        state=["open"],
                    ),
                    node("pen", "object", "box", relation="inside_of", affordances=["pickup"]),
                    node("agent", "agent", "kitchen"),
                    node("spoon", "object", "agent", relation="held", affordances=["pickup"]),
                ],
                "links": [],
            },
            "reconcile",
        )
    )


def seen_new(name: str, parent: str = "bench", relation: Relation = ON) -> Observation:
    return Observation(name, name, relation, parent, truth=name, id=name)


def test_what_was_not_seen_on_a_surface_seen_whole_is_forgotten_with_what_rests_on_it(memory):
    changes = reconcile(memory, looked=[BENCH])
    assert changes == [Change("missing", "tray", "on bench", None, ("cup",))]
    assert changes.forgotten == ["tray", "cup"] and not changes.added and not changes.corrected
    assert not memory.knows("tray") and not memory.knows("cup")
    assert memory.knows("mug")  # the table was not looked at


def test_what_was_seen_or_is_held_stays(memory):
    memory.state.take("mug")
    changes = reconcile(
        memory,
        seen=[Sighting("tray", "bench", ON), Sighting("cup", "tray", ON)],
        looked=[BENCH, ("table", ON)],
    )
    assert changes == []
    assert memory.knows("tray") and memory.knows("cup") and memory.state.holds("mug")


def test_a_known_object_seen_elsewhere_is_moved_there_and_let_go(memory):
    changes = reconcile(memory, seen=[Sighting("mug", "bench", ON), Sighting("spoon", "tray", ON)])
    assert changes == [
        Change("moved", "mug", "on table", "on bench"),
        Change("moved", "spoon", "held", "on tray"),
    ]
    assert changes.corrected == ["mug", "spoon"]
    assert memory.state.parent("mug") == "bench" and memory.state.parent("spoon") == "tray"
    assert not memory.state.held


def test_a_sighting_that_changes_nothing_or_puts_an_object_in_itself_is_no_change(memory):
    changes = reconcile(
        memory, seen=[Sighting("cup", "tray", ON), Sighting("tray", "cup", ON)], looked=[]
    )
    assert changes == [] and memory.state.parent("tray") == "bench"


def test_state_words_are_replaced_only_when_read(memory):
    changes = reconcile(memory, seen=[Sighting("box", "shelf", ON, ("closed",))])
    assert changes == [Change("state", "box", "open", "closed")]
    assert memory.state.states("box") == {"closed"}
    assert reconcile(memory, seen=[Sighting("box", "shelf", ON)]) == []
    assert restate(memory, "box", ["open"], merge=True) == [
        Change("state", "box", "closed", "open")
    ]


def test_new_objects_are_added_where_seen_and_found_ones_are_told_apart(memory):
    changes = reconcile(
        memory,
        new=[seen_new("plate"), seen_new("fork", "plate"), seen_new("lid", "nowhere")],
        at=BENCH,
        found={"fork"},
    )
    assert [(c.kind, c.node, c.after) for c in changes] == [
        ("new", "plate", "on bench"),
        ("found", "fork", "on plate"),
        ("new", "lid", "on bench"),  # its support is unknown: where the look was
    ]
    assert changes.added == ["plate", "fork", "lid"]


def test_new_objects_come_first_so_a_known_one_can_be_seen_on_one(memory):
    changes = reconcile(
        memory, new=[seen_new("bowl")], at=BENCH, seen=[Sighting("mug", "bowl", IN)]
    )
    assert [c.kind for c in changes] == ["new", "moved"]
    assert memory.state.parent("mug") == "bowl"


def test_moves_come_before_forgetting_so_a_seen_object_leaves_what_is_dropped(memory):
    # the cup is seen on the bench itself; the tray it was believed on is gone
    changes = reconcile(memory, seen=[Sighting("cup", "bench", ON)], looked=[BENCH])
    assert [(c.kind, c.node) for c in changes] == [("moved", "cup"), ("missing", "tray")]
    assert changes.forgotten == ["tray"]
    assert memory.knows("cup") and memory.state.parent("cup") == "bench"


def test_what_was_just_added_on_a_surface_is_not_forgotten_there(memory):
    changes = reconcile(memory, new=[seen_new("plate")], at=BENCH, looked=[BENCH])
    assert changes.added == ["plate"] and changes.forgotten == ["tray", "cup"]
    assert memory.knows("plate")


def test_on_forget_is_told_each_object_while_memory_still_has_it(memory):
    told = []
    reconcile(memory, looked=[BENCH], on_forget=lambda n: told.append((n, memory.knows(n))))
    assert told == [("tray", True)]


def test_forget_drops_only_objects(memory):
    assert forget(memory, "bench") == [] and memory.knows("bench")
    assert forget(memory, "box") == [Change("missing", "box", "on shelf", None, ("pen",))]


def test_changes_list_each_node_once_under_what_it_did():
    changes = Changes(
        [
            Change("new", "a"),
            Change("found", "b"),
            Change("missing", "c", along=("d",)),
            Change("missing", "d"),
            Change("moved", "e"),
            Change("state", "e"),
            Change("at", "agent"),
            Change("new", "a"),
        ]
    )
    assert changes.added == ["a", "b"]
    assert changes.forgotten == ["c", "d"]
    assert changes.corrected == ["e", "agent"]
    assert Change("missing", "c", "on x", None, ("d",)).to_dict() == {
        "kind": "missing",
        "node": "c",
        "before": "on x",
        "after": None,
    }


def test_new_observations_without_a_place_are_refused(memory):
    with pytest.raises(ValueError, match="place they were seen at"):
        reconcile(memory, new=[seen_new("plate")])
