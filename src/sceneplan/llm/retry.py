"""Bounded retries with exponential backoff and jitter, for retryable LLM errors."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from sceneplan.errors import LLMError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry 429s, 5xx, connection errors and timeouts."""

    max_retries: int = 3
    base: float = 1.0
    cap: float = 30.0

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `retry` (0-based).

        Doubles from `base` up to `cap`, with "equal jitter" (a uniform draw in
        the upper half) so that concurrent clients spread out; a server's
        Retry-After, when it sent one, is honoured up to `cap`.

        >>> 0.5 <= RetryPolicy(base=1.0).delay(0) <= 1.0
        True
        """
        if retry_after is not None:
            return min(retry_after, self.cap)
        ceiling = min(self.cap, self.base * 2**retry)
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
                await asyncio.sleep(self.delay(retry, exc.retry_after))
                retry += 1
