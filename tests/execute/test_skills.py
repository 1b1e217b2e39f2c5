"""The skill protocol's data: calls, results and fault specs, and their errors."""

import asyncio

import pytest

from sceneplan.errors import BadInputError, UnsupportedError
from sceneplan.execute import (
    Executor,
    Faults,
    Reason,
    RobotReplyError,
    SimulatedRobot,
    Skill,
    SkillCall,
    SkillResult,
)
from sceneplan.execute.robot import skill_for
from sceneplan.execute.skills import Seen
from sceneplan.graph import SceneGraph, from_dict
from sceneplan.graph.model import Relation
from sceneplan.planners.episode import Episode
from sceneplan.world import Simulator
from sceneplan.world.actions import parse_action
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import kitchen, kitchen_dict, node

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
    graph = from_dict(data, "hands")
    state = Simulator(graph).initial_state()
    one_handed = Simulator(graph, LOOKPLANGRAPH)
    one_handed.schemas = LOOKPLANGRAPH.actions  # put_on(a): "the held object"
    with pytest.raises(UnsupportedError, match=r"the robot holds a1 and a2, not one object"):
        one_handed.skill(state, parse_action("put_on(desk)"))
    call = skill_for(parse_action("put_on(a2, desk)"), state, LOOKPLANGRAPH)
    assert call.args == {"object": "a2", "asset": "desk", "relation": "on"}
    state.let_go("a1")
    assert one_handed.skill(state, parse_action("put_on(desk)")).args[0] == ("object", "a2")


def _with_basket(two_handed: bool = False) -> SceneGraph:
    """The kitchen with a lidless basket (a receptacle: no `open`) on the bench, and a hook
    to attach things to."""
    data = kitchen_dict()
    data["nodes"][-1:-1] = [
        node("basket", "asset", "kitchen", affordances=["receptacle", "release"]),
        node("hook", "asset", "kitchen", affordances=["attach", "release"]),
        node("tray", "object", "bench", relation="ontop_of", affordances=["pickup", "release"]),
        node(
            "bowl",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "receptacle", "release"],
        ),
    ]
    if two_handed:
        next(n for n in data["nodes"] if n["kind"] == "agent")["attributes"] = ["two_handed"]
    return from_dict(data, "basket")


# Plans that use every action of each vocabulary that a robot skill carries out.
ROUND_TRIPS = {
    "sayplan": [
        "goto(pose1)",
        "goto(pose2)",
        "goto(kitchen)",
        "access(microwave)",
        "open(microwave)",
        "close(microwave)",
        "turn_on(microwave)",
        "turn_off(microwave)",
        "access(bench)",
        "pickup(apple)",
        "release_on(apple, tray)",
        "pickup(apple)",
        "release_in(apple, bowl)",
        "pickup(apple)",
        "access(basket)",
        "release(apple)",
        "pickup(apple)",
        "access(cabinet)",
        "release(apple)",
        "pickup(apple)",
        "access(hook)",
        "attach(apple, hook)",
    ],
    "lookplangraph": [
        "go_to(kitchen)",
        "look_on(bench)",
        "look_inside(cabinet)",
        "open(microwave)",
        "close(microwave)",
        "turn_on(microwave)",
        "turn_off(microwave)",
        "pick_up(apple)",
        "put_inside(basket)",
        "pick_up(apple)",
        "put_on(bench)",
        "pick_up(apple)",
        "attach(hook)",
    ],
    "lookplangraph_two_hands": [
        "go_to(kitchen)",
        "look_on(bench)",
        "look_inside(cabinet)",
        "pick_up(apple)",
        "pick_up(plate)",
        "put_inside(apple, basket)",
        "put_on(plate, basket)",
        "open(microwave)",
        "close(microwave)",
        "turn_on(microwave)",
        "turn_off(microwave)",
        "pick_up(apple)",
        "attach(apple, hook)",
    ],
}


@pytest.mark.parametrize("vocabulary", sorted(ROUND_TRIPS))
def test_every_robot_action_round_trips_through_its_skill(vocabulary):
    """Each action goes to its skill (the schema's robot face), the simulated robot runs
    the skill as an action of its own world, and both worlds end alike."""
    graph = _with_basket(two_handed=vocabulary.endswith("two_hands"))
    simulator = Simulator(graph, get_vocabulary(vocabulary))
    assert simulator.vocabulary.name == vocabulary
    plan = [parse_action(text) for text in ROUND_TRIPS[vocabulary]]
    expected = simulator.verify_plan(plan)
    assert expected.ok, expected.feedback
    robot = SimulatedRobot(graph)
    executor = Executor(robot, graph, vocabulary=simulator.vocabulary, closed_loop=False)
    episode = asyncio.run(
        executor.run(
            plan,
            Episode(planner="test", model="none", environment="basket", instruction="round trip"),
        )
    )
    assert [s.ok for s in episode.steps] == [True] * len(episode.steps)
    assert episode.plan == [str(a) for a in plan]
    assert robot.truth.changes() == expected.final_state.changes()
    used = {a.name for a in plan}
    carried = set()
    for schema in simulator.schemas.values():
        if any(
            e.op in ("move_agent", "set_accessed", "grab", "place", "place_at_accessed", "observe")
            or (e.op == "set_state" and e.args[1] in ("open", "closed", "on", "off"))
            for e in schema.effects
        ):
            carried.add(schema.name)
    assert used == carried
    assert skill_for(parse_action("done()"), robot.truth, simulator.vocabulary) is None


def test_release_into_a_lidless_container_agrees_with_the_simulator():
    graph = _with_basket()
    simulator = Simulator(graph)
    state = simulator.initial_state()
    for text in ("goto(pose1)", "goto(pose2)", "goto(kitchen)", "access(bench)", "pickup(apple)"):
        state, failure = simulator.step(state, parse_action(text))
        assert failure is None
    state, _ = simulator.step(state, parse_action("access(basket)"))
    call = skill_for(parse_action("release(apple)"), state)
    assert call.args == {"object": "apple", "asset": "basket", "relation": "inside"}
    after, _ = simulator.step(state, parse_action("release(apple)"))
    assert after.relation("apple") is Relation.INSIDE_OF and after.parent("apple") == "basket"
    # a closed container with a lid takes it on top, as the simulator does
    state.accessed = "microwave"
    assert skill_for(parse_action("release(apple)"), state).args["relation"] == "on"


def test_an_action_no_skill_carries_out_is_refused_by_name():
    state = Simulator(kitchen()).initial_state()
    with pytest.raises(BadInputError, match=r"wipe\(bench\): no robot skill carries out"):
        skill_for(parse_action("wipe(bench)"), state)
