"""Bounded retries with exponential backoff and jitter, for retryable LLM errors."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sceneplan.errors import LLMError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry 429s, 5xx, connection errors and timeouts."""

    max_retries: int = 3
    base: float = 1.0
    cap: float = 30.0
    retry_after_cap: float | None = None
    """The longest wait granted to a server's Retry-After; None: `cap`."""
    on_wait: Callable[[LLMError, float, int], None] | None = field(default=None, compare=False)
    """Called before each wait with the error, the seconds and the retry number (1-based)."""

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `retry` (0-based).

        Doubles from `base` up to `cap`, with "equal jitter" (a uniform draw in
        the upper half) so that concurrent clients spread out; a server's
        Retry-After, when it sent one, is honoured up to `retry_after_cap`
        (by default `cap`): a server asking for an hour does not stall a run.

        >>> 0.5 <= RetryPolicy(base=1.0).delay(0) <= 1.0
        True
        >>> RetryPolicy(retry_after_cap=5.0).delay(0, retry_after=3600)
        5.0
        """
        if retry_after is not None:
            cap = self.cap if self.retry_after_cap is None else self.retry_after_cap
            return max(0.0, min(retry_after, cap))
        ceiling = min(self.cap, self.base * 2.0**retry)
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    async def run(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """Await `attempt()` until it succeeds, fails for good, or the retries run out.

        A retryable error that outlasts the retries is raised again with the
        number of attempts added to its message.
        """
        retry = 0
        while True:
            try:
                return await attempt()
            except LLMError as exc:
                if not exc.retryable:
                    raise
                if retry >= self.max_retries:
                    if retry == 0:
                        raise
                    raise type(exc)(
                        f"{exc.detail} (gave up after {retry + 1} attempts)",
                        url=exc.url,
                        hint=exc.hint,
                    ) from exc
                wait = self.delay(retry, exc.retry_after)
                retry += 1
                if self.on_wait is not None:
                    self.on_wait(exc, wait, retry)
                await asyncio.sleep(wait)
