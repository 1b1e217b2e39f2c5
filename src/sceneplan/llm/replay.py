"""`replay:PATH`: a provider that answers from a recorded transcript, never from a server.

A request matches a recorded one when its messages, schema, temperature, max
tokens and structured mode are equal (the model is not compared: it is
`replay:PATH` now). Identical requests recorded several times are answered in
recorded order.

Where the recorded server refused a structured mode (a `rejected` line), a
request in that mode with no recorded reply is refused again with the recorded
message, so the client falls back to the mode the recorded run used.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from sceneplan.errors import ReplayMismatchError
from sceneplan.llm.base import Provider, ResponseFormatRejected
from sceneplan.llm.messages import JSON_SCHEMA, ProviderReply, Request
from sceneplan.llm.transcript import TranscriptEntry, read_transcript

if TYPE_CHECKING:
    from sceneplan.llm.config import LLMSettings

_COMPARED = ("messages", "schema", "temperature", "max_tokens", "structured_mode")


class ReplayProvider(Provider):
    """Answers requests from a transcript written by a recorded run."""

    name = "replay"
    label = "the replay transcript"
    cacheable = False

    def __init__(
        self, path: Path, entries: list[TranscriptEntry], *, timeout: float, concurrency: int
    ) -> None:
        super().__init__(str(path), base_url=None, timeout=timeout, concurrency=concurrency)
        self.path = path
        self.entries = [entry for entry in entries if entry.reply is not None]
        """The recorded replies."""
        self.rejections: dict[str, TranscriptEntry] = {}
        """The first recorded refusal of each structured mode."""
        self._pending: dict[str, deque[TranscriptEntry]] = {}
        for entry in entries:
            if entry.reply is None:
                mode = entry.request.get("structured_mode", JSON_SCHEMA)
                self.rejections.setdefault(mode, entry)
            else:
                self._pending.setdefault(_match_key(entry.request), deque()).append(entry)

    @classmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """A replay of the transcript at path `model`."""
        path = Path(model).expanduser()
        return cls(
            path,
            read_transcript(path),
            timeout=settings.timeout,
            concurrency=settings.concurrency,
        )

    @property
    def where(self) -> str:
        """The transcript, for messages."""
        return f"{self.label} {self.path}"

    async def _complete(self, request: Request) -> ProviderReply:
        key = _match_key(request.key_data())
        queue = self._pending.get(key)
        if queue:
            reply = queue.popleft().reply
            assert reply is not None  # only replies are queued
            return reply
        mode = request.mode
        if mode is not None and (rejection := self.rejections.get(mode)) is not None:
            raise ResponseFormatRejected(
                f"{rejection.rejected} (replayed from line {rejection.line})",
                mode=mode,
                url=self.base_url,
            )
        if queue is not None:
            raise ReplayMismatchError(
                f"{self.path}: this request was recorded "
                f"{sum(_match_key(e.request) == key for e in self.entries)} time(s) and every "
                "recorded reply has been replayed already"
            )
        raise ReplayMismatchError(
            f"{self.path}: no recorded reply for this request; {self._closest(request)}"
        )

    def _closest(self, request: Request) -> str:
        if not self.entries:
            return "the transcript records no calls"
        asked = request.key_data()
        best = max(self.entries, key=lambda entry: _likeness(entry.request, asked))
        return f"closest is the call on line {best.line}: {first_difference(best.request, asked)}"


def first_difference(recorded: dict[str, Any], requested: dict[str, Any]) -> str:
    """Where `requested` first departs from `recorded`, in words.

    >>> first_difference({"messages": [{"role": "user", "content": "go to the kitchen"}]},
    ...                  {"messages": [{"role": "user", "content": "go to the office"}]})
    "message 0 (user) content differs at character 10: recorded 'go to the kitchen', \
requested 'go to the office'"
    """
    old, new = recorded.get("messages", []), requested.get("messages", [])
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a.get("role") != b.get("role"):
            return f"message {i}: role recorded {a.get('role')!r}, requested {b.get('role')!r}"
        if a.get("content") != b.get("content"):
            at = _common_prefix(a.get("content", ""), b.get("content", ""))
            return (
                f"message {i} ({a.get('role')}) content differs at character {at}: "
                f"recorded {_excerpt(a.get('content', ''), at)!r}, "
                f"requested {_excerpt(b.get('content', ''), at)!r}"
            )
    if len(old) != len(new):
        return f"the request has {len(new)} message(s), the recorded one {len(old)}"
    for field in _COMPARED[1:]:
        if recorded.get(field) != requested.get(field):
            if field == "schema":
                return "the reply schema differs"
            if field == "structured_mode":
                recorded_mode = recorded.get(field) or JSON_SCHEMA
                requested_mode = requested.get(field) or JSON_SCHEMA
                return f"structured mode: recorded {recorded_mode}, requested {requested_mode}"
            return f"{field}: recorded {recorded.get(field)!r}, requested {requested.get(field)!r}"
    return "no difference"


def _match_key(data: dict[str, Any]) -> str:
    return json.dumps({f: data.get(f) for f in _COMPARED}, sort_keys=True)


def _likeness(recorded: dict[str, Any], requested: dict[str, Any]) -> tuple[int, int, int]:
    """Equal leading messages, then the common prefix of the next one, then equal fields."""
    old, new = recorded.get("messages", []), requested.get("messages", [])
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    prefix = 0
    if same < min(len(old), len(new)):
        prefix = _common_prefix(old[same].get("content", ""), new[same].get("content", ""))
    fields = sum(recorded.get(f) == requested.get(f) for f in _COMPARED[1:])
    return same, prefix, fields


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _excerpt(text: str, at: int, width: int = 30) -> str:
    start = max(0, at - width)
    tail = "..." if at + width < len(text) else ""
    return ("..." if start else "") + text[start : at + width] + tail
