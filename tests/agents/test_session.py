"""An agent's session without a server: the tools' outputs have the fields the CLI's `--json`
prints for the same thing, and a search task's answer is judged as a planner's."""

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


def test_a_search_task_is_judged_on_the_answer_and_the_rooms_expanded():
    from sceneplan.datasets.tasks import get_task

    task = get_task("office-simple-02")  # the carrot, in the kitchen fridge
    guessed = AgentSession(resolve(task))
    assert guessed.answer(["carrot", "unicorn"]).unknown == ["unicorn"]
    guessed.answer(["carrot"])
    lucky = guessed.episode()  # right without looking: not found by search
    assert lucky.answer_correct and lucky.answer_room_explored is False

    searched = AgentSession(resolve(task))
    searched.expand("kitchen")
    searched.answer(["carrot"])
    episode = searched.episode()
    assert episode.success and episode.answer_correct and episode.answer_room_explored
    assert episode.explored == ["kitchen"] and episode.search[0].ok
