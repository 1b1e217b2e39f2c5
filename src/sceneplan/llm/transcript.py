"""JSONL transcripts of LLM calls: a format header line, then one line per reply.

A line holds the full request (as `Request.key_data`), the provider's reply,
the latency and whether the reply came from the cache. A request whose
structured mode the server refused (a 400 about `response_format`) has a line
with `rejected` (the error) instead of `reply`, so that a replay falls back
the same way. `replay:PATH` answers from such a file.

Version 2 added the `rejected` lines; version 1 files are read as well.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.llm.messages import ProviderReply, Request
from sceneplan.textinput import parse_json, read_text

FORMAT = "sceneplan-llm-transcript"
VERSION = 2
READABLE_VERSIONS = frozenset({1, 2})


@dataclass(frozen=True)
class TranscriptEntry:
    """One recorded call; `line` is its 1-based line number in the file.

    `reply` is the provider's reply, or None when the server refused the
    request's structured mode; then `rejected` is its error message.
    """

    request: dict[str, Any]
    reply: ProviderReply | None
    line: int
    rejected: str | None = None


class TranscriptWriter:
    """Appends calls to a transcript file, writing the header if the file is new."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("a", encoding="utf-8")
        if self._file.tell() == 0:
            self._write({"format": FORMAT, "version": VERSION})
        self._lock = threading.Lock()

    def write(
        self, request: Request, reply: ProviderReply, *, latency_s: float, cached: bool
    ) -> None:
        """Append one call."""
        entry = {
            "request": request.key_data(),
            "reply": reply.to_dict(),
            "latency_s": round(latency_s, 6),
            "cached": cached,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        with self._lock:
            self._write(entry)

    def write_rejection(
        self, request: Request, error: str, *, latency_s: float, cached: bool
    ) -> None:
        """Append a request whose structured mode the server refused, with its error message."""
        entry = {
            "request": request.key_data(),
            "rejected": error,
            "latency_s": round(latency_s, 6),
            "cached": cached,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        with self._lock:
            self._write(entry)

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def read_transcript(path: Path) -> list[TranscriptEntry]:
    """The calls recorded in `path`; a malformed file is a BadInputError naming the line."""
    lines = read_text(path, "the LLM transcript").splitlines()
    if not lines:
        raise BadInputError(f"{path}: empty file, not an LLM transcript")
    entries = []
    for number, text in enumerate(lines, start=1):
        try:
            data = parse_json(text, f"{path}:{number}")
            if number == 1:
                if data.get("format") != FORMAT or data.get("version") not in READABLE_VERSIONS:
                    raise ValueError(
                        f"header must be format {FORMAT!r}, version "
                        f"{' or '.join(map(str, sorted(READABLE_VERSIONS)))}"
                    )
                continue
            request = dict(data["request"])
            if "rejected" in data:
                entries.append(TranscriptEntry(request, None, number, str(data["rejected"])))
            else:
                entries.append(
                    TranscriptEntry(request, ProviderReply.from_dict(data["reply"]), number)
                )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BadInputError(f"{path}:{number}: not a transcript line: {exc}") from None
    return entries
