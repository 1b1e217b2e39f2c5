"""Numbered schema migrations for sceneplan's SQLite files (the results store, the LLM cache).

A file's schema changes only through its list of migrations, applied in order:
migration n (1-based) brings the schema from version n-1 to n, and
`PRAGMA user_version` counts those applied. `PRAGMA application_id` marks
which kind of sceneplan file it is, so that one kind is never opened as another.

Several processes may open (and create) one file at once. `check` reads the
tables, the id and the version in one read transaction; `migrate` applies each
migration in its own `BEGIN IMMEDIATE` transaction and re-reads the version
inside it, so that a migration another process has just committed is skipped,
not applied twice. A file newer than the migrations known here is refused, by
`check` and again inside each migration's transaction.

The connection must be in autocommit (`isolation_level=None`) or have no
transaction open: these functions begin and commit their own.

A migration that changes what SQLite cannot alter in place (a column's
constraint, a UNIQUE key) calls `rebuild_table`, SQLite's documented
procedure: make the new table, copy the rows, drop the old one, rename.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence

from sceneplan.errors import BadInputError

Migration = Callable[[sqlite3.Connection], None]


class SchemaError(BadInputError):
    """A file that is not of the expected kind, or written by a newer sceneplan.

    `reason` is the message without the file's name, for callers that word it their way.
    """

    def __init__(self, path: object, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def check(
    db: sqlite3.Connection,
    *,
    path: object,
    kind: str,
    application_id: int,
    latest: int,
    unmarked_ok: bool = False,
) -> int:
    """The file's schema version, after refusing one that is not a `kind` or is newer.

    A file is a `kind` if it carries `application_id`, or is empty (no tables, id 0).
    With `unmarked_ok`, a file with tables and id 0 passes too (files made before the
    id was written). Raises SchemaError naming `path` and the fix; does not close `db`.
    """
    # one read transaction: another process creating the same file commits its tables and
    # its application id together, and the three reads must see both or neither
    db.execute("BEGIN")
    try:
        has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.execute("COMMIT")
    if app_id != application_id and (app_id != 0 or (has_tables and not unmarked_ok)):
        raise SchemaError(path, f"an SQLite file, but not a {kind}")
    if version > latest:
        raise SchemaError(path, _newer(version))
    return version


def migrate(
    db: sqlite3.Connection,
    migrations: Sequence[Migration],
    *,
    application_id: int,
    version: int,
    path: object = "the file",
) -> None:
    """Apply `migrations[version:]` in order, each in one immediate transaction.

    `version` is what `check` returned. Inside each transaction the version is read
    again: if another process applied that migration meanwhile, it is skipped; if a
    newer sceneplan migrated the file past the migrations known here, SchemaError (naming
    `path`), the file as it is. Each commit also writes `application_id`. A migration
    that fails is rolled back.
    """
    for number in range(version + 1, len(migrations) + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            current = db.execute("PRAGMA user_version").fetchone()[0]
            if current > len(migrations):
                raise SchemaError(path, _newer(current))
            if current >= number:
                db.execute("COMMIT")  # another process opening the same file got there first
                continue
            migrations[number - 1](db)
            db.execute(f"PRAGMA application_id={application_id}")
            db.execute(f"PRAGMA user_version={number}")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def _newer(version: int) -> str:
    return f"written by a newer sceneplan (schema {version}); upgrade sceneplan"


def rebuild_table(
    db: sqlite3.Connection,
    table: str,
    edit: Callable[[str], str],
    *,
    fill: Mapping[str, str] | None = None,
    indexes: Sequence[str] = (),
) -> None:
    """Rebuild `table` with the schema `edit` makes of its CREATE TABLE statement, keeping its rows.

    The columns of both tables are copied as they are; a new column gets its SQL expression
    from `fill` (`{"options": "'{}'"}`). Dropping the old table drops its indexes: `indexes`
    are the CREATE INDEX statements made again on the new one. Runs inside the migration's
    transaction (https://www.sqlite.org/lang_altertable.html#otheralter).
    """
    (sql,) = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    old = _columns(db, table)
    new_name = f"{table}_new"
    db.execute(edit(sql).replace(table, new_name, 1))
    fill = dict(fill or {})
    columns = [c for c in _columns(db, new_name) if c in old or c in fill]
    targets = ", ".join(columns)
    values = ", ".join(fill.get(c, c) for c in columns)
    db.execute(f"INSERT INTO {new_name} ({targets}) SELECT {values} FROM {table}")
    db.execute(f"DROP TABLE {table}")
    db.execute(f"ALTER TABLE {new_name} RENAME TO {table}")
    for index in indexes:
        db.execute(index)


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def use_wal(db: sqlite3.Connection, attempts: int = 100) -> None:
    """Switch `db` to WAL, waiting while another process switches the same file.

    The busy timeout does not cover this switch: a second process making the same file
    can find it locked, so the switch is retried every 0.1 s, `attempts` times at most.
    """
    for attempt in range(attempts):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.1)
