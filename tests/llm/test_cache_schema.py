"""The response cache's schema: made once by racing processes, migrated, newer ones refused."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from sceneplan import sqlite_migrations
from sceneplan.errors import BackendUnavailableError
from sceneplan.llm.cache import APPLICATION_ID, MIGRATIONS, ResponseCache


def schema(path) -> tuple[int, int, list[str]]:
    """The file's application id, version and table names."""
    db = sqlite3.connect(path)
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [
            r[0]
            for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
    finally:
        db.close()
    return app_id, version, tables


@pytest.mark.slow
def test_processes_creating_the_cache_at_once_all_succeed_with_one_schema(tmp_path):
    path = tmp_path / "cache" / "responses.sqlite"
    code = (
        "import sys\nfrom sceneplan.llm.cache import ResponseCache\n"
        "ResponseCache(__import__('pathlib').Path(sys.argv[1])).close()"
    )
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(6)
    ]
    results = [(p.wait(timeout=60), p.stderr.read().decode()) for p in openers]
    assert all(rc == 0 for rc, _ in results), results
    assert schema(path) == (APPLICATION_ID, len(MIGRATIONS), ["rejections", "responses"])


def test_a_migration_another_process_applied_meanwhile_is_skipped(tmp_path):
    path = tmp_path / "responses.sqlite"
    ResponseCache(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    # a stale version, as read before another process migrated: CREATE TABLE would fail
    sqlite_migrations.migrate(db, MIGRATIONS, application_id=APPLICATION_ID, version=0)
    db.close()
    assert schema(path) == (APPLICATION_ID, len(MIGRATIONS), ["rejections", "responses"])


def test_a_cache_from_a_newer_sceneplan_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "responses.sqlite"
    ResponseCache(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(BackendUnavailableError) as caught:
        ResponseCache(path)
    assert str(caught.value).startswith(
        f"cannot open the LLM response cache {path}: written by a newer sceneplan "
        f"(schema {len(MIGRATIONS) + 1}); upgrade sceneplan"
    )
    assert schema(path)[1] == len(MIGRATIONS) + 1


def test_a_cache_a_newer_sceneplan_migrates_meanwhile_is_refused_inside_the_transaction(
    tmp_path,
):
    """This process read schema 1; another process (a newer sceneplan) then took the file
    past what this one knows: the migration's own read of the version refuses it."""
    path = tmp_path / "responses.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version=1")
    version = sqlite_migrations.check(
        db,
        path=path,
        kind="cache",
        application_id=APPLICATION_ID,
        latest=len(MIGRATIONS),
        unmarked_ok=True,
    )
    assert version == 1
    newer = len(MIGRATIONS) + 1
    code = (
        f"import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version={newer}')"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)
    with pytest.raises(sqlite_migrations.SchemaError, match=f"newer sceneplan .schema {newer}"):
        sqlite_migrations.migrate(
            db, MIGRATIONS, application_id=APPLICATION_ID, version=version, path=path
        )
    assert not db.in_transaction
    db.close()
    assert schema(path) == (0, newer, ["responses"])  # left as the newer one wrote it


def test_an_unmarked_cache_of_schema_1_gains_the_rejections_table_and_the_mark(tmp_path):
    path = tmp_path / "responses.sqlite"
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)
    db.execute("INSERT INTO responses VALUES ('k', 'm', '{}', 0)")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    ResponseCache(path).close()
    assert schema(path) == (APPLICATION_ID, len(MIGRATIONS), ["rejections", "responses"])
    db = sqlite3.connect(path)
    assert db.execute("SELECT key FROM responses").fetchall() == [("k",)]
    db.close()


def test_another_kind_of_sqlite_file_is_refused_as_a_cache(tmp_path):
    path = tmp_path / "store.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=0x53505253")  # a results store
    db.execute("CREATE TABLE episodes (id INTEGER)")
    db.close()
    with pytest.raises(BackendUnavailableError, match="not a sceneplan LLM response cache"):
        ResponseCache(path)
