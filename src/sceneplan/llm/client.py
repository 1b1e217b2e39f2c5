"""LLMClient: one chat model, with validation, retries, limits, cache, transcript and accounting."""

from __future__ import annotations

import asyncio
import functools
import time
import weakref
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar

from pydantic import BaseModel

from sceneplan.errors import (
    LLMError,
    LLMReplyError,
    UnsupportedError,
)
from sceneplan.llm.base import Provider, ResponseFormatRejected
from sceneplan.llm.cache import ResponseCache
from sceneplan.llm.config import LLMSettings, load_settings
from sceneplan.llm.messages import (
    JSON_SCHEMA,
    STRUCTURED_MODES,
    Message,
    MessagesLike,
    ProviderReply,
    Request,
    as_messages,
)
from sceneplan.llm.prices import PriceTable
from sceneplan.llm.registry import PROVIDERS, split_model
from sceneplan.llm.retry import RetryPolicy
from sceneplan.llm.structured import (
    RESPONSE_FORMAT_MODES,
    next_mode,
    parse_reply,
    reask_messages,
    with_schema_instruction,
)
from sceneplan.llm.transcript import TranscriptWriter
from sceneplan.llm.usage import CallRecord, Ledger, Usage

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")
P = ParamSpec("P")

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
    found: type[Provider] = PROVIDERS.load(name)
    return found


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

    @property
    def structured_mode(self) -> str | None:
        """How the schema was asked for: `json_schema`, `json_object`, `prompt`; None without."""
        return self.usage.structured_mode


@dataclass
class _Call:
    """One `acomplete` in progress: the prompt, the request asked last and the replies so far
    (each with whether it came from the cache)."""

    prompt: tuple[Message, ...]
    request: Request
    started: float
    replies: list[tuple[ProviderReply, bool]] = field(default_factory=list)


def _blocking(
    method: Callable[Concatenate[LLMClient, P], Coroutine[Any, Any, R]], name: str, doc: str
) -> Callable[Concatenate[LLMClient, P], R]:
    """The blocking twin `name` of an async method of LLMClient, with its parameters: it runs
    the coroutine to the end on the client's own event loop."""

    @functools.wraps(method)
    def blocking(self: LLMClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._run(method(self, *args, **kwargs))

    blocking.__name__ = name
    blocking.__qualname__ = f"LLMClient.{name}"
    blocking.__doc__ = doc
    return blocking


class LLMClient:
    """One chat model and everything around a call to it.

        with LLMClient("ollama:qwen2.5:7b") as llm:
            reply = llm.complete("Where is the mug?", schema=Answer)
            reply.parsed, reply.usage

    Async code awaits `acomplete` (and `aclose`, or uses `async with`); many
    calls may run at once, limited per provider by `concurrency`. Each call is
    added to `ledger` (and to the `ledger` passed to the call, if any).

    `structured_mode` is the mode the next call with a schema starts from: it
    moves on (`json_schema` -> `json_object` -> `prompt`) when the server
    refuses one, and never back, so only the first calls pay the refusals.
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
            self.settings.max_retries,
            self.settings.backoff_base,
            self.settings.backoff_max,
            retry_after_cap=self.settings.retry_after_max,
        )
        self.caching = self.settings.cache and self.provider.cacheable
        self._cache: ResponseCache | None = None  # opened at the first cacheable request
        if self.caching:
            ResponseCache.check(self.settings.cache_path)  # a bad folder fails before any run
        self._transcript = (
            TranscriptWriter(self.settings.transcript) if self.settings.transcript else None
        )
        self._runner: asyncio.Runner | None = None
        self.structured_mode = JSON_SCHEMA

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

        A server that refuses the schema's structured output (a 400 about
        `response_format`) is asked again in JSON mode, then in plain text with
        the schema in the prompt; the mode that worked is kept for later calls
        and reported as `usage.structured_mode`.

        A reply that does not parse or validate is shown to the model with the
        problems and asked again once; if that fails too, LLMReplyError (with
        the raw reply and the usage) is raised and the failed call is recorded.
        Transport failures are retried (429, 5xx, connection, timeout) and
        then raised as LLMUnavailableError / LLMTimeoutError, also recorded.
        """
        prompt = as_messages(messages)
        json_schema = schema.model_json_schema() if schema is not None else None
        request = Request(self.model, prompt, json_schema, temperature, max_tokens)
        call = _Call(prompt, request, started=time.perf_counter())
        try:
            parsed = await self._answer(call, schema)
        except LLMError as exc:
            usage = self._usage(call)
            if isinstance(exc, LLMReplyError):
                exc.usage = usage
            self._record(ledger, self._call_record(call, usage, None, error=exc))
            raise
        final = call.replies[-1][0]
        response = Response(
            text=final.text,
            parsed=parsed,
            model=self.model,
            served_model=final.served_model,
            usage=self._usage(call),
            reasks=len(call.replies) - 1,
        )
        self._record(ledger, self._call_record(call, response.usage, parsed))
        return response

    complete = _blocking(
        acomplete,
        "complete",
        "Blocking `acomplete`, for scripts and the CLI (not inside a running event loop).",
    )

    def _in_mode(self, request: Request, mode: str) -> Request:
        """`request` asked in structured `mode` (the schema in the prompt unless `json_schema`).

        A refusal of a mode (ResponseFormatRejected) moves the call, and the
        client, on to the next mode; see `acomplete`.
        """
        assert request.schema is not None
        messages: tuple[Message, ...] = request.messages
        if mode != JSON_SCHEMA:
            messages = with_schema_instruction(messages, request.schema)
        return replace(request, messages=messages, structured_mode=mode)

    def _advance_mode(self, mode: str) -> None:
        """Make `mode` the client's structured mode, unless it is already further on."""
        if STRUCTURED_MODES.index(mode) > STRUCTURED_MODES.index(self.structured_mode):
            self.structured_mode = mode

    async def _answer(self, call: _Call, schema: type[T] | None) -> T | None:
        """Ask; with a schema, in the structured mode the server takes, then parse the reply
        (re-asking once). The replies go into `call`, the object parsed is returned."""
        if schema is None:
            call.replies.append(await self._ask(call.request))
            return None
        await self._ask_structured(call)
        return await self._parse_or_reask(call, schema)

    async def _ask_structured(self, call: _Call) -> None:
        """Ask in the client's structured mode, moving on to the next mode (for this call and
        the client's later ones) each time the server refuses one; the last refusal raises."""
        asked = call.request
        call.request = self._in_mode(asked, self.structured_mode)
        while True:
            try:
                call.replies.append(await self._ask(call.request))
                return
            except ResponseFormatRejected as exc:
                following = next_mode(exc.mode)
                if following is None:  # plain text refused: nothing left to try
                    raise
                self._advance_mode(following)
                call.request = self._in_mode(asked, following)

    async def _parse_or_reask(self, call: _Call, schema: type[T]) -> T | None:
        """The last reply validated against `schema`; an unusable one is shown to the model
        with its problems and asked again once, and then raises LLMReplyError."""
        lenient = call.request.structured_mode != JSON_SCHEMA
        parsed, problems = parse_reply(call.replies[-1][0].text, schema, lenient=lenient)
        if problems:
            reask = reask_messages(call.replies[-1][0].text, problems)
            call.request = call.request.followed_by(*reask)
            call.replies.append(await self._ask(call.request))
            parsed, problems = parse_reply(call.replies[-1][0].text, schema, lenient=lenient)
        if problems:
            raise LLMReplyError(
                f"{self.model}: the reply does not match {schema.__name__} even after a "
                f"re-ask: {'; '.join(problems)}",
                raw_reply=call.replies[-1][0].text,
                problems=problems,
            )
        return parsed

    async def _ask(self, request: Request) -> tuple[ProviderReply, bool]:
        """One reply: from the cache for temperature 0, else from the provider with retries.

        A refusal of the request's structured mode is cached and recorded in
        the transcript like a reply, then raised (ResponseFormatRejected).
        """
        cache = self._open_cache() if self.caching and request.temperature == 0 else None
        if cache is not None and (hit := cache.get(request)) is not None:
            if self._transcript:
                self._transcript.write(request, hit, latency_s=0.0, cached=True)
            return hit, True
        refusable = request.mode in RESPONSE_FORMAT_MODES
        if cache is not None and refusable and (error := cache.get_rejection(request)):
            if self._transcript:
                self._transcript.write_rejection(request, error, latency_s=0.0, cached=True)
            raise ResponseFormatRejected(
                error, mode=request.structured_mode, url=self.provider.base_url
            )
        started = time.perf_counter()
        try:
            reply = await self.retry.run(lambda: self._send(request))
        except ResponseFormatRejected as exc:
            if cache is not None:
                cache.put_rejection(request, exc.detail)
            if self._transcript:
                self._transcript.write_rejection(
                    request, exc.detail, latency_s=time.perf_counter() - started, cached=False
                )
            raise
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

    def _usage(self, call: _Call) -> Usage:
        """The call's tokens, cost and time over all its replies, and the mode it ended in."""
        replies = call.replies
        costs = [self.prices.cost(r.price_key, r.input_tokens, r.output_tokens) for r, _ in replies]
        return Usage(
            input_tokens=sum(r.input_tokens for r, _ in replies),
            output_tokens=sum(r.output_tokens for r, _ in replies),
            latency_s=time.perf_counter() - call.started,
            cost_usd=None if None in costs else sum(c for c in costs if c is not None),
            cached=bool(replies) and all(cached for _, cached in replies),
            structured_mode=call.request.mode,
        )

    def _call_record(
        self, call: _Call, usage: Usage, parsed: BaseModel | None, *, error: Exception | None = None
    ) -> CallRecord:
        """The call as the ledgers keep it (with its error, when it failed)."""
        return CallRecord(
            model=self.model,
            messages=[m.to_dict() for m in call.prompt],
            reply=call.replies[-1][0].text if call.replies else "",
            parsed=parsed.model_dump(mode="json") if parsed is not None else None,
            usage=usage,
            reasks=max(len(call.replies) - 1, 0),
            error=str(error) if error is not None else None,
            error_type=type(error).__name__ if error is not None else None,
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
