"""Stores under contention and misuse (issue 40): bad URLs, another application's database,
read-only places, held locks, a killed server backend, and `kill -TERM` of an eval."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import BackendUnavailableError
from sceneplan.eval.store import Store, postgres, sqlite

runner = CliRunner()
EVAL = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]


def _script() -> list[str]:
    script = Path(sys.executable).with_name("sceneplan")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sceneplan.cli"]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://ann@db:99999/x", "(Port out of range 0-65535); the port is a number"),
        ("postgresql://ann@db:five/x", "the port is a number from 1 to 65535"),
        ("postgresql://ann@db:0/x", "has port 0"),
        ("postgresql://ann:p@ss@db/x", "postgresql://ann:***@db/x has two '@'; percent-encode"),
        ("postgresql://ann:p#ss@db/x", "postgresql://ann:***@db/x has a '#'"),
        ("postgresql://ann:p/ss@db/x", "percent-encode ':' '@' '/' '#'"),
        ("postgresql://[::1/x", "(Invalid IPv6 URL)"),
    ],
)
def test_a_store_url_that_cannot_be_is_one_line(tmp_path, monkeypatch, url, message):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*EVAL, "--out", url])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "ss@" not in result.output  # never the password
    assert isinstance(result.exception, SystemExit)


def _tables(url: str) -> list[str]:
    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY 1"
        )
        return [name for (name,) in rows]


def test_a_database_of_another_application_is_refused_before_writing(postgres_url, tmp_path):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE TABLE customers (id INTEGER)")
    result = runner.invoke(app, [*EVAL, "--out", postgres_url])
    assert result.exit_code == 2, result.output
    assert "the database has tables customers but is not a sceneplan results store" in (
        " ".join(result.output.split())
    )
    assert _tables(postgres_url) == ["customers"]


def test_an_empty_password_is_not_an_unreachable_server(postgres_url):
    parts = urlsplit(postgres_url)
    empty = postgres_url.replace(f":{parts.password}@", ":@")
    result = runner.invoke(app, [*EVAL, "--out", empty])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "the server asks for a password and none was given" in text
    assert "cannot reach" not in text


@pytest.fixture
def read_only_mount(tmp_path):
    """A folder that is read-only for everyone, root included (a read-only bind mount, in a
    mount namespace of the command's own): the command to run a command in it."""
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount --bind {tmp_path} {tmp_path}"],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip("needs unshare -m (mount namespaces) to make a read-only place")

    def inside(*args: str) -> subprocess.CompletedProcess:
        mount = f"mount --bind {tmp_path} {tmp_path} && mount -o remount,bind,ro {tmp_path}"
        command = " ".join(f"'{a}'" for a in args)
        return subprocess.run(
            ["unshare", "-m", "sh", "-c", f"{mount} && exec {command}"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return inside


@pytest.mark.slow
def test_a_store_in_a_read_only_place_is_still_reported(tmp_path, read_only_mount):
    store = tmp_path / "results.db"
    assert runner.invoke(app, [*EVAL, "--out", str(store)]).exit_code == 0
    done = read_only_mount(*_script(), "report", str(store))
    assert done.returncode == 0, done.stderr
    assert "planning-simple" in done.stdout or "oracle" in done.stdout
    cannot = read_only_mount(*_script(), *EVAL, "--out", str(store), "--runs", "2")
    assert cannot.returncode == 2 and "Traceback" not in cannot.stderr


def test_a_sqlite_store_locked_by_another_process_is_a_bounded_wait(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite, "LOCK_WAIT_S", 0.3)
    path = tmp_path / "results.db"
    Store(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        with (
            Store(path) as store,  # read: WAL readers do not wait for the writer
            pytest.raises(BackendUnavailableError, match="stayed locked by another"),
        ):
            store.renew("me", 60)
        assert time.monotonic() - started < 10
        monkeypatch.chdir(tmp_path)
        result = runner.invoke(app, [*EVAL, "--out", str(path)])
        assert result.exit_code == 2
        assert "stayed locked by another process for 0.3 s" in " ".join(result.output.split())
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_postgres_store_whose_lock_another_session_holds_is_a_bounded_wait(
    postgres_url, monkeypatch
):
    import psycopg

    Store(postgres_url).close()
    monkeypatch.setattr(postgres, "LOCK_WAIT_S", 0.3)
    with psycopg.connect(postgres_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (sqlite.APPLICATION_ID,))
        started = time.monotonic()
        result = runner.invoke(app, [*EVAL, "--out", postgres_url])
        assert time.monotonic() - started < 30
    assert result.exit_code == 2, result.output
    assert "another session held its lock for 0.3 s" in " ".join(result.output.split())


def _count(url: str) -> tuple[int, int]:
    import psycopg

    keys = "DISTINCT (task_id, planner, options, model, run)"
    with psycopg.connect(url) as db:
        try:
            return db.execute(f"SELECT count(*), count({keys}) FROM episodes").fetchone()
        except psycopg.errors.UndefinedTable:  # not made yet
            return (0, 0)


@pytest.mark.slow
def test_a_killed_backend_stops_the_eval_with_one_line_and_the_rerun_finishes(postgres_url):
    import psycopg

    args = [*_script(), "eval", "-s", "office-planning", "-p", "oracle", "--processes", "1"]
    args += ["--out", postgres_url]
    worker = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _count(postgres_url)[0] < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    _, stderr = worker.communicate(timeout=120)
    stored, _ = _count(postgres_url)
    assert worker.returncode == 2, stderr
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "the results store" in lines[0], stderr
    assert 3 <= stored < 30
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert f"({stored} already there)" in again.stdout
    assert _count(postgres_url) == (30, 30)  # every job once


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.slow
def test_a_signal_to_an_eval_stops_its_worker_processes_too(tmp_path, sig):
    args = [*_script(), "eval", "-s", "office-planning", "-p", "oracle", "--processes", "2"]
    eval_ = subprocess.Popen(
        [*args, "--out", str(tmp_path / "r.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.default_int_handler),
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        workers = _children(eval_.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the eval started no pool"
    os.kill(eval_.pid, sig)
    eval_.communicate(timeout=60)
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers)), "a worker process was left running"


@pytest.mark.parametrize("command", [["report"], [*EVAL, "--out"]], ids=["report", "eval"])
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "is a folder; give a "),
        (lambda p: p.write_bytes(bytes(range(256)) * 20), "not a sceneplan results store"),
        (
            lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 300),
            "not a sceneplan results",
        ),
    ],
    ids=["folder", "garbage", "sqlite-header-then-garbage"],
)
def test_a_store_file_that_is_no_store_is_one_line(tmp_path, command, make, message):
    store = tmp_path / "results.db"
    make(store)
    result = runner.invoke(app, [*command, str(store)])
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.count("\n") == 1, result.output


def _without_file_rights() -> list[str] | None:
    """A prefix that runs a command without the right to read or write any file regardless
    of its mode (root's, dropped with setpriv); [] when not root; None when it cannot."""
    if os.geteuid() != 0:
        return []
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    try:
        done = subprocess.run([*drop, "true"], capture_output=True, timeout=30, check=False)
    except OSError:
        return None
    return drop if done.returncode == 0 else None


def test_a_store_file_that_cannot_be_read_or_written_is_one_line(tmp_path):
    prefix = _without_file_rights()
    if prefix is None:
        pytest.skip("runs as root without setpriv: every file is readable")
    store = tmp_path / "results.db"
    assert runner.invoke(app, [*EVAL, "--out", str(store)]).exit_code == 0
    tmp_path.chmod(0o777)
    store.chmod(0o000)
    for args in (["report", str(store)], [*EVAL, "--out", str(store), "--runs", "2"]):
        done = subprocess.run(
            [*prefix, *_script(), *args], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr == (
            f"error: cannot read the results store {store} (Permission denied); give read "
            "access to it (chmod u+r) or copy it somewhere readable\n"
        )
    store.chmod(0o444)  # readable, not writable: eval refuses it before running anything
    done = subprocess.run(
        [*prefix, *_script(), *EVAL, "--out", str(store), "--runs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "cannot write the results store" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    with Store(store, create=False) as opened:
        assert len(opened) == 1
