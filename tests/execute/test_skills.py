"""The skill protocol's data: calls, results and fault specs, and their errors."""

import pytest

from sceneplan.errors import BadInputError
from sceneplan.execute import Faults, Reason, RobotReplyError, Skill, SkillCall, SkillResult
from sceneplan.execute.robot import skill_for
from sceneplan.execute.skills import Seen
from sceneplan.graph import from_dict
from sceneplan.graph.model import Relation
from sceneplan.world import Simulator
from sceneplan.world.actions import parse_action
from scenes import kitchen_dict, node

CALL = SkillCall(Skill.PICK, {"object": "orange1"})


def test_a_result_round_trips_through_its_json():
    result = SkillResult(
        False,
        Reason.GRASP_FAILED,
        "slipped",
        at="kitchen",
        seen=[Seen("orange1", "kitchen_bench", Relation.ONTOP_OF, ("ripe",))],
        surfaces=[("kitchen_bench", Relation.ONTOP_OF)],
        states={"fridge": ["closed"]},
    )
    assert SkillResult.from_dict(result.to_dict(), CALL) == result


def test_a_failure_without_a_reason_is_a_plain_failure_and_on_inside_are_accepted():
    result = SkillResult.from_dict(
        {"ok": False, "seen": [{"id": "x", "parent": "fridge", "relation": "inside"}]}
    )
    assert result.reason is Reason.FAILED
    assert result.seen[0].relation is Relation.INSIDE_OF


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ([], "expected a JSON object"),
        ({}, "'ok' must be true or false"),
        ({"ok": "yes"}, "'ok' must be true or false"),
        ({"ok": False, "reason": "tired"}, "unknown reason 'tired'"),
        ({"ok": True, "seen": {"id": "x"}}, "'seen' must be a list"),
        ({"ok": True, "seen": [{"id": "x", "parent": "t"}]}, "seen[0]: 'relation'"),
        ({"ok": True, "seen": [{"parent": "t", "relation": "on"}]}, "seen[0]: 'id'"),
        ({"ok": True, "states": ["closed"]}, "'states' must map node ids"),
        ({"ok": True, "surfaces": [{"relation": "on"}]}, "surfaces[0]"),
        ({"ok": True, "colour": "red"}, "unknown field(s) colour"),
        ({"ok": True, "at": 3}, "'at' must be a string"),
    ],
)
def test_a_reply_of_the_wrong_shape_names_what_is_wrong(reply, named):
    with pytest.raises(RobotReplyError) as caught:
        SkillResult.from_dict(reply, CALL)
    assert str(caught.value).startswith("robot reply to pick(orange1): ")
    assert named in str(caught.value)


def test_a_call_needs_exactly_its_skills_arguments():
    with pytest.raises(BadInputError, match="skill place takes object, asset, relation"):
        SkillCall(Skill.PLACE, {"object": "orange1"})
    with pytest.raises(BadInputError, match="relation must be on or inside, not 'under'"):
        SkillCall(Skill.LOOK, {"asset": "fridge", "relation": "under"})
    with pytest.raises(ValueError):
        SkillCall("dance", {})


def test_fault_specs_parse_and_print():
    assert Faults.parse("moved:0.3,grasp:0.1") == Faults(moved=0.3, grasp=0.1)
    assert str(Faults.parse(" blocked:1 , stuck:0.5 ")) == "stuck:0.5,blocked:1"
    assert not Faults.parse("none").any and not Faults.parse("").any


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("slippery:0.1", "unknown fault 'slippery'"),
        ("grasp", "needs a probability from 0 to 1"),
        ("grasp:lots", "needs a probability from 0 to 1"),
        ("grasp:1.5", "needs a probability from 0 to 1"),
        ("grasp:0.1,grasp:0.2", "given twice"),
    ],
)
def test_a_bad_fault_spec_says_what_is_wrong(spec, message):
    with pytest.raises(BadInputError, match=message):
        Faults.parse(spec)


def test_a_put_that_names_no_object_needs_exactly_one_held():

    data = kitchen_dict()
    for n in data["nodes"]:
        if n["kind"] == "agent":
            n["attributes"] = ["two_handed"]
    data["nodes"] += [
        node(o, "object", "agent", relation="held", affordances=["pickup"]) for o in ("a1", "a2")
    ]
    state = Simulator(from_dict(data, "hands")).initial_state()
    with pytest.raises(BadInputError, match=r"put_on\(desk\): the robot holds a1 and a2, not one"):
        skill_for(parse_action("put_on(desk)"), state)
    call = skill_for(parse_action("put_on(a2, desk)"), state)
    assert call.args == {"object": "a2", "asset": "desk", "relation": "on"}
    state.let_go("a1")
    assert skill_for(parse_action("put_on(desk)"), state).args["object"] == "a2"
