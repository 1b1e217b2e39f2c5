"""Two hands (VirtualHome's character): an agent with the attribute `two_handed` holds up
to two objects; in the simulator, the solver, the PDDL export, the graph checks and the
prompts, in both vocabularies. LookPlanGraph's put_on / put_inside then name the object."""

from __future__ import annotations

import pytest

from sceneplan.errors import GraphValidationError
from sceneplan.graph import from_dict
from sceneplan.symbolic.pddl import export_pddl
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH, SAYPLAN, get_vocabulary
from sceneplan.world.vocabulary import PLAIN
from scenes import kitchen_dict, node

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def scene(two_handed: bool = True, held: tuple[str, ...] = ()):
    data = kitchen_dict()
    data["name"] = "hands" if two_handed else "hand"
    for n in data["nodes"]:
        if n["kind"] == "agent" and two_handed:
            n["attributes"] = ["two_handed"]
    data["nodes"] += [
        node(o, "object", "agent", relation="held", affordances=["pickup"]) for o in held
    ]
    return from_dict(data, data["name"])


TWO, ONE = scene(), scene(two_handed=False)


def test_the_hand_count_is_the_agents_attribute():
    assert (TWO.hands, ONE.hands) == (2, 1)
    assert Simulator(TWO).initial_state().hands == 2
    assert LOOKPLANGRAPH.in_graph(TWO) is LOOKPLANGRAPH.two_hands
    assert LOOKPLANGRAPH.in_graph(TWO).name == "lookplangraph_two_hands"
    assert LOOKPLANGRAPH.in_graph(ONE) is LOOKPLANGRAPH
    assert SAYPLAN.in_graph(TWO) is SAYPLAN  # release_on(o, r) names the object


@pytest.mark.parametrize(
    ("graph", "vocabulary", "plan", "feedback"),
    [
        (TWO, "sayplan", f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(bench) > "
         "pickup(plate) > release_on(mug, bench) > pickup(apple)", None),
        (TWO, "sayplan", f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(bench) > "
         "pickup(plate) > pickup(apple)", "already holding mug and plate and has no hand free"),
        (ONE, "sayplan", f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(bench) > "
         "pickup(plate)", "already holding mug and has no hand free"),
        (TWO, "lookplangraph", "go_to(kitchen) > pick_up(plate) > pick_up(apple) > "
         "put_on(plate, coffee_machine) > put_inside(apple, cabinet)", None),
        (TWO, "lookplangraph", "go_to(kitchen) > pick_up(plate) > put_on(bench)",
         "put_on(<o>, <a>) takes 2 argument(s), got 1"),
        (TWO, "lookplangraph", "go_to(kitchen) > pick_up(plate) > put_on(apple, bench)",
         "not holding apple (holding: plate)"),
        (TWO, "lookplangraph", "go_to(kitchen) > pick_up(plate) > pick_up(plate)",
         "plate is held by the agent"),
        (ONE, "lookplangraph", "go_to(kitchen) > pick_up(plate) > put_on(bench)", None),
        (ONE, "lookplangraph", "go_to(kitchen) > pick_up(plate) > pick_up(apple)",
         "already holding plate"),
    ],
)  # fmt: skip
def test_the_simulator_counts_hands(graph, vocabulary, plan, feedback):
    vocabulary = get_vocabulary(vocabulary)
    result = Simulator(graph, vocabulary).verify_plan(plan)
    if feedback is None:
        assert result.ok, result.feedback
    else:
        assert not result.ok and feedback in result.feedback, result.feedback


def test_held_objects_keep_the_order_they_were_picked_up_in():
    sim = Simulator(TWO, LOOKPLANGRAPH)
    end = sim.run("go_to(kitchen) > pick_up(plate) > pick_up(apple) > put_on(plate, bench)")
    assert end.held == ("apple",) and end.parent("plate") == "bench" and end.hand_free
    end = sim.run("go_to(kitchen) > pick_up(plate) > pick_up(apple)")
    assert end.held == ("plate", "apple") and not end.hand_free
    assert parse_goal("held(plate) and held(apple) and not handempty()", TWO).holds(end)


@pytest.mark.parametrize("vocabulary", ["sayplan", "lookplangraph"])
@pytest.mark.parametrize(
    "goal",
    ["held(plate) and held(mug)", "(held(plate) or held(apple)) and (held(mug) or held(soup))"],
)
def test_the_solver_fills_both_hands(vocabulary, goal):
    vocabulary = get_vocabulary(vocabulary)
    result = solve(PlanningProblem(TWO, goal, vocabulary=vocabulary), timeout=60)
    assert result.ok, result.stats
    end = Simulator(TWO, vocabulary).run(result.plan)
    assert parse_goal(goal, TWO).holds(end)
    # one hand cannot: the solver proves it before searching (no consistent choice)
    one = solve(PlanningProblem(ONE, goal, vocabulary=vocabulary), timeout=60)
    assert one.status is SolveStatus.UNSOLVABLE and one.stats["commitment"] == "impossible"


def test_the_solver_puts_down_the_right_one_of_two():
    data = kitchen_dict()
    for n in data["nodes"]:
        if n["kind"] == "agent":
            n["attributes"] = ["two_handed"]
        if n["id"] in ("plate", "apple"):
            n["parent"], n["relation"] = "agent", "held"
    graph = from_dict(data, "both_held")
    goal = "ontop_of(apple, desk) and held(plate)"
    result = solve(PlanningProblem(graph, goal, vocabulary=LOOKPLANGRAPH), timeout=60)
    assert result.ok, result.stats
    assert "put_on(apple, desk)" in [str(a) for a in result.plan]
    assert parse_goal(goal, graph).holds(Simulator(graph, LOOKPLANGRAPH).run(result.plan))


def test_the_pddl_export_keeps_the_one_handed_domain_as_it_was():
    one = export_pddl(ONE, "held(plate)")
    two = export_pddl(TWO, "held(plate) and held(mug)")
    actions = one.domain[one.domain.index("(:action") :]
    # with one hand, `(two_handed)` folds away and `(hand_free)` is never used
    assert "hand_free" not in actions and "two_handed" not in actions
    assert "(two_handed)" not in one.problem and "(hand_free)" not in one.problem
    assert "(two_handed)" in two.problem and "(hand_free)" in two.problem
    assert "(hand_free)" in two.domain[two.domain.index("(:action") :]


def test_the_graph_check_counts_what_the_agent_holds():
    with pytest.raises(GraphValidationError, match=r"holds 2 objects .* with one hand"):
        scene(two_handed=False, held=("cup1", "cup2"))
    assert scene(held=("cup1", "cup2")).hands == 2
    with pytest.raises(GraphValidationError, match=r"holds 3 objects .* with two hands"):
        scene(held=("cup1", "cup2", "cup3"))


@pytest.mark.slow
def test_prompts_say_the_agent_has_two_hands():
    state = Simulator(TWO).run(f"access(desk) > pickup(mug) > {TO_KITCHEN}")
    assert PLAIN.robot(state).startswith("at kitchen; holding mug (two hands);")
    assert PLAIN.robot(Simulator(ONE).initial_state()).startswith("at office; holding nothing;")
    lines = "\n".join(Simulator(TWO, LOOKPLANGRAPH).describe_actions())
    assert "put_on(<o>, <a>)" in lines and "two hands" in lines
    assert "put_on(<a>)" in "\n".join(Simulator(ONE, LOOKPLANGRAPH).describe_actions())
