"""Bad inputs of issue 26 (hardening, round two): one message and exit 2 for each.

Every row is a file or value a new user tried, written into a scratch folder
by `FILES`; each asserts the exit status, that no traceback is shown, and a
message naming the problem.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "two_rooms.json"
DEEP = "too deeply (more than about 1,000 levels"
HUGE = "99999999999999999999"
EVAL = [
    "eval",
    "-s",
    "office-planning",
    "-t",
    "planning-simple-02",
    "-p",
    "oracle",
    "--out",
    "r.db",
]
PLAN = ["plan", "-t", "planning-simple-02", "-p", "oracle"]


def _nested_graph(depth: int) -> str:
    data = json.loads(EXAMPLE.read_text())
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    data["description"] = value
    return json.dumps(data)


def _truncated_gz() -> bytes:
    packed = gzip.compress(json.dumps({"pddl_problem": "x" * 500, "grammar": "y"}).encode())
    return packed[: len(packed) // 2]


def _graph_without(*kinds: str) -> str:
    data = json.loads(EXAMPLE.read_text())
    data["nodes"] = [n for n in data["nodes"] if n["kind"] not in kinds]
    data["links"] = [] if "room" in kinds else data["links"]
    return json.dumps(data)


def _episode(**changes) -> str:
    data = {"planner": "oracle", "model": "none", "environment": "office", "instruction": "x"}
    data["steps"] = [{"index": 0, "action": "go_to(kitchen)", "executed": None, "ok": True}]
    return json.dumps(data | changes)


# name -> content (str or bytes)
FILES = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "deep.yaml": "[" * 50_000 + "]" * 50_000,
    "deep_description.json": _nested_graph(900),
    "binary.yaml": bytes(range(256)) * 4,
    "vh_empty.json": '{"nodes": [], "edges": []}',
    "truncated.json.gz": _truncated_gz(),
    "no_agent.json": _graph_without("agent"),
    "no_nodes.json": _graph_without("room", "pose", "asset", "object", "agent"),
    "ep_steps.json": _episode(steps=["oops"]),
    "ep_index.json": _episode(
        steps=[{"index": "zero", "action": "go_to(kitchen)", "executed": None, "ok": True}]
    ),
    "ep_status.json": _episode(status="great"),
    "ep_calls.json": _episode(llm_calls={"a": 1}),
}

ROWS = [
    (["graph", "check", "deep.json"], "deep.json: nested " + DEEP),
    (["graph", "stats", "deep.json"], DEEP),
    (["verify", "deep.json", "done()"], DEEP),
    (["verify", "two_rooms.json", "@deep.json"], DEEP),
    (["view", "deep.json", "-o", "v.html"], DEEP),
    (["view", "--episode", "deep.json", "-o", "v.html"], DEEP),
    (["tasks", "check", "deep.yaml"], "deep.yaml: nested " + DEEP.replace("JSON", "YAML")),
    (["graph", "check", "deep_description.json"], "must be a string, found {'a': {'a'"),
    (["tasks", "check", "binary.yaml"], "binary.yaml: not UTF-8 text (byte 128)"),
    (
        ["graph", "import", "--from", "virtualhome", "vh_empty.json", "out.json"],
        "vh_empty.json: the VirtualHome graph has no rooms",
    ),
    (
        ["graph", "import", "--from", "alfworld", "truncated.json.gz", "out.json"],
        "truncated.json.gz: a damaged or truncated gzip file",
    ),
    (["graph", "stats", ""], "the environment is empty; give a packaged environment name"),
    (["graph", "check", "."], "cannot read scene graph file .: it is a directory, not a file"),
    # one notion of a valid graph: what planning needs
    (["graph", "check", "no_agent.json"], "1 problem(s) in the scene graph - no agent: planning"),
    (["graph", "check", "no_nodes.json"], "- no room: a scene graph needs at least one node"),
    (["verify", "no_agent.json", "done()"], "this scene graph has no agent node"),
    # options checked before any run; commands that cannot apply to a task
    ([*EVAL, "--robot", "bogus"], "unknown robot 'bogus': give 'sim' or a robot server's URL"),
    (
        ["execute", "--task", "office-simple-01", "-p", "oracle"],
        "task 'office-simple-01' is a search task",
    ),
    # a malformed episode names its field
    (["view", "--episode", "ep_steps.json"], "field 'steps[0]': input should be a dictionary"),
    (["view", "--episode", "ep_index.json"], "field 'steps[0].index': input should be a valid"),
    (["view", "--episode", "ep_status.json"], "field 'status': input should be 'success'"),
    (["view", "--episode", "ep_calls.json"], "field 'llm_calls': input should be a valid list"),
    (["eval", "-s", "office-planning", "-t", "", "-p", "oracle"], "--tasks is empty; give one"),
    # a path the system refuses where no check words it: the path and the reason
    (["tasks", "check", "a" * 300 + ".yaml"], ".yaml: file name too long"),
    # every count option bounded (a 20-digit --runs built its job list until killed)
    ([*EVAL, "--runs", HUGE], "Invalid value for '--runs': Input should be less than or equal"),
    ([*EVAL, "--concurrency", HUGE], "Invalid value for '--concurrency'"),
    ([*EVAL, "--stop-after", HUGE], "Invalid value for '--stop-after'"),
    ([*EVAL, "--robot", "sim", "--seed", HUGE], "Invalid value for '--seed'"),
    ([*PLAN, "--max-turns", HUGE], "Invalid value for '--max-turns'"),
    ([*PLAN, "--max-replans", HUGE], "Invalid value for '--max-replans'"),
    ([*PLAN, "--max-steps", HUGE], "Invalid value for '--max-steps'"),
    (["execute", "--task", "planning-simple-02", "--max-replans", HUGE], "'--max-replans'"),
    (["execute", "--task", "planning-simple-02", "--seed", HUGE], "Invalid value for '--seed'"),
    (["view", "--store", "r.db", "--run", HUGE], "Invalid value for '--run'"),
]


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    for name, content in FILES.items():
        path = tmp_path / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    (tmp_path / "two_rooms.json").write_text(EXAMPLE.read_text())
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("args", "message"), ROWS, ids=[" ".join(r[0])[:60] for r in ROWS])
@pytest.mark.slow
def test_bad_input(scratch, args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in " ".join(result.output.split())
    assert not (scratch / "out.json").exists()
    assert not (scratch / "r.db").exists()
