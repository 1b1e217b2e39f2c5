"""`report` on a store holding `eval --robot` runs: every format and table (issue 26).

The executor recorded what the robot saw in a step's `observations` in its own
form (`Seen`, with `parent`), where every other step keeps a look's form
(`Observation`): reporting such a store crashed reading them back. Robot
sightings are now recorded as observations, and Table 4 scores the
perceiver's looks only (the robot's steps belong to the faults table).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.eval.report import TABLES
from sceneplan.eval.store import Store
from sceneplan.world.memory import Observation

runner = CliRunner()


@pytest.fixture(scope="module")
def robot_store(tmp_path_factory) -> Path:
    """One run of an observing oracle on the simulated robot, with objects moved."""
    out = tmp_path_factory.mktemp("robot") / "faults.db"
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02"]
    args += ["-p", "oracle[observe=partial]", "--robot", "sim", "--faults", "moved:0.3"]
    result = runner.invoke(app, [*args, "--runs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_robot_steps_record_observations_in_one_form(robot_store):
    with Store(robot_store, create=False) as store:
        (record,) = store.records()
    robot_steps = {c.step for c in record.episode.execute.calls}
    seen = [o for s in record.episode.steps if s.index in robot_steps for o in s.observations]
    assert seen, "the robot saw nothing: the test needs a run whose robot looks"
    parsed = [Observation.from_dict(o) for o in seen]
    assert all(o.related_to for o in parsed)


@pytest.mark.parametrize("fmt", ["md", "csv", "json"])
def test_report_every_format(robot_store, fmt):
    result = runner.invoke(app, ["report", str(robot_store), "--format", fmt])
    assert result.exit_code == 0, result.output
    assert "oracle" in result.output


@pytest.mark.parametrize("table", [*TABLES, "faults"])
def test_report_every_table(robot_store, table):
    result = runner.invoke(app, ["report", str(robot_store), "--table", table])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_table4_counts_the_planners_looks_not_the_robots(robot_store):
    result = runner.invoke(app, ["report", str(robot_store), "--table", "lookplangraph-4"])
    row = next(line for line in result.output.splitlines() if "simulated:perfect" in line)
    assert row.split("|")[4].strip() == "1"  # one look_on by the planner; robot steps not looks


def test_report_compare_two_robot_stores(robot_store):
    result = runner.invoke(app, ["report", "--compare", str(robot_store), str(robot_store)])
    assert result.exit_code == 0, result.output
