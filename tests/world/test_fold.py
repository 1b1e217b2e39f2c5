"""Folding cloth (BEHAVIOR-1K's folded / unfolded): fold and unfold, their feedback, goals,
the solver and the prompts, in both vocabularies."""

from __future__ import annotations

import pytest

from sceneplan.graph import from_dict
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH, get_vocabulary
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"
CLOTH = ["pickup", "fold", "unfold"]


def scene():
    data = kitchen_dict()
    data["nodes"] += [
        node(
            "towel", "object", "bench", relation="ontop_of", affordances=CLOTH, state=["unfolded"]
        ),
        node(
            "sheet", "object", "cabinet", relation="inside_of", affordances=CLOTH, state=["folded"]
        ),
    ]
    return from_dict(data, "linen")


GRAPH = scene()


@pytest.mark.parametrize(
    ("vocabulary", "plan", "feedback"),
    [
        ("sayplan", f"{TO_KITCHEN} > access(bench) > fold(towel) > unfold(towel)", None),
        ("sayplan", f"{TO_KITCHEN} > access(bench) > fold(towel) > fold(towel)", "already folded"),
        ("sayplan", f"{TO_KITCHEN} > access(cabinet) > unfold(sheet) > unfold(sheet)", "already"),
        ("sayplan", f"{TO_KITCHEN} > fold(towel)", "has not been accessed"),
        ("sayplan", f"{TO_KITCHEN} > access(bench) > fold(apple)", "cannot"),
        ("lookplangraph", "go_to(kitchen) > unfold(sheet) > fold(sheet)", None),
        ("lookplangraph", "fold(towel)", "not in kitchen"),
    ],
)
def test_fold_and_unfold_in_the_simulator(vocabulary, plan, feedback):
    vocabulary = get_vocabulary(vocabulary)
    result = Simulator(GRAPH, vocabulary).verify_plan(plan)
    if feedback is None:
        assert result.ok, result.feedback
    else:
        assert not result.ok and feedback in result.feedback, result.feedback


def test_folding_changes_the_word_and_its_opposite():
    end = Simulator(GRAPH).run(f"{TO_KITCHEN} > access(bench) > fold(towel)")
    assert end.states("towel") == {"folded"}
    assert parse_goal("folded(towel) and not unfolded(towel)", GRAPH).holds(end)


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    "goal",
    [
        "folded(towel) and inside_of(towel, cabinet)",
        "not folded(sheet) and ontop_of(sheet, bench)",
        "held(sheet) and unfolded(sheet)",
    ],
)
def test_the_solver_folds_and_unfolds(vocabulary, goal):
    vocabulary = get_vocabulary(vocabulary)
    assert not parse_goal(goal, GRAPH).holds(Simulator(GRAPH).initial_state())
    result = solve(PlanningProblem(GRAPH, goal, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    assert {"fold", "unfold"} & {a.name for a in result.plan}
    assert parse_goal(goal, GRAPH).holds(Simulator(GRAPH, vocabulary).run(result.plan))


def test_prompts_offer_fold_only_where_something_folds():
    assert {"fold", "unfold"} <= set(Simulator(GRAPH).offered_actions())
    plain = from_dict(kitchen_dict(), "plain")
    assert "fold" not in Simulator(plain, LOOKPLANGRAPH).offered_actions()
