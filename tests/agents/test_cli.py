"""`sceneplan mcp`'s options: bad input exits 2 with one line before any server starts; a
task's server with --robot sim and --out executes and stores the agent's run."""

from __future__ import annotations

import sqlite3

import anyio
import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

pytest.importorskip("mcp")

from mcp import Client

from agent_helpers import stdio

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give a scene: --env NAME_OR_FILE, or --task ID"),
        (["--env", "atlantis"], "atlantis"),
        (["--task", "no-such-task"], "unknown task 'no-such-task'"),
        (
            ["--task", "planning-simple-01", "--env", "home"],
            "task planning-simple-01 is set in 'office', not 'home'; leave out --env",
        ),
        (
            ["--env", "office", "--robot", "http://127.0.0.1:9"],
            "--robot http://127.0.0.1:9 is a real robot: add --allow-real-robot",
        ),
        (["--env", "office", "--robot", "r2d2"], "unknown robot 'r2d2'"),
        (["--env", "office", "--allow-real-robot"], "--allow-real-robot goes with --robot URL"),
        (["--env", "office", "--out", "x.db"], "--out stores an agent's run of a task"),
    ],
)
def test_bad_options_exit_2_with_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["mcp", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.db").exists()


@pytest.mark.slow
def test_a_task_server_executes_on_the_simulated_robot_and_stores_the_run(tmp_path):
    store = tmp_path / "runs.db"
    args = ["mcp", "--task", "planning-simple-02", "--robot", "sim", "--out", str(store)]

    async def main() -> tuple:
        async with Client(stdio(*args)) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            solved = await client.call_tool("solve", {})  # the task's own goal
            ran = await client.call_tool("execute", {"plan": solved.structured_content["plan"]})
            return names, solved, ran

    names, solved, ran = anyio.run(main)
    assert "execute" in names
    assert solved.structured_content["goal"] == "inside_of(orange1, fridge) and closed(fridge)"
    execution = ran.structured_content
    assert not ran.is_error and execution["status"] == "success", ran.content[0].text
    assert execution["goal_reached"] is True and execution["record"]["judged_in"] == "truth"
    assert all(step["ok"] for step in execution["steps"])
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT task_id, planner, status, executable FROM episodes").fetchall()
    assert rows == [("planning-simple-02", "mcp-agent", "success", 1)]
