"""Reading the small index files shipped beside the packaged data (tasks/, bundles/).

An index lets a lookup read one task's lines or one environment's part of a
bundle instead of parsing every file. It is trusted only while it describes
the files as they are; otherwise lookups fall back to reading every file.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

__all__ = ["INDEX_FILE", "read_index"]

INDEX_FILE = "index.json"  # in the folder it describes


def read_index(
    folder: Traversable, fmt: str, key: str, files: list[str]
) -> list[dict[str, Any]] | None:
    """The entries under `key` of `folder`'s index of format `fmt`, or None when the index
    does not describe `files` as they are (missing, another format, a file added, removed
    or resized)."""
    try:
        data = json.loads((folder / INDEX_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != fmt:
        return None
    entries = data.get(key)
    if not isinstance(entries, list) or [e.get("file") for e in entries] != files:
        return None
    for entry in entries:
        with resources.as_file(folder / entry["file"]) as path:
            if path.stat().st_size != entry.get("bytes"):
                return None
    return entries
