"""A store written before the typed run records reports as it did (data/old_store/README.md).

The store's Episodes keep their records (the executor's, LookPlanGraph's view and
corrections, SCLPlan's metrics, eval's facts...) in the JSON form the old code wrote;
today's code reads them into typed records, and `report` prints the same figures.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.eval.store import Store
from sceneplan.planners.episode import Episode
from sceneplan.planners.records import EvalFacts, ExecutionRecord

DATA = Path(__file__).parent / "data" / "old_store"
runner = CliRunner()


@pytest.fixture(scope="module")
def old_store(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("old") / "store.db"
    with gzip.open(DATA / "store.db.gz") as packed, path.open("wb") as out:
        shutil.copyfileobj(packed, out)
    return path


def test_the_report_of_an_old_store_is_the_one_the_old_code_printed(old_store):
    """The same figures; the section on failed runs (`failures`) is new since."""
    result = runner.invoke(app, ["report", str(old_store), "--format", "json"])
    assert result.exit_code == 0, result.output
    report, before = json.loads(result.stdout), json.loads((DATA / "report.json").read_text())
    assert report["published"] == before["published"]
    assert {k: v for k, v in report["metrics"].items() if k != "failures"} == before["metrics"]
    result = runner.invoke(app, ["report", str(old_store)])
    assert result.exit_code == 0, result.output
    shown = result.stdout.replace(str(old_store), old_store.name, 1)  # the title names it
    new, sources = shown.split("\n\n## Runs that did not succeed\n\n")
    assert new + "\n\n" + sources.split("\n\n", 1)[1] == (DATA / "report.md").read_text()


def test_the_report_says_why_each_failed_run_failed(old_store):
    result = runner.invoke(app, ["report", str(old_store), "--table", "failures"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ")]
    assert rows[0] == "| Planner | Model | Task | Run | Status | Reason |"
    assert rows[1:] == [
        "| lookplangraph | simulated:sayplan-gpt4 | grasif-office-01 | 1 | failed | "
        "go_to(jasons_office8): there is no node called 'jasons_office8' in the scene graph "
        "(did you mean jasons_office, aarons_office, ajays_office?) |",
        "| sayplan | simulated:sayplan-gpt4 | office-simple-01 | 1 | failed | "
        "wrong answer: k31x4 |",
    ]
    result = runner.invoke(app, ["report", str(old_store), "--format", "json"])
    failed = json.loads(result.stdout)["metrics"]["failures"]
    assert [(f["task_id"], f["status"]) for f in failed] == [
        ("grasif-office-01", "failed"),
        ("office-simple-01", "failed"),
    ]


def test_an_old_stores_records_are_read_into_their_types(old_store):
    with Store(old_store, create=False) as store:
        episodes = [r.episode for r in store.records()]
    assert len(episodes) == 8
    executed = [e for e in episodes if e.execute is not None]
    assert len(executed) == 3 and all(isinstance(e.execute, ExecutionRecord) for e in executed)
    assert all(e.execute.rounds and e.execute.calls for e in executed if e.execute is not None)
    searched = [e for e in executed if e.execute is not None and e.execute.searches]
    assert [e.task_id for e in searched] == ["dynamic-office-01"]
    assert all(isinstance(e.eval, EvalFacts) for e in episodes)
    assert {e.view for e in episodes if e.planner in ("lookplangraph", "sayplan")} == {"rooms"}
    assert {e.correction_cap for e in episodes if e.planner == "lookplangraph"} == {"per_action"}
    assert {e.planner for e in episodes if e.sclplan is not None} == {"sclplan", "react_pv"}
    for episode in episodes:  # and what today's code writes of them reads back the same
        assert Episode.from_dict(json.loads(json.dumps(episode.to_dict()))) == episode
