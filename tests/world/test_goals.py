import pytest

from sceneplan.errors import GoalParseError
from sceneplan.graph.io import from_dict
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.predicates import PREDICATES
from scenes import kitchen, kitchen_dict

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


@pytest.fixture
def sim():
    return Simulator(kitchen())


def test_predicates_on_the_initial_state(sim):
    s = sim.initial_state()
    true = [
        "ontop_of(mug, desk)",
        "inside_of(soup, fridge)",
        "at(pen, box)",
        "within(pen, cabinet)",
        "in_room(pen, kitchen)",
        "handempty()",
        "agent_at(office)",
        "dirty(plate)",
        "closed(fridge)",
        "on(fridge)",
        "is(mug, mug)",
        "in_room(agent, office)",
    ]
    false = [
        "inside_of(mug, desk)",
        "held(mug)",
        "clean(plate)",
        "within(pen, fridge)",
        "attr(mug, red)",
        "is(mug, plate)",
    ]
    for text in true:
        assert parse_goal(text).holds(s), text
    for text in false:
        assert not parse_goal(text).holds(s), text


def test_connectives_and_quantifiers(sim):
    s = sim.initial_state()
    assert parse_goal("closed(fridge) and not open(fridge)").holds(s)
    assert parse_goal("open(fridge) or dirty(plate)").holds(s)
    assert parse_goal("open(fridge) implies false").holds(s)
    assert parse_goal("exists x in kind:object: inside_of(x, fridge)").holds(s)
    assert not parse_goal("forall x in kind:object: in_room(x, kitchen)").holds(s)
    assert parse_goal("forall x in plate: (in_room(x, kitchen) implies dirty(x))").holds(s)


def test_goal_after_a_plan(sim):
    goal = parse_goal("inside_of(soup, fridge) and clean(plate) and closed(dishwasher)")
    state = sim.run(
        f"{TO_KITCHEN} > access(bench) > pickup(plate) > access(dishwasher) > "
        "release(plate) > close(dishwasher) > turn_on(dishwasher)"
    )
    assert goal.holds(state)
    assert not goal.holds(sim.initial_state())


def test_explain_names_failing_literals(sim):
    s = sim.initial_state()
    goal = parse_goal("clean(plate) and closed(fridge) and held(mug)")
    assert goal.explain(s) == ["clean(plate) is false", "held(mug) is false"]
    every = parse_goal("forall x in kind:object: in_room(x, office)")
    assert "in_room(plate, office) is false" in every.explain(s)
    assert parse_goal("exists x in apple: held(x)").explain(s) == ["no apple satisfies held(x)"]
    assert parse_goal("closed(fridge)").explain(s) == []


def test_rendering_round_trips():
    text = "forall x in plate: (in_room(x, kitchen) implies (clean(x) or not dirty(x)))"
    assert str(parse_goal(text)) == text
    assert str(parse_goal(str(parse_goal(text)))) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a goal must be a non-empty formula"),
        ("closed(fridge", "expected ')', found 'the end'"),
        ("closed(fridge) and", "expected a predicate such as inside_of(x, y), found 'the end'"),
        ("inside_of(soup)", "inside_of takes 2 argument(s), got 1"),
        ("dirty(plate, bench)", "dirty takes 1 argument(s), got 2 (a one-argument predicate"),
        ("closed(fridge) $", "unexpected character '$'"),
        ("forall x in kind:spaceship: held(x)", "unknown kind in selector 'kind:spaceship'"),
        ("closed(fridge) closed(bench)", "expected 'and', 'or', 'implies', 'then' or the end"),
    ],
)
def test_syntax_errors(text, message):
    with pytest.raises(GoalParseError) as info:
        parse_goal(text)
    assert message in str(info.value)


def test_names_checked_against_the_graph():
    graph = kitchen()
    with pytest.raises(GoalParseError, match=r"unknown node 'frige' \(did you mean fridge\?\)"):
        parse_goal("closed(frige)", graph)
    with pytest.raises(GoalParseError, match="no node has category 'banana'"):
        parse_goal("exists b in banana: held(b)", graph)
    assert parse_goal("exists x in apple: held(x)", graph).nodes() == set()


def test_an_unknown_predicate_is_a_goal_error_listing_what_is_known():
    with pytest.raises(GoalParseError) as info:
        parse_goal("closed(fridge) and translucent(apple)", kitchen())
    message = str(info.value)
    assert "unknown predicate 'translucent'" in message and "did you mean" not in message
    assert "predicates are " + ", ".join(PREDICATES) in message
    known = "state words known here are clean, closed, cold, cooked, dirty, empty, folded, frozen"
    assert known in message


def test_a_misspelt_predicate_gets_a_did_you_mean():
    with pytest.raises(GoalParseError, match=r"unknown predicate 'ful' \(did you mean full\?\)"):
        parse_goal("ful(apple)", kitchen())
    with pytest.raises(GoalParseError, match=r"did you mean inside_of or inside\?"):
        parse_goal("not insideof(apple)", kitchen())


def test_a_state_word_is_known_from_the_graph_the_actions_or_the_appliances():
    data = kitchen_dict()
    apple = next(n for n in data["nodes"] if n["id"] == "apple")
    apple["state"] = ["rotten"]
    graph = from_dict(data, "rotten_kitchen")
    assert str(parse_goal("not rotten(apple)", graph)) == "not rotten(apple)"  # a node has it
    assert parse_goal("open(fridge) and hot(apple)", kitchen())  # an action, an appliance
    with pytest.raises(GoalParseError, match="unknown predicate 'rotten'"):
        parse_goal("rotten(apple)", kitchen())
    assert parse_goal("levitating(apple)").nodes() == {"apple"}  # no graph, no check
