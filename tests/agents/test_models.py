"""The tools' output models have the fields the CLI's `--json` prints for the same thing."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sceneplan.agents.models import Solution, Verdict, View
from sceneplan.agents.session import AgentSession
from sceneplan.cli import app
from sceneplan.runs import resolve

runner = CliRunner()
PLAN = "goto(kitchen) > access(fridge) > pickup(coffee_mug) > done()"


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_a_verdict_is_sceneplan_verify_json_with_its_feedback():
    printed = cli_json("verify", "office", PLAN)
    verdict = AgentSession(resolve("", "office")).verify_plan(PLAN)
    assert set(Verdict.model_fields) == set(printed) | {"feedback"}
    assert verdict.model_dump(exclude={"feedback"}) == printed
    assert verdict.feedback == printed["failure"]["message"]


def test_a_solution_is_sceneplan_solve_json_with_a_reason():
    printed = cli_json("solve", "office", "--goal", "full(coffee_mug)")
    solution = AgentSession(resolve("", "office")).solve("full(coffee_mug)")
    assert set(Solution.model_fields) == set(printed) | {"reason"}
    timings = {"grounding_s", "search_s", "validation_s", "stats"}
    solved = solution.model_dump(exclude=timings | {"reason", "verification"})
    assert solved == {k: v for k, v in printed.items() if k not in timings | {"verification"}}
    assert solution.verification.model_dump(exclude={"feedback"}) == printed["verification"]


def test_a_view_is_sceneplan_graph_show_json_with_a_message():
    printed = cli_json("graph", "show", "office", "--expand", "kitchen")
    session = AgentSession(resolve("", "office"))
    view = session.expand("kitchen")
    assert set(View.model_fields) == set(printed) | {"message"}
    # the CLI's view starts from the rooms; the agent's from the planners' initial view,
    # which is the rooms view for the Office graph
    assert view.model_dump(exclude={"message"}) == printed
