"""SimulatedPerception: perfect looks, reproducibility, and what each noise knob does."""

from __future__ import annotations

import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError, UnknownNodeError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.perception import Noise, SimulatedPerception, get_perception
from sceneplan.perception.accuracy import PAPER, augmentation_accuracy, default_looks
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import PartialWorld, visible
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH

ON, IN = Relation.ONTOP_OF, Relation.INSIDE_OF


def look(perception, graph, asset, relation=ON, memory=None, truth=None):
    truth = truth or WorldState(graph)
    memory = memory or Memory.static(graph)
    return perception.observe_sync(truth, asset, relation, memory)


# -- perfect -----------------------------------------------------------------------------


def test_perfect_sees_the_assets_objects_and_what_rests_on_them_but_not_in_closed_ones(shelf):
    seen = look(SimulatedPerception(), shelf, "bench")
    assert [o.id for o in seen] == ["bowl", "box", "mug", "apple", "card"]  # no pen: box closed
    assert all(o.truth == o.id for o in seen)
    by_id = {o.id: o for o in seen}
    assert by_id["apple"].relation is IN and by_id["apple"].related_to == "bowl"
    assert by_id["card"].relation is ON and by_id["card"].related_to == "box"
    mug = by_id["mug"]
    assert (mug.category, mug.relation, mug.related_to) == ("mug", ON, "bench")
    assert set(mug.states) == {"dirty", "empty"}
    assert (mug.properties, mug.affordances) == (("blue",), ("pickup",))
    assert by_id["box"].affordances == ("pickup", "open", "close", "release")


def test_perfect_sees_inside_an_opened_object_and_only_the_relation_looked_for(shelf):
    truth = WorldState(shelf)
    truth.set_state("box", "open")
    assert "pen" in [o.id for o in look(SimulatedPerception(), shelf, "bench", truth=truth)]
    assert look(SimulatedPerception(), shelf, "bench", IN) == []
    assert look(SimulatedPerception(), shelf, "cabinet", IN, truth=truth) == []  # closed
    truth.set_state("cabinet", "open")
    assert [o.id for o in look(SimulatedPerception(), shelf, "cabinet", IN, truth=truth)] == [
        "plate"
    ]


def test_perfect_leaves_out_what_memory_holds(shelf):
    memory = Memory.static(shelf)
    memory.add([Observation("bowl", "bowl", ON, "bench", truth="bowl", id="bowl")], "bench", ON)
    # a node memory knows under another id (a VLM named it) is left out too
    memory.add([Observation("cup", "cup", ON, "bench", truth="mug")], "bench", ON)
    assert memory.memory_id("mug") == "cup1"
    seen = look(SimulatedPerception(), shelf, "bench", memory=memory)
    assert [o.id for o in seen] == ["box", "apple", "card"]
    assert {o.id: o.related_to for o in seen}["apple"] == "bowl"  # memory's id of the bowl


def test_a_look_follows_objects_that_moved(shelf):
    truth = WorldState(shelf)
    truth.move("mug", "table", ON)
    assert [o.id for o in look(SimulatedPerception(), shelf, "table", truth=truth)] == [
        "lamp",
        "mug",
    ]


def test_observations_go_into_memory_through_the_partial_world(shelf):
    world = PartialWorld(WorldState(shelf), Memory.static(shelf), LOOKPLANGRAPH)
    seen = look(SimulatedPerception(), shelf, "bench", memory=world.memory, truth=world.truth)
    change = world.look("bench", ON, seen)
    assert change.added == ["bowl", "box", "mug", "apple", "card"]
    assert world.memory.state.parent("apple") == "bowl"


def test_bad_looks_are_clear_errors(shelf):
    with pytest.raises(UnknownNodeError, match="benck"):
        look(SimulatedPerception(), shelf, "benck")
    with pytest.raises(BadInputError, match="ontop_of, inside_of"):
        look(SimulatedPerception(), shelf, "bench", Relation.HELD)
    with pytest.raises(BadInputError, match="room"):
        look(SimulatedPerception(), shelf, "kitchen")


# -- reproducibility -------------------------------------------------------------------


def _all_looks(perception, graph, times=1):
    memory, out = Memory.static(graph), []
    for _ in range(times):
        for asset, relation in default_looks(graph):
            truth = WorldState(graph)
            truth.set_state(asset, "open")
            out.append(perception.observe_sync(truth, asset, relation, memory))
    return out


def test_the_same_seed_gives_the_same_looks_and_another_seed_others():
    office = load_environment("office")
    first = _all_looks(get_perception("simulated:gpt4o-like,seed=5"), office, 2)
    again = _all_looks(get_perception("simulated:gpt4o-like,seed=5"), office, 2)
    other = _all_looks(get_perception("simulated:gpt4o-like,seed=6"), office, 2)
    assert first == again
    assert first != other
    half = len(first) // 2
    assert first[:half] != first[half:]  # looking again at the same asset draws anew


# -- each knob does what it says ---------------------------------------------------------


@pytest.fixture(scope="module")
def office():
    return load_environment("office")


def _pairs(noise, graph, times=3):
    """(perfect observation, noisy observation or None) for every true object looked at."""
    perfect = _all_looks(SimulatedPerception(), graph, times)
    noisy = _all_looks(SimulatedPerception(noise, seed=11), graph, times)
    pairs = []
    for right, got in zip(perfect, noisy, strict=True):
        by_truth = {o.truth: o for o in got if o.truth is not None}
        pairs += [(o, by_truth.get(o.truth)) for o in right]
    return pairs, noisy


def test_miss_drops_that_share_of_objects_and_changes_nothing_else(office):
    pairs, _ = _pairs(Noise(miss=0.4), office)
    kept = [(r, g) for r, g in pairs if g is not None]
    assert len(kept) / len(pairs) == pytest.approx(0.6, abs=0.06)
    assert all(r == g for r, g in kept)


@pytest.mark.parametrize(("knob", "swapped"), [("swap_on", ON), ("swap_inside", IN)])
def test_swap_knobs_turn_one_relation_into_the_other(office, knob, swapped):
    pairs, _ = _pairs(Noise(**{knob: 1.0}), office, times=1)
    for right, got in pairs:
        if right.relation is swapped:
            assert got.relation is (IN if swapped is ON else ON)
        else:
            assert got.relation is right.relation
    assert Noise().with_(swap=0.2) == Noise(swap_on=0.2, swap_inside=0.2)


def test_related_names_something_else(office):
    pairs, _ = _pairs(Noise(related=1.0), office, times=1)
    assert all(g.related_to != r.related_to for r, g in pairs)
    assert all(g.relation is r.relation and g.id == r.id for r, g in pairs)
    half, _ = _pairs(Noise(related=0.5), office)
    wrong = sum(g.related_to != r.related_to for r, g in half) / len(half)
    assert wrong == pytest.approx(0.5, abs=0.07)


def test_state_flips_words_to_their_opposites(office):
    pairs, _ = _pairs(Noise(state=1.0), office, times=1)
    flipped = 0
    for right, got in pairs:
        expected = [EXCLUSIVE_STATES.get(w, w) for w in sorted(right.states)]
        assert list(got.states) == expected
        flipped += any(w in EXCLUSIVE_STATES for w in right.states)
    assert flipped > 10


def test_hallucinate_adds_objects_that_are_not_there(office):
    noisy = _all_looks(SimulatedPerception(Noise(hallucinate=0.5), seed=3), office, 3)
    extra = [o for seen in noisy for o in seen if o.truth is None]
    per_look = len(extra) / len(noisy)
    assert per_look == pytest.approx(0.5 + 0.25 + 0.125, abs=0.15)
    categories = {n.category for n in office}
    assert all(o.id is None and o.category in categories for o in extra)
    assert max(sum(o.truth is None for o in seen) for seen in noisy) <= 3
    result = augmentation_accuracy(SimulatedPerception(Noise(hallucinate=0.5)), office)
    assert result["np"] == 1.0 and result["precision"] < 0.8


def test_synonym_renames_objects_and_only_some_names_match_back(office):
    pairs, _ = _pairs(Noise(synonym=1.0), office, times=1)
    renamed = [(r, g) for r, g in pairs if g.name != r.name]
    assert len(renamed) / len(pairs) > 0.9
    recognised = [g for r, g in pairs if g.id == r.id]
    lost = [g for r, g in pairs if g.id is None]
    assert len(recognised) + len(lost) == len(pairs)
    assert 0.3 < len(recognised) / len(pairs) < 0.95
    assert all(g.category == r.category for r, g in pairs if g.id is not None)
    assert all(g.truth == r.truth for r, g in pairs)  # the world can still associate them
    assert any(g.category is None for g in lost)


def test_noise_values_are_checked():
    with pytest.raises(BadInputError, match="miss"):
        Noise(miss=1.5)
    with pytest.raises(BadInputError, match="state"):
        Noise(state=float("nan"))
    with pytest.raises(BadInputError, match="unknown noise knob"):
        Noise().with_(blur=0.1)
    with pytest.raises(BadInputError, match="gpt4o-like"):
        SimulatedPerception("gpt5-like")


# -- the gpt4o-like preset reproduces Table 4 ---------------------------------------------


def test_gpt4o_like_preset_measures_close_to_table_4_on_office(office):
    result = augmentation_accuracy(
        get_perception("simulated:gpt4o-like,seed=1"), office, repeats=20
    )
    assert result["n"] == 20 * 83
    for key, paper in PAPER.items():
        assert result[key] == pytest.approx(paper, abs=0.04), key


def test_perfect_measures_one_everywhere(office):
    result = augmentation_accuracy(SimulatedPerception(), office)
    assert (result["np"], result["on"], result["inside"], result["precision"]) == (1, 1, 1, 1)
    assert result["n"] == len(office.of_kind(NodeKind.OBJECT))


def test_default_looks_cover_every_object_of_the_graph(shelf, office):
    looks = default_looks(shelf)
    assert looks == [("bench", ON), ("table", ON), ("cabinet", IN)]
    truth = WorldState(office)
    seen = set()
    for asset, relation in default_looks(office):
        truth.set_state(asset, "open")
        seen |= set(visible(truth, asset, relation))
    assert len(seen) == 83
