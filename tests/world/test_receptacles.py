"""Receptacles: objects and assets that hold things without opening, and putting things
into and onto objects (SayPlan release_in / release_on, LookPlanGraph put_inside / put_on)."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def scene():
    """The tiny kitchen with a sack on the bench (a receptacle object), a lidded tin, a
    basket asset (a receptacle asset) and a plate that takes things on top."""
    data = kitchen_dict()
    data["nodes"] += [
        node(
            "sack",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "release", "receptacle"],
        ),
        node(
            "tin",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "release", "open", "close"],
            state=["closed"],
        ),
        node("basket", "asset", "kitchen", affordances=["release", "receptacle"]),
        node("tray", "object", "bench", relation="ontop_of", affordances=["pickup", "release"]),
    ]
    return from_dict(data, "receptacles")


GRAPH = scene()


def test_a_receptacle_takes_things_without_opening_and_carries_them():
    sim = Simulator(GRAPH)
    end = sim.run(
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_in(apple, sack) > "
        "pickup(sack) > access(basket) > release(sack)"
    )
    assert end.parent("apple") == "sack" and end.relation("apple").value == "inside_of"
    assert end.parent("sack") == "basket" and end.relation("sack").value == "inside_of"
    assert end.room_of("apple") == "kitchen"
    assert parse_goal("within(apple, basket) and inside_of(apple, sack)").holds(end)


def test_release_on_an_object_and_into_a_lidded_object_once_open():
    sim = Simulator(GRAPH)
    end = sim.run(
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_on(apple, tray) > "
        "open(tin) > pickup(apple) > release_in(apple, tin)"
    )
    assert end.parent("apple") == "tin"


def test_release_on_puts_things_on_top_of_an_asset_that_release_would_fill():
    sim = Simulator(GRAPH)
    before = f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(basket)"
    on_top = sim.run(f"{before} > release_on(apple, basket)")
    assert on_top.parent("apple") == "basket" and on_top.relation("apple").value == "ontop_of"
    inside = sim.run(f"{before} > release(apple)")
    assert inside.relation("apple").value == "inside_of"
    failure = sim.verify_plan(
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_on(apple, basket)"
    ).failure
    assert failure is not None and failure.cause == "not_accessed"
    result = solve(PlanningProblem(GRAPH, "ontop_of(apple, basket)"), timeout=30)
    assert result.ok and str(result.plan[-1]) == "release_on(apple, basket)"


@pytest.mark.parametrize(
    ("plan", "cause", "message"),
    [
        (
            f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_in(apple, tin)",
            "is_closed",
            "step 6 release_in(apple, tin): tin is closed; open it first",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_in(apple, tray)",
            "not_a_container",
            "step 6 release_in(apple, tray): tray cannot hold things inside it",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(fridge) > "
            "release_in(apple, sack)",
            "not_accessed",
            "step 7 release_in(apple, sack): sack is at bench, which has not been accessed "
            "(accessed: fridge)",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(apple) > release_in(apple, pen)",
            "no_affordance",
            "step 6 release_in(apple, pen): pen cannot be used with release_in "
            "(its affordances: pickup)",
        ),
    ],
)
def test_sayplan_refuses_a_wrong_release_and_says_why(plan, cause, message):
    failure = Simulator(GRAPH).verify_plan(plan).failure
    assert failure is not None and failure.cause == cause
    assert failure.message == message


def test_lookplangraph_puts_into_objects_but_not_into_what_it_carries():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    end = sim.run(
        "go_to(kitchen) > pick_up(apple) > put_inside(sack) > pick_up(sack) > put_on(tray)"
    )
    assert end.parent("apple") == "sack" and end.parent("sack") == "tray"
    failure = sim.verify_plan("go_to(kitchen) > pick_up(sack) > put_inside(sack)").failure
    assert failure is not None and failure.cause == "carried"
    assert failure.message == (
        "step 3 put_inside(sack): sack is held by the agent, or is on or in what it holds "
        "(holding: sack); put it down first"
    )
    closed = sim.verify_plan("go_to(kitchen) > pick_up(apple) > put_inside(tin)").failure
    assert (
        closed is not None
        and closed.message == "step 3 put_inside(tin): tin is closed; open it first"
    )


def test_an_object_in_a_closed_container_cannot_take_things():
    sim = Simulator(GRAPH, LOOKPLANGRAPH)
    plan = (
        "go_to(kitchen) > pick_up(sack) > open(microwave) > put_inside(microwave) > "
        "close(microwave) > pick_up(apple) > put_inside(sack)"
    )
    failure = sim.verify_plan(plan).failure
    assert failure is not None and failure.cause == "container_closed"
    assert failure.message == "step 7 put_inside(sack): sack is inside microwave, which is closed"


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    "goal",
    [
        "inside_of(apple, sack) and inside_of(sack, basket)",
        "ontop_of(mug, tray) and inside_of(plate, tin) and closed(tin)",
        "inside_of(apple, sack) and cold(apple)",  # the sack goes in the running fridge
    ],
)
def test_the_solver_plans_with_object_receptacles(vocabulary, goal):
    vocabulary = get_vocabulary(vocabulary)
    problem = PlanningProblem(GRAPH, goal, vocabulary=vocabulary)
    result = solve(problem, timeout=60)
    assert result.ok, result.stats
    end = Simulator(GRAPH, vocabulary).run(result.plan)
    assert parse_goal(goal, GRAPH).holds(end)
    names = {a.name for a in result.plan}
    assert names & {"release_in", "release_on", "put_inside", "put_on"}


def test_prompts_list_the_receptacle_actions():
    lines = "\n".join(Simulator(GRAPH).describe_actions(conditions=True))
    assert "release_in(<o>, <r>): Put the held object inside an object" in lines
    assert "release_on(<o>, <r>)" in lines and "<r> is open or has no lid" in lines
    lpg = "\n".join(Simulator(GRAPH, LOOKPLANGRAPH).describe_actions(conditions=True))
    assert "put_inside(<a>): Put the held object inside an open container or a receptacle" in lpg
    assert "<a> is not the held object, nor on or in it" in lpg
