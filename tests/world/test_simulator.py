import pytest

from sceneplan.errors import BadInputError, PlanExecutionError, UnsupportedError
from sceneplan.graph.model import Relation
from sceneplan.world import Cause, Simulator
from sceneplan.world.vocabularies import LOOKPLANGRAPH, SAYPLAN, get_vocabulary
from sceneplan.world.vocabulary import Vocabulary
from scenes import kitchen

TO_KITCHEN = "goto(pose1) > goto(pose2) > goto(kitchen)"


@pytest.fixture
def sim():
    return Simulator(kitchen())


def fail(sim, plan):
    result = sim.verify_plan(plan)
    assert not result.ok
    return result.failure


@pytest.mark.parametrize(
    ("plan", "cause", "message"),
    [
        (
            "goto(kitchen)",
            Cause.NOT_ADJACENT,
            "step 1 goto(kitchen): kitchen is not reachable directly from office; go through the "
            "poses connecting them (neighbours of office: pose1)",
        ),
        (
            "fly(kitchen)",
            Cause.UNKNOWN_ACTION,
            "step 1 fly(kitchen): 'fly' is not an action; the actions are: goto, access, pickup, "
            "release, release_in, release_on, attach, open, close, turn_on, turn_off, plug_in, "
            "plug_out, wipe, fold, unfold, rinse, sit, lie, stand_up, fill, pour, sprinkle, soak, "
            "wipe_with, done",
        ),
        (
            "goto(kitchn)",
            Cause.UNKNOWN_NODE,
            "step 1 goto(kitchn): there is no node called 'kitchn' in the scene graph "
            "(did you mean kitchen?)",
        ),
        (
            "goto(desk)",
            Cause.WRONG_KIND,
            "step 1 goto(desk): desk is an asset, but goto needs a pose or a room",
        ),
        (
            "access(desk, mug)",
            Cause.WRONG_ARITY,
            "step 1 access(desk, mug): access(<a>) takes 1 argument(s), got 2",
        ),
        (
            "turn_on(desk)",
            Cause.NO_AFFORDANCE,
            "step 1 turn_on(desk): desk cannot be used with turn_on (its affordances: release)",
        ),
        (
            "access(fridge)",
            Cause.NOT_IN_ROOM,
            "step 1 access(fridge): the agent is at office, not in kitchen where fridge is",
        ),
        (
            "pickup(mug)",
            Cause.NOT_ACCESSED,
            "step 1 pickup(mug): mug is at desk, which has not been accessed (accessed: nothing)",
        ),
        (
            "access(desk) > release(mug)",
            Cause.NOT_HOLDING,
            "step 2 release(mug): the agent is not holding mug (holding: nothing)",
        ),
        (
            f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(fridge) > pickup(soup)",
            Cause.HAND_FULL,
            "step 7 pickup(soup): the agent is already holding mug and has no hand free; "
            "put something down first",
        ),
        (
            f"{TO_KITCHEN} > access(fridge) > pickup(soup)",
            Cause.CONTAINER_CLOSED,
            "step 5 pickup(soup): soup is inside fridge, which is closed",
        ),
        (
            f"{TO_KITCHEN} > access(cabinet) > pickup(pen)",
            Cause.CONTAINER_CLOSED,
            "step 5 pickup(pen): pen is inside box, which is closed",
        ),
        (
            f"{TO_KITCHEN} > access(cabinet) > open(cabinet)",
            Cause.ALREADY_OPEN,
            "step 5 open(cabinet): cabinet is already open",
        ),
        (
            f"{TO_KITCHEN} > access(fridge) > close(fridge)",
            Cause.ALREADY_CLOSED,
            "step 5 close(fridge): fridge is already closed",
        ),
        (
            f"{TO_KITCHEN} > access(fridge) > turn_off(fridge)",
            Cause.NO_AFFORDANCE,
            "step 5 turn_off(fridge): fridge cannot be used with turn_off "
            "(its affordances: open, close, release)",
        ),
        (
            f"{TO_KITCHEN} > access(microwave) > turn_off(microwave)",
            Cause.ALREADY_OFF,
            "step 5 turn_off(microwave): microwave is already off",
        ),
        (
            f"{TO_KITCHEN} > access(dishwasher) > turn_on(dishwasher)",
            Cause.MUST_CLOSE_FIRST,
            "step 5 turn_on(dishwasher): dishwasher is open; close it before turning it on",
        ),
        (
            f"access(desk) > pickup(mug) > {TO_KITCHEN} > release(mug)",
            Cause.NOTHING_ACCESSED,
            "step 6 release(mug): no asset is accessed; access the asset to put mug on first",
        ),
    ],
)
def test_each_failure_cause_has_its_feedback(sim, plan, cause, message):
    failure = fail(sim, plan)
    assert failure.cause is cause
    assert failure.message == message


def test_failure_index_and_state_before_failing_step(sim):
    result = sim.verify_plan(f"{TO_KITCHEN} > access(fridge) > pickup(soup)")
    assert result.failure.index == 4
    assert result.executed == 4
    assert result.final_state.agent_at == "kitchen"
    assert result.final_state.accessed == "fridge"


def test_open_then_pickup_and_release_into_open_container(sim):
    plan = (
        f"{TO_KITCHEN} > access(fridge) > open(fridge) > pickup(soup) > access(bench) > "
        "release(soup) > access(cabinet) > pickup(box) > access(fridge) > release(box)"
    )
    state = sim.run(plan)
    assert (state.parent("soup"), state.relation("soup")) == ("bench", Relation.ONTOP_OF)
    assert (state.parent("box"), state.relation("box")) == ("fridge", Relation.INSIDE_OF)
    # the pen moved with its box, and the fridge, which is on, cooled both
    assert state.room_of("pen") == "kitchen"
    assert {"cold"} <= state.states("box") and {"cold"} <= state.states("pen")


def test_release_at_closed_container_puts_it_on_top(sim):
    state = sim.run(f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(fridge) > release(mug)")
    assert (state.parent("mug"), state.relation("mug")) == ("fridge", Relation.ONTOP_OF)
    assert "cold" not in state.states("mug")


def test_appliances_act_on_their_contents(sim):
    heat = (
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(microwave) > "
        "open(microwave) > release(apple) > close(microwave) > turn_on(microwave)"
    )
    assert "hot" in sim.run(heat).states("apple")
    wash = (
        f"{TO_KITCHEN} > access(bench) > pickup(plate) > access(dishwasher) > "
        "release(plate) > close(dishwasher) > turn_on(dishwasher)"
    )
    assert sim.run(wash).states("plate") >= {"clean"}
    assert "dirty" not in sim.run(wash).states("plate")
    brew = (
        f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(coffee_machine) > "
        "release(mug) > turn_on(coffee_machine)"
    )
    assert sim.run(brew).states("mug") == {"full"}
    # the coffee machine fills mugs only
    brew_apple = (
        f"{TO_KITCHEN} > access(bench) > pickup(apple) > access(coffee_machine) > "
        "release(apple) > turn_on(coffee_machine)"
    )
    assert "full" not in sim.run(brew_apple).states("apple")


def test_step_never_changes_its_input(sim):
    start = sim.initial_state()
    after, failure = sim.step(start, "access(desk)")
    assert failure is None and after.accessed == "desk" and start.accessed is None
    same, failure = sim.step(after, "pickup(soup)")
    assert same is after and failure.cause is Cause.NOT_ACCESSED


def test_done_ends_the_plan(sim):
    result = sim.verify_plan("done > goto(kitchen)")
    assert result.ok and result.executed == 1 and result.final_state.done


def test_steps_after_done_are_listed_as_ignored(sim):
    result = sim.verify_plan("done > goto(kitchen) > access(fridge)")
    assert [str(a) for a in result.ignored] == ["goto(kitchen)", "access(fridge)"]
    assert result.to_dict()["ignored"] == ["goto(kitchen)", "access(fridge)"]
    assert sim.verify_plan("goto(kitchen) > done").ignored == []


def test_run_raises_with_feedback(sim):
    with pytest.raises(PlanExecutionError, match="step 1 goto\\(kitchen\\)"):
        sim.run("goto(kitchen)")


def test_unknown_vocabulary():
    with pytest.raises(BadInputError, match="unknown action vocabulary 'pddl'"):
        get_vocabulary("pddl")


def test_lookplangraph_vocabulary():
    sim = Simulator(kitchen(), LOOKPLANGRAPH)
    ok = sim.verify_plan(
        "go_to(kitchen) > open(fridge) > pick_up(soup) > put_on(bench) > "
        "pick_up(apple) > put_inside(fridge) > look_inside(fridge) > done()"
    )
    assert ok.ok, ok.feedback
    assert ok.final_state.relation("apple") is Relation.INSIDE_OF
    assert fail(sim, "pick_up(mug) > go_to(kitchen) > put_inside(microwave)").cause is (
        Cause.IS_CLOSED
    )
    assert fail(sim, "go_to(kitchen) > pick_up(apple) > put_inside(bench)").cause is (
        Cause.NOT_A_CONTAINER
    )
    assert fail(sim, "go_to(pose1)").cause is Cause.WRONG_KIND
    assert fail(sim, "pick_up(soup)").message == (
        "step 1 pick_up(soup): the agent is at office, not in kitchen where soup is"
    )


def test_describe_actions_lists_the_vocabulary(sim):
    lines = sim.describe_actions()
    assert lines[0].startswith("goto(<x>): ") and lines[-1].startswith("done(): ")


# -- relaxed execution (correctness apart from executability, SayPlan Table 3) ----------


def test_relaxed_run_applies_steps_whose_preconditions_fail(sim):
    # the fridge is never opened and the kitchen is reached without its poses
    plan = "access(desk) > pickup(mug) > goto(kitchen) > access(fridge) > release(mug)"
    assert sim.verify_plan(plan).failure.cause is Cause.NOT_ADJACENT
    relaxed = sim.relaxed_run(plan)
    state = relaxed.final_state
    assert state.agent_at == "kitchen" and state.parent("mug") == "fridge"
    assert state.relation("mug") is Relation.ONTOP_OF  # the fridge stayed closed
    assert [(f.index, f.cause) for f in relaxed.ignored] == [(2, Cause.NOT_ADJACENT)]
    assert relaxed.skipped == []
    opened = sim.relaxed_run(f"{TO_KITCHEN} > access(bench) > pickup(soup)")
    assert opened.final_state.held == ("soup",)
    assert [f.cause for f in opened.ignored] == [Cause.NOT_ACCESSED, Cause.CONTAINER_CLOSED]


@pytest.mark.parametrize(
    ("step", "cause"),
    [
        ("fly(kitchen)", Cause.UNKNOWN_ACTION),
        ("goto(kitchn)", Cause.UNKNOWN_NODE),
        ("goto(desk)", Cause.WRONG_KIND),
        ("access(desk, mug)", Cause.WRONG_ARITY),
        ("turn_on(desk)", Cause.NO_AFFORDANCE),
        ("release(plate)", Cause.NOT_HOLDING),  # the agent holds the mug, not the plate
    ],
)
def test_relaxed_run_skips_steps_it_cannot_apply(sim, step, cause):
    relaxed = sim.relaxed_run(f"access(desk) > pickup(mug) > {step} > goto(pose1)")
    assert [(f.index, f.cause) for f in relaxed.skipped] == [(2, cause)]
    state = relaxed.final_state
    assert state.held == ("mug",) and state.agent_at == "pose1"
    assert state.parent("plate") == "bench" and "on" not in state.states("desk")


def test_relaxed_run_skips_a_release_with_nothing_accessed(sim):
    relaxed = sim.relaxed_run("access(desk) > pickup(mug) > goto(pose1) > release(mug)")
    assert [f.cause for f in relaxed.skipped] == [Cause.NOTHING_ACCESSED]
    assert relaxed.final_state.held == ("mug",)


def test_relaxed_run_of_an_executable_plan_is_the_run(sim):
    plan = f"access(desk) > pickup(mug) > {TO_KITCHEN} > access(coffee_machine) > release(mug)"
    plan += " > turn_on(coffee_machine) > done > goto(pose2)"
    start = sim.initial_state()
    relaxed = sim.relaxed_run(plan, start)
    assert relaxed.ignored == [] and relaxed.skipped == []
    assert relaxed.final_state.changes() == sim.run(plan).changes()
    assert relaxed.final_state.agent_at == "kitchen"  # stopped at done
    assert start.changes() == sim.initial_state().changes()  # the input is not changed
    assert relaxed.to_dict() == {"ignored": [], "skipped": []}


@pytest.mark.parametrize("name", ["sayplan", "lookplangraph", "alfworld"])
def test_the_action_that_ends_a_plan_is_the_vocabularys_one_parameterless_plan_ender(name):
    vocabulary = get_vocabulary(name)
    enders = [s for s in vocabulary.actions.values() if s.ends_plan and not s.params]
    assert [vocabulary.end_schema] == enders
    assert Simulator(kitchen(), vocabulary).end_action().name == enders[0].name


def test_a_vocabulary_without_a_plan_ender_is_refused_by_name():
    kept = {n: s for n, s in SAYPLAN.actions.items() if not s.ends_plan}
    endless = Vocabulary("endless", kept)
    message = "the vocabulary endless has no action that ends a plan"
    with pytest.raises(UnsupportedError, match=message):
        assert endless.end_schema is None
    with pytest.raises(UnsupportedError, match=message):
        Simulator(kitchen(), endless).end_action()
