"""Grounding (schemas -> ground actions through the primitives' `ground` faces) and goal
compilation (goal atoms -> task facts and goal-phase actions), on the tiny kitchen."""

from __future__ import annotations

import pytest

from sceneplan.symbolic.build import build_task
from sceneplan.symbolic.goal_compile import compile_goal
from sceneplan.symbolic.grounding import Grounder, exclusive_key
from sceneplan.symbolic.scope import full_scope
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import LOOKPLANGRAPH, SAYPLAN, Simulator, WorldState, parse_goal
from sceneplan.world.goal_forms import ground
from scenes import kitchen

GRAPH = kitchen()


def grounder(state: WorldState | None = None) -> Grounder:
    return Grounder(state or WorldState(GRAPH), full_scope(GRAPH))


def test_an_object_has_its_current_chain_and_one_per_release_spot():
    g = grounder()
    chains = g.chains("soup")
    assert chains[0].links == (("holding", "soup"),) and chains[0].asset is None
    current = chains[1]
    assert current.links == (("inside_of", "soup", "fridge"),) and current.enters("fridge")
    spots = [(c.asset, c.links[0][0]) for c in chains[1:] if len(c.links) == 1]
    assert len(spots) == len(set(spots))  # the current spot is not repeated
    assert ("fridge", "inside_of") in spots and ("bench", "ontop_of") in spots
    assert ("bench", "inside_of") not in spots  # the bench is not a container
    pen = g.chains("pen")  # in a box in the cabinet: the path goes through the box's chains
    assert any(c.parents == ("box", "cabinet") and c.entered == ("box", "cabinet") for c in pen)
    # the box takes things (`release`): soup may be put in it, wherever the box goes
    assert any(c.parents == ("box", "cabinet") for c in chains)
    assert any(c.links == (("inside_of", "soup", "box"), ("holding", "box")) for c in chains)
    box = g.chains("box")  # never through itself, nor through what it may hold
    assert all("box" not in c.parents for c in box)


def test_pickup_in_a_closed_fridge_needs_access_and_the_fridge_open():
    g = grounder()
    variants = g.ground_schema(SAYPLAN.actions["pickup"], ("soup",))
    table = g.facts
    current = [
        v
        for v in variants
        if table(("inside_of", "soup", "fridge")) in v.pre
        and table(("accessed", "fridge")) in v.pre
    ]
    assert len(current) == 1
    (variant,) = current
    assert table(("handempty",)) in variant.pre
    assert table(("state", "closed", "fridge")) in variant.neg
    assert table(("holding", "soup")) in variant.add
    assert table(("inside_of", "soup", "fridge")) in variant.delete


def test_a_goto_variant_per_linked_place_moves_the_agent_and_forgets_access():
    g = grounder()
    variants = g.ground_schema(SAYPLAN.actions["goto"], ("pose1",))
    table = g.facts
    sources = {table.facts[i] for v in variants for i in v.pre}
    assert sources == {("at", "office"), ("at", "pose2")}
    office = next(v for v in variants if table(("at", "office")) in v.pre)
    assert table(("accessed", "desk")) in office.delete and table(("at", "pose1")) in office.add


def test_lookplangraph_pick_up_is_in_the_room_of_each_chain():
    g = grounder()
    variants = g.ground_schema(LOOKPLANGRAPH.actions["pick_up"], ("apple",))
    table = g.facts
    rooms = {table.facts[i][1] for v in variants for i in v.pre if table.facts[i][0] == "at"}
    assert rooms == {"kitchen", "office"}  # on the bench now, or released at the desk
    put = g.ground_schema(LOOKPLANGRAPH.actions["put_inside"], ("fridge",))
    held = {table.facts[i] for v in put for i in v.pre if table.facts[i][0] == "holding"}
    assert ("holding", "soup") in held and ("holding", "apple") in held
    soup = next(v for v in put if table(("holding", "soup")) in v.pre)
    assert table(("inside_of", "soup", "fridge")) in soup.add
    assert table(("state", "open", "fridge")) in soup.pre


def test_done_and_look_actions_are_never_grounded():
    g = grounder()
    assert g.ground_schema(SAYPLAN.actions["done"], ()) == []
    assert g.ground_schema(LOOKPLANGRAPH.actions["look_on"], ("bench",)) == []


@pytest.mark.parametrize(
    ("goal", "facts", "negated", "phase"),
    [
        (
            "held(apple) and closed(fridge)",
            {("holding", "apple"), ("state", "closed", "fridge")},
            set(),
            False,
        ),
        ("not closed(microwave)", set(), {("state", "closed", "microwave")}, False),
        ("ontop_of(soup, bench)", {("ontop_of", "soup", "bench")}, set(), False),
        ("in_room(soup, office)", None, set(), True),
        ("hot(soup) or cold(soup)", None, set(), True),
    ],
)
def test_goal_atoms_compile_to_facts_or_goal_phase_actions(goal, facts, negated, phase):
    g = grounder()
    compiled = compile_goal(ground(parse_goal(goal, GRAPH), GRAPH), g)
    assert compiled.constant is None and compiled.needs_phase == phase
    if facts is not None:
        assert compiled.goal == facts and compiled.goal_neg == negated
    else:
        assert len(compiled.goal) == 1 and compiled.actions
        (aux,) = compiled.goal
        assert all(action[3] == aux for action in compiled.actions)


def test_goals_decided_without_planning_are_constants():
    g = grounder()
    for goal, value in (("inside_of(microwave, fridge)", False), ("attr(soup, soup)", False)):
        assert compile_goal(ground(parse_goal(goal, GRAPH), GRAPH), g).constant is value
    assert (
        build_task(
            WorldState(GRAPH), full_scope(GRAPH), ground(parse_goal("is(soup, soup)", GRAPH), GRAPH)
        )
        is True
    )


def test_the_lookplangraph_vocabulary_is_plannable():
    goal = "inside_of(plate, dishwasher) and clean(plate) and closed(dishwasher)"
    result = solve(PlanningProblem(GRAPH, goal, vocabulary=LOOKPLANGRAPH), timeout=20)
    assert result.ok, result.status
    names = [a.name for a in result.plan]
    assert {"go_to", "pick_up", "put_inside", "turn_on"} <= set(names)
    final = Simulator(GRAPH, LOOKPLANGRAPH).run(result.plan)
    assert parse_goal(goal, GRAPH).holds(final)


def test_no_ground_action_wants_two_facts_that_never_hold_together():
    """The grounder reaches a target through any chain, so the held box gets variants of
    `release_in(box, box)` in which it is also inside the cabinet: they never run, and
    h_FF would take them as shortcuts (cook_kabobs: a pour from a held plate onto kabobs
    reached through that plate on the grill). The built task has none of them."""
    for vocabulary in (SAYPLAN, LOOKPLANGRAPH, LOOKPLANGRAPH.two_hands):
        goal = ground(parse_goal("inside_of(soup, box)", GRAPH), GRAPH)
        task = build_task(WorldState(GRAPH), full_scope(GRAPH), goal, vocabulary=vocabulary)
        assert not isinstance(task, bool)
        for action in task.actions:
            for pre, neg in [(action.pre, action.neg)] + [
                (action.pre | e.pre, action.neg | e.neg) for e in action.effects
            ]:
                keys = [exclusive_key(task.facts[f]) for f in pre]
                keys = [k for k in keys if k is not None]
                assert len(keys) == len(set(keys)), (vocabulary, action.name)
                assert pre.isdisjoint(neg), (vocabulary, action.name)
        # pruning kept every action that can run: the goal is still reached
        problem = PlanningProblem(GRAPH, "inside_of(soup, box)", vocabulary=vocabulary)
        assert solve(problem, planner="gbfs").ok
