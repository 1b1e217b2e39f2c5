"""The local response cache: SQLite, keyed by a hash of the full request.

Besides replies it keeps the server's refusals of a structured mode (a 400
about `response_format`), so that a cached rerun repeats the same fallback
without asking the server again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sceneplan import envvars, sqlite_migrations
from sceneplan.errors import BackendUnavailableError
from sceneplan.llm.messages import ProviderReply, Request


def request_key(request: Request) -> str:
    """SHA-256 of the request's canonical JSON: model, messages, schema, temperature, max tokens.

    An image in a message counts by its digest (`ImagePart.to_dict`), so requests that differ
    only in an image have different keys, and a request without an image has no image in its key.
    """
    canonical = json.dumps(request.key_data(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _m001_responses(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE responses (
            key TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            reply TEXT NOT NULL,
            created REAL NOT NULL
        )"""
    )


def _m002_rejections(db: sqlite3.Connection) -> None:
    # A table of its own: older versions, which know only `responses`, never read these.
    db.execute(
        """CREATE TABLE rejections (
            key TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            error TEXT NOT NULL,
            created REAL NOT NULL
        )"""
    )


# Schema migrations, applied in order by sceneplan.sqlite_migrations; PRAGMA user_version
# counts those applied. Append, never edit.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_m001_responses, _m002_rejections]

# Marks the file as a sceneplan LLM response cache ("SPLC"); caches made before it was
# written carry 0, and are accepted.
APPLICATION_ID = 0x53504C43


class ResponseCache:
    """Replies by request. Safe to share between threads and processes (WAL, one lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
        except (sqlite3.Error, OSError) as exc:
            raise _open_error(path, exc) from None
        try:
            self._migrate()
        except sqlite_migrations.SchemaError as exc:
            self._db.close()
            raise _cache_error(path, exc.reason) from None
        except sqlite3.Error as exc:
            self._db.close()
            raise _open_error(path, exc) from None
        self._lock = threading.Lock()

    @staticmethod
    def check(path: Path) -> None:
        """Raise BackendUnavailableError if the cache at `path` clearly cannot be made.

        Cheap, and run when a client is made, before any request: the nearest
        existing folder must be a folder (the file itself may not exist yet).
        """
        if path.is_dir():
            raise _cache_error(path, "it is a folder")
        blocker = _nearest(path.parent)
        if not blocker.is_dir():
            raise _cache_error(path, f"{blocker} is a file, not a folder")

    def _migrate(self) -> None:
        """Refuse a file that is not a cache or is newer, then bring the schema up to date.

        Two processes making the same cache at once both succeed: each migration runs in
        one immediate transaction that re-reads the version first (and refuses a file a
        newer sceneplan migrated meanwhile).
        """
        version = sqlite_migrations.check(
            self._db,
            path=self.path,
            kind="sceneplan LLM response cache",
            application_id=APPLICATION_ID,
            latest=len(MIGRATIONS),
            unmarked_ok=True,
        )
        sqlite_migrations.use_wal(self._db)
        sqlite_migrations.migrate(
            self._db, MIGRATIONS, application_id=APPLICATION_ID, version=version, path=self.path
        )

    def get(self, request: Request) -> ProviderReply | None:
        """The cached reply to `request`, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT reply FROM responses WHERE key = ?", (request_key(request),)
            ).fetchone()
        return ProviderReply.from_dict(json.loads(row[0])) if row else None

    def put(self, request: Request, reply: ProviderReply) -> None:
        """Store the reply to `request`."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, model, reply, created) VALUES (?, ?, ?, ?)",
                (request_key(request), request.model, json.dumps(reply.to_dict()), time.time()),
            )

    def get_rejection(self, request: Request) -> str | None:
        """The server's message if it refused `request`'s structured mode, else None."""
        with self._lock:
            row = self._db.execute(
                "SELECT error FROM rejections WHERE key = ?", (request_key(request),)
            ).fetchone()
        return row[0] if row else None

    def put_rejection(self, request: Request, error: str) -> None:
        """Store that the server refused `request`'s structured mode, with its message."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO rejections (key, model, error, created) "
                "VALUES (?, ?, ?, ?)",
                (request_key(request), request.model, error, time.time()),
            )

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _nearest(folder: Path) -> Path:
    """`folder` or its nearest ancestor that exists."""
    return next(p for p in (folder, *folder.parents) if p.exists())


def _open_error(path: Path, exc: sqlite3.Error | OSError) -> BackendUnavailableError:
    """The cache error for a file that SQLite or the file system cannot open."""
    reason = f"{exc.strerror}: {exc.filename}" if isinstance(exc, OSError) else str(exc)
    if isinstance(exc, FileExistsError | NotADirectoryError):
        reason = f"{_nearest(path.parent)} is a file, not a folder"
    return _cache_error(path, reason)


def _cache_error(path: Path, reason: str) -> BackendUnavailableError:
    return BackendUnavailableError(
        f"cannot open the LLM response cache {path}: {reason} "
        f"(set {envvars.CACHE_DIR} to a folder you can write, or disable the cache)"
    )
