"""The SQLite dialect of the results store: one file, the embedded default.

Each row is committed on its own in WAL mode, so a run stopped by Ctrl-C or
a crash keeps every Episode finished before it; concurrent evals on one
machine (or a file system where SQLite locking works) share the file, their
write transactions taken in turn (`BEGIN IMMEDIATE`). The schema changes only
through the numbered migrations below, applied by `sceneplan.sqlite_migrations`
(in order, counted in `PRAGMA user_version`); `PRAGMA application_id` marks
the file as a store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sceneplan import sqlite_migrations
from sceneplan.errors import BackendUnavailableError, BadInputError

# Marks the file as a sceneplan results store ("SPRS").
APPLICATION_ID = 0x53505253
# How long a statement waits for another process's write transaction before it fails.
LOCK_WAIT_S = 60.0


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            task_id TEXT NOT NULL,
            planner TEXT NOT NULL,
            model TEXT NOT NULL,
            run INTEGER NOT NULL,
            suite TEXT NOT NULL,
            environment TEXT NOT NULL,
            family TEXT,
            status TEXT NOT NULL,
            error TEXT,
            error_type TEXT,
            executable INTEGER,
            goal_reached INTEGER,
            answer_correct INTEGER,
            answer_room_explored INTEGER,
            replans INTEGER NOT NULL,
            search_turns INTEGER NOT NULL,
            llm_calls INTEGER NOT NULL,
            input_tokens INTEGER NOT NULL,
            output_tokens INTEGER NOT NULL,
            cost_usd REAL NOT NULL,
            wall_time_s REAL NOT NULL,
            created_at TEXT NOT NULL,
            episode TEXT NOT NULL,
            UNIQUE (task_id, planner, model, run)
        )
        """
    )
    db.execute("CREATE INDEX episodes_planner_model ON episodes (planner, model)")
    db.execute("CREATE INDEX episodes_suite_family ON episodes (suite, family)")
    db.execute("CREATE INDEX episodes_status ON episodes (status)")


def _v2(db: sqlite3.Connection) -> None:
    """Planner options join the key; rows stored before ran with the defaults (`{}`)."""
    sqlite_migrations.rebuild_table(
        db,
        "episodes",
        lambda sql: sql.replace(
            "planner TEXT NOT NULL,\n",
            "planner TEXT NOT NULL,\n            options TEXT NOT NULL,\n",
        ).replace(
            "UNIQUE (task_id, planner, model, run)",
            "UNIQUE (task_id, planner, options, model, run)",
        ),
        fill={"options": "'{}'"},
        indexes=_INDEXES,
    )


# The indexes of `episodes` since schema 2 (made again with the table when it is rebuilt).
_INDEXES = (
    "CREATE INDEX episodes_planner_model ON episodes (planner, options, model)",
    "CREATE INDEX episodes_suite_family ON episodes (suite, family)",
    "CREATE INDEX episodes_status ON episodes (status)",
)


def _v3(db: sqlite3.Connection) -> None:
    """Correctness (the goal after a relaxed execution) and the strict success as columns.

    Runs stored before have no correctness (NULL: the report shows "-" for it);
    their success is read from their status.
    """
    db.execute("ALTER TABLE episodes ADD COLUMN correct INTEGER")
    db.execute("ALTER TABLE episodes ADD COLUMN success INTEGER")
    db.execute("UPDATE episodes SET success = (status = 'success')")


def _v4(db: sqlite3.Connection) -> None:
    """`cost_usd` may be NULL: the cost of a run on a model without a price is unknown.

    Runs stored before keep their cost (0 for unpriced models, as it was recorded).
    """
    sqlite_migrations.rebuild_table(
        db,
        "episodes",
        lambda sql: sql.replace("cost_usd REAL NOT NULL", "cost_usd REAL"),
        indexes=_INDEXES,
    )


def _v5(db: sqlite3.Connection) -> None:
    """`task_hash`: the task's content when the run was made, to re-run edited tasks.

    Runs stored before have none (NULL): their task is taken as unchanged.
    """
    db.execute("ALTER TABLE episodes ADD COLUMN task_hash TEXT")


def _v6(db: sqlite3.Connection) -> None:
    """`leases`: the jobs a running `sceneplan eval` has claimed, so that concurrent ones split
    the work. A lease names its owner and expires (a killed worker's jobs are free again)."""
    db.execute(
        """
        CREATE TABLE leases (
            task_id TEXT NOT NULL,
            planner TEXT NOT NULL,
            options TEXT NOT NULL,
            model TEXT NOT NULL,
            run INTEGER NOT NULL,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL,
            PRIMARY KEY (task_id, planner, options, model, run)
        )
        """
    )


# Migration n (1-based) brings the schema from version n-1 to n. Append, never edit.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (*(_v1, _v2, _v3, _v4, _v5, _v6),)


class SQLite:
    """A results store in an SQLite file (`path`, or `sqlite:///path`)."""

    name = "sqlite"
    # the current time in seconds since the epoch, as leases count it
    now = "((julianday('now') - 2440587.5) * 86400.0)"
    for_update = ""  # a write transaction locks the whole file already
    # a lock held too long, a disk that fails: the store's own error (`failure`)
    errors: tuple[type[Exception], ...] = (sqlite3.OperationalError,)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        self.read_only = False  # opened where nothing can be written (`_open_read_only`)

    def sql(self, text: str) -> str:
        return text

    def connect(self, *, create: bool) -> sqlite3.Connection:
        """Open (with `create`, make) the store and bring its schema up to date."""
        db = self.probe(create=create)
        if self.read_only:
            if self._check(db) < len(MIGRATIONS):
                db.close()
                raise BadInputError(
                    f"{self.path}: a store of an older sceneplan, in a place that cannot be "
                    "written, so it cannot be upgraded; copy it somewhere writable"
                )
            return db
        try:
            self._migrate(db)
        except sqlite_migrations.SchemaError:  # a newer sceneplan migrated it meanwhile
            db.close()
            raise
        except sqlite3.DatabaseError as exc:
            db.close()
            raise BadInputError(f"{self.path}: not a sceneplan results store ({exc})") from None
        return db

    def probe(self, *, create: bool) -> sqlite3.Connection:
        """A connection to the store, checked to be usable but not changed."""
        if self.path.is_dir():
            raise BadInputError(
                f"the results store {self.path} is a folder; give a store file "
                f"(`sceneplan eval --out {self.path / 'results.db'}` makes one)"
            )
        if self.path.is_file():
            try:
                with self.path.open("rb") as file:
                    file.read(1)
            except OSError as exc:
                raise BadInputError(
                    f"cannot read the results store {self.path} "
                    f"({exc.strerror or exc}); give read access to it (chmod u+r) "
                    "or copy it somewhere readable"
                ) from None
        if not create and not self.path.is_file():
            raise BadInputError(
                f"no results store at {self.path} (`sceneplan eval --out` makes one)"
            )
        if not create and self.path.stat().st_size == 0:  # SQLite would make it a store
            raise BadInputError(
                f"{self.path} is empty (0 bytes): not a sceneplan results store "
                "(`sceneplan eval --out` makes one)"
            )
        if not self.path.parent.is_dir():
            raise BadInputError(
                f"cannot create the results store {self.path}: "
                f"the folder {self.path.parent} does not exist (create it first)"
            )
        try:
            # concurrent evals share the file: wait for another's transaction, not fail
            db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT_S)
            self._check(db)
        except sqlite3.OperationalError as exc:
            if create or "unable to open" not in str(exc):
                raise self._refused(exc) from None
            return self._open_read_only()
        except sqlite3.DatabaseError as exc:
            raise BadInputError(f"{self.path}: not a sceneplan results store ({exc})") from None
        return db

    def _open_read_only(self) -> sqlite3.Connection:
        """The store in a place nothing can be written (a read-only folder or file system),
        opened to be read: SQLite's WAL mode cannot open it otherwise, as it would write its
        shared-memory file beside it. Nothing can change it there, so it is read as is."""
        uri = self.path.resolve().as_uri() + "?mode=ro&immutable=1"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None)
            self._check(db)
        except sqlite3.DatabaseError as exc:
            raise BadInputError(f"{self.path}: not a sceneplan results store ({exc})") from None
        self.read_only = True
        return db

    def _refused(self, exc: sqlite3.OperationalError) -> Exception:
        if _locked(exc):
            return self.failure(exc)
        return BadInputError(f"{self.path}: not a sceneplan results store ({exc})")

    def _check(self, db: sqlite3.Connection) -> int:
        """The schema version, after refusing a file that is not a store or is newer."""
        try:
            return sqlite_migrations.check(
                db,
                path=self.path,
                kind="sceneplan results store",
                application_id=APPLICATION_ID,
                latest=len(MIGRATIONS),
            )
        except sqlite_migrations.SchemaError:
            db.close()
            raise

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = self._check(db)
        sqlite_migrations.use_wal(db)  # another eval may be switching it too
        # a commit survives the process being killed, not a power cut: a run lost that way
        # is made again when the eval is resumed (no fsync per stored episode)
        db.execute("PRAGMA synchronous=NORMAL")
        sqlite_migrations.migrate(
            db, MIGRATIONS, application_id=APPLICATION_ID, version=version, path=self.path
        )

    def version(self, db: sqlite3.Connection) -> int:
        return db.execute("PRAGMA user_version").fetchone()[0]

    @contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """A write transaction, taken at once (other writers wait for it, not fail later)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def failure(self, exc: Exception) -> Exception:
        """The error for a statement that failed: a lock held too long, a disk that fails."""
        if _locked(exc):
            return BackendUnavailableError(
                f"the results store {self.path} stayed locked by another process for "
                f"{LOCK_WAIT_S:g} s; let the other sceneplan finish (or stop it), then run "
                "the same command again"
            )
        return BackendUnavailableError(f"the results store {self.path} failed: {exc}")


def _locked(exc: Exception) -> bool:
    return "database is locked" in str(exc) or "database table is locked" in str(exc)
