"""The packaged suite: 134 tasks, ALFWorld's names, and the oracle solving each task type."""

from collections import Counter

import pytest

from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task, load_suite
from sceneplan.planners import Status
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import ALFWORLD

# One task of each ALFWorld type (clean tasks fall back to the full scope: a few seconds).
SAMPLE = ["alfworld-pick-01", "alfworld-look-01", "alfworld-clean-01", "alfworld-heat-01"]
SAMPLE += ["alfworld-cool-01", "alfworld-pick2-01"]


def test_the_suite_holds_alfworlds_134_tasks_by_type():
    tasks = load_suite("alfworld-valid-unseen")
    assert len(tasks) == 134 and len({t.id for t in tasks}) == 134
    assert Counter(t.note for t in tasks) == {
        "pick_and_place_simple": 24,
        "pick_clean_then_place_in_recep": 31,
        "pick_heat_then_place_in_recep": 23,
        "pick_cool_then_place_in_recep": 21,
        "look_at_obj_in_light": 18,
        "pick_two_obj_and_place": 17,
    }
    look = get_task("alfworld-look-01")
    assert look.instruction == "examine the alarmclock with the desklamp."
    assert look.goal == (
        "exists ot in desklamp: exists o in alarmclock: (on(ot) and agent_near(ot) and held(o))"
    )


def test_a_world_is_one_room_of_receptacles_named_as_alfworld_names_them():
    graph = load_environment("alfworld-look-01")
    assets = {n.id for n in graph if n.kind.value == "asset"}
    assert {"desk_1", "desk_2", "bed_1", "safe_1", "drawer_6"} <= assets
    assert (
        graph.nodes["safe_1"].state == ("closed",) and "open" in graph.nodes["safe_1"].affordances
    )
    lamp = graph.nodes["desklamp_1"]
    assert lamp.state == ("off",) and "toggle" in lamp.affordances
    assert graph.nodes["alarmclock_1"].parent == "desk_2"  # (inReceptacle AlarmClock Desk)
    assert "holds_alarmclock" in graph.nodes["desk_2"].attributes
    assert "holds_alarmclock" not in graph.nodes["garbagecan_1"].attributes


def test_put_respects_the_cancontain_table_and_open_receptacles():
    sim = Simulator(load_environment("alfworld-look-01"), ALFWORLD)
    state = sim.run("go_to(bed_1) > take(cellphone_1, bed_1) > go_to(safe_1)")
    assert sim.check(state, "put(cellphone_1, safe_1)").cause == "alfworld_receptacle_closed"
    assert sim.check(sim.run("open(safe_1)", state), "put(cellphone_1, safe_1)") is None
    failure = sim.check(sim.run("go_to(garbagecan_1)", state), "put(cellphone_1, garbagecan_1)")
    assert failure.cause == "alfworld_no_fit" and "a garbagecan cannot hold" in failure.reason
    assert sim.check(state, "take(laptop_1, bed_1)").cause == "hand_full"
    assert sim.check(state, "take(pen_1, drawer_3)").cause == "hand_full"
    assert sim.check(sim.run("go_to(drawer_3)"), "take(pen_2, drawer_3)").cause == "alfworld_not_in"


@pytest.mark.parametrize("task_id", SAMPLE)
def test_the_oracle_solves_every_task_type_and_its_plan_runs(task_id):
    episode = runs.plan("oracle", get_task(task_id))
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert episode.executable and episode.goal_reached
    graph = load_environment(task_id)
    verification = Simulator(graph, ALFWORLD).verify_plan(episode.plan)
    assert verification.ok and episode.plan[0].startswith("go_to(")
