"""`sceneplan mcp --env office` as a subprocess, driven by the mcp SDK's own clients.

One server per transport: stdio (the client starts the command) and streamable HTTP on a
free loopback port, shared by the module's HTTP tests.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, MCPError

from agent_helpers import command, free_port, stdio

TOOLS = {"graph_view", "expand", "contract", "find", "verify_plan", "solve", "check_goal", "answer"}
WRONG_PLAN = "goto(kitchen) > access(fridge) > pickup(coffee_mug) > done()"


async def scenario(client: Client) -> None:
    """The issue's exchange: list the tools, expand the kitchen, verify a wrong plan and a
    right one, solve full(coffee_mug)."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == TOOLS  # no robot: no execute
    assert tools["verify_plan"].output_schema["title"] == "Verdict"

    view = (await client.call_tool("expand", {"node": "kitchen"})).structured_content
    assert view["message"] == "expand(kitchen) done: it shows 37 node(s)"
    assert "kitchen" in view["memory"] and "fridge" in str(view["view"]["nodes"]["asset"])

    wrong = await client.call_tool("verify_plan", {"plan": WRONG_PLAN})
    verdict = wrong.structured_content
    assert not wrong.is_error and verdict["ok"] is False
    # the failing step and why, counted in the plan with the path planner's poses
    assert verdict["failure"]["action"] == "pickup(coffee_mug)"
    assert verdict["feedback"].startswith("step 8 pickup(coffee_mug): coffee_mug is at desk1")
    assert verdict["plan"][0].startswith("goto(pose")  # the poses filled in

    solved = (await client.call_tool("solve", {"goal": "full(coffee_mug)"})).structured_content
    assert solved["status"] == "plan" and solved["goal_reached"] is True
    assert solved["verification"]["ok"] is True

    right = [a for a in solved["plan"] if not a.startswith("goto(pose")] + ["done()"]
    good = (await client.call_tool("verify_plan", {"plan": right})).structured_content
    assert good["ok"] is True and good["feedback"] == "plan verified"
    check = await client.call_tool("check_goal", {"goal": "full(coffee_mug)", "plan": right})
    assert check.structured_content["holds"] is True

    contracted = (await client.call_tool("contract", {"node": "kitchen"})).structured_content
    assert contracted["memory"] == view["memory"] and contracted["tokens"] < view["tokens"]


@pytest.mark.slow
def test_stdio():
    async def main() -> None:
        async with Client(stdio("mcp", "-e", "office")) as client:
            await scenario(client)

    anyio.run(main)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [*command(), "mcp", "--env", "office", "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                assert time.monotonic() < deadline, "the server did not start in 60 s"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def call(url: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Call tools in order on one connection; their results."""

    async def main() -> list[Any]:
        async with Client(url) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


@pytest.mark.slow
def test_http(url):
    async def main() -> None:
        async with Client(url) as client:
            await scenario(client)

    anyio.run(main)


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("expand", {"node": "nowhere"}, "unknown node 'nowhere'"),
    ("expand", {"node": "coffee_mug"}, "cannot expand 'coffee_mug': it is an object"),
    ("contract", {"node": "pose1"}, "pose1"),
    ("expand", {"node": 3}, "valid string"),
    ("expand", {}, "Field required"),
    ("expand", {"node": "x" * 100_000}, "at most 200 characters"),
    ("expand", {"node": ""}, "at least 1 character"),
    ("verify_plan", {"plan": ""}, "the plan is empty"),
    ("verify_plan", {"plan": "goto(kitchen"}, "cannot parse action 'goto(kitchen'"),
    ("verify_plan", {"plan": ["goto(kitchen)", "done("]}, "cannot parse action 'done('"),
    ("verify_plan", {"plan": "a" * 30_000}, "at most 20000"),
    ("verify_plan", {"plan": {"steps": 1}}, "valid"),
    ("verify_plan", {"plan": [1, 2]}, "valid string"),
    ("solve", {"goal": "full(unicorn)"}, "unknown node 'unicorn'"),
    ("solve", {"goal": "fullest(coffee_mug)"}, "unknown predicate 'fullest'"),
    ("solve", {"goal": "and(("}, "goal 'and((': expected a predicate"),
    ("solve", {}, "has no task goal"),
    ("solve", {"goal": "full(coffee_mug)", "timeout": -1}, "greater than 0"),
    ("solve", {"goal": "full(coffee_mug)", "timeout": "soon"}, "valid number"),
    ("solve", {"goal": "g" * 5_000}, "at most 4000 characters"),
    ("check_goal", {"goal": "closed(nothing)"}, "nothing"),
    ("check_goal", {"goal": "closed(fridge)", "plan": "pickup(fridge"}, "cannot parse"),
    ("expand", {"node": None}, "valid string"),
    ("find", {"query": ["mug"]}, "valid string"),
    ("find", {"query": ""}, "at least 1 character"),
    ("find", {"query": "   "}, "find needs a name"),
    ("find", {"query": "mug", "kind": "dragon"}, "unknown node kind 'dragon'"),
    ("answer", {"nodes": "kitchen"}, "valid list"),
    ("execute", {}, "Unknown tool: execute"),  # offered only with --robot
    ("teleport", {"to": "moon"}, "Unknown tool: teleport"),
]


def test_malformed_calls_are_tool_errors_and_the_server_keeps_serving(url):
    calls = [(name, args) for name, args, _ in MALFORMED]
    calls = (calls * 2)[:50]
    results = call(url, *calls, ("find", {"query": "coffee_machine"}))
    *bad, good = results
    for (name, args), result in zip(calls, bad, strict=True):
        expected = next(text for n, a, text in MALFORMED if (n, a) == (name, args))
        assert result.is_error, (name, args)
        assert expected in result.content[0].text, (name, args, result.content[0].text)
    assert not good.is_error
    assert [m["id"] for m in good.structured_content["matches"]] == ["coffee_machine"]


def test_resources_and_prompt(url):
    async def main() -> tuple[Any, ...]:
        async with Client(url) as client:
            envs = await client.read_resource("sceneplan://environments")
            task = await client.read_resource("sceneplan://tasks/planning-simple-02")
            prompt = await client.get_prompt("sayplan_agent", {"instruction": "Make coffee."})
            with pytest.raises(MCPError, match="unknown task 'nope'"):
                await client.read_resource("sceneplan://tasks/nope")
            suite = await client.read_resource("sceneplan://suites/office-planning")
            return envs, task, prompt, suite

    envs, task, prompt, suite = anyio.run(main)
    assert len(json.loads(suite.contents[0].text)) == 30
    assert "office" in envs.contents[0].text
    text = task.contents[0].text
    assert '"goal": "inside_of(orange, fridge)"' in text or "orange" in text
    assert "reference_plan" not in text  # an agent is not given the answer
    words = prompt.messages[0].content.text
    assert "Instruction: Make coffee." in words and "verify_plan" in words
    assert "- access(<a>)" in words


def test_a_plan_the_simulator_refuses_is_a_verdict_not_an_error(url):
    unknown, nowhere = call(
        url,
        ("verify_plan", {"plan": "fly(kitchen) > done()"}),
        ("verify_plan", {"plan": "goto(moon) > done()"}),
    )
    assert not unknown.is_error and not nowhere.is_error  # as `sceneplan verify`: exit 1, not 2
    assert "'fly' is not an action" in unknown.structured_content["feedback"]
    assert nowhere.structured_content["feedback"] == (
        "step 1 goto(moon): there is no node called 'moon' in the scene graph"
    )
