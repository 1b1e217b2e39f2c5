"""The PostgreSQL results store: its schema, its errors, and moving runs to and from SQLite.

Against a real server (`postgres_server` in conftest.py); the cases both kinds
of store share run in test_store.py and test_workers.py on both.
"""

from __future__ import annotations

import sqlite3
import sys
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from pg_cluster import new_database
from sceneplan.cli import app
from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.eval.store import COLUMNS, MIGRATIONS, Store

pytestmark = pytest.mark.slow  # a PostgreSQL server

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_the_schema_is_the_sqlite_stores_column_for_column(postgres_url, tmp_path):
    import psycopg

    with Store(postgres_url) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert store.location == postgres_url.replace(
            f":{urlsplit(postgres_url).password}@", ":***@"
        )
    Store(tmp_path / "r.db").close()
    with sqlite3.connect(tmp_path / "r.db") as db:
        sqlite_columns = [row[1] for row in db.execute("PRAGMA table_info(episodes)")]
        sqlite_leases = [row[1] for row in db.execute("PRAGMA table_info(leases)")]
    with psycopg.connect(postgres_url) as db:
        columns = [
            [
                name
                for (name,) in db.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                    "ORDER BY ordinal_position",
                    (table,),
                )
            ]
            for table in ("episodes", "leases")
        ]
    assert columns == [sqlite_columns, sqlite_leases]
    assert sorted(sqlite_columns) == sorted(["id", *COLUMNS])  # every column is written


def test_the_tables_take_their_types_keys_and_indexes_from_the_sqlite_schema(postgres_url):
    """The PostgreSQL tables are derived from the SQLite migrations (`baseline_sql`): the
    types are PostgreSQL's (row id BIGSERIAL, REAL as double precision, token counts 64-bit),
    the nullability, keys and indexes the SQLite store's."""
    import psycopg

    Store(postgres_url).close()
    with psycopg.connect(postgres_url) as db:
        types = {
            (table, name): (kind, nullable, bool(default))
            for table, name, kind, nullable, default in db.execute(
                "SELECT table_name, column_name, data_type, is_nullable, column_default "
                "FROM information_schema.columns WHERE table_name IN ('episodes', 'leases')"
            )
        }
        constraints = sorted(
            (kind, [c.strip() for c in columns.split(",")])
            for kind, columns in db.execute(
                "SELECT contype, substring(pg_get_constraintdef(oid) from '[(](.*)[)]') "
                "FROM pg_constraint WHERE conrelid IN ('episodes'::regclass, 'leases'::regclass)"
            )
        )
        indexes = {
            name
            for (name,) in db.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'episodes'"
            )
        }
    assert types["episodes", "id"] == ("bigint", "NO", True)  # a sequence numbers the rows
    assert types["episodes", "input_tokens"] == ("bigint", "NO", False)
    assert types["episodes", "output_tokens"] == ("bigint", "NO", False)
    assert types["episodes", "run"] == ("integer", "NO", False)
    assert types["episodes", "family"] == ("text", "YES", False)
    assert types["episodes", "cost_usd"] == ("double precision", "YES", False)  # schema 4
    assert types["episodes", "task_hash"] == ("text", "YES", False)  # schema 5
    assert types["leases", "expires_at"] == ("double precision", "NO", False)
    key = ["task_id", "planner", "options", "model", "run"]
    assert constraints == [("p", ["id"]), ("p", key), ("u", key)]
    assert {"episodes_planner_model", "episodes_suite_family", "episodes_status"} <= indexes


def _fails(result, *phrases: str, password: str | None = None) -> None:
    """Exit 2, one message with these phrases, no traceback, the password nowhere."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for phrase in phrases:
        assert phrase in result.stderr, result.stderr
    if password:
        assert password not in result.output


def test_a_server_that_is_down_a_wrong_password_or_database_are_one_line_each(
    postgres_server, tmp_path
):
    parts = urlsplit(postgres_server)
    password = parts.password
    down = f"postgresql://{parts.username}:{password}@127.0.0.1:9/results"
    _fails(
        run("eval", "-s", "office-planning", "-p", "oracle", "--out", down),
        "cannot reach the PostgreSQL server of postgresql://sceneplan:***@127.0.0.1:9/results",
        "is it running and reachable at 127.0.0.1:9?",
        password=password,
    )
    wrong = postgres_server.replace(f":{password}@", ":not-the-password@")
    _fails(
        run("report", wrong),
        "the server refused the user or password; check the user and password in the URL",
        password="not-the-password",
    )
    missing = postgres_server.rsplit("/", 1)[0] + "/no_such_db"
    _fails(
        run("eval", "-s", "office-planning", "-p", "oracle", "--out", missing),
        "the database no_such_db does not exist on 127.0.0.1:",
        "create it first (createdb no_such_db)",
        password=password,
    )
    _fails(run("report", "mysql://x@y/z"), "unknown kind of results store 'mysql://'")
    assert not list(tmp_path.iterdir())  # nothing written anywhere


def test_a_newer_schema_or_a_database_of_other_tables_is_refused(postgres_url):
    import psycopg

    _fails(run("report", postgres_url), "no results store in postgresql://")
    Store(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE sceneplan_store SET schema_version = %s", (len(MIGRATIONS) + 1,))
    password = urlsplit(postgres_url).password
    _fails(
        run("report", postgres_url),
        f"written by a newer sceneplan (schema {len(MIGRATIONS) + 1}); upgrade sceneplan",
        password=password,
    )
    _fails(
        run("eval", "-s", "office-planning", "-p", "oracle", "--out", postgres_url),
        "written by a newer sceneplan",
    )
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP TABLE sceneplan_store")
    with pytest.raises(BadInputError, match="has tables episodes, leases but is not a sceneplan"):
        Store(postgres_url)


def test_without_psycopg_the_error_names_the_extra(postgres_url, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(BackendUnavailableError, match=r"pip install 'sceneplan\[postgres\]'"):
        Store(postgres_url)
    _fails(run("report", postgres_url), "needs psycopg: pip install 'sceneplan[postgres]'")


def test_runs_move_both_ways_and_report_the_same(postgres_server, coffee_tasks, tmp_path):
    """SQLite shards into PostgreSQL and back: `report` gives the same Markdown (byte for byte
    under one --title; by default the title line names the store) and the same JSON."""
    a, b, back = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "back.db"
    base = ["eval", "-s", coffee_tasks, "-s", "office-planning", "-p", "oracle"]
    assert run(*base, "-t", "coffee-plan-01,coffee-search-01", "--out", a).exit_code == 0
    picked = "coffee-plan-02,coffee-search-02,planning-simple-01"
    assert run(*base, "-t", picked, "--out", b).exit_code == 0
    with new_database(postgres_server) as url, new_database(postgres_server) as url2:
        merged = run("store", "merge", a, b, "--out", url)
        assert merged.exit_code == 0, merged.output
        assert "5 result(s) merged into postgresql://sceneplan:***@" in merged.stdout
        assert "throwaway" not in merged.output
        again = run("store", "merge", a, "--out", url)  # the same runs again: not newer
        assert "0 result(s) merged" in again.stdout and "2 older duplicate(s)" in again.stdout
        assert run("store", "merge", url, "--out", back).exit_code == 0
        assert run("store", "merge", back, "--out", url2).exit_code == 0  # and in again
        reports = [run("report", where) for where in (url, back, url2)]
        assert all(r.exit_code == 0 for r in reports), [r.output for r in reports]
        bodies = [r.stdout.split("\n", 1) for r in reports]
        assert bodies[0][0].startswith("# sceneplan results: postgresql://sceneplan:***@")
        assert bodies[1][0] == f"# sceneplan results: {back}"
        assert bodies[0][1] == bodies[1][1] == bodies[2][1]
        assert "| oracle | none | 5 | 5 | 1 | 5 | 0 | 0 |" in bodies[0][1]
        titled = [run("report", w, "--title", "shards").stdout for w in (url, back)]
        assert titled[0] == titled[1] and titled[0].startswith("# sceneplan results: shards\n")
        json_reports = [run("report", w, "-f", "json").stdout for w in (url, back)]
        assert (
            json_reports[0].replace(url, "X").split('"metrics"')[1]
            == (json_reports[1].split('"metrics"')[1])
        )
        compared = run("report", "--compare", url, back)
        assert compared.exit_code == 0, compared.output
        assert "throwaway" not in compared.output
        page = tmp_path / "run.html"
        shown = run("view", "--store", url, "-t", "coffee-plan-01", "-p", "oracle", "-o", page)
        assert shown.exit_code == 0, shown.output
        assert "coffee" in page.read_text(encoding="utf-8")
        unknown = run(
            "view", "--store", url, "-t", "nope-01", "-p", "oracle", "-o", page, "--force"
        )
        assert unknown.exit_code == 2 and "no run of task 'nope-01' in postgresql://" in (
            unknown.stderr
        )
        assert "throwaway" not in unknown.output
