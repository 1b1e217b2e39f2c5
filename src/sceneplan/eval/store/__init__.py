"""The results store: SQLite (a file, the embedded default) or PostgreSQL (a server that
workers on many machines share), one implementation over two dialects.

`options` is the planner's non-default options as canonical JSON (`{}` for
the defaults), so one planner run with other options is another row.
"""

from __future__ import annotations

from sceneplan.eval.store.core import (
    COLUMNS,
    NO_OPTIONS,
    Key,
    Record,
    Store,
    Stored,
    dialect_for,
    merge,
    options_key,
)
from sceneplan.eval.store.sqlite import APPLICATION_ID, MIGRATIONS

__all__ = [
    "APPLICATION_ID",
    "COLUMNS",
    "MIGRATIONS",
    "NO_OPTIONS",
    "Key",
    "Record",
    "Store",
    "Stored",
    "dialect_for",
    "merge",
    "options_key",
]
