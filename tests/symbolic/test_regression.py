"""`symbolic.regression.never_reached`: a goal no action can complete, on tiny tasks."""

from __future__ import annotations

from sceneplan.symbolic.regression import never_reached, static_facts
from sceneplan.symbolic.task import CondEffect, GroundAction, GroundTask

# facts: 0 in_fridge(n), 1 hot(n), 2 cold(n), 3 on(fridge), 4 holding(n), 5 in_oven(n), 6 on(oven)
FACTS = [
    ("inside_of", "n", "fridge"),
    ("state", "hot", "n"),
    ("state", "cold", "n"),
    ("state", "on", "fridge"),
    ("holding", "n"),
    ("inside_of", "n", "oven"),
    ("state", "on", "oven"),
]


def s(*facts: int) -> frozenset[int]:
    return frozenset(facts)


def put_in_fridge(cooling_condition: frozenset[int]) -> GroundAction:
    cool = CondEffect(cooling_condition, s(), s(2), s(1))
    return GroundAction("put_fridge", None, s(4), s(), s(0), s(4), (cool,))


PICK = GroundAction("pick", None, s(0), s(), s(4), s(0))
PUT_OVEN = GroundAction(
    "put_oven", None, s(4), s(), s(5), s(4), (CondEffect(s(6), s(), s(1), s(2)),)
)
PICK_OVEN = GroundAction("pick_oven", None, s(5), s(), s(4), s(5))
OVEN_ON = GroundAction("oven_on", None, s(), s(), s(6), s(), (CondEffect(s(5), s(), s(1), s(2)),))
FRIDGE_OFF = GroundAction("fridge_off", None, s(3), s(), s(), s(3))


def task(*actions: GroundAction, goal=(0, 1), goal_neg=()) -> GroundTask:
    return GroundTask(FACTS, s(0, 2, 3), s(*goal), s(*goal_neg), list(actions))


def test_what_never_changes():
    every, never = static_facts(task(put_in_fridge(s(3)), PICK, PUT_OVEN, PICK_OVEN, OVEN_ON))
    assert every == {3} and 6 not in never and never == set()
    every, never = static_facts(task(PICK))
    assert every == {2, 3} and never == {1, 5, 6}  # nothing warms it, nothing heats


def test_hot_in_a_running_fridge_is_never_reached():
    actions = (put_in_fridge(s(3)), PICK, PUT_OVEN, PICK_OVEN, OVEN_ON)
    assert never_reached(task(*actions))


def test_a_fridge_that_can_be_switched_off_may_hold_hot_food():
    actions = (put_in_fridge(s(3)), PICK, PUT_OVEN, PICK_OVEN, OVEN_ON, FRIDGE_OFF)
    assert not never_reached(task(*actions))


def test_a_cooling_condition_of_two_facts_one_of_which_holds():
    # cooling needs the fridge on (static) and holding (a precondition): it always fires
    actions = (put_in_fridge(s(3, 4)), PICK, PUT_OVEN, PICK_OVEN, OVEN_ON)
    assert never_reached(task(*actions))


def test_goals_that_hold_or_can_be_reached_are_not_refused():
    actions = (put_in_fridge(s(3)), PICK, PUT_OVEN, PICK_OVEN, OVEN_ON)
    assert not never_reached(task(*actions, goal=(0, 2)))  # holds at the start
    assert not never_reached(task(*actions, goal=(5, 1)))  # hot in the oven
    assert not never_reached(task(*actions, goal=(4,), goal_neg=(2,)))  # held, warmed
