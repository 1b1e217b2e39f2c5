"""One rule for every command that writes a file (issue 26): nothing is lost.

An existing output file is refused unless `--force`; an output that cannot be
written is refused before any work (tried, not guessed from permission bits:
root may write everywhere but /proc); an import never writes over its input,
and writes both of its files or neither; `report` never turns a file into a
store. Each row asserts the exit status, the message, and that what was there
is unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
VH = ROOT / "tests" / "importers" / "data" / "kitchen.vh.json"
BDDL = ROOT / "tests" / "importers" / "data" / "put_away.bddl"
GOAL = ["--goal", "full(coffee_mug)"]
PLAN = ["plan", "-t", "planning-simple-02", "-p", "oracle"]
ORACLE_EXECUTE = ["execute", "--task", "planning-simple-02", "-p", "oracle", "--robot", "sim"]
OLD = "old content\n"

# (arguments, the existing file(s) they would replace, text the message must contain)
REFUSED = [
    ([*PLAN, "--trace", "t.json"], ["t.json"], "the trace t.json already exists"),
    ([*ORACLE_EXECUTE, "--trace", "t.json"], ["t.json"], "the trace t.json already exists"),
    (["view", "coffee", "-o", "v.html"], ["v.html"], "the page v.html already exists"),
    (["view", "coffee"], ["view-coffee.html"], "the page view-coffee.html already exists"),
    (
        ["graph", "import", "--from", "virtualhome", "vh.json", "g.json"],
        ["g.json"],
        "the graph file g.json already exists",
    ),
    (
        ["graph", "import", "--from", "behavior", "p.bddl", "g.json", "--tasks", "t.yaml"],
        ["t.yaml"],
        "the task file t.yaml already exists",
    ),
    (
        ["pddl", "coffee", *GOAL, "--out", "pd"],
        ["pd/domain.pddl"],
        "the PDDL folder pd already holds domain.pddl",
    ),
]


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    (tmp_path / "vh.json").write_text(VH.read_text())
    (tmp_path / "p.bddl").write_text(BDDL.read_text())
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("args", "existing", "message"), REFUSED, ids=[r[2] for r in REFUSED])
def test_an_existing_output_is_refused_then_replaced_with_force(scratch, args, existing, message):
    for name in existing:
        (scratch / name).parent.mkdir(exist_ok=True)
        (scratch / name).write_text(OLD)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "--force to replace" in result.output
    assert all((scratch / name).read_text() == OLD for name in existing)
    assert not (scratch / "g.json").exists() or "g.json" in existing  # nothing else written

    if "behavior" in args:
        pytest.importorskip("bddl", reason="the behavior importer reads synsets from bddl")
    result = runner.invoke(app, [*args, "--force"])
    assert result.exit_code == 0, result.output
    assert all((scratch / name).read_text() != OLD for name in existing)


def test_report_plots_refuse_existing_pngs(scratch, tmp_path):
    store = _store(scratch)
    (scratch / "plots").mkdir()
    (scratch / "plots" / "error_types.png").write_bytes(b"old")
    result = runner.invoke(app, ["report", str(store), "--plots", "plots"])
    assert result.exit_code == 2
    assert "the plots folder plots already holds error_types.png" in result.output
    assert "| oracle" not in result.output  # refused before the report is printed


# Outputs that cannot be written: refused before the run (no trace lost after it).
UNWRITABLE = [
    ([*PLAN, "--trace", "/proc/sceneplan/t.json"], "cannot write the trace /proc/sceneplan/t.json"),
    (
        [*ORACLE_EXECUTE, "--trace", "/proc/sceneplan/t.json"],
        "cannot write the trace /proc/sceneplan/t.json",
    ),
    (["view", "coffee", "-o", "/proc/sceneplan/v.html"], "cannot write the page"),
    (["pddl", "coffee", *GOAL, "--out", "/proc/sceneplan"], "cannot write the PDDL folder"),
    (
        ["graph", "import", "--from", "behavior", "p.bddl", "g.json", "--tasks", "/proc/x/t.yaml"],
        "cannot write the task file /proc/x/t.yaml",
    ),
    (
        ["graph", "import", "--from", "virtualhome", "vh.json", "vh.json"],
        "OUT vh.json is the file being imported",
    ),
    (
        ["graph", "import", "--from", "virtualhome", "vh.json", "./vh.json", "--force"],
        "OUT vh.json is the file being imported",
    ),
    (
        ["graph", "import", "--from", "behavior", "p.bddl", "g.json", "--tasks", "g.json"],
        "OUT and --tasks are the same file",
    ),
    (
        ["graph", "import", "--from", "virtualhome", "vh.json", "g.json", "--tasks", "t.yaml"],
        "the virtualhome importer found no task in vh.json",
    ),
]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize(("args", "message"), UNWRITABLE, ids=[r[1][:50] for r in UNWRITABLE])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(scratch, args, message):
    before = (scratch / "vh.json").read_text()
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in " ".join(result.output.split())
    assert "status" not in result.output  # no run happened
    assert not (scratch / "g.json").exists() and not (scratch / "t.yaml").exists()
    assert (scratch / "vh.json").read_text() == before


def test_report_plots_to_an_unwritable_folder_prints_nothing_first(scratch):
    store = _store(scratch)
    result = runner.invoke(app, ["report", str(store), "--plots", "/proc/sceneplan/plots"])
    assert result.exit_code == 2
    assert result.output.startswith("error: cannot write the plots folder /proc/sceneplan/plots")


def test_report_on_an_empty_file_leaves_it_empty(scratch):
    (scratch / "empty.db").write_bytes(b"")
    result = runner.invoke(app, ["report", "empty.db"])
    assert result.exit_code == 2
    assert "empty.db is empty (0 bytes): not a sceneplan results store" in result.output
    assert (scratch / "empty.db").stat().st_size == 0


def test_eval_may_start_a_store_in_an_empty_file(scratch):
    (scratch / "new.db").write_bytes(b"")
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]
    result = runner.invoke(app, [*args, "--out", "new.db"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["report", "new.db"]).exit_code == 0


def _store(folder: Path) -> Path:
    out = folder / "r.db"
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    return out


def test_report_plots_without_matplotlib_prints_nothing_first(scratch, monkeypatch):
    store = _store(scratch)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = runner.invoke(app, ["report", str(store), "--plots", "plots"])
    assert result.exit_code == 2
    assert result.output.startswith("error: plots need matplotlib: pip install")
    assert not (scratch / "plots").exists()
