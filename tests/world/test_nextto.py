"""nextto(x, y): side by side on the same support (for fixed furniture y, on top of an
asset of y's room)."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import get_vocabulary
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def scene():
    data = kitchen_dict()
    data["nodes"] += [
        node("bowl", "object", "bench", relation="ontop_of", affordances=["pickup", "release"]),
        node("pear", "object", "bowl", relation="inside_of", affordances=["pickup"]),
        node("fig", "object", "bowl", relation="inside_of", affordances=["pickup"]),
    ]
    return from_dict(data, "side_by_side")


GRAPH = scene()


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("nextto(apple, plate)", True),  # both on the bench
        ("nextto(plate, apple)", True),
        ("nextto(pear, fig)", True),  # both inside the bowl
        ("nextto(pear, apple)", False),  # in the bowl, not on the bench
        ("nextto(apple, apple)", False),
        ("nextto(apple, bench)", True),  # on the asset
        ("nextto(apple, fridge)", True),  # on an asset of the fridge's room
        ("nextto(soup, fridge)", False),  # inside, not on top
        ("nextto(mug, fridge)", False),  # on the desk, in the office
        ("nextto(mug, apple)", False),  # another room
        ("nextto(bench, apple)", False),  # furniture is not placed
    ],
)
def test_nextto_holds_for_things_on_the_same_support(goal, expected):
    assert parse_goal(goal, GRAPH).holds(Simulator(GRAPH).initial_state()) is expected


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    "goal",
    [
        "nextto(mug, apple)",
        "nextto(pear, mug) and not nextto(pear, fig)",
        "nextto(mug, coffee_machine) and nextto(apple, mug)",
        "ontop_of(mug, bench) and nextto(mug, fridge) and nextto(pear, desk)",
    ],
)
def test_the_solver_puts_things_side_by_side(vocabulary, goal):
    vocabulary = get_vocabulary(vocabulary)
    result = solve(PlanningProblem(GRAPH, goal, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    end = Simulator(GRAPH, vocabulary).run(result.plan)
    assert parse_goal(goal, GRAPH).holds(end)


def test_nextto_of_fixed_furniture_is_decided_without_planning():
    result = solve(PlanningProblem(GRAPH, "nextto(bench, apple)"), timeout=10)
    assert result.status.value == "unsolvable"
