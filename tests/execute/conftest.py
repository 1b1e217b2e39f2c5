"""Scenes and a loopback robot server for the executor tests."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sceneplan.execute import SimulatedRobot, SkillCall
from sceneplan.graph import SceneGraph, from_dict
from scenes import node


def loop_dict() -> dict:
    """Four rooms on a ring: start -- hall_a -- store and start -- hall_b -- store.

    hall_a is on the shorter way, so a plan from start to the store goes
    through it; blocking hall_a leaves the way through hall_b.
    """
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "ring",
        "nodes": [
            node("start", "room", position=[0.0, 0.0]),
            node("hall_a", "room", position=[5.0, 1.0]),
            node("hall_b", "room", position=[5.0, -4.0]),
            node("store", "room", position=[10.0, 0.0]),
            node("p1", "pose", position=[2.5, 0.5]),
            node("p2", "pose", position=[7.5, 0.5]),
            node("p3", "pose", position=[2.5, -2.0]),
            node("p4", "pose", position=[7.5, -2.0]),
            node("desk", "asset", "start", affordances=["release"]),
            node("shelf", "asset", "store", affordances=["release"]),
            node("table", "asset", "store", affordances=["release"]),
            node("bench", "asset", "hall_b", affordances=["release"]),
            node("locker", "asset", "hall_b", affordances=["open", "close", "release"]),
            node("box", "object", "shelf", relation="ontop_of", affordances=["pickup"]),
            node("agent", "agent", "start"),
        ],
        "links": [
            ["start", "p1"],
            ["p1", "hall_a"],
            ["hall_a", "p2"],
            ["p2", "store"],
            ["start", "p3"],
            ["p3", "hall_b"],
            ["hall_b", "p4"],
            ["p4", "store"],
        ],
    }


@pytest.fixture
def ring() -> SceneGraph:
    return from_dict(loop_dict(), "ring")


class RobotServer:
    """A robot server on loopback: a SimulatedRobot behind the JSON protocol.

    `tamper(n, fn)` rewrites the reply to the n-th call (1-based) with `fn(reply)`;
    `requests` holds (path, body) of every call.
    """

    def __init__(self, httpserver: HTTPServer) -> None:
        self.httpserver = httpserver
        self.robot: SimulatedRobot | None = None
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._tamper: dict[int, Callable[[dict], Any]] = {}
        httpserver.expect_request(re.compile(r"^/\w+$"), method="POST").respond_with_handler(
            self._handle
        )

    @property
    def url(self) -> str:
        return self.httpserver.url_for("/").rstrip("/")

    def serve(self, robot: SimulatedRobot) -> None:
        self.robot = robot

    def tamper(self, call: int, fn: Callable[[dict], Any]) -> None:
        self._tamper[call] = fn

    def _handle(self, request: Request) -> Response:
        assert self.robot is not None, "serve(robot) first"
        skill = request.path.strip("/")
        body = json.loads(request.data or b"{}")
        self.requests.append((request.path, body))
        result = asyncio.run(self.robot.perform(SkillCall(skill, body)))
        reply: Any = result.to_dict()
        fn = self._tamper.get(len(self.requests))
        if fn is not None:
            reply = fn(reply)
        if isinstance(reply, Response):
            return reply
        return Response(json.dumps(reply), content_type="application/json")


@pytest.fixture
def robot_server(httpserver: HTTPServer) -> RobotServer:
    return RobotServer(httpserver)
