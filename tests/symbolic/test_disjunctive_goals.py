"""Disjunctive goals: committing to one disjunct each (`goal_compile.commit_goal`), word
pairs as positive conditions (`task.positive_conditions`), the focus's stacking bound.

The scenes mirror BEHAVIOR-1K's sorting_potatoes and assembling_gift_baskets, where
greedy search with h_FF stalled (its relaxation gives every basket the same candle,
and cannot see that the yams' sack must hold no potato): at full size the solver
found no plan within 30 s before the goal was committed.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from ground_tasks import Builder, execute
from sceneplan.graph import SceneGraph, from_dict
from sceneplan.symbolic.build import build_task
from sceneplan.symbolic.gbfs import gbfs
from sceneplan.symbolic.goal_compile import CompiledGoal, commit_goal
from sceneplan.symbolic.grounding import Grounder, exclusive_key
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, _scopes, _word_pairs, solve
from sceneplan.symbolic.task import GroundTask, complementary_pairs, positive_conditions
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.goal_forms import ground
from sceneplan.world.vocabularies import LOOKPLANGRAPH
from scenes import node

VOCABULARY = LOOKPLANGRAPH
RECEPTACLE = ["pickup", "receptacle", "release"]


def scene(name: str, room: str, nodes: list[dict]) -> SceneGraph:
    assets = [
        node("table", "asset", room, affordances=["release"]),
        node("floor", "asset", room, affordances=["release"]),
    ]
    data = {
        "format": "sceneplan-graph",
        "version": 1,
        "name": name,
        "nodes": [node(room, "room"), *assets, *nodes, node("agent", "agent", room)],
    }
    return from_dict(data, name)


def sorting_scene(potatoes: int = 3, yams: int = 2, sacks: int = 2) -> SceneGraph:
    """Potatoes and yams in a closed carton on the floor; sacks on the table (one on
    another, as in BEHAVIOR's sorting_potatoes)."""
    nodes = [
        node(
            "carton",
            "object",
            "floor",
            relation="ontop_of",
            affordances=["pickup", "open", "close"],
            state=["closed"],
        )
    ]
    for i in range(1, sacks + 1):
        below = "sack_1" if i == 2 else "table"
        nodes.append(
            node(f"sack_{i}", "object", below, relation="ontop_of", affordances=RECEPTACLE)
        )
    for kind, count in (("potato", potatoes), ("yam", yams)):
        for i in range(1, count + 1):
            nodes.append(
                node(
                    f"{kind}_{i}", "object", "carton", relation="inside_of", affordances=["pickup"]
                )
            )
    return scene("sorting", "kitchen", nodes)


def sorting_goal(potatoes: int = 3, yams: int = 2, sacks: int = 2) -> str:
    """Each potato in some sack; the yams all in one sack that holds no potato."""
    each = [
        "(" + " or ".join(f"inside_of(potato_{p}, sack_{s})" for s in range(1, sacks + 1)) + ")"
        for p in range(1, potatoes + 1)
    ]
    yam_sack = [
        "("
        + " and ".join(
            [f"inside_of(yam_{y}, sack_{s})" for y in range(1, yams + 1)]
            + [f"not inside_of(potato_{p}, sack_{s})" for p in range(1, potatoes + 1)]
        )
        + ")"
        for s in range(1, sacks + 1)
    ]
    return " and ".join(each) + " and (" + " or ".join(yam_sack) + ")"


def baskets_scene(n: int, kinds: tuple[str, ...]) -> SceneGraph:
    nodes = []
    for i in range(1, n + 1):
        nodes.append(
            node(f"basket_{i}", "object", "floor", relation="ontop_of", affordances=RECEPTACLE)
        )
        for kind in kinds:
            nodes.append(
                node(f"{kind}_{i}", "object", "table", relation="ontop_of", affordances=["pickup"])
            )
    return scene("baskets", "living_room", nodes)


def baskets_goal(n: int, kinds: tuple[str, ...]) -> str:
    """Every basket holds some candle, some bow, ... (BEHAVIOR's exists-per-basket)."""
    return " and ".join(
        "(" + " or ".join(f"inside_of({kind}_{i}, basket_{b})" for i in range(1, n + 1)) + ")"
        for kind in kinds
        for b in range(1, n + 1)
    )


def assert_solved(graph: SceneGraph, goal: str, result) -> None:
    """A plan that the simulator runs and that reaches the goal."""
    assert result.status is SolveStatus.PLAN, result.stats
    plan = [str(a) for a in result.plan] + ["done()"]
    run = Simulator(graph, VOCABULARY).verify_plan(plan)
    assert run.ok, run.feedback
    assert parse_goal(goal, graph).holds(run.final_state)


def focused_task(graph: SceneGraph, goal: str) -> GroundTask:
    problem = PlanningProblem(graph, goal, vocabulary=VOCABULARY)
    formula = ground(problem.goal, graph)
    scope = next(_scopes(problem, problem.state, formula, True))
    task = build_task(problem.state, scope, formula, None, VOCABULARY)
    assert isinstance(task, GroundTask)
    return task


# --- the solver on the failure pattern ------------------------------------------------------


@pytest.mark.slow
def test_sorting_is_solved_by_committing_the_yams_sack():
    graph, goal = sorting_scene(), sorting_goal()
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout=60)
    assert_solved(graph, goal, result)
    assert result.stats["commitment"] == "plan"  # greedy search stalled, the commitment solved it


@pytest.mark.slow
def test_baskets_each_get_their_own_candle_bow_and_cookie():
    kinds = ("candle", "bow", "cookie")
    graph, goal = baskets_scene(3, kinds), baskets_goal(3, kinds)
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout=60)
    assert_solved(graph, goal, result)
    assert result.stats["commitment"] == "plan"


def test_a_goal_that_puts_an_object_in_two_places_is_unsolvable_without_search():
    graph = sorting_scene()
    goal = "inside_of(yam_1, sack_1) and (ontop_of(yam_1, sack_2) or ontop_of(yam_1, table))"
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout=60)
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.stats["commitment"] == "impossible"
    assert result.scope == "focused"  # the whole graph is not grounded: its goal is no better
    assert result.stats["evaluated"] == 0


def test_a_goal_with_a_consistent_choice_is_still_solved_as_before():
    graph = sorting_scene()
    goal = "inside_of(yam_1, sack_1) or inside_of(yam_1, sack_2)"
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout=60)
    assert_solved(graph, goal, result)
    assert "commitment" not in result.stats  # no stall: no commitment


# --- commit_goal on compiled goals ----------------------------------------------------------


def compiled(
    top: list[tuple], options: dict[tuple, list[tuple[list[tuple], list[tuple]]]]
) -> CompiledGoal:
    out = CompiledGoal(goal=set(top))
    for fact, ways in options.items():
        for pos, neg in ways:
            out.actions.append((f"goal{len(out.actions)}", pos, neg, fact))
    return out


def inside(o: str, c: str) -> tuple:
    return ("inside_of", o, c)


def test_each_container_gets_its_own_object_even_when_one_is_cheapest():
    baskets, candles = ["b1", "b2", "b3"], ["c1", "c2", "c3"]
    goal = compiled(
        [("goal", b) for b in baskets],
        {("goal", b): [([inside(c, b)], []) for c in candles] for b in baskets},
    )
    cheapest_first = {"c1": 1, "c2": 2, "c3": 3}
    commitment = commit_goal(goal, cost=lambda fact: cheapest_first[fact[1]])
    assert commitment is not None and commitment.possible
    chosen = sorted(commitment.goal)
    assert [f[2] for f in chosen] == sorted(baskets)  # every basket gets a candle
    assert sorted(f[1] for f in chosen) == candles  # a different one each


def test_the_sack_for_the_yams_holds_no_potato_chosen_for_it():
    goal = compiled(
        [("goal", "potato"), ("goal", "yams")],
        {
            ("goal", "potato"): [([inside("p", "s1")], []), ([inside("p", "s2")], [])],
            ("goal", "yams"): [
                ([inside("y", "s1")], [inside("p", "s1")]),
                ([inside("y", "s2")], [inside("p", "s2")]),
            ],
        },
    )
    commitment = commit_goal(goal)
    assert commitment is not None and commitment.possible
    (potato_sack,) = {f[2] for f in commitment.goal if f[1] == "p"}
    (yam_sack,) = {f[2] for f in commitment.goal if f[1] == "y"}
    assert potato_sack != yam_sack
    assert inside("p", yam_sack) in commitment.goal_neg


def test_nested_choices_are_decided_first_and_quickly():
    """Four flowers in pots, and some two of three pots hold a flower: deciding the pots
    first leaves each pot one flower, where flowers first would all pick pot 1."""
    pots, flowers = ["p1", "p2", "p3"], ["f1", "f2", "f3", "f4"]
    options: dict[tuple, list] = {
        ("goal", f): [([inside(f, p)], []) for p in pots] for f in flowers
    }
    for p in pots:
        options[("goal", "some", p)] = [([inside(f, p)], []) for f in flowers]
    options[("goal", "two")] = [
        ([("goal", "some", a), ("goal", "some", b)], []) for a, b in combinations(pots, 2)
    ]
    goal = compiled([*(("goal", f) for f in flowers), ("goal", "two")], options)
    commitment = commit_goal(goal, max_nodes=50)
    assert commitment is not None and commitment.possible
    homes = {f[1]: f[2] for f in commitment.goal}
    assert set(homes) == set(flowers)
    assert len(set(homes.values())) >= 2


def test_a_contradiction_is_proven_and_a_plain_goal_needs_no_commitment():
    two_places = compiled(
        [inside("x", "box"), ("goal", 0)],
        {("goal", 0): [([("ontop_of", "x", "table")], []), ([inside("x", "bag")], [])]},
    )
    assert commit_goal(two_places).possible is False
    wanted_and_not = compiled(
        [("goal", 0)], {("goal", 0): [([inside("x", "box")], [inside("x", "box")])]}
    )
    assert commit_goal(wanted_and_not).possible is False
    assert commit_goal(CompiledGoal(goal={inside("x", "box")})) is None


def test_a_choice_past_the_node_budget_is_not_made():
    baskets, candles = [f"b{i}" for i in range(6)], [f"c{i}" for i in range(5)]  # one short
    goal = compiled(
        [("goal", b) for b in baskets],
        {("goal", b): [([inside(c, b)], []) for c in candles] for b in baskets},
    )
    assert commit_goal(goal, max_nodes=100) is None  # undecided, not "impossible"
    assert commit_goal(goal).possible is False  # pigeonhole, with the whole budget


def test_facts_with_one_exclusive_key_never_hold_together():
    """`exclusive_key`'s invariants, on random walks through a real task."""
    for graph, goal in (
        (sorting_scene(), sorting_goal()),
        (baskets_scene(2, ("candle",)), baskets_goal(2, ("candle",))),
    ):
        task = focused_task(graph, goal)
        rng = random.Random(7)
        for _walk in range(20):
            state = task.init
            for _step in range(30):
                keys = [exclusive_key(task.facts[f]) for f in state]
                keys = [k for k in keys if k is not None]
                assert len(keys) == len(set(keys)), task.describe(state)
                moves = [a for a in task.actions if a.action is not None and a.applicable(state)]
                if not moves:
                    break
                state = rng.choice(moves).apply(state)


# --- word pairs as positive conditions -----------------------------------------------------


def test_a_closed_carton_is_a_positive_condition_for_the_relaxation():
    task = focused_task(sorting_scene(), sorting_goal())
    index = {fact: i for i, fact in enumerate(task.facts)}
    closed, opened = index[("state", "closed", "carton")], index[("state", "open", "carton")]
    complement = complementary_pairs(task, _word_pairs(task))
    assert complement[closed] == opened and complement[opened] == closed
    positive = positive_conditions(task, complement)
    needing = [i for i, a in enumerate(task.actions) if closed in a.neg]
    assert needing
    for i in needing:
        assert closed not in positive.actions[i].neg
        assert opened in positive.actions[i].pre


def test_only_pairs_the_actions_keep_exclusive_become_complements():
    b = Builder()
    b.action("open", pre=["closed"], add=["open"], delete=["closed"])
    b.action("close", pre=["open"], add=["closed"], delete=["open"])
    b.action("jam", add=["stuck_a"])  # adds one of a pair without deleting the other
    b.action("go", neg=["closed"], add=["goal"])
    task = b.task(init=["closed", "stuck_b"], goal=["goal"])
    i = {fact[0]: n for n, fact in enumerate(task.facts)}
    pairs = [(i["open"], i["closed"]), (i["stuck_a"], i["stuck_b"])]
    complement = complementary_pairs(task, pairs)
    assert complement == {i["open"]: i["closed"], i["closed"]: i["open"]}
    positive = positive_conditions(task, complement)
    outcome = gbfs(positive, timeout=10)
    assert outcome.status == "plan"
    assert i["goal"] in execute(task, outcome.plan)  # a plan of the original task too


def test_greedy_search_gives_up_on_a_plateau_when_asked():
    task = focused_task(sorting_scene(), sorting_goal())
    assert gbfs(task, timeout=30, max_stall=5).status == "limit"


# --- the focus stacks receptacles only where the goal says ----------------------------------


def test_the_focus_stacks_a_receptacle_only_on_objects_the_goal_names():
    graph = sorting_scene()
    problem = PlanningProblem(graph, sorting_goal(), vocabulary=VOCABULARY)
    scope = next(_scopes(problem, problem.state, ground(problem.goal, graph), True))
    assert ("potato_1", "sack_2") in scope.stacking
    assert not scope.may_stack("sack_1", "sack_2")
    spots = {spot for spot, _ in Grounder(problem.state, scope).placements("sack_1")}
    assert spots == {"table", "floor"}  # not in or on the other sack
    spots = {spot for spot, _ in Grounder(problem.state, scope).placements("potato_1")}
    assert {"sack_1", "sack_2", "table", "floor"} <= spots


def test_a_goal_that_stacks_receptacles_is_still_solved():
    graph = sorting_scene()
    goal = "inside_of(sack_2, sack_1) and inside_of(yam_1, sack_2)"
    result = solve(PlanningProblem(graph, goal, vocabulary=VOCABULARY), timeout=60)
    assert_solved(graph, goal, result)
    assert result.scope == "focused"
