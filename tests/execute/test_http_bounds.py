"""The robot protocol bounds what it accepts: bytes, time, depth, objects per reply."""

from __future__ import annotations

import asyncio
import resource

import pytest
from werkzeug import Response

from endless_http import misbehaving_server
from sceneplan.errors import BadInputError
from sceneplan.execute import HttpRobot, RobotReplyError, RobotUnavailableError
from sceneplan.execute.http import MAX_REPLY_BYTES
from sceneplan.execute.skills import MAX_ITEMS, SkillResult


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_body_that_never_ends_stops_at_the_byte_limit():
    before = _peak_mb()
    with (
        misbehaving_server("endless") as url,
        pytest.raises(RobotReplyError, match=r"sent a body of more than 64 MiB"),
    ):
        asyncio.run(HttpRobot(url, timeout=30).navigate("kitchen"))
    assert _peak_mb() - before < 4 * MAX_REPLY_BYTES / 2**20  # read in chunks, then refused


@pytest.mark.slow
def test_a_body_that_trickles_stops_at_the_timeout():
    with (
        misbehaving_server("trickle") as url,
        pytest.raises(RobotReplyError, match=r"still sending its body after 0.5 s"),
    ):
        asyncio.run(HttpRobot(url, timeout=0.5).navigate("kitchen"))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"ok": true, "n": ' + b"9" * 5000 + b"}", "a number of more than 4,300 digits"),
    ],
)
def test_a_reply_nested_deeply_or_with_a_huge_number_is_a_reply_error(body, message):
    with misbehaving_server("body", body) as url, pytest.raises(RobotReplyError, match=message):
        asyncio.run(HttpRobot(url).navigate("kitchen"))


@pytest.mark.parametrize(
    "url", ["http://[::1", "http://robot:99999", "http://robot:port", "http://"]
)
def test_a_robot_url_that_cannot_be_is_bad_input(url):
    with pytest.raises(BadInputError, match="the robot URL"):
        HttpRobot(url)


def test_a_reply_listing_more_objects_than_the_limit_is_refused():
    seen = [{"id": f"o{i}", "parent": "table"} for i in range(MAX_ITEMS + 1)]
    with pytest.raises(RobotReplyError, match=r"'seen' lists 100,001 items, more than"):
        SkillResult.from_dict({"ok": True, "seen": seen})


def test_an_endless_http_error_body_is_not_read_to_its_end(httpserver):
    def endless():
        while True:
            yield b"x" * 65536

    httpserver.expect_request("/navigate").respond_with_response(Response(endless(), status=500))
    with pytest.raises(RobotUnavailableError, match=r"HTTP 500: x{10}"):
        asyncio.run(HttpRobot(httpserver.url_for("/").rstrip("/")).navigate("kitchen"))


@pytest.mark.parametrize("relation", [[], {}, ["on"]])
def test_a_relation_that_is_not_a_word_is_a_reply_error(relation):
    """Found by tests/test_fuzz_readers.py: an unhashable relation was a TypeError."""
    reply = {"ok": True, "surfaces": [{"asset": "table", "relation": relation}]}
    with pytest.raises(RobotReplyError, match="'relation' must be one of ontop_of, inside_of"):
        SkillResult.from_dict(reply)
