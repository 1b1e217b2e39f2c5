"""`sceneplan eval` and `sceneplan report` through typer's test runner, and a run killed mid-way."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from eval_helpers import REFERENCE_PLAN, without_timings
from sceneplan.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def stable_report(db) -> dict:
    """The JSON report's metrics without timings, which differ from run to run."""
    result = run("report", db, "--format", "json")
    assert result.exit_code == 0, result.output
    return without_timings(json.loads(result.stdout)["metrics"])


@pytest.mark.slow
def test_eval_and_report_end_to_end(scripted_llm, toys, coffee_tasks, tmp_path):
    for answer in (["coffee_mug"], ["fridge"], REFERENCE_PLAN, ["done"]):
        scripted_llm.enqueue_json({"answer": answer})
    db = tmp_path / "results.db"
    args = ["eval", "--suite", coffee_tasks, "--planners", "toy_asking,toy_reference"]
    args += ["--llm", scripted_llm.model, "--concurrency", "1", "--out", db]
    result = run(*args)
    assert result.exit_code == 0, result.output
    # toy_reference asks no model (cost 0); the scripted model has no price (unknown, not 0)
    assert f"8 run(s) stored in {db} (0 already there): 6 succeeded, 2 failed, 0 error(s); " \
        "48 input and 28 output tokens, $0.0000 + n/a for 4 run(s) of unpriced models" \
        in result.stdout  # fmt: skip
    assert f"warning: no price for model {scripted_llm.model}: the cost of its 4 run(s) " \
        'is unknown (n/a); add its price under [llm.prices."PROVIDER:MODEL"]' \
        in result.stderr  # fmt: skip
    with sqlite3.connect(db) as con:
        costs = dict(con.execute("SELECT planner, cost_usd FROM episodes"))
    assert costs == {"toy_asking": None, "toy_reference": 0.0}
    assert "8/8" in result.stderr  # the progress bar

    again = run(*args)
    assert again.exit_code == 0 and "0 run(s) stored" in again.stdout
    assert "(8 already there)" in again.stdout and len(scripted_llm.requests) == 4

    report = run("report", db, "--plots", tmp_path / "plots")
    assert report.exit_code == 0, report.output
    assert "## Causal planning (SayPlan Table 3)" in report.stdout
    # simple: corr, exec, success; long: "done" at once is executable, not correct
    measures = "100.0% | 100.0% | 100.0% | 0.0% | 100.0% | 0.0% |"
    assert f"| toy_asking | {scripted_llm.model} | coffee | {measures}" in report.stdout
    assert "3 plot(s) written" in report.stderr
    model = scripted_llm.model
    assert f"| toy_asking | {model} | Simple planning | 1 | 1.00 | 12 | 7 | n/a | n/a |" \
        in report.stdout  # fmt: skip
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "error_types.png",
        "success_by_family.png",
        "token_progression.png",
    ]
    assert run("report", db, "-f", "csv").stdout.startswith("section,planner,model,")

    compared = run("report", "--compare", db, db, "--format", "json")
    assert compared.exit_code == 0, compared.output
    assert {r["delta"] for r in json.loads(compared.stdout)["rows"]} == {0}


def test_planners_that_need_a_model_fail_fast_without_one(toys, coffee_tasks, tmp_path):
    db = tmp_path / "r.db"
    result = run("eval", "-s", coffee_tasks, "-p", "toy_reference,toy_asking", "--out", db)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no LLM configured. Configure one of:")
    assert "Traceback" not in result.output
    result = run("eval", "-s", coffee_tasks, "-p", "toy_reference", "--out", db)
    assert result.exit_code == 0, result.output
    assert "4 run(s) stored" in result.stdout and "--retry-errors" not in result.stdout
    result = run("eval", "-s", coffee_tasks, "-p", "toy_broken", "--out", db)
    assert result.exit_code == 1 and "2 error(s)" in result.stdout
    assert "2 run(s) ended in an error" in result.stderr and "--retry-errors" in result.stderr


def _no_retries(monkeypatch, tmp_path) -> None:
    """LLM settings that give up on the first 5xx, so a dead server fails fast."""
    config = tmp_path / "fast.toml"
    config.write_text("[llm]\nmax_retries = 0\nbackoff_base = 0\n", encoding="utf-8")
    monkeypatch.setenv("SCENEPLAN_CONFIG", str(config))


def test_eval_exits_1_when_every_run_errored(
    scripted_llm, toys, coffee_tasks, tmp_path, monkeypatch
):
    _no_retries(monkeypatch, tmp_path)
    for _ in range(4):
        scripted_llm.enqueue_status(400)  # refused: an error, but not "cannot reach"
    db = tmp_path / "r.db"
    args = ["eval", "-s", coffee_tasks, "-p", "toy_asking", "--llm", scripted_llm.model]
    result = run(*args, "--concurrency", "1", "--out", db)
    assert result.exit_code == 1, result.output
    assert "4 error(s)" in result.stdout and "stopped early" not in result.stderr
    assert "4 run(s) ended in an error" in result.stderr
    assert "--retry-errors" in result.stderr and _rows(db) == 4


def test_eval_stops_when_the_server_cannot_be_reached_n_times_in_a_row(
    scripted_llm, toys, coffee_tasks, tmp_path, monkeypatch
):
    _no_retries(monkeypatch, tmp_path)
    for _ in range(2):
        scripted_llm.enqueue_status(503)
    db = tmp_path / "r.db"
    args = ["eval", "-s", coffee_tasks, "-p", "toy_asking", "--llm", scripted_llm.model]
    result = run(*args, "--concurrency", "1", "--stop-after", "2", "--out", db)
    assert result.exit_code == 1, result.output
    assert "stopped early: 2 runs in a row could not reach the LLM server" in result.stderr
    assert "2 run(s) not started" in result.stderr
    assert _rows(db) == 2 and len(scripted_llm.requests) == 2  # the rest never asked
    assert "Traceback" not in result.output

    # the breaker counts runs in a row: a success in between resets it
    scripted_llm.enqueue_status(503)
    scripted_llm.enqueue_json({"answer": ["fridge"]})
    result = run(*args, "--concurrency", "1", "--stop-after", "2", "--out", db)
    assert "stopped early" not in result.stderr and _rows(db) == 4


def test_ctrl_c_keeps_what_is_stored_and_a_rerun_finishes(toys, coffee_tasks, tmp_path):
    db = tmp_path / "r.db"
    args = ["eval", "-s", coffee_tasks, "-p", "toy_interrupting", "--runs", "2", "--out", db]
    result = run(*args)
    assert result.exit_code == 130
    assert f"results are stored in {db}; run the same command again to continue" in result.stderr
    toys.InterruptingPlanner.budget = 100
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "already there" in result.stdout and "(0 already there)" not in result.stdout
    rows = sqlite3.connect(db).execute(
        "SELECT count(*), count(DISTINCT task_id || run) FROM episodes"
    )
    assert rows.fetchone() == (8, 8)


def test_report_errors(tmp_path):
    result = run("report", tmp_path / "missing.db")
    assert result.exit_code == 2 and "no results store at" in result.stderr
    assert "name a results store" in run("report").stderr
    both = run("report", tmp_path / "a.db", "--compare", tmp_path / "a.db", tmp_path / "b.db")
    assert both.exit_code == 2 and "not both" in both.stderr
    assert "unknown report format 'pdf'" in run("report", tmp_path / "a.db", "-f", "pdf").stderr


@pytest.mark.slow
def test_a_killed_run_loses_nothing_stored(toys, tmp_path):
    """SIGKILL a `sceneplan eval` process mid-run; the rerun completes it without duplicates."""
    db = tmp_path / "killed.db"
    args = ["eval", "-s", "home-search", "-p", "toy_reference", "--concurrency", "1", "--out", db]
    script = TOY_MAIN
    here = os.path.dirname(__file__)
    env = {**os.environ, "PYTHONPATH": here, "SCENEPLAN_TOY_DELAY": "0.05"}
    process = subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while _rows(db) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    stored = _rows(db)
    assert 3 <= stored < 30

    result = run(*args)
    assert result.exit_code == 0, result.output
    assert f"{30 - stored} run(s) stored in {db} ({stored} already there)" in result.stdout
    assert _rows(db) == 30

    fresh = tmp_path / "fresh.db"
    assert run("eval", "-s", "home-search", "-p", "toy_reference", "--out", fresh).exit_code == 0
    assert stable_report(db) == stable_report(fresh)


def _rows(db) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT count(*) FROM episodes").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


@pytest.mark.slow
def test_planner_specs_with_options_run_and_show_in_the_report(coffee_tasks, tmp_path):
    db = tmp_path / "r.db"
    specs = "oracle, oracle[timeout=5,planner=gbfs]"
    result = run("eval", "-s", coffee_tasks, "-t", "coffee-plan-01", "-p", specs, "--out", db)
    assert result.exit_code == 0, result.output
    assert "2 run(s) stored" in result.stdout
    report = run("report", db)
    assert "| oracle | none | 1 | 1 | 1 | 1 |" in report.stdout
    assert "| oracle[timeout=5] | none | 1 | 1 | 1 | 1 |" in report.stdout
    search = run("eval", "-s", coffee_tasks, "-t", "coffee-search-01", "-p", specs, "--out", db)
    assert search.exit_code == 0, search.output  # the oracle answers from the answer set
    assert "| oracle[timeout=5] | none | 2 | 2 | 1 | 2 | 0 | 0 |" in run("report", db).stdout
    lost = tmp_path / "lost.yaml"
    lost.write_text(
        "- {id: lost-01, suite: lost, family: simple_planning, environment: no/such.json,\n"
        "   instruction: Close the fridge., goal: closed(fridge)}\n"
    )
    broken = run("eval", "-s", lost, "-p", specs, "--out", db)
    assert broken.exit_code == 2, broken.output  # an environment that does not load: refused
    assert "task 'lost-01': field 'environment': cannot read scene graph file" in broken.stderr
    bad = run("eval", "-s", coffee_tasks, "-p", "oracle[timeout=5", "--out", db)
    assert bad.exit_code == 2 and "a '[' without its ']'" in bad.stderr
    bad = run("eval", "-s", coffee_tasks, "-p", "oracle[planner=magic]", "--out", db)
    assert bad.exit_code == 2 and "unknown symbolic planner 'magic'" in bad.stderr
    assert "Traceback" not in bad.output


def test_runs_of_an_edited_task_are_made_again(toys, coffee_tasks, tmp_path):
    tasks = tmp_path / "tasks.yaml"
    tasks.write_text(coffee_tasks.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "r.db"
    args = ["eval", "-s", tasks, "-p", "toy_reference", "--out", db]
    assert run(*args).exit_code == 0
    again = run(*args)
    assert "0 run(s) stored" in again.stdout and "changed" not in again.stderr
    text = tasks.read_text(encoding="utf-8")
    assert "Put the coffee mug on Tom's bed." in text
    tasks.write_text(text.replace("Put the coffee mug on Tom's bed.", "Put the mug on the bed."))
    edited = run(*args)
    assert edited.exit_code == 0, edited.output
    assert "1 task(s) changed since their runs were stored (coffee-plan-01)" in edited.stderr
    assert "1 run(s) stored" in edited.stdout and "(3 already there)" in edited.stdout
    with sqlite3.connect(db) as con:
        [(instruction,)] = con.execute(
            "SELECT json_extract(episode, '$.instruction') FROM episodes "
            "WHERE task_id = 'coffee-plan-01'"
        )
    assert instruction == "Put the mug on the bed."


def test_the_progress_bar_and_the_summary_count_failures_in_the_same_words(
    toys, coffee_tasks, tmp_path
):
    result = run("eval", "-s", coffee_tasks, "-p", "toy_broken", "--out", tmp_path / "r.db")
    assert result.exit_code == 1, result.output
    assert "0 succeeded, 2 failed, 2 error(s)" in result.stdout
    assert "2 failed · 2 error(s) · 0 left" in result.stderr  # not "4 failed"


def test_eval_help_lists_suites_and_planners():
    result = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "Suites (-s NAME, or a task file;" in text
    assert "home-search hydra-apartment mp3d-house office-dynamic office-grasif" in text
    assert "Planners (-p NAME[KEY=VALUE,...]; options: `sceneplan planners`):" in text
    for name in ("sayplan", "sclplan", "oracle", "react_pv", "llm_plus_p"):
        assert f" {name}: " in text, name


TOY_MAIN = (
    "import sys, toy_planners\n"
    "from sceneplan.planners import PLANNERS\n"
    "for name, cls in toy_planners.TOYS.items():\n"
    "    PLANNERS.register(name, f'toy_planners:{cls}')\n"
    "from sceneplan.cli import main\n"
    "sys.argv = ['sceneplan', *sys.argv[1:]]\n"
    "main()\n"
)


@pytest.mark.slow
def test_two_evals_on_one_store_split_the_jobs(scripted_llm, coffee_tasks, tmp_path):
    """Two `sceneplan eval` processes, one store, a slow model: every job runs exactly once."""
    config = tmp_path / "llm.toml"
    config.write_text("[llm]\ncache = false\n", encoding="utf-8")  # a repeat would be a request
    for _ in range(8):
        scripted_llm.enqueue_hang(0.6, json.dumps({"answer": ["done"]}))
    db = tmp_path / "shared.db"
    args = ["eval", "-s", coffee_tasks, "-p", "toy_asking", "--llm", scripted_llm.model]
    args += ["--runs", "2", "--concurrency", "1", "--out", db]
    env = {**os.environ, "PYTHONPATH": os.path.dirname(__file__), "SCENEPLAN_CONFIG": str(config)}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", TOY_MAIN, *map(str, args)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [worker.communicate(timeout=60) for worker in workers]
    assert [w.returncode for w in workers] == [0, 0], outputs
    stored = [
        int(out.split(" run(s) stored")[0].split()[-1]) for out, _ in outputs
    ]  # "N run(s) stored in ..."
    assert sum(stored) == 8 and min(stored) >= 1, outputs  # both worked, nothing twice
    assert len(scripted_llm.requests) == 8 and scripted_llm.pending == 0
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM episodes").fetchone() == (8,)
        assert con.execute("SELECT count(*) FROM leases").fetchone() == (0,)  # all released


@pytest.mark.slow
def test_store_merge_joins_shards_keeping_the_newest_of_a_duplicate(toys, coffee_tasks, tmp_path):
    a, b, merged, whole = (tmp_path / f"{n}.db" for n in ("a", "b", "merged", "whole"))
    base = ["eval", "-s", coffee_tasks, "-p", "toy_reference"]
    assert run(*base, "-t", "coffee-plan-01,coffee-search-01", "--out", a).exit_code == 0
    assert run(*base, "-t", "coffee-plan-02,coffee-search-02", "--out", b).exit_code == 0
    time.sleep(1.1)  # created_at has seconds: the rerun in b is newer than a's
    assert run(*base, "-t", "coffee-plan-01", "--out", b).exit_code == 0
    assert run(*base, "--out", whole).exit_code == 0

    result = run("store", "merge", a, b, "--out", merged)
    assert result.exit_code == 0, result.output
    assert f"5 result(s) merged into {merged} from 2 store(s)" in result.stdout
    with sqlite3.connect(b) as con:
        [(newest,)] = con.execute("SELECT created_at FROM episodes WHERE task_id='coffee-plan-01'")
    with sqlite3.connect(merged) as con:
        assert con.execute("SELECT count(*) FROM episodes").fetchone() == (4,)
        [(kept,)] = con.execute("SELECT created_at FROM episodes WHERE task_id='coffee-plan-01'")
    assert kept == newest
    assert stable_report(merged) == stable_report(whole)

    again = run("store", "merge", a, "--out", merged)  # a's results are all older
    assert "0 result(s) merged" in again.stdout and "2 older duplicate(s) left out" in again.stdout


def test_suites_tasks_and_planners_may_be_repeated_as_well_as_comma_separated(
    coffee_tasks, tmp_path
):
    db = tmp_path / "r.db"
    args = ["eval", "-s", coffee_tasks, "-s", "office-planning", "-t", "coffee-plan-01"]
    args += ["-t", "planning-simple-01", "-p", "oracle", "-p", "oracle[timeout=5]", "--out", db]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "4 run(s) stored" in result.stdout  # 2 tasks from 2 suites x 2 planners
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT DISTINCT task_id, planner FROM episodes").fetchall()
    assert {t for t, _ in stored} == {"coffee-plan-01", "planning-simple-01"}


def test_eval_leaves_out_what_a_planner_does_not_run_and_says_so_once_per_suite(
    scripted_llm, coffee_tasks, tmp_path
):
    db = tmp_path / "skips.db"
    searches = "coffee-search-01,coffee-search-02"
    args = ["eval", "-s", coffee_tasks, "-t", searches, "-p", "react,oracle"]
    result = run(*args, "--llm", scripted_llm.model, "--out", db)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if " skips " in line]
    assert said == [
        "react skips 2 task(s) of coffee-mini: planner 'react' runs tasks that change the "
        "world, not search tasks (find X); planners that do: llm_as_planner, llm_plus_p, "
        "oracle, sayplan, sayplan_lite"
    ]
    assert "2 run(s) stored" in result.stdout and scripted_llm.requests == []
    assert _rows(db) == 2  # the oracle's; no react episode ends in an error
