"""The Vocabulary object: what a run in it is like is its attributes, never a test of its name."""

import re

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError, UnsupportedError
from sceneplan.runs import resolve
from sceneplan.world import ALFWORLD, LOOKPLANGRAPH, SAYPLAN, VOCABULARIES, Simulator
from sceneplan.world.domain import (
    LOOKPLANGRAPH_ACTIONS,
    LOOKPLANGRAPH_TWO_HANDS_WORDING,
    two_handed,
)
from sceneplan.world.vocabularies import get_vocabulary, native_vocabulary
from sceneplan.world.vocabulary import PLAIN
from source_scan import lines_matching


def test_the_registry_lists_each_vocabulary_once_under_its_name():
    assert list(VOCABULARIES) == ["sayplan", "lookplangraph", "lookplangraph_two_hands", "alfworld"]
    assert all(VOCABULARIES[name].name == name for name in VOCABULARIES)
    assert get_vocabulary("alfworld") is ALFWORLD
    with pytest.raises(
        BadInputError, match="unknown action vocabulary 'sayplna' \\(did you mean 'sayplan'"
    ):
        get_vocabulary("sayplna")


def test_what_differs_between_vocabularies_is_data():
    assert (SAYPLAN.reaches_by_access, LOOKPLANGRAPH.reaches_by_access) == (True, False)
    assert SAYPLAN.pose_moves == {"goto"} and not LOOKPLANGRAPH.pose_moves
    assert [v.end_schema.name for v in VOCABULARIES.values()] == ["done"] * 4
    assert ALFWORLD.ends_when_goal_holds and ALFWORLD.max_steps == 25 and ALFWORLD.pddl_goals
    assert not any(
        (v.ends_when_goal_holds, v.max_steps, v.pddl_goals) != (False, None, False)
        for v in (SAYPLAN, LOOKPLANGRAPH)
    )
    assert SAYPLAN.voice is PLAIN and ALFWORLD.voice.environment_only
    assert (
        LOOKPLANGRAPH.two_hands is not None and LOOKPLANGRAPH.two_hands.prompts == "lookplangraph"
    )


def test_an_alfworld_room_has_its_own_vocabulary_and_other_scenes_none():
    alfworld = resolve(get_task("alfworld-look-01")).graph
    assert native_vocabulary(alfworld) is ALFWORLD
    assert native_vocabulary(load_environment("office")) is None


def test_the_two_handed_form_declares_its_own_wording():
    actions = LOOKPLANGRAPH.two_hands.actions
    for name, doc in LOOKPLANGRAPH_TWO_HANDS_WORDING.items():
        assert actions[name].doc == doc
    assert actions["put_on"].signature == "put_on(<o>, <a>)"
    missing = {k: v for k, v in LOOKPLANGRAPH_TWO_HANDS_WORDING.items() if k != "put_on"}
    with pytest.raises(UnsupportedError, match=r"two-handed put_on\(<o>, <a>\) has no wording"):
        two_handed(LOOKPLANGRAPH_ACTIONS, missing)
    with pytest.raises(UnsupportedError, match=r"wording for unchanged actions: \['go_to'\]"):
        two_handed(LOOKPLANGRAPH_ACTIONS, {**LOOKPLANGRAPH_TWO_HANDS_WORDING, "go_to": "Go."})


def test_a_simulator_takes_the_vocabulary_object():
    sim = Simulator(load_environment("coffee"), LOOKPLANGRAPH)
    assert sim.vocabulary is LOOKPLANGRAPH and sim.schemas is LOOKPLANGRAPH.actions


def test_no_code_outside_world_compares_vocabulary_names():
    """Outside world/, a run's vocabulary is asked (its attributes), never compared by name."""
    compares = re.compile(
        r"vocabulary\s*[!=]=|alfworld\.VOCABULARY|\.name\s*[!=]=\s*\"(sayplan|lookplangraph|alfworld)"
    )
    assert lines_matching(compares, outside=frozenset({"world"})) == []
