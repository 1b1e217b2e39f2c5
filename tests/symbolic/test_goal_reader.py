"""PDDL goals read into the goal language (SCLPlan's model writes its goal in PDDL)."""

import pytest

from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import GoalParseError
from sceneplan.symbolic.goal_reader import looks_like_pddl, pddl_to_goal, read_goal
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator
from sceneplan.world.vocabularies import ALFWORLD


@pytest.mark.parametrize(
    ("pddl", "goal"),
    [
        ("(and (inside_of o1 box) (closed box))", "(inside_of(o1, box) and closed(box))"),
        ("(not (held coffee_mug))", "not held(coffee_mug)"),
        ("(or (isHot apple_1) (= a b))", "(hot(apple_1) or is(a, b))"),
        ("(imply (opened fridge) (held x))", "(open(fridge) implies held(x))"),
        ("(holds agent1 mug_1)", "held(mug_1)"),
        ("(forall (?p - plate) (clean ?p))", "forall p in plate: (clean(p))"),
    ],
)  # fmt: skip
def test_pddl_is_written_in_the_goal_language(pddl, goal):
    assert looks_like_pddl(pddl) and pddl_to_goal(pddl) == goal


def test_our_own_goal_language_is_not_taken_for_pddl():
    office = load_environment("office")
    assert not looks_like_pddl("inside_of(orange1, fridge)")
    assert not looks_like_pddl("(held(orange1))")
    assert str(read_goal("(not held(orange1))", office)) == str(
        read_goal("not held(orange1)", office)
    )


def test_an_alfworld_pddl_goal_means_the_task_goal():
    task = get_task("alfworld-clean-01")  # clean some bowl and put it in cabinet.
    graph = load_environment(task.environment)
    pddl = (
        "(exists (?o - object ?r - receptacle) (and (objectType ?o BowlType) "
        "(receptacleType ?r CabinetType) (isClean ?o) (inReceptacle ?o ?r)))"
    )
    goal = read_goal(pddl, graph)
    plan = solve(PlanningProblem(graph, task.goal, vocabulary=ALFWORLD)).plan
    final = Simulator(graph, ALFWORLD).verify_plan(plan).final_state
    assert goal.holds(final) and not goal.holds(Simulator(graph, ALFWORLD).initial_state())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(and (inReceptacle mug_1 desk_1)", r"1 '\(' never closed"),
        ("(inReceptacle mug_1 desk_1)) (", r"the '\)' at line 1, column 28 closes nothing"),
        ("(inReceptacle mug_1 desk_1) (isClean mug_1)", "text after the expression"),
        ("(and (isClean mug_1) ())", r"'\(\)' is not a PDDL formula"),
        ("(forall ((?o)) (isClean ?o))", "takes a variable list and a body"),
        ("(flies mug_1 desk_1)", "unknown predicate 'flies'"),
        ("(inReceptacle mug_1 nowhere_9)", "nowhere_9"),
    ],
)
def test_bad_pddl_goals_say_what_is_wrong(text, message):
    graph = load_environment(get_task("alfworld-pick-01").environment)
    with pytest.raises(GoalParseError, match=message):
        read_goal(text, graph)
