"""The SDKs' HTTP client with every reply body bounded: bytes and time, counted as it streams.

The `openai` and `anthropic` SDKs read a whole body before decoding it, and
their read timeout bounds only the wait for each chunk: a server whose body
never ends (or trickles) would be read until memory runs out. `bounded_client`
gives them a client whose transport passes each body through a
`textinput.BodyLimit`; past `MAX_REPLY_BYTES` or the timeout the call raises
LLMRequestError naming the server, which is not retried.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import httpx2

from sceneplan.errors import BadInputError, LLMRequestError
from sceneplan.textinput import BodyLimit

MAX_REPLY_BYTES = 16 << 20  # a chat completion of 100,000 tokens is well under 1 MB


def bounded_client(sdk: ModuleType, where: str, url: str | None, seconds: float) -> Any:
    """`sdk.DefaultAsyncHttpxClient` (the SDK's own defaults) whose bodies are bounded."""
    transport = _BoundedTransport(httpx2.AsyncHTTPTransport(), where, url, seconds)
    return sdk.DefaultAsyncHttpxClient(transport=transport)


class _BoundedTransport(httpx2.AsyncBaseTransport):
    def __init__(
        self, inner: httpx2.AsyncBaseTransport, where: str, url: str | None, seconds: float
    ):
        self.inner, self.where, self.url, self.seconds = inner, where, url, seconds

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        response.stream = _BoundedStream(response.stream, self)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class _BoundedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, transport: _BoundedTransport):
        self.inner, self.transport = inner, transport

    async def __aiter__(self) -> AsyncIterator[bytes]:
        t = self.transport
        bound = BodyLimit(t.where, MAX_REPLY_BYTES, t.seconds)
        async for chunk in self.inner:
            try:
                yield bound.add(chunk)
            except BadInputError as exc:
                raise LLMRequestError(str(exc), url=t.url) from None

    async def aclose(self) -> None:
        await self.inner.aclose()
