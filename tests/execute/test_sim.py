"""SimulatedRobot: skills run by the simulator, and each fault kind, seeded."""

import asyncio

from sceneplan.datasets import load_environment
from sceneplan.execute import Reason, SimulatedRobot
from sceneplan.graph.model import Relation
from scenes import kitchen


def run(coro):
    return asyncio.run(coro)


def test_skills_act_in_the_true_world_and_report_what_was_seen():
    robot = SimulatedRobot(load_environment("coffee"))
    arrived = run(robot.navigate("bobs_room"))
    assert arrived.ok and arrived.at == "bobs_room"
    assert ("wardrobe1", Relation.ONTOP_OF) in arrived.surfaces
    assert arrived.states["wardrobe1"] == ["closed"]
    assert run(robot.access("wardrobe1")).ok
    closed = run(robot.pick("coffee_mug"))
    assert (closed.ok, closed.reason) == (False, Reason.CLOSED)
    opened = run(robot.open("wardrobe1"))
    assert opened.ok and "coffee_mug" in {s.id for s in opened.seen}
    assert run(robot.pick("coffee_mug")).holding == "coffee_mug"
    placed = run(robot.place("coffee_mug", "wardrobe1", "on"))
    assert placed.ok and robot.truth.relation("coffee_mug") is Relation.ONTOP_OF


def test_a_pick_where_the_object_is_not_says_not_found_without_telling_where_it_is():
    robot = SimulatedRobot(kitchen())
    run(robot.access("desk"))
    result = run(robot.pick("apple"))
    assert (result.reason, result.message) == (Reason.NOT_FOUND, "apple is not at desk")


def test_grasp_faults_leave_the_object_where_it_was():
    robot = SimulatedRobot(kitchen(), "grasp:1")
    run(robot.access("desk"))
    result = run(robot.pick("mug"))
    assert result.reason is Reason.GRASP_FAILED and not robot.truth.held
    assert robot.injected == [{"kind": "grasp", "node": "mug", "call": 2}]
    assert [s.id for s in result.seen] == ["mug"]


def test_moved_faults_happen_once_per_room_before_the_robot_first_arrives():
    graph = load_environment("office")
    robot = SimulatedRobot(graph, "moved:1", seed=3)
    run(robot.navigate("kitchen"))
    moved = [f for f in robot.injected if f["kind"] == "moved"]
    assert moved and all(graph.room_of(f["to"]) == "kitchen" for f in moved)
    assert all(robot.truth.parent(f["node"]) == f["to"] for f in moved)
    arrived = run(robot.navigate("kitchen"))
    assert len(robot.injected) == len(moved)  # no second draw
    seen = {s.id: s.parent for s in arrived.seen}
    assert all(seen[f["node"]] == f["to"] for f in moved)


def test_the_same_seed_draws_the_same_faults():
    def faults(seed):
        robot = SimulatedRobot(load_environment("office"), "moved:0.3", seed=seed)
        run(robot.navigate("kitchen"))
        return robot.injected

    assert faults(7) == faults(7)
    assert faults(7) != faults(8)


def test_a_stuck_container_stays_shut():
    robot = SimulatedRobot(load_environment("coffee"))
    robot.force("stuck", "wardrobe1")
    run(robot.navigate("bobs_room"))
    run(robot.access("wardrobe1"))
    for _ in range(2):
        result = run(robot.open("wardrobe1"))
        assert (result.ok, result.reason) == (False, Reason.STUCK)
        assert result.states["wardrobe1"] == ["closed"]


def test_a_blocked_room_stops_the_robot_before_its_door():
    robot = SimulatedRobot(kitchen(), "blocked:1")
    result = run(robot.navigate("kitchen"))
    assert (result.ok, result.reason, result.node) == (False, Reason.BLOCKED, "kitchen")
    assert result.at == robot.truth.agent_at == "pose2"
    assert robot.injected == [{"kind": "blocked", "node": "kitchen", "call": 1}]
