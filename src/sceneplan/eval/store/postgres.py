"""The PostgreSQL dialect of the results store: one database that workers on many machines share.

`postgresql://USER:PASSWORD@HOST:PORT/DB` (or a password from PGPASSWORD or
~/.pgpass, as libpq finds it). The store's tables are made in the database's
default schema at the SQLite store's schema `BASELINE`, read from its
migrations (`baseline_sql`: the same columns in the same order, one
declaration for both dialects); `sceneplan_store` holds its application id and
schema version, and migrations after the baseline are written once, in SQL
both dialects run. Opening and migrating happen under an advisory lock, so
workers that start together make the tables once.

Needs psycopg 3, the `postgres` extra; it is imported only here.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.eval.store.sqlite import APPLICATION_ID, LOCK_WAIT_S, MIGRATIONS

# The SQLite schema version that `baseline_sql()` makes at once.
BASELINE = 6

# Columns whose values may pass 2**31: an SQLite INTEGER holds 64 bits, a PostgreSQL one 32.
_WIDE = frozenset({"input_tokens", "output_tokens"})


def baseline_sql() -> list[str]:
    """The statements that make the store at schema `BASELINE` in PostgreSQL.

    The tables are the SQLite store's after its first `BASELINE` migrations
    (made in memory and read back), so that the two dialects declare them in
    one place: the same columns in the same order, with the same keys and
    indexes. `sceneplan_store` (the application id and schema version) is
    PostgreSQL's own.
    """
    db = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS[:BASELINE]:
            migration(db)
        statements: list[str] = []
        for table in ("episodes", "leases"):
            statements.append(_create_table(db, table))
            statements += [
                sql
                for (sql,) in db.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                    "AND sql IS NOT NULL ORDER BY rowid",
                    (table,),
                )
            ]
    finally:
        db.close()
    statements.append(
        "CREATE TABLE sceneplan_store "
        "(application_id BIGINT NOT NULL, schema_version INTEGER NOT NULL)"
    )
    return statements


def _create_table(db: sqlite3.Connection, table: str) -> str:
    """The CREATE TABLE of an SQLite `table` in PostgreSQL's types: an `INTEGER PRIMARY KEY`
    (SQLite's row id) is a BIGSERIAL, a REAL a DOUBLE PRECISION."""
    columns = list(db.execute(f"PRAGMA table_info({table})"))  # cid, name, type, notnull, ...
    key = [name for *_, name in sorted((c[5], c[1]) for c in columns if c[5])]
    row_id = len(key) == 1 and any(c[1] == key[0] and c[2] == "INTEGER" for c in columns)
    parts = []
    for _, name, kind, not_null, _, _ in columns:
        if row_id and name == key[0]:
            parts.append(f"{name} BIGSERIAL PRIMARY KEY")
            continue
        kind = "BIGINT" if name in _WIDE else {"REAL": "DOUBLE PRECISION"}.get(kind, kind)
        parts.append(f"{name} {kind}{' NOT NULL' if not_null else ''}")
    if key and not row_id:
        parts.append(f"PRIMARY KEY ({', '.join(key)})")
    for _, index, _, origin, _ in db.execute(f"PRAGMA index_list({table})"):
        if origin == "u":  # a UNIQUE constraint
            unique = [row[2] for row in db.execute(f"PRAGMA index_info({index})")]
            parts.append(f"UNIQUE ({', '.join(unique)})")
    return f"CREATE TABLE {table} ({', '.join(parts)})"


_SCHEMES = ("postgresql://", "postgres://")


def is_url(location: str) -> bool:
    return location.startswith(_SCHEMES)


_ENCODE = "percent-encode ':' '@' '/' '#' in a user or password (%3A %40 %2F %23)"


def parse_url(url: str) -> tuple[str, str]:
    """The database and the `host:port` of a `postgresql://` URL; BadInputError naming
    what is wrong with it (every store URL is read here, before psycopg sees it).

    >>> parse_url("postgresql://ann:p%40ss@db.lab:6543/bench")
    ('bench', 'db.lab:6543')
    >>> parse_url("postgresql://ann:p#ss@db.lab/bench")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sceneplan.errors.BadInputError: the store URL postgresql://ann:***@db.lab/bench has a '#' ...
    """
    if "#" in url:
        raise BadInputError(
            f"the store URL {masked_loosely(url)} has a '#' (which ends a URL's address); "
            + _ENCODE
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:  # a port that is not a number or out of range, '[' unclosed
        raise BadInputError(
            f"the store URL {masked_loosely(url)} is not usable ({exc}); the port is a "
            f"number from 1 to 65535, and {_ENCODE}"
        ) from None
    if "@" in parts.netloc.rpartition("@")[0]:  # libpq ends the password at the first '@'
        raise BadInputError(f"the store URL {masked_loosely(url)} has two '@'; {_ENCODE}")
    if port == 0:
        raise BadInputError(
            f"the store URL {masked(url)} has port 0; the port is a number from 1 to 65535"
        )
    database = parts.path.lstrip("/") or parts.username or "postgres"
    return database, f"{parts.hostname or 'localhost'}:{port or 5432}"


def masked_loosely(url: str) -> str:
    """A URL that may not parse, with what may be a password replaced by ***.

    >>> masked_loosely("postgresql://ann:p#ss@db/x")
    'postgresql://ann:***@db/x'
    """
    scheme, _, rest = url.partition("://")
    userinfo, at, address = rest.rpartition("@")
    if not at:
        return url
    return f"{scheme}://{re.split(r'[:/#]', userinfo, maxsplit=1)[0]}:***@{address}"


def masked(url: str) -> str:
    """The URL with its password replaced by ***, to print.

    >>> masked("postgresql://ann:s3cret@db.lab:5432/bench")
    'postgresql://ann:***@db.lab:5432/bench'
    >>> masked("postgresql://ann@db.lab/bench")
    'postgresql://ann@db.lab/bench'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = netloc[0].partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[2]}"))


class Postgres:
    """A results store in a PostgreSQL database."""

    name = "postgresql"
    now = "extract(epoch from clock_timestamp())::float8"
    for_update = " FOR UPDATE"  # claims lock the lease row until they commit

    def __init__(self, url: str) -> None:
        self.url = url
        self.path = None
        self._database, self._server = parse_url(url)
        self.location = masked(url)
        psycopg = _psycopg()
        self.errors: tuple[type[Exception], ...] = (psycopg.Error,)

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def connect(self, *, create: bool) -> Any:
        """Open the store (making its tables with `create`) and bring its schema up to date."""
        db = self.probe(create=create)
        # the lock first, then a transaction: one begun before another opener's commit
        # could miss the tables that opener made
        with self._closed_on_failure(db), _locked(db, shared=False), db.transaction():
            version = self._check(db, create=create)
            if version == 0:
                for statement in baseline_sql():
                    db.execute(statement)
                db.execute(
                    "INSERT INTO sceneplan_store VALUES (%s, %s)", (APPLICATION_ID, BASELINE)
                )
                version = BASELINE
            for number in range(version + 1, len(MIGRATIONS) + 1):
                MIGRATIONS[number - 1](_Portable(db))  # type: ignore[arg-type]
                db.execute("UPDATE sceneplan_store SET schema_version = %s", (number,))
        return db

    def probe(self, *, create: bool) -> Any:
        """A connection to the store's database, checked to be usable but not changed."""
        psycopg = _psycopg()
        try:
            # a lock another session holds (the store's advisory lock, a claimed row) is
            # waited for LOCK_WAIT_S, then refused with the store's one line (`failure`)
            db = psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=10,
                options=f"-c lock_timeout={int(LOCK_WAIT_S * 1000)}",
            )
        except psycopg.Error as exc:
            raise self._refused(exc) from None
        # not while another opener makes the tables
        with self._closed_on_failure(db), _locked(db, shared=True), db.transaction():
            self._check(db, create=create)
        return db

    @contextmanager
    def _closed_on_failure(self, db: Any) -> Iterator[None]:
        """Close `db` when the block fails; a database error becomes the store's own error."""
        try:
            yield
        except self.errors as exc:
            db.close()
            raise self.failure(exc) from None
        except BaseException:
            db.close()
            raise

    def _check(self, db: Any, *, create: bool) -> int:
        """The schema version (0: no store yet), after refusing what is not a store or newer."""
        tables = ("sceneplan_store", "episodes", "leases")
        found = db.execute("SELECT to_regclass(%s), to_regclass(%s), to_regclass(%s)", tables)
        names = {name for name, oid in zip(tables, found.fetchone(), strict=True) if oid}
        if "sceneplan_store" not in names:
            names |= self._other_tables(db)
            if names:  # another application's database: nothing is written to it
                listed = sorted(names)
                raise BadInputError(
                    f"{self.location}: the database has tables {', '.join(listed[:5])}"
                    + (f" and {len(listed) - 5} more" if len(listed) > 5 else "")
                    + " but is not a sceneplan results store; name a database of its own "
                    f"(createdb {self._database}_results)"
                )
            if not create:
                raise BadInputError(
                    f"no results store in {self.location} (`sceneplan eval --out URL` makes one)"
                )
            return 0
        row = db.execute("SELECT application_id, schema_version FROM sceneplan_store").fetchone()
        if row is None or row[0] != APPLICATION_ID:
            raise BadInputError(f"{self.location}: not a sceneplan results store")
        if row[1] > len(MIGRATIONS):
            raise BadInputError(
                f"{self.location}: written by a newer sceneplan (schema {row[1]}); "
                "upgrade sceneplan"
            )
        return row[1]

    @staticmethod
    def _other_tables(db: Any) -> set[str]:
        """The tables and views in the schema the store would be made in."""
        rows = db.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() LIMIT 100"
        )
        return {name for (name,) in rows}

    def version(self, db: Any) -> int:
        return db.execute("SELECT schema_version FROM sceneplan_store").fetchone()[0]

    @contextmanager
    def transaction(self, db: Any) -> Iterator[None]:
        with db.transaction():
            yield

    def _refused(self, exc: Exception) -> Exception:
        """The error for a connection the server refused or could not make."""
        state = getattr(exc, "sqlstate", None)
        text = _without_password(str(exc), self.url)
        if state == "3D000" or re.search(r'database "[^"]*" does not exist', text):
            return BadInputError(
                f"{self.location}: the database {self._database} does not exist on "
                f"{self._server}; create it first (createdb {self._database})"
            )
        if "no password supplied" in text:
            return BadInputError(
                f"{self.location}: the server asks for a password and none was given (an "
                "empty one counts as none); give it in the URL (or PGPASSWORD, ~/.pgpass)"
            )
        if state in ("28P01", "28000") or "authentication failed" in text:
            return BadInputError(
                f"{self.location}: the server refused the user or password; check the "
                "user and password in the URL (or PGPASSWORD, ~/.pgpass)"
            )
        return BackendUnavailableError(
            f"cannot reach the PostgreSQL server of {self.location} "
            f"({_first_line(text)}); is it running and reachable at {self._server}?"
        )

    def failure(self, exc: Exception) -> Exception:
        """The error for a failure after connecting (the server went away, a query failed)."""
        if getattr(exc, "sqlstate", None) == "55P03":  # lock_timeout
            return BackendUnavailableError(
                f"the results store {self.location}: another session held its lock for "
                f"{LOCK_WAIT_S:g} s; let the other sceneplan finish (or end that session: "
                f"pg_terminate_backend), then run the same command again"
            )
        text = _first_line(_without_password(str(exc), self.url))
        return BackendUnavailableError(f"the results store {self.location} failed: {text}")


@contextmanager
def _locked(db: Any, *, shared: bool) -> Iterator[None]:
    """The store's advisory lock on this session: openers that make or migrate the tables
    hold it alone, openers that only read the schema share it."""
    kind = "_shared" if shared else ""
    db.execute(f"SELECT pg_advisory_lock{kind}(%s)", (APPLICATION_ID,))
    try:
        yield
    finally:
        if not db.closed:
            db.execute(f"SELECT pg_advisory_unlock{kind}(%s)", (APPLICATION_ID,))


class _Portable:
    """A psycopg connection that takes the `?` parameters of migrations written for both."""

    def __init__(self, db: Any) -> None:
        self._db = db

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self._db.execute(sql.replace("?", "%s"), params)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "no reason given"


def _without_password(text: str, url: str) -> str:
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise BackendUnavailableError(
            "a postgresql:// results store needs psycopg: pip install 'sceneplan[postgres]'"
        ) from None
    return psycopg
