"""Prompts say what the code accepts: action names, goal predicates, categories."""

import re

from sceneplan.datasets import load_environment
from sceneplan.graph import from_dict, to_dict
from sceneplan.planners.dialogue import render
from sceneplan.planners.sclplan import categories_text, predicates_text
from sceneplan.planners.shared import actions_text
from sceneplan.symbolic.goal_reader import read_goal
from sceneplan.world import Simulator, parse_goal, parse_plan
from sceneplan.world.vocabularies import LOOKPLANGRAPH

OFFICE = load_environment("office")


def test_sayplan_lite_plan_prompt_uses_only_its_simulators_actions():
    simulator = Simulator(OFFICE, LOOKPLANGRAPH)
    prompt = render("sayplan_lite_plan.md", actions=actions_text(simulator))
    examples = re.findall(r'"plan": \[(.*?)\]', prompt.split("## Example", 1)[1])
    assert examples
    for example in examples:
        steps = [s.strip(' "') for s in example.split(",")]
        names = {a.name for a in parse_plan(steps)}
        assert names <= set(simulator.schemas), names - set(simulator.schemas)
    for name in simulator.offered_actions():
        if name not in ("look_on", "look_inside"):
            assert f"- {name}(" in actions_text(simulator)


def test_prompts_offer_the_actions_the_scene_affords_and_no_others():
    """Office has nothing to plug in, wipe, rinse, sit or lie on, nor objects that take
    things: those actions stay out of its prompts; a scene that affords them has them."""
    office = Simulator(OFFICE)
    text = actions_text(office)
    for name in ("plug_in", "plug_out", "wipe", "rinse", "sit", "lie", "stand_up", "release_in"):
        assert f"- {name}(" not in text and name in office.schemas
    for name in ("goto", "access", "pickup", "release", "release_on", "turn_on", "done"):
        assert f"- {name}(" in text
    data = to_dict(OFFICE)
    chair = next(n for n in data["nodes"] if n["kind"] == "asset")
    chair["affordances"] = [*chair.get("affordances", []), "sit"]
    seated = actions_text(Simulator(from_dict(data)))
    assert "- sit(" in seated and "- stand_up(" in seated and "- lie(" not in seated


# The goal language DESIGN.md and docs/goals.md define, written out by hand: each
# predicate's signature and a goal over the Office (with substances: WET_OFFICE) that uses it.
GOAL_LANGUAGE = {
    "ontop_of(x, y)": "ontop_of(mug1, kitchen_bench)",
    "inside_of(x, y)": "inside_of(orange1, fridge)",
    "inside(x, y)": "inside(orange1, fridge)",
    "at(x, y)": "at(mug1, kitchen_bench)",
    "nextto(x, y)": "nextto(mug1, orange1)",
    "attached(x, y)": "attached(mug1, kitchen_bench)",
    "touching(x, y)": "touching(mug1, orange1)",
    "under(x, y)": "under(mug1, kitchen_bench)",
    "within(x, y)": "within(orange1, kitchen)",
    "in_room(x, r)": "in_room(orange1, kitchen)",
    "held(x)": "held(orange1)",
    "handempty()": "handempty()",
    "agent_at(p)": "agent_at(kitchen)",
    "attr(x, word)": "attr(orange1, fresh)",
    "is(x, y)": "is(orange1, orange1)",
    "filled(x, substance)": "filled(mug1, water)",
    "contains(x, substance)": "contains(mug1, coffee)",
    "covered(x, substance)": "covered(kitchen_bench, dust)",
    "saturated(x, substance)": "saturated(orange1, water)",
    "insource(x, substance)": "insource(fridge, water)",
    "agent_near(x)": "agent_near(fridge)",
    "WORD(x)": "open(fridge)",
}


def with_substances(graph, given: dict[str, str]):
    """The graph with substance state words added (`{"fridge": "insource_water"}`): a goal
    may want only a substance some node holds or gives, and the Office has none."""
    data = to_dict(graph)
    for node in data["nodes"]:
        if node["id"] in given:
            node["state"] = [*node.get("state", []), given[node["id"]]]
    return from_dict(data, graph.name)


# the Office with the substances GOAL_LANGUAGE's examples name
WET_OFFICE = with_substances(
    OFFICE,
    {"fridge": "insource_water", "kitchen_bench": "covered_dust", "mug1": "contains_coffee"},
)


def as_pddl(text: str) -> str:
    """`inside_of(x, y)` as `(inside_of x y)`."""
    name, _, args = text.rstrip(")").partition("(")
    return "(" + " ".join([name, *(a.strip() for a in args.split(",") if a.strip())]) + ")"


def test_sclplan_goal_prompt_lists_the_goal_language_in_pddl_and_each_reads():
    prompt = render("sclplan_goal.md", predicates=predicates_text())
    offered = re.findall(r"^- (\([^)]*\)): ", predicates_text(), re.MULTILINE)
    assert offered == [as_pddl(s).replace(" ", " ?").replace("(?", "(") for s in GOAL_LANGUAGE]
    for signature, goal in GOAL_LANGUAGE.items():
        pddl = as_pddl(signature).replace(" ", " ?").replace("(?", "(")
        assert f"- {pddl}: " in prompt
        formula = read_goal(as_pddl(goal), WET_OFFICE)  # what the prompt offers reads back
        assert str(formula) == str(parse_goal(goal, WET_OFFICE)), goal
    example = re.search(r"^\(exists .*\)$", prompt, re.MULTILINE)
    assert example and read_goal(
        example.group(0).replace("cup", "mug").replace("cabinet2", "fridge"), OFFICE
    )
    assert "without its trailing number" not in prompt  # the old, wrong category hint


def test_sclplan_goal_turn_names_the_categories_a_quantifier_can_use():
    text = categories_text(OFFICE)
    assert "bin: compost_bin, recycling_bin, rubbish_bin" in text
    assert "mug: mug1, coffee_mug" in text and "bench: kitchen_bench" in text
    for category in re.findall(r"(?:^|; )(\w+):", text):
        parse_goal(f"exists x in {category}: held(x)", OFFICE)  # every listed one is known
    kitchen_only = categories_text(OFFICE, ["kitchen"])
    assert "bench: kitchen_bench" in kitchen_only and "terminator_poster" not in kitchen_only
