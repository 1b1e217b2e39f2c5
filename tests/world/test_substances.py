"""Substances (BEHAVIOR-1K's filled / contains / covered / saturated / insource): what each
action does and refuses, the goal predicates, and the oracle solving substance goals in both
vocabularies. The PDDL faces are judged against the simulator in
tests/symbolic/test_pddl_differential.py (scene `substances`)."""

from __future__ import annotations

import pytest

from sceneplan.errors import SceneplanError
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.substances import split_word, substances_in
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import substance_scene

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def run(plan: str, vocabulary: str = "sayplan"):
    return Simulator(substance_scene(), get_vocabulary(vocabulary)).verify_plan(plan)


def test_fill_pour_soak_wipe_with_sprinkle_change_the_words_as_documented():
    result = run(
        f"{TO_KITCHEN} > access(bench) > pickup(bucket) > access(sink) > turn_on(sink) > "
        "fill(bucket, sink)"
    )
    assert result.ok
    assert result.final_state.states("bucket") == {"filled_water"}
    result = run(
        f"{TO_KITCHEN} > access(bench) > pickup(bucket) > access(sink) > turn_on(sink) > "
        "fill(bucket, sink) > access(bench) > pour(bucket, bowl)"
    )
    end = result.final_state
    assert {"filled_water", "contains_water"} <= end.states("bowl")  # pour: filled and some
    assert not substances_in(end.states("bucket"))  # poured out
    # a dry rag takes the dust off but not the stain; soaked, it takes the stain too
    end = run(f"{TO_KITCHEN} > access(bench) > pickup(rag) > wipe_with(rag, bench)").final_state
    assert end.states("bench") == {"covered_stain"}
    end = run(
        f"{TO_KITCHEN} > access(sink) > turn_on(sink) > access(bench) > pickup(rag) > "
        "access(sink) > soak(rag, sink) > access(bench) > wipe_with(rag, bench)"
    ).final_state
    assert end.states("bench") == frozenset()
    assert "saturated_water" in end.states("rag")
    # a shaker gives salt and is not used up
    end = run(
        f"{TO_KITCHEN} > access(bench) > pickup(shaker) > sprinkle(shaker, bowl) > "
        "pour(shaker, bowl)"
    ).final_state
    assert {"covered_salt", "contains_salt"} <= end.states("bowl")
    assert "filled_salt" not in end.states("bowl")  # only what was filled fills
    assert "insource_salt" in end.states("shaker")


@pytest.mark.parametrize(
    ("plan", "feedback"),
    [
        (
            f"{TO_KITCHEN} > access(bench) > pickup(bucket) > access(sink) > fill(bucket, sink)",
            "step 7 fill(bucket, sink): sink is off; turn it on first",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(bucket) > pour(bucket, bowl)",
            "step 6 pour(bucket, bowl): bucket holds no substance and gives none; fill it first",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(rag) > wipe_with(rag, bench) > "
            "wipe_with(rag, bench)",
            "step 7 wipe_with(rag, bench): bench is covered with nothing rag takes off now "
            "(covered with: stain); mud, stains and oils come off only with a soaked tool",
        ),
        (
            f"{TO_KITCHEN} > access(bench) > pickup(bowl) > soak(bowl, sink)",
            "step 6 soak(bowl, sink): bowl cannot be used with soak (its affordances: pickup, "
            "release, fill, coat)",
        ),
    ],
)
def test_refusals_name_the_step_and_the_fix(plan, feedback):
    result = run(plan)
    assert not result.ok
    assert result.feedback == feedback


def test_goal_predicates_read_the_substance_words():
    graph = substance_scene()
    state = Simulator(graph).initial_state()
    assert parse_goal("covered(bench, stain) and insource(sink, water)", graph).holds(state)
    assert not parse_goal("filled(bucket, water)", graph).holds(state)
    state.set_state("bucket", "filled_water")
    assert parse_goal("contains(bucket, water)", graph).holds(state)  # filled: some in it
    assert split_word("contains_liquid_soap") == ("contains", "liquid_soap")
    with pytest.raises(SceneplanError):
        parse_goal("filled(bucket)", graph)  # the substance is missing


@pytest.mark.parametrize(
    "goal", ["filled(bowl, water)", "not covered(bench, stain) and saturated(rag, water)"]
)
def test_the_oracle_solves_substance_goals(goal):
    """(SayPlan's vocabulary plans the same way; the symbolic planner's focus does not yet
    know the substance helpers, so these solve in the full scope: a few seconds each.)"""
    graph = substance_scene()
    result = solve(PlanningProblem(graph, goal, vocabulary=LOOKPLANGRAPH), 120)
    assert result.ok, result.status
    end = Simulator(graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert end.ok and parse_goal(goal, graph).holds(end.final_state)


def test_a_wanted_substance_the_scene_lacks_is_a_goal_error():
    # a misspelt substance can never be had: a goal error (exit 2), not "no plan exists"
    graph = substance_scene()
    with pytest.raises(SceneplanError, match=r"unknown substance 'watr' \(did you mean water\?\)"):
        parse_goal("filled(bucket, watr)", graph)
    with pytest.raises(SceneplanError, match="unknown substance 'coffee'"):
        parse_goal("open(fridge) or not not contains(bowl, coffee)", graph)
    # not having it is always true (BEHAVIOR's "not saturated with water"): no error
    parse_goal("not saturated(rag, coffee)", graph)
    parse_goal("filled(bucket, coffee) implies open(fridge)", graph)
