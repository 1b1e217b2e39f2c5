"""Many `sceneplan eval` workers on one store, of each kind: every job runs once.

The oracle over office-planning + office-search (60 jobs), as 8 separate
processes; one worker killed with SIGKILL mid-run loses nothing and makes
nothing run twice (one scenario: the start-up of 8 workers costs more CPU
than the 60 jobs). A put gives its row a new id (SQLite's rowid, PostgreSQL's
sequence), so `max(id) == count(*)` proves that no job was stored twice.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import SceneplanError
from sceneplan.eval.runner import evaluate
from sceneplan.eval.store import Store

SUITES = "office-planning,office-search"
JOBS = 60
MAIN = "import sys; from sceneplan.cli import main; sys.argv[0] = 'sceneplan'; main()"


def _worker(location: str) -> subprocess.Popen:
    # the workers are the parallelism: each runs its episodes in its own process
    args = ["eval", "-s", SUITES, "-p", "oracle", "--processes", "1", "--out", location]
    return subprocess.Popen(
        [sys.executable, "-c", MAIN, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stored_by(output: str) -> int:
    """The runs a worker says it stored: "N run(s) stored in ..."."""
    found = re.search(r"(\d+) run\(s\) stored in ", output)
    assert found, output
    return int(found.group(1))


def _state(location: str) -> tuple[int, int, int]:
    """(rows, highest row id, leases) of the store; zeros before it exists."""
    try:
        with Store(location, create=False) as store:
            stored = store.stored()
            leases = store.leases()
    except SceneplanError:
        return 0, 0, 0
    return len(stored), max((s.id for s in stored.values()), default=0), leases


def test_eight_workers_one_killed_then_resumed_run_each_job_once(store_location):
    """8 workers at once; one is SIGKILLed mid-run; the rest finish, a resumed eval does what
    is left. Every job is stored once (the highest row id is the row count: a second put
    of a job would give it a new id), and the runs the workers report account for it."""
    workers = [_worker(store_location) for _ in range(8)]
    victim = workers[0]
    try:
        deadline = time.monotonic() + 300
        while _state(store_location)[0] < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert victim.poll() is None, "the worker to kill finished first"
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait()
    outputs = [w.communicate(timeout=600) for w in workers[1:]]
    assert [w.returncode for w in workers[1:]] == [0] * 7, outputs
    counts = [_stored_by(out) for out, _ in outputs]
    assert sum(1 for c in counts if c) >= 2, counts  # the work was shared
    rows, _, _ = _state(store_location)
    resumed = CliRunner().invoke(
        app, ["eval", "-s", SUITES, "-p", "oracle", "--out", store_location]
    )
    assert resumed.exit_code == 0, resumed.output
    done_now = _stored_by(resumed.stdout)
    assert f"({rows} already there)" in resumed.stdout and rows + done_now == JOBS
    assert _state(store_location) == (JOBS, JOBS, 0)  # 60 rows, none stored twice, no lease
    by_victim = JOBS - sum(counts) - done_now  # what the killed worker stored
    assert 0 <= by_victim < JOBS, (counts, done_now)


@pytest.mark.parametrize("trial", range(20))
def test_two_evals_at_once_run_every_job_once(store_location, toys, coffee_tasks, trial):
    """Issue 26: two evals on one store, started together, 20 trials: every job once."""
    from sceneplan.datasets.tasks import load_task_file

    tasks = load_task_file(coffee_tasks)
    totals = []

    def one() -> None:
        totals.append(evaluate(tasks, ["toy_reference"], [], store_location, runs=3))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(totals) == 2
    assert sum(t.done for t in totals) == 12, [(t.done, t.skipped) for t in totals]
    assert _state(store_location) == (12, 12, 0)
