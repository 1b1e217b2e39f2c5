"""The results store: round trips, keys, migrations, claims, and files that are not stores.

Tests taking `store_location` run on both kinds of store: an SQLite file and a
PostgreSQL database (tests/eval/test_postgres.py has the server's own cases).
"""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys

import pytest

from sceneplan.errors import BadInputError
from sceneplan.eval.store import MIGRATIONS, Key, Store
from sceneplan.planners.episode import Episode, ErrorType, LLMCall, SearchTurn, Status
from sceneplan.planners.records import EvalFacts


def episode(task_id="t-01", planner="p", model="m", status=Status.SUCCESS, **fields) -> Episode:
    return Episode(
        planner=planner,
        model=model,
        environment="coffee",
        instruction="Do it.",
        task_id=task_id,
        family="simple_planning",
        status=status,
        **fields,
    )


def test_round_trip_with_summary_columns(tmp_path):
    stored = episode(
        llm_calls=[LLMCall("plan", [{"role": "user", "content": "x"}], "y", input_tokens=5)],
        search=[SearchTurn(1, "expand", "kitchen", True, "", graph_tokens=40)],
        executable=False,
        correct=True,
        error_type=ErrorType.MISSING_POSE,
        eval=EvalFacts(important=["mug"]),
    )
    with Store(tmp_path / "r.db") as store:
        store.put("suite-a", 2, stored)
        [record] = store.records()
    assert record.episode == stored and record.suite == "suite-a" and record.run == 2
    assert record.key == Key("t-01", "p", "m", 2)
    db = sqlite3.connect(tmp_path / "r.db")
    row = db.execute(
        "SELECT status, error_type, executable, input_tokens, search_turns, llm_calls FROM episodes"
    ).fetchone()
    assert row == ("success", "missing_pose", 0, 5, 1, 1)
    measures = db.execute("SELECT correct, executable, success FROM episodes").fetchone()
    assert measures == (1, 0, 1)  # correct and executable are measured apart
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"episodes_planner_model", "episodes_status"} <= indexes


def test_same_key_replaces_and_keys_filter_by_status(store_location):
    with Store(store_location) as store:
        store.put("s", 1, episode(status=Status.ERROR, error="server down"))
        store.put("s", 1, episode(status=Status.FAILED))
        store.put("s", 1, episode(task_id="t-02", status=Status.ERROR))
        assert len(store) == 2
        assert store.keys() == {Key("t-01", "p", "m", 1), Key("t-02", "p", "m", 1)}
        assert store.keys(with_status={Status.FAILED}) == {Key("t-01", "p", "m", 1)}


def test_reopening_keeps_rows_and_schema(store_location):
    with Store(store_location) as store:
        store.put("s", 1, episode())
    with Store(store_location, create=False) as store:
        assert len(store) == 1 and store.schema_version == len(MIGRATIONS)


def test_an_episode_without_task_cannot_be_stored(tmp_path):
    with Store(tmp_path / "r.db") as store, pytest.raises(BadInputError, match="task_id"):
        store.put("s", 1, episode(task_id=None))


def test_files_that_are_not_stores(tmp_path):
    with pytest.raises(BadInputError, match="no results store at"):
        Store(tmp_path / "missing.db", create=False)
    (tmp_path / "text.db").write_text("hello, this is not SQLite at all" * 10)
    with pytest.raises(BadInputError, match="not a sceneplan results store"):
        Store(tmp_path / "text.db")
    other = sqlite3.connect(tmp_path / "other.db")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    with pytest.raises(BadInputError, match="not a sceneplan results store"):
        Store(tmp_path / "other.db")
    Store(tmp_path / "newer.db").close()
    newer = sqlite3.connect(tmp_path / "newer.db")
    newer.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    newer.close()
    with pytest.raises(BadInputError, match="newer sceneplan"):
        Store(tmp_path / "newer.db")


def test_options_are_part_of_the_key(store_location):
    with Store(store_location) as store:
        store.put("s", 1, episode())
        store.put("s", 1, episode(options={"timeout": 5.0}))
        store.put("s", 1, episode(options={"timeout": 5.0}, status=Status.FAILED))  # replaces
        assert len(store) == 2
        timed = Key("t-01", "p", "m", 1, '{"timeout":5.0}')
        assert store.keys() == {Key("t-01", "p", "m", 1), timed}
        assert {r.key for r in store.records()} == store.keys()


def test_a_store_of_schema_1_opens_and_its_runs_count_as_default_options(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](db)
    db.execute("PRAGMA application_id=0x53505253")
    db.execute("PRAGMA user_version=1")
    old = episode().to_dict()
    old.pop("options")  # Episodes of schema 1 had no options
    db.execute(
        "INSERT INTO episodes (task_id, planner, model, run, suite, environment, family, status, "
        "replans, search_turns, llm_calls, input_tokens, output_tokens, cost_usd, wall_time_s, "
        "created_at, episode) VALUES ('t-01', 'p', 'm', 1, 's', 'coffee', 'simple_planning', "
        "'success', 0, 0, 0, 0, 0, 0, 0, '2026-01-01', ?)",
        (json.dumps(old),),
    )
    db.close()
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert store.keys() == {Key("t-01", "p", "m", 1)}
        [record] = store.records()
        assert record.episode.options == {} and record.episode == episode()
        store.put("s", 1, episode(options={"max_steps": 3}))  # a new setup is a new row
        assert len(store) == 2
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(episodes)")]
    assert "options" in columns


def sqlite_schema(path) -> list[tuple[str, str]]:
    """Every table's and index's CREATE statement, as SQLite keeps it."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("start", range(1, len(MIGRATIONS)))
def test_a_store_migrated_from_any_schema_has_a_new_stores_schema_exactly(tmp_path, start):
    """The rebuilt tables (schemas 2 and 4) read as a new store's, to the white space."""
    Store(tmp_path / "new.db").close()
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:start]:
        migration(db)
    db.execute("PRAGMA application_id=0x53505253")
    db.execute(f"PRAGMA user_version={start}")
    db.close()
    assert sqlite_schema(path) != sqlite_schema(tmp_path / "new.db")  # the check can fail
    Store(path).close()
    assert sqlite_schema(path) == sqlite_schema(tmp_path / "new.db")


def test_a_store_of_schema_2_gains_correct_and_success_columns(tmp_path):
    path = tmp_path / "v2.db"
    db = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](db)
    MIGRATIONS[1](db)
    db.execute("PRAGMA application_id=0x53505253")
    db.execute("PRAGMA user_version=2")
    for task_id, status in (("t-01", "success"), ("t-02", "failed")):
        old = episode(task_id, status=Status(status), executable=True).to_dict()
        old.pop("correct")  # Episodes of schema 2 had no correctness
        db.execute(
            "INSERT INTO episodes (task_id, planner, options, model, run, suite, environment, "
            "family, status, executable, replans, search_turns, llm_calls, input_tokens, "
            "output_tokens, cost_usd, wall_time_s, created_at, episode) VALUES (?, 'p', '{}', "
            "'m', 1, 's', 'coffee', 'simple_planning', ?, 1, 0, 0, 0, 0, 0, 0, 0, '2026-01-01', ?)",
            (task_id, status, json.dumps(old)),
        )
    db.close()
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert [r.episode.correct for r in store.records()] == [None, None]
        store.put("s", 1, episode("t-03", correct=False, executable=True, status=Status.FAILED))
    rows = sqlite3.connect(path).execute(
        "SELECT task_id, correct, executable, success FROM episodes ORDER BY task_id"
    )
    assert list(rows) == [("t-01", None, 1, 1), ("t-02", None, 1, 0), ("t-03", 0, 1, 0)]


def test_a_store_of_schema_3_accepts_an_unknown_cost(tmp_path):
    path = tmp_path / "v3.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:3]:
        migration(db)
    db.execute("PRAGMA application_id=0x53505253")
    db.execute("PRAGMA user_version=3")
    db.close()
    with Store(path) as store:
        store.put("s", 1, episode("t-01", llm_calls=[LLMCall("plan", [], "y", cost_usd=0.5)]))
        store.put("s", 1, episode("t-02", llm_calls=[LLMCall("plan", [], "y", cost_usd=None)]))
        costs = [r.episode.cost_usd for r in store.records()]
    assert costs == [0.5, None]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT cost_usd FROM episodes ORDER BY task_id").fetchall() == [
            (0.5,),
            (None,),
        ]


def test_the_task_hash_is_stored_with_each_run_and_old_runs_have_none(tmp_path):
    path = tmp_path / "v4.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:4]:
        migration(db)
    db.execute("PRAGMA application_id=0x53505253")
    db.execute("PRAGMA user_version=4")
    db.execute(
        "INSERT INTO episodes (task_id, planner, options, model, run, suite, environment, "
        "family, status, replans, search_turns, llm_calls, input_tokens, output_tokens, "
        "wall_time_s, created_at, episode) VALUES ('t-01', 'p', '{}', 'm', 1, 's', 'coffee', "
        "'simple_planning', 'success', 0, 0, 0, 0, 0, 0, '2026-01-01', ?)",
        (json.dumps(episode().to_dict()),),
    )
    db.close()
    with Store(path) as store:
        store.put("s", 1, episode("t-02"), task_hash="abc123")
        assert store.task_hashes() == {
            Key("t-01", "p", "m", 1): None,  # stored before: taken as unchanged
            Key("t-02", "p", "m", 1): "abc123",
        }


def test_a_job_is_claimed_by_one_owner_until_released_expired_or_its_owner_dies(store_location):
    key = Key("t-01", "p", "m", 1)
    with Store(store_location) as store:
        assert store.claim(key, "here:1:a", ttl=60)
        assert store.claim(key, "here:1:a", ttl=60)  # its own lease
        assert not store.claim(key, "there:2:b", ttl=60)  # a live lease
        store.release(key, "here:1:a")
        assert store.claim(key, "there:2:b", ttl=-1)  # taken, expired at once
        assert store.claim(key, "here:1:a", ttl=60)
        ended = [sys.executable, "-c", "import os; print(os.getpid())"]
        dead = subprocess.run(ended, capture_output=True, text=True, check=True).stdout.strip()
        other = Key("t-02", "p", "m", 1)
        assert store.claim(other, f"{socket.gethostname()}:{dead}:c", ttl=60)
        assert store.claim(other, "here:1:a", ttl=60)  # its owner has ended
        third = Key("t-03", "p", "m", 1)
        store.put("s", 1, episode("t-03"))  # stored by another eval since this one planned
        assert not store.claim(third, "here:1:a", ttl=60, seen=None)
        seen = store.stored()[third].id
        assert store.claim(third, "here:1:a", ttl=60, seen=seen)  # as planned: run it again
        store.release(third, "here:1:a")
        store.put("s", 1, episode("t-03"))  # stored again: a new row id
        assert store.stored()[third].id != seen
        assert not store.claim(third, "there:2:b", ttl=60, seen=seen)
        assert store.claim(third, "there:2:b", ttl=60, seen=store.stored()[third].id)
        store.put("s", 1, episode("t-03"), owner="here:1:a")  # not its lease: kept
        assert not store.claim(third, "here:1:a", ttl=60, seen=store.stored()[third].id)
        store.put("s", 1, episode("t-03"), owner="there:2:b")  # stored and released at once
        assert store.claim(third, "here:1:a", ttl=60, seen=store.stored()[third].id)
        fourth = Key("t-04", "p", "m", 1)
        assert store.claim(fourth, "there:2:b", ttl=-1)  # expired at once ...
        store.renew("there:2:b", 60)  # ... but its owner is alive and says so
        assert not store.claim(fourth, "here:1:a", ttl=60)
        assert store.leases() == 4  # t-01, t-02 and t-03 held by here:1:a, t-04 by there:2:b


def _write_lock_held(location: str, key: Key):
    """Another session in the middle of a write transaction: SQLite's write lock, or in
    PostgreSQL the lease row of `key` locked as a claim locks it."""
    if location.startswith("postgresql://"):
        import psycopg

        holder = psycopg.connect(location)
        holder.execute(
            "SELECT owner FROM leases WHERE task_id = %s AND planner = %s AND options = %s "
            "AND model = %s AND run = %s FOR UPDATE",
            key.values,
        )
    else:
        holder = sqlite3.connect(location, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_job_plainly_taken_is_refused_without_waiting_for_the_write_lock(
    store_location, monkeypatch
):
    """Evals sharing a store skip each other's jobs by a read: a job stored since it was
    planned, or leased by another live owner, is refused while another session holds the
    write lock, instead of queueing for it (and failing here, the wait cut to 0.3 s)."""
    from sceneplan.eval.store import postgres, sqlite

    monkeypatch.setattr(sqlite, "LOCK_WAIT_S", 0.3)
    monkeypatch.setattr(postgres, "LOCK_WAIT_S", 0.3)
    stored, leased, free = (Key(f"t-0{n}", "p", "m", 1) for n in (1, 2, 3))
    with Store(store_location) as store:
        store.put("s", 1, episode("t-01"))
        assert store.claim(leased, "there:2:b", ttl=60)
        holder = _write_lock_held(store_location, leased)
        try:
            assert not store.claim(stored, "here:1:a", ttl=60, seen=None)
            assert not store.claim(leased, "here:1:a", ttl=60)
        finally:
            holder.rollback()
            holder.close()
        assert store.claim(free, "here:1:a", ttl=60)  # a free job is still claimed
        assert not store.claim(stored, "here:1:a", ttl=60, seen=None)


@pytest.mark.slow
def test_evals_opening_a_new_store_at_once_all_succeed(tmp_path):
    path = tmp_path / "new.db"
    code = f"from sceneplan.eval.store import Store\nwith Store({str(path)!r}) as s: print(len(s))"
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(6)
    ]
    results = [(p.wait(timeout=60), p.stderr.read().decode()) for p in openers]
    assert all(code == 0 for code, _ in results), results
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
