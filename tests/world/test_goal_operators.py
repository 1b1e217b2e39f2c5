"""The goal operators BEHAVIOR-1K and VirtualHome need: `forn` (at least n members),
`forpairs` / `fornpairs` (a one-to-one pairing) and ordered goals (`A then B`), in the
parser, the goal check, the solver, and the PDDL export."""

from __future__ import annotations

import pytest

from sceneplan.errors import GoalParseError, UnsupportedError
from sceneplan.graph import from_dict
from sceneplan.symbolic.pddl import export_pddl
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.goal_forms import MAX_CHOICES, expand, nnf
from sceneplan.world.goals import Counted, Paired, Then
from sceneplan.world.vocabularies import get_vocabulary
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def scene():
    """The tiny kitchen with three apples and three bowls (two of them on the bench)."""
    data = kitchen_dict()
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "apple"]
    bowl = ["pickup", "release", "receptacle"]
    data["nodes"] += [
        node("apple1", "object", "bench", relation="ontop_of", affordances=["pickup"]),
        node("apple2", "object", "bench", relation="ontop_of", affordances=["pickup"]),
        node("apple3", "object", "desk", relation="ontop_of", affordances=["pickup"]),
        node("bowl1", "object", "bench", relation="ontop_of", affordances=bowl),
        node("bowl2", "object", "bench", relation="ontop_of", affordances=bowl),
        node("bowl3", "object", "desk", relation="ontop_of", affordances=bowl),
    ]
    return from_dict(data, "counting")


GRAPH = scene()
SIM = Simulator(GRAPH)


def after(plan: str):
    return SIM.run(plan)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("forn 2 a in apple: in_room(a, kitchen)", Counted),
        ("forpairs a in apple, b in bowl: inside_of(a, b)", Paired),
        ("fornpairs 2 a in apple, b in bowl: inside_of(a, b)", Paired),
        ("open(fridge) then closed(fridge)", Then),
    ],
)
def test_the_operators_parse_and_render_back(text, kind):
    formula = parse_goal(text, GRAPH)
    assert isinstance(formula, kind)
    assert str(formula) == text
    assert parse_goal(str(formula), GRAPH) == formula


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("forn a in apple: held(a)", "expected a number, found 'a'"),
        ("forpairs a in apple, a in bowl: inside_of(a, a)", "forpairs needs two variable names"),
        ("forpairs a in apple, b in cup: inside_of(a, b)", "no node has category 'cup'"),
        ("not (open(fridge) then closed(fridge))", "expected ')', found 'then'"),
        ("open(fridge) then", "expected a predicate such as inside_of(x, y), found 'the end'"),
    ],
)
def test_malformed_operators_are_goal_errors(text, message):
    with pytest.raises(GoalParseError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_goal(text, GRAPH)


def test_forn_needs_at_least_n_members():
    goal = parse_goal("forn 2 a in apple: in_room(a, kitchen)", GRAPH)
    start = SIM.initial_state()
    assert goal.holds(start)  # apple1 and apple2 are on the bench
    assert not parse_goal("forn 3 a in apple: in_room(a, kitchen)", GRAPH).holds(start)
    assert parse_goal("forn 3 a in apple: in_room(a, kitchen)", GRAPH).explain(start) == [
        "fewer than 3 apple satisfy in_room(a, kitchen) (2 do)"
    ]
    assert parse_goal("forn 0 a in apple: held(a)", GRAPH).holds(start)


def test_forpairs_needs_a_one_to_one_pairing_not_just_every_member_used():
    one_bowl = (
        f"{TO_KITCHEN} > access(bench) > pickup(apple1) > release_in(apple1, bowl1) > "
        "pickup(apple2) > release_in(apple2, bowl2)"
    )
    goal = parse_goal(
        "forpairs a in apple, b in bowl: (in_room(a, kitchen) and in_room(b, kitchen))"
    )
    end = after(one_bowl)
    # apple3 and bowl3 are in the office: two pairs, but forpairs needs all three
    assert not goal.holds(end)
    assert parse_goal(
        "fornpairs 2 a in apple, b in bowl: (in_room(a, kitchen) and in_room(b, kitchen))"
    ).holds(end)
    # every apple and every bowl takes part in some satisfying pair, yet no pairing of all
    # three exists (BDDL's evaluator counts covered rows and columns only)
    skewed = parse_goal(
        "forpairs a in apple, b in bowl: ((is(a, apple1) and is(b, bowl1)) or "
        "(is(a, apple2) and is(b, bowl1)) or (is(a, apple3) and (is(b, bowl2) or is(b, bowl3))))"
    )
    assert not skewed.holds(end)
    assert skewed.explain(end) == [
        "only 2 of the 3 pairs of apple and bowl satisfy (is(a, apple1) and is(b, bowl1)) or "
        "(is(a, apple2) and is(b, bowl1)) or (is(a, apple3) and (is(b, bowl2) or is(b, bowl3)))"
    ]
    pairs = parse_goal("forpairs a in apple, b in bowl: inside_of(a, b)")
    assert not pairs.holds(end)
    assert parse_goal("fornpairs 2 a in apple, b in bowl: inside_of(a, b)").holds(end)


def test_expansion_is_the_goal_check_and_negation_counts_the_other_way():
    end = after(f"{TO_KITCHEN} > access(bench) > pickup(apple1) > release_in(apple1, bowl1)")
    for text in (
        "forn 2 a in apple: in_room(a, kitchen)",
        "not (forn 2 a in apple: within(a, bench))",
        "fornpairs 1 a in apple, b in bowl: inside_of(a, b)",
        "not (forpairs a in apple, b in bowl: (within(a, b) or within(b, bench)))",
    ):
        goal = parse_goal(text, GRAPH)
        assert expand(nnf(goal), GRAPH).holds(end) == goal.holds(end), text


def test_too_many_ways_to_choose_is_refused():
    data = kitchen_dict()
    data["nodes"] += [
        node(f"coin{i}", "object", "bench", relation="ontop_of", affordances=["pickup"])
        for i in range(30)
    ]
    graph = from_dict(data, "coins")
    goal = parse_goal("forn 10 c in coin: in_room(c, office)", graph)
    with pytest.raises(UnsupportedError, match=f"more than {MAX_CHOICES:,}"):
        expand(goal, graph)


def test_then_is_checked_over_the_run():
    goal = parse_goal("open(fridge) then closed(fridge)", GRAPH)
    assert goal.holds(SIM.initial_state()) is False  # the fridge was never open
    opened = after(f"{TO_KITCHEN} > access(fridge) > open(fridge) > close(fridge)")
    assert goal.holds(opened)
    assert not parse_goal("closed(fridge) then open(fridge)", GRAPH).holds(opened)
    never = after(f"{TO_KITCHEN} > access(fridge)")
    assert goal.explain(never) == ["open(fridge) never held (in order) during the run"]
    three = parse_goal("held(mug) then in_room(mug, kitchen) then ontop_of(mug, desk)", GRAPH)
    plan = f"access(desk) > pickup(mug) > {TO_KITCHEN} > goto(pose2) > goto(pose1) > goto(office)"
    assert three.holds(after(f"{plan} > access(desk) > release(mug)"))
    assert not three.holds(after("access(desk) > pickup(mug) > release(mug)"))
    step_by_step = SIM.initial_state()
    for action in f"{TO_KITCHEN} > access(fridge) > open(fridge) > close(fridge)".split(" > "):
        step_by_step, failure = SIM.step(step_by_step, action)
        assert failure is None
    assert goal.holds(step_by_step)


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    "goal",
    [
        "forn 2 a in apple: in_room(a, office)",
        "fornpairs 2 a in apple, b in bowl: inside_of(a, b)",
        "forpairs a in apple, b in bowl: inside_of(a, b)",
        "open(fridge) then closed(fridge) and inside_of(apple1, fridge)",
        "held(mug) then ontop_of(mug, desk)",
        "open(microwave) then closed(microwave) then open(microwave)",
    ],
)
def test_the_solver_plans_for_the_operators(vocabulary, goal):
    vocabulary = get_vocabulary(vocabulary)
    formula = parse_goal(goal, GRAPH)
    result = solve(PlanningProblem(GRAPH, formula, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    assert formula.holds(Simulator(GRAPH, vocabulary).run(result.plan))


def test_a_then_goal_already_half_done_keeps_its_progress():
    state = after("access(desk) > pickup(mug)")
    problem = PlanningProblem(GRAPH, "held(mug) then ontop_of(mug, desk)", state=state)
    result = solve(problem, timeout=30)
    assert [str(a) for a in result.plan] == ["release(mug)"]


def test_pddl_writes_counting_out_and_refuses_then():
    files = export_pddl(GRAPH, "fornpairs 2 a in apple, b in bowl: inside_of(a, b)")
    assert "(inside_of apple1 bowl2)" in files.problem
    with pytest.raises(UnsupportedError, match=r"not expressible in PDDL 2\.1"):
        export_pddl(GRAPH, "open(fridge) then closed(fridge)")
