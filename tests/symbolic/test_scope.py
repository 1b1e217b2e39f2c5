"""Focus (`symbolic/scope.py`): which objects, assets and places the grounder sees.

The scope must keep what the goal names and what that depends on (the
containers above an object, the appliance that gives it a state, the rooms of
all these), drop the rest, and a plan found in it must run in the whole graph.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.graph import from_dict
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.symbolic.scope import focused_scope, full_scope, widened_scopes
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.domain import (
    ASSETS,
    OBJECTS,
    ActionSchema,
    Eff,
    Param,
    Pre,
)
from sceneplan.world.goals import Atom
from sceneplan.world.primitives import Cause
from sceneplan.world.setup import with_facts
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import ALFWORLD, SAYPLAN, forget_action, register_action
from scenes import kitchen, kitchen_dict, node


def focus(graph, *atoms: Atom, state: WorldState | None = None, **kwargs):
    """The focused scope for goal atoms that do not hold yet."""
    state = state or WorldState(graph)
    seeds = [a for a in atoms if not a.holds(state)]
    return focused_scope(state, seeds, [(a, True) for a in atoms], **kwargs)


def assert_plan_runs_in_the_whole_graph(graph, goal: str, result) -> None:
    assert result.status is SolveStatus.PLAN
    verification = Simulator(graph).verify_plan(result.plan)
    assert verification.ok, verification.feedback
    assert parse_goal(goal, graph).holds(verification.final_state)


@pytest.fixture(scope="module")
def coffee():
    return load_environment("coffee")


@pytest.fixture(scope="module")
def office():
    return load_environment("office")


# --- the whole graph ------------------------------------------------------------------------


def test_full_scope_is_every_object_asset_and_place(coffee):
    scope = full_scope(coffee)
    assert scope.level == "full" and not scope.macro_moves
    assert scope.objects == {n.id for n in coffee if n.kind is NodeKind.OBJECT}
    assert scope.assets == {n.id for n in coffee if n.kind is NodeKind.ASSET}
    assert set(scope.places) == {n.id for n in coffee if n.kind in (NodeKind.ROOM, NodeKind.POSE)}
    assert scope.effect_words is None and scope.effect_matters("hot")


# --- coffee ---------------------------------------------------------------------------------


def test_coffee_full_mug_keeps_the_mug_its_wardrobe_and_the_coffee_machine(coffee):
    scope = focus(coffee, Atom("full", ("coffee_mug",)))
    assert scope.level == "focused" and scope.macro_moves
    assert scope.objects == {"coffee_mug"}
    assert scope.assets == {"wardrobe1", "coffee_machine"}
    # the agent's room, the wardrobe's room, the coffee machine's room; no pose
    assert set(scope.places) == {"bobs_room", "kitchen"}
    assert scope.effect_words == {"full"}
    assert scope.effect_matters("full") and scope.effect_matters("empty")
    assert not scope.effect_matters("hot")


def test_coffee_a_room_goal_brings_that_rooms_surfaces_and_nothing_else(coffee):
    scope = focus(coffee, Atom("in_room", ("coffee_mug", "toms_room")))
    assert scope.objects == {"coffee_mug"}
    assert scope.assets == {"wardrobe1", "bed2", "wardrobe2"}
    assert set(scope.places) == {"bobs_room", "toms_room"}
    assert scope.effect_words == frozenset()


def test_coffee_an_asset_goal_keeps_only_that_asset_and_its_room(coffee):
    scope = focus(coffee, Atom("open", ("fridge",)))
    assert scope.objects == frozenset()
    assert scope.assets == {"fridge"}
    assert set(scope.places) == {"bobs_room", "kitchen"}


def test_coffee_what_the_agent_holds_stays_in_scope_with_somewhere_to_put_it(coffee):
    graph = with_facts(coffee, ["held(coffee_mug)"])
    scope = focus(graph, Atom("open", ("fridge",)))
    assert "coffee_mug" in scope.objects
    assert "fridge" in scope.assets  # and the fridge can take it


def test_coffee_the_accessed_asset_stays_in_scope(coffee):
    sim = Simulator(coffee)
    state = sim.run(["access(bed1)"])
    scope = focus(coffee, Atom("open", ("fridge",)), state=state)
    assert {"bed1", "fridge"} <= scope.assets


def test_coffee_a_target_action_needs_its_nodes_and_a_release_asset(coffee):
    state = WorldState(coffee)
    scope = focused_scope(state, (), (), ["coffee_mug"], needs_release=True)
    assert scope.objects == {"coffee_mug"}
    assert scope.assets == {"wardrobe1"}  # it has the release affordance already
    assert set(scope.places) == {"bobs_room"}


@pytest.mark.parametrize(
    "goal",
    [
        "full(coffee_mug)",
        "full(coffee_mug) and in_room(coffee_mug, toms_room)",
        "inside_of(coffee_mug, fridge) and closed(fridge)",
        "ontop_of(coffee_mug, bed2) and open(wardrobe2)",
    ],
)
def test_coffee_plans_found_in_focus_run_in_the_whole_graph(coffee, goal):
    result = solve(PlanningProblem(coffee, goal), timeout=30)
    assert result.scope == "focused"
    assert_plan_runs_in_the_whole_graph(coffee, goal, result)
    # macro moves were expanded: every move is to a neighbouring room or pose
    state = WorldState(coffee)
    for action in result.plan:
        if action.name == "goto":
            assert coffee.topology.has_edge(state.agent_at, action.args[0])
        state = Simulator(coffee).run([action], state)


# --- office ---------------------------------------------------------------------------------


def test_office_keeps_the_goal_nodes_their_rooms_and_drops_the_building(office):
    scope = focus(office, Atom("inside_of", ("orange1", "fridge")))
    assert scope.objects == {"orange1"}
    assert {"fridge", office.nodes["orange1"].parent} <= scope.assets
    state = WorldState(office)
    assert {state.agent_at, "kitchen"} <= set(scope.places)
    n_objects = sum(1 for n in office if n.kind is NodeKind.OBJECT)
    n_places = sum(1 for n in office if n.kind in (NodeKind.ROOM, NodeKind.POSE))
    assert len(scope.assets) <= 3 and n_objects > 50
    assert len(scope.places) <= 3 and n_places > 30


def test_office_a_state_goal_brings_the_appliance_that_gives_it(office):
    scope = focus(office, Atom("clean", ("plate",)))
    assert "plate" in scope.objects
    assert "dishwasher" in scope.assets
    assert office.room_of("dishwasher") in scope.places
    assert scope.effect_words == {"clean"}
    # only appliances are added for a state word: no other object of the building
    assert scope.objects == {"plate"}


def test_office_an_object_that_is_already_placed_does_not_seed_the_scope(office):
    state = WorldState(office)
    parent = office.nodes["orange1"].parent
    already = Atom("ontop_of", ("orange1", parent))
    assert already.holds(state)
    scope = focus(office, already)
    assert scope.objects == frozenset()
    assert set(scope.places) == {state.agent_at}


@pytest.mark.parametrize(
    "goal",
    [
        "inside_of(orange1, fridge) and closed(fridge)",
        "clean(plate)",
        "hot(chicken_kebab)",
        "ontop_of(document, desk4)",
    ],
)
def test_office_plans_found_in_focus_run_in_the_whole_graph(office, goal):
    focused = solve(PlanningProblem(office, goal), timeout=30)
    assert focused.scope == "focused"
    assert_plan_runs_in_the_whole_graph(office, goal, focused)


@pytest.mark.slow
def test_office_focus_grounds_far_less_than_the_whole_graph(office):
    goal = "inside_of(orange1, fridge) and closed(fridge)"
    focused = solve(PlanningProblem(office, goal), timeout=30)
    whole = solve(PlanningProblem(office, goal), timeout=30, focus=False)
    assert (focused.scope, whole.scope) == ("focused", "full")
    assert_plan_runs_in_the_whole_graph(office, goal, whole)
    assert focused.stats["grounded_actions"] * 10 < whole.stats["grounded_actions"]


# --- nested containers and fallback ---------------------------------------------------------


def test_an_object_inside_an_object_brings_the_whole_chain_up_to_its_asset():
    graph = kitchen()
    scope = focus(graph, Atom("held", ("pen",)))
    assert scope.objects == {"pen", "box"}
    assert scope.assets == {"cabinet"}
    assert set(scope.places) == {"office", "kitchen"}


def broken_microwave_kitchen():
    """The kitchen microwave cannot be turned on; a working one is in a pantry past the kitchen."""
    data = kitchen_dict()
    for n in data["nodes"]:
        if n["id"] == "microwave":
            n["affordances"] = ["open", "close", "release"]
    data["nodes"] += [
        node("pantry", "room", position=[10.0, 0.0]),
        node("pose3", "pose", position=[8.0, 0.0]),
        node(
            "microwave2",
            "asset",
            "pantry",
            category="microwave",
            affordances=["open", "close", "release", "turn_on", "turn_off"],
            state=["closed", "off"],
        ),
    ]
    data["links"] += [["kitchen", "pose3"], ["pose3", "pantry"]]
    return from_dict(data, "broken_microwave")


def test_when_the_focus_has_no_plan_the_whole_graph_is_searched():
    graph = broken_microwave_kitchen()
    scope = focus(graph, Atom("hot", ("apple",)))
    assert "microwave" in scope.assets and "microwave2" not in scope.assets
    result = solve(PlanningProblem(graph, "hot(apple)"), timeout=30)
    assert result.scope == "full"
    assert_plan_runs_in_the_whole_graph(graph, "hot(apple)", result)
    assert "turn_on(microwave2)" in [str(a) for a in result.plan]


def test_a_goal_naming_no_object_widens_to_the_agents_room_not_the_whole_graph():
    # sitting(agent) names no object: the focus holds nothing to sit on, and the solver
    # widens to everything in the agent's room before it grounds the whole house
    task = get_task("virtualhome-447_2")
    graph = load_environment(task.environment)
    state = WorldState(graph)
    focused = focus(graph, Atom("sitting", ("agent",)))
    wider = list(widened_scopes(state, focused))
    assert wider and wider[0].level == "rooms" and wider[0].macro_moves
    assert focused.objects < wider[0].objects
    assert len(wider[0].assets) < len(full_scope(graph).assets)
    result = solve(PlanningProblem(graph, task.goal), timeout=30)
    assert result.ok and result.scope == "rooms" and "proof" not in result.stats
    assert [a.name for a in result.plan] == ["access", "sit"]
    assert_plan_runs_in_the_whole_graph(graph, task.goal, result)


def test_an_unsolvable_verdict_comes_from_the_whole_graph(coffee):
    result = solve(PlanningProblem(coffee, "hot(coffee_mug)"), timeout=30)
    assert result.status is SolveStatus.UNSOLVABLE and result.plan == []
    assert result.scope == "full"


# --- helpers learned from the vocabulary's actions -------------------------------------------


def test_alfworld_clean_brings_the_sink_basin_its_clean_action_needs():
    graph = load_environment("alfworld-clean-01")
    scope = focus(graph, Atom("clean", ("bowl_1",)), vocabulary=ALFWORLD)
    sinks = {n.id for n in graph if "clean" in n.affordances and n.kind is NodeKind.ASSET}
    assert sinks and sinks <= scope.assets
    assert not sinks & focus(graph, Atom("clean", ("bowl_1",))).assets  # SayPlan has no clean(o, r)


def test_an_alfworld_clean_task_is_solved_in_focus():
    task = get_task("alfworld-clean-01")
    graph = load_environment(task.id)
    result = solve(PlanningProblem(graph, task.goal, vocabulary=ALFWORLD), timeout=30)
    assert result.scope == "focused" and result.status is SolveStatus.PLAN
    assert "clean" in {a.name for a in result.plan}
    end = Simulator(graph, ALFWORLD).run(result.plan)
    assert parse_goal(task.goal, graph).holds(end)


def test_a_tap_is_a_helper_for_clean_through_rinse():
    data = kitchen_dict()
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "dishwasher"] + [
        node("sink", "asset", "kitchen", affordances=["release", "rinse", "turn_on"], state=["off"])
    ]
    graph = from_dict(data, "tap")
    scope = focus(graph, Atom("clean", ("plate",)))
    assert "sink" in scope.assets
    result = solve(PlanningProblem(graph, "clean(plate)"), timeout=30)
    assert result.scope == "focused" and "rinse" in {a.name for a in result.plan}


def test_an_extension_action_is_a_helper_as_soon_as_it_is_registered():
    graph = kitchen()
    polish = ActionSchema(
        "polish",
        (Param("o", OBJECTS), Param("b", ASSETS, "turn_on")),
        (Pre("holding", ("o",), Cause.NOT_HOLDING),),
        (Eff("set_state", ("o", "shiny")),),
        "Polish the held object on a buffing machine.",
    )
    assert focus(graph, Atom("shiny", ("apple",)), vocabulary=SAYPLAN).assets == {"bench"}
    register_action("sayplan", polish)
    try:
        scope = focus(graph, Atom("shiny", ("apple",)), vocabulary=SAYPLAN)
    finally:
        forget_action("sayplan", "polish")
    switches = {n.id for n in graph if "turn_on" in n.affordances and n.kind is NodeKind.ASSET}
    assert switches and switches <= scope.assets


def log_pile(logs: int):
    """A table and `logs` logs on the floor, each of which can take another on top."""
    data = kitchen_dict()
    data["nodes"] += [node("table", "asset", "kitchen", affordances=["release"])] + [
        node(
            f"log{i}",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "release"],
        )
        for i in range(logs)
    ]
    return from_dict(data, "logs")


@pytest.mark.slow
def test_the_focus_bounds_how_deep_a_plan_stacks_but_keeps_what_is_stacked_now():
    from sceneplan.symbolic.grounding import Grounder
    from sceneplan.symbolic.scope import FOCUS_STACK_DEPTH
    from sceneplan.world.goal_forms import literals

    graph = log_pile(6)
    state = WorldState(graph)
    goal = parse_goal("ontop_of(log0, table) and ontop_of(log1, log0)", graph)
    atoms = [atom for atom, _ in literals(goal)]
    focused = focused_scope(state, atoms, literals(goal))
    assert focused.stack_depth == FOCUS_STACK_DEPTH and full_scope(graph).stack_depth is None
    whole = full_scope(graph)
    bounded = Grounder(state, replace(whole, stack_depth=FOCUS_STACK_DEPTH)).chains("log1")
    unbounded = Grounder(state, whole).chains("log1")
    depth = max(sum(graph.nodes[p].kind is NodeKind.OBJECT for p in c.parents) for c in bounded)
    assert depth == FOCUS_STACK_DEPTH
    assert len(bounded) < len(unbounded) / 5  # 6 logs: the ways to stack grow like n!
    # a stack that holds now is kept whatever its depth: log5 on log4 on ... on log0
    moved = state
    for i in range(1, 6):
        moved = moved.copy()
        moved.move(f"log{i}", f"log{i - 1}", Relation.ONTOP_OF)
    deep = Grounder(moved, replace(whole, stack_depth=FOCUS_STACK_DEPTH)).chains("log5")
    assert any(len(c.parents) == 6 for c in deep)
    result = solve(PlanningProblem(graph, goal), timeout=30)
    assert result.ok and result.scope == "focused"


# -- substances (world/substances.py): the helper that holds or gives one, the tool that
# -- takes one off, and what that tool is soaked in


def test_a_substance_goal_brings_what_holds_or_gives_the_substance():
    from scenes import substance_scene

    graph = substance_scene()
    salted = focus(graph, Atom("covered", ("bowl", "salt")))
    assert "shaker" in salted.objects  # it gives salt: sprinkle it over the bowl
    assert "sink" not in salted.assets  # it gives water, not salt
    watered = focus(graph, Atom("filled", ("bucket", "water")))
    assert "sink" in watered.assets and "shaker" not in watered.objects


def test_taking_dust_off_brings_a_tool_and_a_stain_also_something_to_soak_it_in():
    from scenes import substance_scene

    graph = substance_scene()
    state = WorldState(graph)
    dust = Atom("covered", ("bench", "dust"))
    dusted = focused_scope(state, [dust], [(dust, False)])
    assert {"rag", "brush"} & dusted.objects and "sink" not in dusted.assets
    stain = Atom("covered", ("bench", "stain"))
    cleaned = focused_scope(state, [stain], [(stain, False)])
    assert "sink" in cleaned.assets  # a stain comes off only with a soaked tool


@pytest.mark.parametrize(
    "goal",
    [
        "covered(bowl, salt)",
        "filled(bucket, water)",
        "not covered(bench, stain) and not covered(bench, dust)",
    ],
)
def test_substance_goals_are_solved_in_focus_and_run_in_the_whole_graph(goal):
    from scenes import substance_scene

    graph = substance_scene()
    result = solve(PlanningProblem(graph, goal))
    assert result.scope == "focused"
    assert_plan_runs_in_the_whole_graph(graph, goal, result)
