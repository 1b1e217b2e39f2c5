"""The graph facts recorded for the metrics: explored rooms, important, right and observed nodes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import Task
from sceneplan.eval.annotate import annotate, changed_nodes, final_state, literals
from sceneplan.planners.episode import Episode
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.setup import with_facts

GRAPH = load_environment("coffee")
MUG_TO_BED2 = [
    "access(wardrobe1)",
    "open(wardrobe1)",
    "pickup(coffee_mug)",
    "goto(pose1)",
    "goto(toms_room)",
    "access(bed2)",
    "release(coffee_mug)",
    "done",
]


def task(goal: str) -> Task:
    return Task(
        id="c-01",
        suite="c",
        family="simple_planning",
        environment="coffee",
        instruction="Move the mug.",
        goal=goal,
    )


def run(plan: list[str], goal: str, explored: list[str] = ()) -> Episode:
    result = Simulator(GRAPH).verify_plan(plan)
    episode = Episode(
        "p", "m", "coffee", "Move the mug.", task_id="c-01", goal=goal, explored=list(explored)
    )
    episode.final_changes = result.final_state.changes()
    annotate(episode, task(goal), GRAPH)
    return episode


def test_right_nodes_leave_out_needless_changes():
    episode = run(MUG_TO_BED2, "ontop_of(coffee_mug, bed2)", ["floor0", "bobs_room", "toms_room"])
    info = episode.eval
    assert info.important == ["coffee_mug"]
    assert changed_nodes(episode.final_changes) == {"coffee_mug", "wardrobe1"}  # agent left out
    assert info.right == ["coffee_mug"]  # the wardrobe left open is a needless change
    assert info.explored_rooms == ["bobs_room", "toms_room"]
    assert info.observed == ["bed1", "bed2", "coffee_mug", "wardrobe1", "wardrobe2"]


def test_a_goal_literal_broken_makes_its_node_wrong():
    episode = run(MUG_TO_BED2, "ontop_of(coffee_mug, bed2) and closed(wardrobe1)")
    info = episode.eval
    assert info.important == ["coffee_mug"]  # the wardrobe is closed at the start
    assert info.right == ["coffee_mug"]
    assert info.observed is None  # nothing expanded, nothing recorded: unknown


def test_planner_recorded_observations_win():
    episode = Episode("p", "m", "coffee", "x", observed=["fridge", "kitchen", "ghost"])
    annotate(episode, task("closed(fridge)"), GRAPH)
    assert episode.eval.observed == ["fridge"]  # rooms and unknown ids are not counted


def test_alternatives_count_the_one_that_holds_or_the_cheapest():
    goal = parse_goal(
        "(ontop_of(coffee_mug, bed1) and open(wardrobe2)) or ontop_of(coffee_mug, bed2)", GRAPH
    )
    initial = Simulator(GRAPH).initial_state()
    assert literals(goal, initial) == [("coffee_mug", False)]  # one change beats two
    after = Simulator(GRAPH).verify_plan(MUG_TO_BED2).final_state
    assert literals(goal, after) == [("coffee_mug", True)]


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("not closed(fridge)", [("fridge", False)]),
        ("not (closed(fridge) and on(fridge))", [("fridge", False)]),
        (
            "not (closed(fridge) or off(coffee_machine))",
            [("fridge", False), ("coffee_machine", False)],
        ),
        ("forall m in mug: in_room(m, kitchen)", [("coffee_mug", False)]),
        ("exists m in mug: full(m)", [("coffee_mug", False)]),
        ("not forall m in mug: empty(m)", [("coffee_mug", False)]),
        ("agent_at(kitchen) and handempty()", [(None, False), (None, True)]),
        ("full(coffee_mug) implies in_room(coffee_mug, toms_room)", []),
        (
            "not (empty(coffee_mug) implies closed(fridge))",
            [("coffee_mug", True), ("fridge", False)],
        ),
        ("true", []),
    ],
)
def test_literals_push_negation_down(goal, expected):
    initial = Simulator(GRAPH).initial_state()
    assert literals(parse_goal(goal, GRAPH), initial) == expected


def test_final_state_is_rebuilt_from_the_changes():
    for plan in (MUG_TO_BED2, MUG_TO_BED2[:3], ["goto(pose1)", "goto(toms_room)"]):
        state = Simulator(GRAPH).verify_plan(plan).final_state
        rebuilt = final_state(GRAPH, state.changes())
        assert rebuilt.changes() == state.changes()
        assert rebuilt.held == state.held


def test_initial_facts_are_the_start_state():
    ajar = replace(task("closed(wardrobe1)"), initial=["open(wardrobe1)"])
    start = with_facts(GRAPH, ajar.initial)
    result = Simulator(start).verify_plan(["access(wardrobe1)", "close(wardrobe1)", "done"])
    episode = Episode("p", "m", "coffee", "x", task_id="c-01", goal=ajar.goal)
    episode.final_changes = result.final_state.changes()
    annotate(episode, ajar, start)
    assert episode.eval.important == ["wardrobe1"]  # closed in the file, open at start
    assert episode.eval.right == ["wardrobe1"]
