"""Declared planner options: validation, the options that name a setup, specs and labels."""

import pytest
from pydantic import Field

from sceneplan.errors import BadInputError
from sceneplan.planners import PLANNERS, PlannerOptions, get_planner, planner_class
from sceneplan.planners.options import parse_spec, planner_label, split_specs, type_name


def test_every_built_in_option_has_a_default_a_description_and_a_type():
    for name in PLANNERS:
        cls = planner_class(name)
        assert issubclass(cls.Options, PlannerOptions), name
        for row in cls.Options.describe():
            assert not row["required"] and row["description"], (name, row["name"])
            # a Literal: its values (one, for an option this planner fixes)
            choices = "|" in row["type"] or row["type"] == row["default"]
            assert row["type"] in {"int", "float", "str", "bool"} or choices, (name, row)
        assert cls.Options().changed() == {}, name


def test_options_come_as_keywords_a_mapping_or_text():
    assert get_planner("sclplan", planner="bfsf").options.planner == "bfsf"
    by_map = get_planner("sclplan", {"timeout": "5", "max_steps": "3"})
    assert (by_map.options.timeout, by_map.options.max_steps) == (5.0, 3)
    assert by_map.options.changed() == {"timeout": 5.0, "max_steps": 3}
    assert get_planner("sclplan", timeout=30).options.changed() == {}  # the default


def test_a_bad_option_names_the_planner_the_option_the_problem_and_the_choices():
    with pytest.raises(BadInputError) as caught:
        get_planner("sayplan", max_replans="many", colour="red")
    message = str(caught.value)
    assert message.startswith("planner 'sayplan': ")
    assert "option 'max_replans' should be a valid integer" in message and "'many'" in message
    assert "no option 'colour'" in message
    names = "collapse, collapse_budget, max_search_turns, dialogue, max_replans"
    assert f"options of sayplan: {names}" in message
    assert "\n" not in message and "pydantic" not in message and "https://" not in message


def test_recorded_options_are_the_non_default_ones(scripted_llm):
    from react_script import act
    from sceneplan import runs

    scripted_llm.enqueue_json(act("done()"))
    with scripted_llm.client() as llm:
        planner = get_planner("react", max_steps=2, graph_budget=8000)
        episode = runs.plan(planner, "Open the wardrobe.", "coffee", llm)
    assert episode.options == {"max_steps": 2}


class Typed(PlannerOptions):
    count: int = Field(1, ge=1, description="how many")
    ratio: float = Field(0.5, gt=0, description="how much")
    name: str = Field("x", description="what")
    fast: bool = Field(False, description="whether")


def test_text_values_are_converted_by_the_field_type():
    options = Typed.build("p", {"count": "3", "ratio": "0.25", "name": "y", "fast": "true"})
    assert options == Typed(count=3, ratio=0.25, name="y", fast=True)
    assert [r["type"] for r in Typed.describe()] == ["int", "float", "str", "bool"]
    assert Typed.describe()[0] == {
        "name": "count",
        "type": "int",
        "default": 1,
        "required": False,
        "description": "how many",
    }


def test_specs_and_labels():
    assert split_specs("a, b[x=1,y=2] ,c[]") == ["a", "b[x=1,y=2]", "c[]"]
    assert parse_spec("c[]") == ("c", {})
    assert parse_spec(" sclplan [ planner = bfsf ] ") == ("sclplan", {"planner": "bfsf"})
    label = planner_label("sclplan", {"timeout": 5.0, "planner": "bfsf", "pv": True})
    assert label == "sclplan[planner=bfsf,pv=true,timeout=5]"
    assert parse_spec(label)[1] == {"planner": "bfsf", "pv": "true", "timeout": "5"}
    assert planner_label("sayplan", {}) == "sayplan"
    assert type_name(int | None) == "int|None"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a[x=1", "a '[' without its ']'"),
        ("a]", "a ']' without its '['"),
        ("[x=1]", "must be NAME or NAME[KEY=VALUE,...]"),
        ("a[x]", "option 'x' must be written KEY=VALUE"),
        ("a[x=1,x=2]", "option 'x' is given twice"),
        ("a[x=1]b", "must be NAME or NAME[KEY=VALUE,...]"),
    ],
)
def test_bad_specs(text, message):
    with pytest.raises(BadInputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        for spec in split_specs(text):
            parse_spec(spec)
