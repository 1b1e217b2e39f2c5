"""The real SayPlan planner through `sceneplan eval` and `report` on the Office suites and Home.

A scripted model that searches the answer rooms and then answers, or switches
to planning at once and writes the task's reference plan: every stage of the
runner, the planner, the store and the report runs for real, and the numbers
are known.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sayplan_script import expand, plan, switch
from sceneplan.cli import app
from sceneplan.eval.runner import load_tasks

pytestmark = pytest.mark.slow  # a whole SayPlan run

runner = CliRunner()
HOME_TASKS = "home-simple-02,home-complex-01"


def script(scripted_llm, tasks) -> None:
    """Replies solving `tasks` in order (the runner goes task by task at --concurrency 1)."""
    for task in tasks:
        if task.is_search:
            for room in [*task.answer_rooms, *task.must_explore]:
                scripted_llm.enqueue_json(expand(room, find=True))
            scripted_llm.enqueue_json(switch(sorted(task.answers)[: task.needed]))
        else:
            scripted_llm.enqueue_json(switch())
            scripted_llm.enqueue_json(plan(*task.reference_plan))


def table(text: str, heading: str) -> list[str]:
    section = text.split(heading)[1].split("\n#")[0]
    return [line for line in section.splitlines() if line.startswith("| ")][1:]


def test_sayplan_on_office_and_home(scripted_llm, tmp_path):
    model = scripted_llm.model
    db = tmp_path / "sayplan.db"
    office = load_tasks(["office-search", "office-planning"])
    script(scripted_llm, office)
    args = ["eval", "-p", "sayplan", "--llm", model, "--concurrency", "1", "--out", str(db)]
    result = runner.invoke(app, [*args, "-s", "office-search,office-planning"])
    assert result.exit_code == 0, result.output
    assert "60 run(s) stored" in result.stdout and "60 succeeded" in result.stdout

    home = load_tasks(["home-search"], HOME_TASKS.split(","))
    script(scripted_llm, home)
    result = runner.invoke(app, [*args, "-s", "home-search", "--tasks", HOME_TASKS])
    assert result.exit_code == 0, result.output
    assert "2 run(s) stored" in result.stdout and scripted_llm.pending == 0

    report = runner.invoke(app, ["report", str(db)])
    assert report.exit_code == 0, report.output
    text = report.stdout
    assert table(text, "## Semantic search success (SayPlan Table 1)") == [
        "| home | Simple search | 100.0% of 1 | 100.0% of 1 | 100.0% | 0.0% | 86.7% |",
        "| home | Complex search | 100.0% of 1 | 100.0% of 1 | 100.0% | 0.0% | 73.3% |",
        "| office | Simple search | 100.0% of 15 | 100.0% of 15 | 100.0% | 6.6% | 86.7% |",
        "| office | Complex search | 100.0% of 15 | 100.0% of 15 | 100.0% | 0.0% | 73.3% |",
    ]
    causal = table(text, "## Causal planning (SayPlan Table 3)")
    full = " | ".join(["100.0%"] * 6)  # corr, exec, success of simple, then of long horizon
    assert causal[0].startswith(f"| sayplan | {model} | office | {full} | 0.0%")
    assert causal[1].startswith("| SayPlan [paper] | GPT-4 | office | 93.3% | 100.0% | - | 73.3% |")
    [lpg] = [r for r in table(text, "## LookPlanGraph metrics") if "office-planning | sayplan" in r]
    assert lpg.startswith(f"| office-planning | sayplan | {model} | 30 | 1.00 |")
    [office_tokens] = [r for r in table(text, "## Token progression") if "| office |" in r]
    first, *_ = office_tokens.split(" | ")[4].split(", ")
    assert int(first.replace(",", "")) > 100  # the collapsed Office graph, counted for real
