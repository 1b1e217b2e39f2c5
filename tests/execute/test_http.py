"""HttpRobot against a robot server on loopback: a normal run, and each bad input."""

import asyncio
import socket

import pytest
from werkzeug import Response

from sceneplan.datasets.tasks import get_task
from sceneplan.execute import (
    HttpRobot,
    RobotReplyError,
    RobotUnavailableError,
    SimulatedRobot,
    SkillCall,
    execute,
)
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Status
from sceneplan.runs import resolve

TASK = "planning-simple-02"


def run_against(url: str, **kwargs):
    task = get_task(TASK)
    return asyncio.run(execute(get_planner("oracle"), task, robot=url, **kwargs))


def serve_sim(robot_server, faults="none", seed=0):
    robot = SimulatedRobot(resolve(get_task(TASK)).graph, faults, seed)
    robot_server.serve(robot)
    return robot


def test_a_run_through_the_server_reaches_the_goal(robot_server):
    serve_sim(robot_server, "grasp:0.5", seed=7)
    episode = run_against(robot_server.url)
    assert episode.status is Status.SUCCESS and episode.goal_reached
    record = episode.execute
    assert record.robot == "http" and record.judged_in == "belief"
    assert "grasp_failed" in [s.cause for s in episode.steps]
    path, body = robot_server.requests[0]
    assert (path, body) == ("/navigate", {"target": "pose13"})
    placed = [b for p, b in robot_server.requests if p == "/place"]
    assert placed == [{"object": "orange1", "asset": "fridge", "relation": "inside"}]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_server_is_a_clear_error_and_the_episode_is_kept():
    url = f"http://127.0.0.1:{free_port()}"
    episode = run_against(url)
    assert episode.status is Status.ERROR
    assert episode.error.startswith(f"cannot reach the robot server at {url} for navigate(pose13)")
    assert episode.steps == [] and episode.execute.rounds[0].plan


def test_the_robot_error_types_are_sceneplan_errors():
    with pytest.raises(RobotUnavailableError, match="cannot reach the robot server"):
        asyncio.run(HttpRobot(f"http://127.0.0.1:{free_port()}").navigate("kitchen"))


def test_a_server_error_midway_keeps_the_steps_before_it(robot_server):
    serve_sim(robot_server)
    robot_server.tamper(4, lambda reply: Response("overloaded", status=503))
    episode = run_against(robot_server.url)
    assert episode.status is Status.ERROR
    assert "answered navigate(pose24) with HTTP 503: overloaded" in episode.error
    assert len(episode.steps) == 3 and all(s.ok for s in episode.steps)


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda reply: {**reply, "ok": "sure"}, "'ok' must be true or false, got 'sure'"),
        (lambda reply: {"ok": True, "seen": "everything"}, "'seen' must be a list"),
        (lambda reply: Response("<html>", content_type="text/html"), "not JSON ('<html>')"),
    ],
)
def test_a_reply_of_the_wrong_shape_is_a_clear_error(robot_server, tamper, message):
    serve_sim(robot_server)
    robot_server.tamper(2, tamper)
    episode = run_against(robot_server.url)
    assert episode.status is Status.ERROR
    assert episode.error.startswith("robot reply to ")
    assert message in episode.error
    assert len(episode.steps) == 1


def test_an_observation_naming_an_unknown_node_is_a_clear_error(robot_server):
    serve_sim(robot_server)

    def elsewhere(reply):
        reply["seen"][0]["parent"] = "kitchen_bench2"
        return reply

    robot_server.tamper(7, elsewhere)  # arriving in the kitchen
    episode = run_against(robot_server.url)
    assert episode.status is Status.ERROR
    assert "names 'kitchen_bench2', which is not in the scene graph" in episode.error
    assert "did you mean kitchen_bench?" in episode.error
    assert len(episode.steps) == 6


def test_a_new_object_must_say_so(robot_server):
    serve_sim(robot_server)

    def invented(reply):
        reply["seen"].append({"id": "blue_mug", "parent": "kitchen_bench", "relation": "ontop_of"})
        return reply

    robot_server.tamper(7, invented)
    episode = run_against(robot_server.url)
    assert episode.status is Status.ERROR
    assert "'blue_mug', which is not in the scene graph" in episode.error
    assert '"new": true' in episode.error


def test_a_new_object_that_says_so_is_added(robot_server):
    serve_sim(robot_server)

    def detected(reply):
        reply["seen"].append(
            {"id": "blue_mug", "parent": "kitchen_bench", "relation": "ontop_of", "new": True}
        )
        return reply

    robot_server.tamper(7, detected)
    episode = run_against(robot_server.url)
    assert episode.status is Status.SUCCESS
    assert episode.steps[6].added == ["blue_mug"]


def test_a_url_that_is_not_http_is_refused():
    from sceneplan.errors import BadInputError

    with pytest.raises(BadInputError, match="not an http"):
        HttpRobot("ftp://robot")
    with pytest.raises(RobotReplyError):
        from sceneplan.execute import SkillResult

        SkillResult.from_dict({"ok": 1}, SkillCall("navigate", {"target": "x"}))
