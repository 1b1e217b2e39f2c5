"""A scripted agent (the mcp SDK's client following a fixed script) plans tasks through the
tools; its runs are stored as the planner `mcp-agent`'s and `sceneplan report` scores them."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import anyio
import pytest
from typer.testing import CliRunner

pytest.importorskip("mcp")

from mcp import Client

from sceneplan.agents.server import build_server
from sceneplan.agents.session import PLANNER, AgentSession
from sceneplan.cli import app
from sceneplan.datasets.tasks import get_task, load_suite
from sceneplan.runs import resolve

runner = CliRunner()


async def scripted_agent(client: Client) -> list[str]:
    """Read the task, look at the graph, ask the planner, open the rooms the plan visits,
    then verify the plan as an agent writes it (rooms only, done() at the end). The tools
    called, in order."""
    task = json.loads((await client.read_resource("sceneplan://task")).contents[0].text)
    called = ["graph_view"]
    await client.call_tool("graph_view", {})
    solved = (await client.call_tool("solve", {"goal": task["goal"]})).structured_content
    called.append("solve")
    rooms = [a[5:-1] for a in solved["plan"] if a.startswith("goto(") and "pose" not in a]
    for room in dict.fromkeys(rooms):
        await client.call_tool("expand", {"node": room})
        called.append("expand")
    plan = [a for a in solved["plan"] if not a.startswith("goto(pose")] + ["done()"]
    verdict = (await client.call_tool("verify_plan", {"plan": plan})).structured_content
    called.append("verify_plan")
    assert verdict["ok"], verdict["feedback"]
    return called


def run_agent(session: AgentSession) -> list[str]:
    async def main() -> list[str]:
        async with Client(build_server(session)) as client:
            return await scripted_agent(client)

    return anyio.run(main)


@pytest.mark.slow
def test_a_scripted_agent_solves_five_office_tasks_and_report_scores_them(tmp_path):
    store = tmp_path / "agent.db"
    tasks = load_suite("office-planning")[:5]
    for task in tasks:
        session = AgentSession(resolve(task), model="scripted", store=str(store))
        called = run_agent(session)
        session.close()
        episode = session.episode()
        assert [c["tool"] for c in episode.mcp.calls] == called
        assert episode.success and episode.goal_reached and episode.executable, task.id
        assert episode.explored == [t.node for t in episode.search]  # every room expanded

    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT task_id, planner, model, status FROM episodes").fetchall()
    assert sorted(rows) == [(t.id, PLANNER, "scripted", "success") for t in tasks]

    report = runner.invoke(app, ["report", str(store), "--format", "json"])
    assert report.exit_code == 0, report.output
    rows = json.loads(report.stdout)["metrics"]
    scored = [r for table in rows.values() for r in table if r.get("planner") == PLANNER]
    assert scored, rows.keys()
    planning = next(r for r in scored if r.get("family") == "simple_planning")
    assert planning["n"] == 5 and planning["success"] == 1.0, planning


def test_every_call_is_recorded_refused_ones_too(tmp_path):
    session = AgentSession(resolve(get_task("planning-simple-01")), store=str(tmp_path / "one.db"))

    async def main() -> list[Any]:
        async with Client(build_server(session)) as client:
            return [
                await client.call_tool("expand", {"node": "jasons_office"}),
                await client.call_tool("expand", {"node": 7}),
                await client.call_tool("verify_plan", {"plan": "goto(jasons_office) > done()"}),
            ]

    anyio.run(main)
    episode = session.episode()
    calls = episode.mcp.calls
    assert [(c["tool"], c["ok"]) for c in calls] == [
        ("expand", True),
        ("expand", False),
        ("verify_plan", True),  # a verdict (not executable is not an error)
    ]
    assert "valid string" in calls[1]["result"]
    assert [t.node for t in episode.search] == ["jasons_office"]
    assert [c.op for c in episode.sim_calls] == ["expand", "verify"]
    # the plan reaches no goal: judged as every planner's run is
    assert episode.executable and episode.goal_reached is False and not episode.success
    assert episode.error_type is not None


def test_execute_on_a_real_robot_says_so_and_an_unreachable_one_is_an_error_in_the_record():
    session = AgentSession(resolve(get_task("planning-simple-01")), robot="http://127.0.0.1:9")
    plan = "goto(jasons_office) > access(cabinet5) > close(cabinet5) > done()"

    async def main() -> tuple[Any, Any, Any]:
        async with Client(build_server(session)) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            ran = await client.call_tool("execute", {"plan": plan})
            after = await client.call_tool("graph_view", {})
            return tools["execute"], ran, after

    tool, ran, after = anyio.run(main)
    assert "The robot is REAL" in (tool.description or "")
    assert tool.annotations.destructive_hint and tool.annotations.open_world_hint
    execution = ran.structured_content
    assert execution["status"] == "error" and execution["goal_reached"] is False
    assert execution["error"].startswith("cannot reach the robot server at http://127.0.0.1:9")
    assert not after.is_error  # the server goes on
    assert session.episode().status.value == "error"
