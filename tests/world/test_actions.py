import pytest

from sceneplan.errors import PlanParseError
from sceneplan.world import Action, parse_action, parse_plan


def test_parse_forms():
    assert parse_action("done") == Action("done")
    assert parse_action("done()") == Action("done")
    assert parse_action(" pickup( coffee_mug ) ") == Action("pickup", ("coffee_mug",))
    assert parse_action("put(a, 'b')") == Action("put", ("a", "b"))


def test_plan_separators_and_structured_items():
    expected = [Action("goto", ("kitchen",)), Action("access", ("fridge",))]
    assert parse_plan("goto(kitchen) > access(fridge)") == expected
    assert parse_plan("[goto(kitchen), access(fridge)]") == expected
    assert parse_plan(["goto(kitchen)", {"name": "access", "args": ["fridge"]}]) == expected
    assert parse_plan([Action("goto", ("kitchen",)), "access(fridge)"]) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("pickup(mug", "expected the form name(arg, ...)"),
        ("pick up(mug)", "expected the form name(arg, ...)"),
        ("pickup(mug!)", "argument 'mug!' is not a node id"),
    ],
)
def test_malformed_actions_name_the_problem(text, fragment):
    with pytest.raises(PlanParseError, match="cannot parse action") as info:
        parse_action(text)
    assert fragment in str(info.value)


def test_malformed_step_in_plan_names_its_position():
    with pytest.raises(PlanParseError, match=r"^step 2: cannot parse action 'access\(\(fridge'"):
        parse_plan(["goto(kitchen)", "access((fridge"])
    with pytest.raises(PlanParseError, match="needs 'name' and 'args'"):
        parse_plan([{"args": ["x"]}])


@pytest.mark.parametrize(
    ("plan", "fixed"),
    [
        ("goto(a) access(b)", "'goto(a) > access(b)'"),
        ("goto(kitchen) > goto(a)access(b) done", "'goto(a) > access(b) > done'"),
        ("open(fridge); done", "'open(fridge) > done'"),
    ],
)
def test_two_actions_in_one_step_hint_at_the_missing_separator(plan, fixed):
    with pytest.raises(PlanParseError, match="more than one action") as info:
        parse_plan(plan)
    assert f"separate the steps with '>', e.g. {fixed}" in str(info.value)


@pytest.mark.parametrize("plan", ["goto(kitchen) -> done", "goto(kitchen) => done"])
def test_an_arrow_for_a_separator_is_named(plan):
    with pytest.raises(PlanParseError, match="separate the steps with '>' alone"):
        parse_plan(plan)
