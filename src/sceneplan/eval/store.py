"""The results store: one SQLite row per (task, planner, options, model, run), with the Episode.

`options` is the planner's non-default options as canonical JSON (`{}` for
the defaults), so one planner run with other options is another row.

Each row is committed on its own in WAL mode, so a run stopped by Ctrl-C or
a crash keeps every Episode finished before it. Summary columns are indexed
for queries; the Episode JSON next to them is what metrics are computed from.
The schema changes only through the numbered migrations below, applied in
order and counted in `PRAGMA user_version`.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from sceneplan.errors import BadInputError
from sceneplan.planners.episode import Episode, Status

# Marks the file as a sceneplan results store ("SPRS").
APPLICATION_ID = 0x53505253


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
    db.execute(
        """
        CREATE TABLE episodes_v2 (
            id INTEGER PRIMARY KEY,
            task_id TEXT NOT NULL,
            planner TEXT NOT NULL,
            options TEXT NOT NULL,
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
            UNIQUE (task_id, planner, options, model, run)
        )
        """
    )
    kept = ", ".join(_V1_COLUMNS)
    db.execute(f"INSERT INTO episodes_v2 ({kept}, options) SELECT {kept}, '{{}}' FROM episodes")
    db.execute("DROP TABLE episodes")
    db.execute("ALTER TABLE episodes_v2 RENAME TO episodes")
    db.execute("CREATE INDEX episodes_planner_model ON episodes (planner, options, model)")
    db.execute("CREATE INDEX episodes_suite_family ON episodes (suite, family)")
    db.execute("CREATE INDEX episodes_status ON episodes (status)")


_V1_COLUMNS = (
    *("id", "task_id", "planner", "model", "run", "suite", "environment", "family", "status"),
    *("error", "error_type", "executable", "goal_reached", "answer_correct"),
    *("answer_room_explored", "replans", "search_turns", "llm_calls", "input_tokens"),
    *("output_tokens", "cost_usd", "wall_time_s", "created_at", "episode"),
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
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'episodes'").fetchone()
    db.execute(
        sql.replace("episodes", "episodes_v4", 1).replace("cost_usd REAL NOT NULL", "cost_usd REAL")
    )
    columns = ", ".join(name for _, name, *_ in db.execute("PRAGMA table_info(episodes)"))
    db.execute(f"INSERT INTO episodes_v4 ({columns}) SELECT {columns} FROM episodes")
    db.execute("DROP TABLE episodes")
    db.execute("ALTER TABLE episodes_v4 RENAME TO episodes")
    db.execute("CREATE INDEX episodes_planner_model ON episodes (planner, options, model)")
    db.execute("CREATE INDEX episodes_suite_family ON episodes (suite, family)")
    db.execute("CREATE INDEX episodes_status ON episodes (status)")


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

NO_OPTIONS = "{}"


def options_key(options: dict[str, Any]) -> str:
    """A planner's non-default options as the store keys them: canonical JSON.

    >>> options_key({"timeout": 5.0, "planner": "bfsf"})
    '{"planner":"bfsf","timeout":5.0}'
    """
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


_SUMMARY = (
    "task_id",
    "planner",
    "options",
    "model",
    "run",
    "suite",
    "environment",
    "family",
    "status",
    "error",
    "error_type",
    "executable",
    "correct",
    "success",
    "goal_reached",
    "answer_correct",
    "answer_room_explored",
    "replans",
    "search_turns",
    "llm_calls",
    "input_tokens",
    "output_tokens",
    "cost_usd",
    "wall_time_s",
    "created_at",
    "episode",
    "task_hash",
)


@dataclass(frozen=True, order=True)
class Key:
    """What identifies one stored result; `options` as `options_key` writes them."""

    task_id: str
    planner: str
    model: str
    run: int
    options: str = NO_OPTIONS


@dataclass(frozen=True)
class Record:
    """One stored result: the Episode with the suite and run it belongs to."""

    suite: str
    run: int
    episode: Episode

    @property
    def key(self) -> Key:
        e = self.episode
        return Key(e.task_id or "", e.planner, e.model, self.run, options_key(e.options))


class Store:
    """A results file. `Store(path)` creates it; `Store(path, create=False)` needs it to exist."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
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
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise BadInputError(f"{self.path}: not a sceneplan results store ({exc})") from None

    def _migrate(self) -> None:
        db = self._db
        # one read transaction: another eval creating the same store commits its tables and
        # its application id together, and the three reads must see both or neither
        db.execute("BEGIN")
        try:
            has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        finally:
            db.execute("COMMIT")
        if app_id != APPLICATION_ID and (app_id != 0 or has_tables):
            raise BadInputError(f"{self.path}: an SQLite file, but not a sceneplan results store")
        if version > len(MIGRATIONS):
            raise BadInputError(
                f"{self.path}: written by a newer sceneplan (schema {version}); upgrade sceneplan"
            )
        for attempt in range(100):  # another eval may be switching it too: that one holds a lock
            try:
                db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 99:
                    raise
                time.sleep(0.1)
        for number in range(version + 1, len(MIGRATIONS) + 1):
            db.execute("BEGIN IMMEDIATE")
            if db.execute("PRAGMA user_version").fetchone()[0] >= number:
                db.execute("COMMIT")  # another eval opening the same store got there first
                continue
            MIGRATIONS[number - 1](db)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={number}")
            db.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def put(self, suite: str, run: int, episode: Episode, task_hash: str | None = None) -> None:
        """Store one result (replacing a stored one with the same key), committed at once.

        `task_hash` (`runner.task_hash`) identifies the task's content the run was made with.
        """
        if not episode.task_id:
            raise BadInputError("only Episodes of tasks (with a task_id) can be stored")
        summary = episode.summary()
        row = {
            **{name: summary.get(name) for name in _SUMMARY},
            "run": run,
            "options": options_key(episode.options),
            "suite": suite,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "episode": json.dumps(episode.to_dict(), separators=(",", ":")),
            "task_hash": task_hash,
        }
        columns = ", ".join(_SUMMARY)
        marks = ", ".join(f":{name}" for name in _SUMMARY)
        self._db.execute(f"INSERT OR REPLACE INTO episodes ({columns}) VALUES ({marks})", row)

    def mark(self) -> int:
        """A mark of what is stored now: results stored later have a greater row id."""
        return self._db.execute("SELECT coalesce(max(id), 0) FROM episodes").fetchone()[0]

    def claim(self, key: Key, owner: str, *, ttl: float, since: int) -> bool:
        """Take the lease of a job for `ttl` seconds, in one transaction; False when another
        owner holds a live lease on it or its result was stored after `since` (`mark`)."""
        where = "task_id = ? AND planner = ? AND options = ? AND model = ? AND run = ?"
        values = (key.task_id, key.planner, key.options, key.model, key.run)
        now = time.time()
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            held = db.execute(
                f"SELECT owner FROM leases WHERE {where} AND owner != ? AND expires_at > ?",
                (*values, owner, now),
            ).fetchone()
            if held and not _alive(held[0]):
                held = None  # its eval was killed on this machine: the job is free again
            done = db.execute(
                f"SELECT 1 FROM episodes WHERE {where} AND id > ?", (*values, since)
            ).fetchone()
            if held or done:
                db.execute("COMMIT")
                return False
            db.execute(
                "INSERT OR REPLACE INTO leases (task_id, planner, options, model, run, owner, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*values, owner, now + ttl),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return True

    @staticmethod
    def owner() -> str:
        """A lease owner for this process: host, process id and a random part."""
        return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def release(self, key: Key, owner: str) -> None:
        """Give up the lease of a job (after its result is stored, or when it was not run)."""
        self._db.execute(
            "DELETE FROM leases WHERE task_id = ? AND planner = ? AND options = ? AND model = ? "
            "AND run = ? AND owner = ?",
            (key.task_id, key.planner, key.options, key.model, key.run, owner),
        )

    def keys(self, *, with_status: set[Status] | None = None) -> set[Key]:
        """Keys of the stored results (only those with one of `with_status`, if given)."""
        rows = self._db.execute(
            "SELECT task_id, planner, model, run, options, status FROM episodes"
        )
        return {
            Key(t, p, m, r, o)
            for t, p, m, r, o, s in rows
            if with_status is None or Status(s) in with_status
        }

    def task_hashes(self) -> dict[Key, str | None]:
        """The task hash each stored result was made with (None when not recorded)."""
        rows = self._db.execute(
            "SELECT task_id, planner, model, run, options, task_hash FROM episodes"
        )
        return {Key(t, p, m, r, o): h for t, p, m, r, o, h in rows}

    def records(self) -> list[Record]:
        """Every stored result, in key order."""
        rows = self._db.execute(
            "SELECT suite, run, episode FROM episodes "
            "ORDER BY task_id, planner, options, model, run"
        )
        return [
            Record(suite, run, Episode.from_dict(json.loads(text))) for suite, run, text in rows
        ]

    def __len__(self) -> int:
        return self._db.execute("SELECT count(*) FROM episodes").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _alive(owner: str) -> bool:
    """False when the lease's owner is a process of this host that has ended."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return True  # another machine's: only its expiry frees it
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def merge(sources: list[Path], out: Path) -> tuple[int, int]:
    """Copy the results of `sources` into the store `out` (created if missing).

    Where a result is in more than one store, the one stored last (`created_at`)
    is kept. Returns (results copied, results left out as older duplicates).
    Every source must be a sceneplan store; each is brought to this schema first.
    """
    for source in sources:
        Store(source, create=False).close()  # refuses what is not a store; migrates
    copied = older = 0
    columns = ", ".join(_SUMMARY)
    with Store(out) as target:
        db = target._db
        for source in sources:
            db.execute("ATTACH DATABASE ? AS source", (str(source),))
            try:
                db.execute("BEGIN IMMEDIATE")
                before = db.total_changes
                db.execute(
                    f"INSERT INTO episodes ({columns}) SELECT {columns} FROM source.episodes "
                    "WHERE true ON CONFLICT (task_id, planner, options, model, run) DO UPDATE SET "
                    + ", ".join(f"{c} = excluded.{c}" for c in _SUMMARY)
                    + " WHERE excluded.created_at > episodes.created_at"
                )
                changed = db.total_changes - before
                total = db.execute("SELECT count(*) FROM source.episodes").fetchone()[0]
                db.execute("COMMIT")
            finally:
                db.execute("DETACH DATABASE source")
            copied += changed
            older += total - changed
    return copied, older
