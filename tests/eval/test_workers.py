"""Many `sceneplan eval` workers on one store, of each kind: every job runs once.

The oracle over office-planning + office-search (60 jobs), as 8 separate
processes; one worker killed with SIGKILL mid-run loses nothing and makes
nothing run twice (one scenario: the start-up of 8 workers costs more CPU
than the 60 jobs). A trigger the test adds to the store counts the committed
puts (an insert, or an upsert's update), so `puts == rows` proves that no job
was stored twice. (Not `max(id) == rows`: a PostgreSQL sequence also moves
for a put whose transaction is rolled back, as the killed worker's can be.)
"""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
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


def _connect(location: str):
    """A connection to the store's database that commits each statement."""
    if location.startswith("postgresql://"):
        import psycopg

        return psycopg.connect(location, autocommit=True)
    return closing(sqlite3.connect(location, isolation_level=None))


def _counting_puts(location: str) -> str:
    """Make the store, with a trigger that logs each committed put into `test_puts` (its
    log row goes with the put's transaction: a put rolled back leaves none)."""
    Store(location).close()
    with _connect(location) as db:
        db.execute("CREATE TABLE test_puts (n INTEGER)")
        if location.startswith("postgresql://"):
            db.execute(
                "CREATE FUNCTION test_put() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN INSERT INTO test_puts VALUES (1); RETURN NULL; END $$"
            )
            db.execute(
                "CREATE TRIGGER test_put AFTER INSERT OR UPDATE ON episodes "
                "FOR EACH ROW EXECUTE FUNCTION test_put()"
            )
        else:
            for event in ("INSERT", "UPDATE"):
                db.execute(
                    f"CREATE TRIGGER test_put_{event} AFTER {event} ON episodes "
                    "BEGIN INSERT INTO test_puts VALUES (1); END"
                )
    return location


def _puts(location: str) -> int:
    with _connect(location) as db:
        return db.execute("SELECT count(*) FROM test_puts").fetchone()[0]


def _state(location: str) -> tuple[int, int, int]:
    """(rows, committed puts, leases) of a store made by `_counting_puts`."""
    with Store(location, create=False) as store:
        rows = len(store.stored())
        leases = store.leases()
    return rows, _puts(location), leases


@pytest.mark.slow
def test_eight_workers_one_killed_then_resumed_run_each_job_once(store_location):
    """8 workers at once; one is SIGKILLed mid-run; the rest finish, a resumed eval does what
    is left. Every job is stored once (the puts committed are the rows stored), and the
    runs the workers report account for it."""
    _counting_puts(store_location)
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


class _Recorder:
    """A reporter that keeps the task ids of the episodes in the order they were stored."""

    def __init__(self) -> None:
        self.order: list[str] = []

    def update(self, totals, episode) -> None:
        if episode is not None:
            self.order.append(episode.task_id)


def test_an_eval_refused_a_claim_goes_on_from_a_place_of_its_own(
    store_location, toys, coffee_tasks, monkeypatch
):
    """An eval alone runs the jobs in the planned order, run by run. Refused a claim (the
    job is another eval's), it goes on from a place its owner draws, not from the next
    job, which the other eval would claim next too: evals started together part."""
    from sceneplan.datasets.tasks import load_task_file
    from sceneplan.eval.store import Key

    tasks = load_task_file(coffee_tasks)
    ids = [task.id for task in tasks]
    alone = _Recorder()
    evaluate(tasks, ["toy_reference"], [], store_location, runs=2, reporter=alone)
    assert alone.order == ids + ids
    held = Key(ids[0], "toy_reference", "none", 1)
    firsts = set()
    for owner in ("here:1:a", "here:2:b", "there:3:c", "there:4:d"):
        with _connect(store_location) as db:
            db.execute("DELETE FROM episodes")
        monkeypatch.setattr(Store, "owner", staticmethod(lambda owner=owner: owner))
        with Store(store_location) as store:
            assert store.claim(held, "there:9:z", ttl=60)  # another eval's, running
        recorder = _Recorder()
        evaluate(tasks, ["toy_reference"], [], store_location, runs=2, concurrency=1,
                 reporter=recorder)  # fmt: skip
        first_run, second_run = recorder.order[:3], recorder.order[3:]
        assert sorted(first_run) == sorted(ids[1:])  # each job once, the held one left to its eval
        assert second_run == ids  # nothing refused in the second run: the planned order
        firsts.add(first_run[0])
    assert len(firsts) > 1


def test_after_a_refused_claim_the_jobs_left_come_in_the_planned_order_wrapped_around(
    coffee_tasks,
):
    """From the place drawn, the jobs left follow in the planned order, past the last one
    on from the first, each once; the next run starts from its first job."""
    from sceneplan.datasets.tasks import load_task_file
    from sceneplan.eval.runner import Job, _ClaimOrder

    task = load_task_file(coffee_tasks)[0]
    jobs = [Job(task, f"p{n}", "none", run) for run in (1, 2) for n in range(9)]
    for owner in ("here:1:a", "here:2:b", "there:3:c"):
        order = _ClaimOrder(jobs, owner)
        assert next(order) is jobs[0]
        order.refused()
        first_run = [next(order) for _ in range(8)]
        start = jobs.index(first_run[0])
        assert first_run == jobs[start:9] + jobs[1:start]
        assert list(order) == jobs[9:]


@pytest.mark.parametrize("trial", range(20))
@pytest.mark.slow
def test_two_evals_at_once_run_every_job_once(store_location, toys, coffee_tasks, trial):
    """Issue 26: two evals on one store, started together, 20 trials: every job once."""
    from sceneplan.datasets.tasks import load_task_file

    tasks = load_task_file(coffee_tasks)
    _counting_puts(store_location)
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


@pytest.mark.slow
def test_the_put_count_sees_a_job_stored_twice(store_location, toys, coffee_tasks):
    """The check above can fail: a result put a second time is one put more than rows."""
    from sceneplan.datasets.tasks import load_task_file

    _counting_puts(store_location)
    evaluate(load_task_file(coffee_tasks), ["toy_reference"], [], store_location)
    rows, puts, _ = _state(store_location)
    assert rows == puts > 0
    with Store(store_location) as store:
        record = store.records()[0]
        store.put(record.suite, record.run, record.episode)
    assert _state(store_location) == (rows, rows + 1, 0)
