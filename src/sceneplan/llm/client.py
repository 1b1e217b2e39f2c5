"""LLMClient: one chat model, with validation, retries, limits, cache, transcript and accounting."""

from __future__ import annotations

import asyncio
import importlib
import time
import weakref
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel

from sceneplan.errors import (
    BackendUnavailableError,
    BadInputError,
    LLMError,
    LLMReplyError,
    UnsupportedError,
)
from sceneplan.llm.base import Provider
from sceneplan.llm.cache import ResponseCache
from sceneplan.llm.config import LLMSettings, load_settings
from sceneplan.llm.messages import MessagesLike, ProviderReply, Request, as_messages
from sceneplan.llm.prices import PriceTable
from sceneplan.llm.registry import BUILTIN, GROUP, provider_names, split_model
from sceneplan.llm.retry import RetryPolicy
from sceneplan.llm.structured import parse_reply, reask_messages
from sceneplan.llm.transcript import TranscriptWriter
from sceneplan.llm.usage import CallRecord, Ledger, Usage
from sceneplan.plugins import load_plugin

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")

# One concurrency limit per provider endpoint and event loop, shared by all clients.
_limits: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


def _limit(provider: Provider) -> asyncio.Semaphore:
    per_loop = _limits.setdefault(asyncio.get_running_loop(), {})
    if provider.limit_key not in per_loop:
        per_loop[provider.limit_key] = asyncio.Semaphore(provider.concurrency)
    return per_loop[provider.limit_key]


def provider_class(name: str) -> type[Provider]:
    """The class serving provider `name` (built-in or from a plugin), imported now."""
    if name not in BUILTIN:
        if name not in provider_names():
            raise BadInputError(
                f"unknown LLM provider '{name}'; providers: {', '.join(provider_names())}"
            )
        cls = load_plugin(GROUP, name)
        if not (isinstance(cls, type) and issubclass(cls, Provider)):
            raise BackendUnavailableError(
                f"the {GROUP} entry point '{name}' is {cls!r}, not a subclass of "
                "sceneplan.llm.base.Provider (see docs/extending.md)"
            )
        return cls
    module_name, class_name, package = BUILTIN[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BackendUnavailableError(
            f"the '{name}' LLM provider needs the '{package}' package ({exc}); "
            f"install it with: pip install {package}"
        ) from None
    return getattr(module, class_name)


def create_provider(spec: str, settings: LLMSettings) -> Provider:
    """A provider for model `spec` (`provider:model`), configured from `settings`."""
    name, model = split_model(spec)
    return provider_class(name).from_settings(model, settings)


@dataclass(frozen=True)
class Response(Generic[T]):
    """A model's answer: its text, the validated object (when a schema was given) and usage.

    `model` is the model as named (`provider:model`); `served_model` is the name
    the server gave; `reasks` counts re-asks after an unusable reply.
    """

    text: str
    parsed: T | None
    model: str
    served_model: str
    usage: Usage
    reasks: int = 0


class LLMClient:
    """One chat model and everything around a call to it.

        with LLMClient("ollama:qwen2.5:7b") as llm:
            reply = llm.complete("Where is the mug?", schema=Answer)
            reply.parsed, reply.usage

    Async code awaits `acomplete` (and `aclose`, or uses `async with`); many
    calls may run at once, limited per provider by `concurrency`. Each call is
    added to `ledger` (and to the `ledger` passed to the call, if any).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        settings: LLMSettings | None = None,
        ledger: Ledger | None = None,
    ) -> None:
        self.settings = settings if settings is not None else load_settings()
        self.model = model or self.settings.default_model()
        self.provider = create_provider(self.model, self.settings)
        self.ledger = ledger if ledger is not None else Ledger()
        self.prices = PriceTable.load(self.settings.prices)
        self.retry = RetryPolicy(
            self.settings.max_retries, self.settings.backoff_base, self.settings.backoff_max
        )
        self.caching = self.settings.cache and self.provider.cacheable
        self._cache: ResponseCache | None = None  # opened at the first cacheable request
        self._transcript = (
            TranscriptWriter(self.settings.transcript) if self.settings.transcript else None
        )
        self._runner: asyncio.Runner | None = None

    async def acomplete(
        self,
        messages: MessagesLike,
        *,
        schema: type[T] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        ledger: Ledger | None = None,
    ) -> Response[T]:
        """Ask the model; with `schema`, the reply must be JSON that validates against it.

        A reply that does not parse or validate is shown to the model with the
        problems and asked again once; if that fails too, LLMReplyError (with
        the raw reply and the usage) is raised and the failed call is recorded.
        Transport failures are retried (429, 5xx, connection, timeout) and
        then raised as LLMUnavailableError / LLMTimeoutError, also recorded.
        """
        prompt = as_messages(messages)
        request = Request(
            self.model,
            prompt,
            schema.model_json_schema() if schema is not None else None,
            temperature,
            max_tokens,
        )
        started = time.perf_counter()
        replies: list[tuple[ProviderReply, bool]] = []
        parsed: T | None = None
        try:
            replies.append(await self._ask(request))
            if schema is not None:
                parsed, problems = parse_reply(replies[-1][0].text, schema)
                if problems:
                    request = request.followed_by(*reask_messages(replies[-1][0].text, problems))
                    replies.append(await self._ask(request))
                    parsed, problems = parse_reply(replies[-1][0].text, schema)
                if problems:
                    raise LLMReplyError(
                        f"{self.model}: the reply does not match {schema.__name__} even after a "
                        f"re-ask: {'; '.join(problems)}",
                        raw_reply=replies[-1][0].text,
                        problems=problems,
                    )
        except LLMError as exc:
            usage = self._usage(replies, started)
            if isinstance(exc, LLMReplyError):
                exc.usage = usage
            self._record(
                ledger,
                CallRecord(
                    model=self.model,
                    messages=[m.to_dict() for m in prompt],
                    reply=replies[-1][0].text if replies else "",
                    parsed=None,
                    usage=usage,
                    reasks=max(len(replies) - 1, 0),
                    error=str(exc),
                    error_type=type(exc).__name__,
                ),
            )
            raise
        final = replies[-1][0]
        response = Response(
            text=final.text,
            parsed=parsed,
            model=self.model,
            served_model=final.served_model,
            usage=self._usage(replies, started),
            reasks=len(replies) - 1,
        )
        self._record(
            ledger,
            CallRecord(
                model=self.model,
                messages=[m.to_dict() for m in prompt],
                reply=final.text,
                parsed=parsed.model_dump(mode="json") if parsed is not None else None,
                usage=response.usage,
                reasks=response.reasks,
            ),
        )
        return response

    def complete(
        self,
        messages: MessagesLike,
        *,
        schema: type[T] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        ledger: Ledger | None = None,
    ) -> Response[T]:
        """Blocking `acomplete`, for scripts and the CLI (not inside a running event loop)."""
        return self._run(
            self.acomplete(
                messages,
                schema=schema,
                temperature=temperature,
                max_tokens=max_tokens,
                ledger=ledger,
            )
        )

    async def _ask(self, request: Request) -> tuple[ProviderReply, bool]:
        """One reply: from the cache for temperature 0, else from the provider with retries."""
        cache = self._open_cache() if self.caching and request.temperature == 0 else None
        if cache is not None and (hit := cache.get(request)) is not None:
            if self._transcript:
                self._transcript.write(request, hit, latency_s=0.0, cached=True)
            return hit, True
        started = time.perf_counter()
        reply = await self.retry.run(lambda: self._send(request))
        if cache is not None:
            cache.put(request, reply)
        if self._transcript:
            self._transcript.write(
                request, reply, latency_s=time.perf_counter() - started, cached=False
            )
        return reply, False

    def _open_cache(self) -> ResponseCache:
        if self._cache is None:
            self._cache = ResponseCache(self.settings.cache_path)
        return self._cache

    async def _send(self, request: Request) -> ProviderReply:
        async with _limit(self.provider):
            return await self.provider.complete(request)

    def _usage(self, replies: list[tuple[ProviderReply, bool]], started: float) -> Usage:
        costs = [self.prices.cost(r.price_key, r.input_tokens, r.output_tokens) for r, _ in replies]
        return Usage(
            input_tokens=sum(r.input_tokens for r, _ in replies),
            output_tokens=sum(r.output_tokens for r, _ in replies),
            latency_s=time.perf_counter() - started,
            cost_usd=None if None in costs else sum(c for c in costs if c is not None),
            cached=bool(replies) and all(cached for _, cached in replies),
        )

    def _record(self, ledger: Ledger | None, record: CallRecord) -> None:
        self.ledger.add(record)
        if ledger is not None and ledger is not self.ledger:
            ledger.add(record)

    def _run(self, coro: Coroutine[Any, Any, R]) -> R:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            if self._runner is None:
                self._runner = asyncio.Runner()
            return self._runner.run(coro)
        coro.close()
        raise UnsupportedError(
            "LLMClient.complete() blocks, so it cannot run inside an event loop; "
            "use `await client.acomplete(...)` there"
        )

    async def aclose(self) -> None:
        """Close connections, the cache and the transcript."""
        await self.provider.aclose()
        self._close_files()

    def close(self) -> None:
        """Blocking `aclose`."""
        if self._runner is not None:
            self._runner.run(self.provider.aclose())
            self._runner.close()
            self._runner = None
        self._close_files()

    def _close_files(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        if self._transcript is not None:
            self._transcript.close()
            self._transcript = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
