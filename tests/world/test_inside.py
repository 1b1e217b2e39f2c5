"""inside(x, y): inside as a body is, at any depth (BEHAVIOR-1K's `inside`), against
inside_of(x, y), directly inside."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import get_vocabulary
from scenes import kitchen_dict, node


def scene():
    data = kitchen_dict()
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "plate"] + [
        node("plate", "object", "bench", relation="ontop_of", affordances=["pickup", "release"]),
        node("pizza", "object", "plate", relation="ontop_of", affordances=["pickup"]),
        node("tray", "object", "fridge", relation="inside_of", affordances=["pickup", "release"]),
        node("cake", "object", "tray", relation="ontop_of", affordances=["pickup"]),
    ]
    return from_dict(data, "pizza")


GRAPH = scene()


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("inside(soup, fridge)", True),  # directly
        ("inside(cake, fridge)", True),  # on a tray in the fridge
        ("inside_of(cake, fridge)", False),  # ... but not directly
        ("inside(pen, cabinet)", True),  # in a box in the cabinet
        ("inside(pen, box)", True),
        ("inside(pizza, bench)", False),  # on a plate on the bench: on top, not inside
        ("inside(pizza, plate)", False),
        ("inside(cake, tray)", False),
        ("inside(apple, fridge)", False),
        ("inside(fridge, kitchen)", False),  # furniture is not placed
    ],
)
def test_inside_holds_at_any_depth_through_an_inside_link(goal, expected):
    assert parse_goal(goal, GRAPH).holds(Simulator(GRAPH).initial_state()) is expected


def test_a_held_object_is_inside_nothing():
    sim = Simulator(GRAPH)
    end = sim.run("goto(pose1) > goto(pose2) > goto(kitchen) > access(cabinet) > pickup(box)")
    assert not parse_goal("inside(pen, cabinet)", GRAPH).holds(end)
    assert parse_goal("inside(pen, box)", GRAPH).holds(end)


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
def test_the_solver_puts_the_pizza_on_its_plate_in_the_fridge(vocabulary):
    vocabulary = get_vocabulary(vocabulary)
    # BEHAVIOR's cleaning_up_plates_and_food: read directly, the pizza would be on the
    # plate and in the fridge at once, which no state is; read as a body, the plate goes in
    goal = "ontop_of(pizza, plate) and inside(pizza, fridge) and closed(fridge)"
    result = solve(PlanningProblem(GRAPH, goal, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    end = Simulator(GRAPH, vocabulary).run(result.plan)
    assert parse_goal(goal, GRAPH).holds(end)
    assert end.parent("plate") == "fridge"


def test_directly_inside_and_on_the_plate_is_proved_impossible():
    goal = "ontop_of(pizza, plate) and inside_of(pizza, fridge)"
    result = solve(PlanningProblem(GRAPH, goal), timeout=10)
    assert result.status.value == "unsolvable"
