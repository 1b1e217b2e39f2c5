"""The one reconciliation of memory with an observation (world/reconcile.py): what it adds,
moves and forgets, in which order, and the changes it records."""

from __future__ import annotations

import pytest

from sceneplan.graph.model import Relation
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.reconcile import Change, Changes, Sighting, forget, reconcile, restate
from scenes import kitchen

ON, IN = Relation.ONTOP_OF, Relation.INSIDE_OF
BENCH = ("bench", ON)


@pytest.fixture
def memory() -> Memory:
    """The tiny kitchen (tests/scenes.py) with the apple on the plate on the bench, the mug on
    the desk, the box in the cabinet with a pen inside; the agent holds the soup."""
    memory = Memory(kitchen())
    memory.state.move("apple", "plate", ON)
    memory.state.take("soup")
    return memory


def seen_new(name: str, parent: str = "bench", relation: Relation = ON) -> Observation:
    return Observation(name, name, relation, parent, truth=name, id=name)


def test_what_was_not_seen_on_a_surface_seen_whole_is_forgotten_with_what_rests_on_it(memory):
    changes = reconcile(memory, looked=[BENCH])
    assert changes == [Change("missing", "plate", "on bench", None, ("apple",))]
    assert changes.forgotten == ["plate", "apple"] and not changes.added and not changes.corrected
    assert not memory.knows("plate") and not memory.knows("apple")
    assert memory.knows("mug")  # the desk was not looked at


def test_what_was_seen_or_is_held_stays(memory):
    memory.state.take("mug")
    changes = reconcile(
        memory,
        seen=[Sighting("plate", "bench", ON), Sighting("apple", "plate", ON)],
        looked=[BENCH, ("desk", ON)],
    )
    assert changes == []
    assert memory.knows("plate") and memory.knows("apple") and memory.state.holds("mug")


def test_a_known_object_seen_elsewhere_is_moved_there_and_let_go(memory):
    changes = reconcile(memory, seen=[Sighting("mug", "bench", ON), Sighting("soup", "plate", ON)])
    assert changes == [
        Change("moved", "mug", "on desk", "on bench"),
        Change("moved", "soup", "held", "on plate"),
    ]
    assert changes.corrected == ["mug", "soup"]
    assert memory.state.parent("mug") == "bench" and memory.state.parent("soup") == "plate"
    assert not memory.state.held


def test_a_sighting_that_changes_nothing_or_puts_an_object_in_itself_is_no_change(memory):
    changes = reconcile(
        memory, seen=[Sighting("apple", "plate", ON), Sighting("plate", "apple", ON)], looked=[]
    )
    assert changes == [] and memory.state.parent("plate") == "bench"


def test_state_words_are_replaced_only_when_read(memory):
    changes = reconcile(memory, seen=[Sighting("box", "cabinet", IN, ("open",))])
    assert changes == [Change("state", "box", "closed", "open")]
    assert memory.state.states("box") == {"open"}
    assert reconcile(memory, seen=[Sighting("box", "cabinet", IN)]) == []
    assert restate(memory, "box", ["closed"], merge=True) == [
        Change("state", "box", "open", "closed")
    ]


def test_new_objects_are_added_where_seen_and_found_ones_are_told_apart(memory):
    changes = reconcile(
        memory,
        new=[seen_new("tray"), seen_new("fork", "tray"), seen_new("lid", "nowhere")],
        at=BENCH,
        found={"fork"},
    )
    assert [(c.kind, c.node, c.after) for c in changes] == [
        ("new", "tray", "on bench"),
        ("found", "fork", "on tray"),
        ("new", "lid", "on bench"),  # its support is unknown: where the look was
    ]
    assert changes.added == ["tray", "fork", "lid"]


def test_new_objects_come_first_so_a_known_one_can_be_seen_on_one(memory):
    changes = reconcile(
        memory, new=[seen_new("bowl")], at=BENCH, seen=[Sighting("mug", "bowl", IN)]
    )
    assert [c.kind for c in changes] == ["new", "moved"]
    assert memory.state.parent("mug") == "bowl"


def test_moves_come_before_forgetting_so_a_seen_object_leaves_what_is_dropped(memory):
    # the cup is seen on the bench itself; the tray it was believed on is gone
    changes = reconcile(memory, seen=[Sighting("apple", "bench", ON)], looked=[BENCH])
    assert [(c.kind, c.node) for c in changes] == [("moved", "apple"), ("missing", "plate")]
    assert changes.forgotten == ["plate"]
    assert memory.knows("apple") and memory.state.parent("apple") == "bench"


def test_what_was_just_added_on_a_surface_is_not_forgotten_there(memory):
    changes = reconcile(memory, new=[seen_new("tray")], at=BENCH, looked=[BENCH])
    assert changes.added == ["tray"] and changes.forgotten == ["plate", "apple"]
    assert memory.knows("tray")


def test_on_forget_is_told_each_object_while_memory_still_has_it(memory):
    told = []
    reconcile(memory, looked=[BENCH], on_forget=lambda n: told.append((n, memory.knows(n))))
    assert told == [("plate", True)]


def test_forget_drops_only_objects(memory):
    assert forget(memory, "bench") == [] and memory.knows("bench")
    assert forget(memory, "box") == [Change("missing", "box", "inside cabinet", None, ("pen",))]


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
        reconcile(memory, new=[seen_new("tray")])
