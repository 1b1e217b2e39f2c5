"""Extending the domain from outside `src/`: a new action, new primitives, a new goal predicate.

`scrub(x)`: the agent must reach x (SayPlan's access), x must be dirty (a new
test primitive, `soiled`, with a new cause); x becomes clean (a new effect
primitive, `scrub_clean`). `spotless_on(x, y)`: x is clean and rests on y (a new
goal predicate). Everything below is defined here; nothing under src/ names
them. Then the simulator runs and explains scrub, the PDDL export carries it and
unified-planning's validator agrees with the simulator on random plans using
it, the symbolic planner finds plans that need it, and prompts list it.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.graph import from_dict
from sceneplan.graph.io import save
from sceneplan.symbolic.pddl import export_pddl
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.domain import THINGS, ActionSchema, Eff, Param, Pre
from sceneplan.world.pddl_expr import And, Not, atom
from sceneplan.world.predicates import GoalPredicate, forget_predicate, register_predicate
from sceneplan.world.primitives import (
    Cause,
    Effect,
    Test,
    forget_primitive,
    opposite_facts,
    primitive,
)
from sceneplan.world.vocabularies import forget_action, register_action
from scenes import kitchen_dict

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


def define_scrub() -> None:
    not_dirty = Cause.define(
        "not_dirty", "{x} is not dirty; there is nothing to scrub", "wrong_action"
    )

    @primitive
    class Soiled(Test):
        name, params, text = "soiled", ("x",), "{x} is dirty"

        def check(self, state, x):
            return None if "dirty" in state.states(x) else {}

        def pddl(self, x):
            return atom("is_dirty", x)

        def ground(self, g, b, x):
            return [({}, (("state", "dirty", x),), ())]

        def words(self, args):
            return {"dirty"}

    @primitive
    class ScrubClean(Effect):
        name, params, text = "scrub_clean", ("x",), "{x} is clean"

        def apply(self, state, x):
            state.set_state(x, "clean")

        def pddl(self, x):
            return And(atom("is_clean", x), Not(atom("is_dirty", x)))

        def ground(self, g, b, x):
            return [("state", "clean", x)], opposite_facts("clean", x), []

        def words(self, args):
            return {"clean", "dirty"}

    register_action(
        "sayplan",
        ActionSchema(
            "scrub",
            (Param("x", THINGS, "scrub"),),
            (
                Pre("reachable_accessed", ("x",), Cause.NOT_ACCESSED),
                Pre("soiled", ("x",), not_dirty),
            ),
            (Eff("scrub_clean", ("x",)),),
            "Scrub a dirty surface or object clean.",
        ),
    )

    @register_predicate
    class SpotlessOn(GoalPredicate):
        name, params = "spotless_on", ("x", "y")
        doc = "x is clean and rests directly on y"
        placement = True

        def holds(self, state, x, y):
            on = state.parent(x) == y and state.relation(x).value == "ontop_of"
            return on and "clean" in state.states(x)

        def pddl(self, t, x, y):
            t.need_word("clean")
            return And(atom("is_clean", x[0]), atom("ontop_of", x[0], y[0]))

        def compile(self, c, x, y):
            on = (
                [c.prop(("ontop_of", x, y))]
                if (y, "ontop_of") in [(p, r.value) for p, r in c.g.placements(x)]
                else [c.const(False)]
            )
            return c.all_of([c.prop(("state", "clean", x)), *on])


def forget_scrub() -> None:
    forget_action("sayplan", "scrub")
    forget_primitive("soiled")
    forget_primitive("scrub_clean")
    forget_predicate("spotless_on")
    Cause.forget("not_dirty")


@pytest.fixture
def scrub():
    define_scrub()
    yield
    forget_scrub()


def scrubable_kitchen():
    """The tiny kitchen with a dirty bench and plate that can be scrubd."""
    data = kitchen_dict()
    for n in data["nodes"]:
        if n["id"] in ("bench", "plate", "desk"):
            n["affordances"] = [*n.get("affordances", []), "scrub"]
        if n["id"] == "bench":
            n["state"] = ["dirty"]
    return from_dict(data, "scrubable")


def test_the_simulator_runs_and_explains_the_new_action(scrub):
    sim = Simulator(scrubable_kitchen())
    result = sim.verify_plan(f"{TO_KITCHEN} > access(bench) > scrub(plate) > scrub(bench)")
    assert result.ok, result.feedback
    assert {"clean"} <= result.final_state.states("plate")
    assert "dirty" not in result.final_state.states("bench")
    again = sim.verify_plan(f"{TO_KITCHEN} > access(bench) > scrub(bench) > scrub(bench)")
    assert again.failure.cause == "not_dirty"
    assert again.feedback == "step 6 scrub(bench): bench is not dirty; there is nothing to scrub"
    unreached = sim.verify_plan(f"{TO_KITCHEN} > scrub(plate)")
    assert unreached.failure.cause is Cause.NOT_ACCESSED
    assert sim.verify_plan("scrub(mug)").failure.cause is Cause.NO_AFFORDANCE
    assert parse_goal("spotless_on(plate, bench)").holds(result.final_state)
    assert not parse_goal("spotless_on(plate, bench)").holds(sim.initial_state())


@pytest.mark.slow
def test_the_pddl_export_and_the_validator_agree_with_the_simulator(scrub):
    pytest.importorskip("unified_planning")
    from pddl_judge import Judge

    graph = scrubable_kitchen()
    files = export_pddl(graph, "spotless_on(plate, bench)")
    assert "(:action scrub" in files.domain
    assert "(is_dirty ?x)" in files.domain and "(can_scrub bench)" in files.problem
    assert "(and (is_clean plate) (ontop_of plate bench))" in files.problem
    judge = Judge(graph)
    judge.assert_agree(f"{TO_KITCHEN} > access(bench) > scrub(plate) > scrub(bench) > scrub(bench)")
    judge.assert_agree(f"{TO_KITCHEN} > scrub(plate)")
    for seed in range(6):
        judge.assert_agree(judge.random_walk(seed, length=10))
    assert "scrub" in judge.used


@pytest.mark.slow
def test_the_cli_exports_the_new_action(scrub, tmp_path):
    graph_file = tmp_path / "scrubable.json"
    save(scrubable_kitchen(), graph_file)
    result = CliRunner().invoke(
        app, ["pddl", str(graph_file), "--out", str(tmp_path / "pddl"), "--goal", "clean(bench)"]
    )
    assert result.exit_code == 0, result.output
    domain = (tmp_path / "pddl" / "domain.pddl").read_text()
    assert "(:action scrub" in domain and "(is_clean ?x) (not (is_dirty ?x))" in domain


@pytest.mark.parametrize("planner", ["gbfs", "bfsf"])
def test_the_symbolic_planner_finds_plans_that_need_it(scrub, planner):
    if planner == "bfsf":
        pytest.importorskip("lapkt")
    graph = scrubable_kitchen()
    sim = Simulator(graph)
    for goal in ("clean(bench)", "spotless_on(plate, bench) and clean(bench)"):
        result = solve(PlanningProblem(graph, goal), timeout=20, planner=planner)
        assert result.ok, (goal, result.status)
        names = [str(a) for a in result.plan]
        assert "scrub(bench)" in names
        assert ("scrub(plate)" in names) == ("plate" in goal)
        final = sim.run(result.plan)
        assert parse_goal(goal, graph).holds(final)


def test_prompts_list_the_new_action_and_its_condition(scrub):
    lines = Simulator(scrubable_kitchen()).describe_actions(conditions=True)
    scrub_line = next(line for line in lines if line.startswith("scrub("))
    assert scrub_line == (
        "scrub(<x>): Scrub a dirty surface or object clean. "
        "Needs: <x> is the accessed asset or rests on it; <x> is dirty."
    )
    assert lines[-1].startswith("done(")


def test_forgetting_the_extension_leaves_the_domain_as_it_was():
    before = Simulator(scrubable_kitchen()).describe_actions()
    define_scrub()
    forget_scrub()
    assert Simulator(scrubable_kitchen()).describe_actions() == before
    failure = Simulator(scrubable_kitchen()).verify_plan("scrub(bench)").failure
    assert failure.cause is Cause.UNKNOWN_ACTION
