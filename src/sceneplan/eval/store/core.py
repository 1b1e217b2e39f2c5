"""The results store: one row per (task, planner, options, model, run), with the Episode.

One implementation for both kinds of store, its SQL written once: a dialect
(`sqlite.SQLite`, `postgres.Postgres`) opens the connection, makes and
migrates the schema, and says how to take a write transaction, how to lock a
row and what time it is. Summary columns are indexed for queries; the
Episode JSON next to them is what metrics are computed from.

Concurrent evals split the work through leases: before running a job an
eval claims it (`Store.claim`): a read that takes no lock refuses a job
plainly taken, then one transaction takes the job's lease row (locked in
PostgreSQL) and checks that its result is still as the eval saw it when it
planned its jobs. A lease names its owner and expires,
so a killed worker's jobs are taken over.
"""

from __future__ import annotations

import json
import os
import re
import socket
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from sceneplan.errors import BadInputError
from sceneplan.eval.store.sqlite import SQLite
from sceneplan.planners.episode import Episode, Status

NO_OPTIONS = "{}"

# The columns a result is stored in, `id` aside (each store numbers its own rows).
COLUMNS = (
    *("task_id", "planner", "options", "model", "run", "suite", "environment", "family"),
    *("status", "error", "error_type", "executable", "correct", "success", "goal_reached"),
    *("answer_correct", "answer_room_explored", "replans", "search_turns", "llm_calls"),
    *("input_tokens", "output_tokens", "cost_usd", "wall_time_s", "created_at", "episode"),
    "task_hash",
)
_KEY = "task_id = ? AND planner = ? AND options = ? AND model = ? AND run = ?"
_UPSERT = (
    f"INSERT INTO episodes ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (task_id, planner, options, model, run) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS)
)
# A stored result replaced by `put` gets a new row id, so a claim sees it changed.
_PUT = _UPSERT + ", id = excluded.id"
# `merge`: of a result in both stores, the one stored last is kept.
_MERGE = _UPSERT + " WHERE excluded.created_at > episodes.created_at"


def options_key(options: dict[str, Any]) -> str:
    """A planner's non-default options as the store keys them: canonical JSON.

    >>> options_key({"timeout": 5.0, "planner": "bfsf"})
    '{"planner":"bfsf","timeout":5.0}'
    """
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, order=True)
class Key:
    """What identifies one stored result; `options` as `options_key` writes them."""

    task_id: str
    planner: str
    model: str
    run: int
    options: str = NO_OPTIONS

    @property
    def values(self) -> tuple[str, str, str, str, int]:
        """In the order of the store's `_KEY` condition."""
        return (self.task_id, self.planner, self.options, self.model, self.run)


@dataclass(frozen=True)
class Stored:
    """What a store holds for a key: its row id (new at every store), status and task hash."""

    id: int
    status: Status
    task_hash: str | None


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


def dialect_for(location: str | Path) -> Any:
    """The dialect of a store location: a file path, `sqlite:///PATH` or `postgresql://...`."""
    text = str(location)
    if text.startswith(("postgresql://", "postgres://")):
        from sceneplan.eval.store.postgres import Postgres

        return Postgres(text)
    if text.startswith("sqlite:///"):
        return SQLite(Path(text.removeprefix("sqlite:///")))
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", text)
    if scheme:
        raise BadInputError(
            f"unknown kind of results store '{scheme.group(1)}://'; give a file path, "
            "sqlite:///PATH or postgresql://USER@HOST:PORT/DB"
        )
    return SQLite(Path(location))


class Store:
    """A results store. `Store(location)` makes it; `Store(location, create=False)` needs it.

    `location` is an SQLite file (a path or `sqlite:///PATH`) or a PostgreSQL
    database (`postgresql://USER:PASSWORD@HOST:PORT/DB`, the `postgres` extra).
    """

    def __init__(self, location: str | Path, *, create: bool = True) -> None:
        self._dialect = dialect_for(location)
        self.path: Path | None = self._dialect.path  # None for a database server
        self.location: str = self._dialect.location  # to print: never a password
        self._db = self._dialect.connect(create=create)

    def _execute(self, sql: str, params: Iterable[Any] = ()) -> Any:
        try:
            return self._db.execute(self._dialect.sql(sql), tuple(params))
        except self._dialect.errors as exc:
            raise self._dialect.failure(exc) from None

    def _transaction(self) -> Any:
        return _Guarded(self._dialect, self._db)

    @property
    def schema_version(self) -> int:
        return self._dialect.version(self._db)

    def put(
        self,
        suite: str,
        run: int,
        episode: Episode,
        task_hash: str | None = None,
        *,
        owner: str | None = None,
    ) -> None:
        """Store one result (replacing a stored one with the same key), committed at once.

        `task_hash` (`runner.task_hash`) identifies the task's content the run was made with.
        With `owner`, that owner's lease on the job is given up in the same transaction (a
        worker killed in between leaves no lease on a stored job).
        """
        if not episode.task_id:
            raise BadInputError("only Episodes of tasks (with a task_id) can be stored")
        summary = episode.summary()
        row = {
            **{name: summary.get(name) for name in COLUMNS},
            "run": run,
            "options": options_key(episode.options),
            "suite": suite,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "episode": json.dumps(episode.to_dict(), separators=(",", ":")),
            "task_hash": task_hash,
        }
        values = [_plain(row[name]) for name in COLUMNS]
        if owner is None:
            self._execute(_PUT, values)
            return
        with self._transaction():
            self._execute(_PUT, values)
            self._execute(
                f"DELETE FROM leases WHERE {_KEY} AND owner = ?",
                (*Record(suite, run, episode).key.values, owner),
            )

    def stored(self) -> dict[Key, Stored]:
        """What is stored, by key, read at once (the state a run plans its jobs against)."""
        rows = self._execute(
            "SELECT task_id, planner, model, run, options, id, status, task_hash FROM episodes"
        )
        return {Key(t, p, m, r, o): Stored(i, Status(s), h) for t, p, m, r, o, i, s, h in rows}

    def claim(self, key: Key, owner: str, *, ttl: float, seen: int | None = None) -> bool:
        """Take the lease of a job for `ttl` seconds; False when another owner holds a live
        lease on it, or its stored result is no longer the one seen when the job was planned
        (`seen`: its `Stored.id`, None for no result): another eval has run it since.

        A job plainly taken (`_taken`) is refused by one read, without the write lock; the
        rest is decided in one transaction: the lease row is taken first (locked until the
        commit), and the result is read after, so a result stored by the lease's last holder
        is seen.
        """
        if self._taken(key, owner, seen):
            return False
        dialect = self._dialect
        try:
            with self._transaction():
                lease = self._execute(
                    f"SELECT owner, expires_at, {dialect.now} FROM leases WHERE {_KEY}"
                    + dialect.for_update,
                    key.values,
                ).fetchone()
                if lease is not None:
                    holder, expires_at, now = lease
                    if holder != owner and expires_at > now and _alive(holder):
                        return False
                    self._execute(
                        f"UPDATE leases SET owner = ?, expires_at = {dialect.now} + ? WHERE {_KEY}",
                        (owner, ttl, *key.values),
                    )
                else:
                    taken = self._execute(
                        "INSERT INTO leases (task_id, planner, options, model, run, owner, "
                        f"expires_at) VALUES (?, ?, ?, ?, ?, ?, {dialect.now} + ?) "
                        "ON CONFLICT (task_id, planner, options, model, run) DO NOTHING",
                        (*key.values, owner, ttl),
                    )
                    if taken.rowcount == 0:  # another eval took it since the read above
                        return False
                row = self._execute(f"SELECT id FROM episodes WHERE {_KEY}", key.values).fetchone()
                if (row[0] if row else None) != seen:
                    raise _Undo  # stored since: give the lease back, as it was
        except _Undo:
            return False
        return True

    def _taken(self, key: Key, owner: str, seen: int | None) -> bool:
        """Whether a job is not `owner`'s to claim, by one read that takes no lock: its result
        changed since `seen`, or another live owner's lease holds it. Evals that share a
        store skip each other's jobs this way without queueing for the write lock (SQLite's
        file lock, PostgreSQL's row lock); a job that passes is decided by `claim`'s
        transaction."""
        row = self._execute(
            f"SELECT (SELECT id FROM episodes WHERE {_KEY}), owner, expires_at, "
            f"{self._dialect.now} FROM (SELECT 1) AS one LEFT JOIN leases ON {_KEY}",
            (*key.values, *key.values),
        ).fetchone()
        stored, holder, expires_at, now = row
        if stored != seen:
            return True
        return holder is not None and holder != owner and expires_at > now and _alive(holder)

    @staticmethod
    def owner() -> str:
        """A lease owner for this process: host, process id and a random part."""
        return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def renew(self, owner: str, ttl: float) -> None:
        """Extend every lease of `owner` to `ttl` seconds from now (a live worker's heartbeat)."""
        self._execute(
            f"UPDATE leases SET expires_at = {self._dialect.now} + ? WHERE owner = ?", (ttl, owner)
        )

    def release(self, key: Key, owner: str) -> None:
        """Give up the lease of a job (after its result is stored, or when it was not run)."""
        self._execute(f"DELETE FROM leases WHERE {_KEY} AND owner = ?", (*key.values, owner))

    def keys(self, *, with_status: set[Status] | None = None) -> set[Key]:
        """Keys of the stored results (only those with one of `with_status`, if given)."""
        return {
            key
            for key, stored in self.stored().items()
            if with_status is None or stored.status in with_status
        }

    def task_hashes(self) -> dict[Key, str | None]:
        """The task hash each stored result was made with (None when not recorded)."""
        return {key: stored.task_hash for key, stored in self.stored().items()}

    def records(self) -> list[Record]:
        """Every stored result, in key order (the same order in every kind of store)."""
        rows = self._execute(
            "SELECT task_id, planner, options, model, run, suite, episode FROM episodes"
        ).fetchall()
        rows.sort(key=lambda row: row[:5])  # code point order, whatever the server's collation
        return [
            Record(suite, run, Episode.from_dict(json.loads(text))) for *_, run, suite, text in rows
        ]

    def rows(self, batch: int = 500) -> Iterator[list[tuple[Any, ...]]]:
        """Every stored result as its `COLUMNS`, in batches (what `merge` copies)."""
        cursor = self._execute(f"SELECT {', '.join(COLUMNS)} FROM episodes ORDER BY id")
        while chunk := cursor.fetchmany(batch):
            yield chunk

    def leases(self) -> int:
        """How many jobs are claimed now (by live or dead workers)."""
        return self._execute("SELECT count(*) FROM leases").fetchone()[0]

    def __len__(self) -> int:
        return self._execute("SELECT count(*) FROM episodes").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Undo(Exception):
    """Rolls a claim's transaction back: the claim is refused."""


class _Guarded:
    """A dialect's write transaction whose database errors become sceneplan errors."""

    def __init__(self, dialect: Any, db: Any) -> None:
        self._dialect, self._db = dialect, db
        self._undone = False

    def __enter__(self) -> Self:
        self._context = self._dialect.transaction(self._db)
        try:
            self._context.__enter__()
        except self._dialect.errors as exc:
            raise self._dialect.failure(exc) from None
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        try:
            return bool(self._context.__exit__(kind, exc, tb))
        except self._dialect.errors as error:
            raise self._dialect.failure(error) from None


def _plain(value: Any) -> Any:
    """A value as both databases take it: a bool as 0 or 1 (as SQLite stores them)."""
    return int(value) if isinstance(value, bool) else value


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


def merge(sources: Sequence[str | Path], out: str | Path) -> tuple[int, int]:
    """Copy the results of `sources` into the store `out` (made if missing); any kind of each.

    Where a result is in more than one store, the one stored last (`created_at`)
    is kept. Returns (results copied, results left out as older duplicates).
    Every source must be a sceneplan store; each is brought to this schema first.
    """
    for location in sources:
        Store(location, create=False).close()  # refuses what is not a store; migrates
    copied = older = 0
    with Store(out) as target:
        for location in sources:
            with Store(location, create=False) as source, target._transaction():
                for chunk in source.rows():
                    cursor = target._db.cursor()
                    try:
                        cursor.executemany(
                            target._dialect.sql(_MERGE), [tuple(map(_plain, r)) for r in chunk]
                        )
                    except target._dialect.errors as exc:
                        raise target._dialect.failure(exc) from None
                    copied += cursor.rowcount
                    older += len(chunk) - cursor.rowcount
    return copied, older
