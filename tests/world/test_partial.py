"""Partial observability in the world: memory vs truth, stale maps, looks that repair memory."""

from __future__ import annotations

import pytest

from sceneplan.datasets import load_environment
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import PartialWorld, visible
from sceneplan.world.setup import with_facts
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH

# The mug Niko's coffee task needs, moved from the kitchen's coffee machine to the table
# of meeting room 1 after the robot last mapped the office.
MOVED = ["ontop_of(mug1, table5)"]


def perfect(world: PartialWorld, asset: str, relation: Relation) -> list[Observation]:
    """What a perfect perceiver reports: every visible object memory does not hold, as it is."""
    truth = world.truth
    out = []
    for node in visible(truth, asset, relation):
        if world.memory.memory_id(node) is not None:
            continue
        parent = truth.parent(node)
        out.append(
            Observation(
                name=node,
                category=truth.graph.nodes[node].category,
                relation=truth.relation(node),
                related_to=parent,
                states=tuple(sorted(truth.states(node))),
                truth=node,
                id=node,
            )
        )
    return out


@pytest.fixture(scope="module")
def office():
    return load_environment("office")


def stale_world(office) -> PartialWorld:
    truth = with_facts(office, MOVED)
    return PartialWorld(WorldState(truth), Memory.prior(office), LOOKPLANGRAPH)


def test_static_memory_holds_rooms_and_assets_but_no_objects(office):
    memory = Memory.static(office)
    kinds = {n.kind for n in memory.graph}
    assert NodeKind.OBJECT not in kinds
    assert {n.id for n in office if n.kind is not NodeKind.OBJECT} == set(memory.graph.nodes)
    assert memory.graph.links() == office.links()


def test_a_plan_on_a_stale_map_fails_naming_the_moved_object_and_memory_forgets_it(office):
    world = stale_world(office)
    assert world.execute("go_to(kitchen)").ok
    outcome = world.execute("pick_up(mug1)")
    assert not outcome.ok and outcome.refused_by == "world"
    assert outcome.failure.cause.value == "stale_memory"
    assert "mug1 is not on coffee_machine as memory had it" in outcome.feedback
    assert outcome.change.forgotten == ["mug1"] and not world.memory.knows("mug1")
    # the true world did not move: the refused step changed nothing there
    assert world.truth.parent("mug1") == "table5" and not world.truth.held


def test_the_next_look_repairs_memory(office):
    world = stale_world(office)
    world.execute("go_to(kitchen)")
    world.execute("pick_up(mug1)")  # refused: memory forgets the mug
    room = office.room_of("table5")
    assert world.execute(f"go_to({room})").ok
    outcome = world.execute("look_on(table5)")
    assert outcome.ok and outcome.look == ("table5", Relation.ONTOP_OF)
    change = world.look(*outcome.look, perfect(world, *outcome.look))
    assert "mug1" in change.added
    assert world.memory.state.parent("mug1") == "table5"
    assert world.execute("pick_up(mug1)").ok
    assert world.truth.held == ("mug1",) and world.memory.state.held == ("mug1",)


def test_a_look_moves_a_known_object_memory_placed_elsewhere(office):
    world = stale_world(office)
    world.execute(f"go_to({office.room_of('table5')})")
    outcome = world.execute("look_on(table5)")
    change = world.look(*outcome.look, perfect(world, *outcome.look))
    assert change.corrected == ["mug1"] and change.added == []
    assert world.memory.state.parent("mug1") == "table5"


def test_a_look_drops_what_memory_believed_there_but_is_gone(office):
    world = stale_world(office)
    world.execute("go_to(kitchen)")
    outcome = world.execute("look_on(coffee_machine)")
    change = world.look(*outcome.look, perfect(world, *outcome.look))
    assert change.forgotten == ["mug1"]


def test_memory_refuses_what_it_does_not_know_without_touching_the_world(office):
    truth = WorldState(office)
    world = PartialWorld(truth, Memory.static(office), LOOKPLANGRAPH)
    world.execute("go_to(kitchen)")
    outcome = world.execute("pick_up(orange1)")
    assert outcome.refused_by == "memory" and outcome.failure.cause.value == "unknown_node"
    assert outcome.executed is None and not truth.held


def test_a_hallucinated_object_is_not_in_the_world_and_is_dropped(office):
    world = PartialWorld(WorldState(office), Memory.static(office), LOOKPLANGRAPH)
    world.execute("go_to(kitchen)")
    outcome = world.execute("look_on(kitchen_bench)")
    ghost = Observation("unicorn figurine", "figurine", Relation.ONTOP_OF, "kitchen_bench")
    change = world.look(*outcome.look, [*perfect(world, *outcome.look), ghost])
    assert "figurine1" in change.added and "orange1" in change.added
    refused = world.execute("pick_up(figurine1)")
    assert refused.failure.cause.value == "not_in_world"
    assert "figurine1 is not there" in refused.feedback
    assert not world.memory.knows("figurine1")


def test_an_unidentified_observation_is_associated_by_category(office):
    world = PartialWorld(WorldState(office), Memory.static(office), LOOKPLANGRAPH)
    world.execute("go_to(kitchen)")
    outcome = world.execute("look_on(kitchen_bench)")
    seen = Observation("an orange", "orange", Relation.ONTOP_OF, "kitchen_bench")
    change = world.look(*outcome.look, [seen])
    assert change.added == ["orange1"]
    assert world.memory.true_id("orange1") == "orange1"
    assert world.execute("pick_up(orange1)").ok


def test_a_state_memory_had_wrong_is_corrected(office):
    truth = with_facts(office, ["open(fridge)"])
    world = PartialWorld(WorldState(truth), Memory.prior(office), LOOKPLANGRAPH)
    world.execute("go_to(kitchen)")
    outcome = world.execute("open(fridge)")  # memory: closed; truly open already
    assert outcome.failure.cause.value == "state_changed"
    assert "fridge is open, not closed as memory had it" in outcome.feedback
    assert "open" in world.memory.state.states("fridge")
    assert world.execute("look_inside(fridge)").ok


def test_looks_see_nested_objects_but_not_inside_closed_ones(office):
    truth = WorldState(office)
    on_bench = set(visible(truth, "kitchen_bench", Relation.ONTOP_OF))
    assert {"orange1", "apple1", "bread"} <= on_bench
    assert "chicken_kebab" in set(visible(truth, "fridge", Relation.INSIDE_OF))
    assert not set(visible(truth, "fridge", Relation.ONTOP_OF)) & {"chicken_kebab"}
