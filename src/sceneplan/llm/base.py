"""The provider base classes: one abstract method, capabilities as class attributes."""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Self

from sceneplan.errors import (
    BadInputError,
    LLMError,
    LLMRequestError,
    LLMTimeoutError,
    LLMUnavailableError,
    ModelNotConfiguredError,
)
from sceneplan.llm.bounded import bounded_client
from sceneplan.llm.config import config_path
from sceneplan.llm.messages import ProviderReply
from sceneplan.llm.structured import is_format_rejection
from sceneplan.textinput import shown

if TYPE_CHECKING:
    from sceneplan.llm.config import LLMSettings
    from sceneplan.llm.messages import Request

RETRYABLE_STATUS = frozenset({408, 409, 429})


class ResponseFormatRejected(LLMRequestError):
    """The server refused the structured mode asked for, not the request as a whole.

    Raised by a provider when a request in structured mode `mode` (`json_schema`
    or `json_object`) is refused because of it (a 400 about `response_format`);
    the client then asks again in the next mode and remembers the step.
    """

    def __init__(self, message: str, *, mode: str, url: str | None = None) -> None:
        super().__init__(message, url=url)
        self.mode = mode


class Provider(ABC):
    """A chat-model backend.

    The public `complete` bounds the call by the timeout; subclasses implement
    `_complete`, which sends one request and translates the backend's errors
    into sceneplan's LLMError family (setting `retryable` where another attempt
    may succeed).
    """

    name: ClassVar[str]
    label: ClassVar[str]
    """How messages name the backend: 'the Ollama server'."""
    cacheable: ClassVar[bool] = True
    """Whether replies may be served from the response cache."""

    def __init__(
        self, model: str, *, base_url: str | None, timeout: float, concurrency: int
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.timeout = timeout
        self.concurrency = concurrency

    @classmethod
    @abstractmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """A provider for `model` (the part after `provider:`), configured from `settings`."""

    @property
    def where(self) -> str:
        """The backend and its URL, for messages."""
        return f"{self.label} at {self.base_url}" if self.base_url else self.label

    @property
    def limit_key(self) -> str:
        """Requests with the same key share one concurrency limit."""
        return f"{self.name}@{self.base_url}"

    async def complete(self, request: Request) -> ProviderReply:
        """Send `request` once; raise an LLMError on failure, or LLMTimeoutError after `timeout`."""
        try:
            async with asyncio.timeout(self.timeout):
                return await self._complete(request)
        except TimeoutError:
            raise LLMTimeoutError(
                f"{self.where} did not answer within {self.timeout:g} s", url=self.base_url
            ) from None

    @abstractmethod
    async def _complete(self, request: Request) -> ProviderReply:
        """Send `request` once and return the raw reply."""

    def reply(
        self, text: str, input_tokens: int, output_tokens: int, *, served_model: str | None
    ) -> ProviderReply:
        """A reply of this provider, priced as `provider:model` of the model that served it
        (the model asked for when the server does not say)."""
        served = served_model or self.model
        return ProviderReply(text, input_tokens, output_tokens, served, f"{self.name}:{served}")

    async def aclose(self) -> None:  # noqa: B027 (an optional hook)
        """Release connections (nothing to release by default)."""


class SDKProvider(Provider):
    """A provider that talks through an official SDK client.

    The SDK client is made up front (it takes a noticeable fraction of a
    second, which should not count as the first call's latency) and belongs to
    the first event loop that uses it; another loop gets a client of its own.
    Subclasses name the SDK module and its async client class; the `openai` and
    `anthropic` SDKs are generated alike (Stainless), so both name their errors
    `APIStatusError`, `APIConnectionError` and `APITimeoutError` and take the
    same client arguments. The server and key come from the class's defaults
    and the settings (`from_settings`).
    """

    sdk: ClassVar[ModuleType]
    """The SDK module, whose error classes `translate_error` reads."""
    client_class: ClassVar[Callable[..., Any]]
    """The SDK's async client class (`openai.AsyncOpenAI`)."""
    default_base_url: ClassVar[str | None] = None
    """The server when the settings name none (None: the settings must)."""
    api_key_env: ClassVar[str | None] = None
    """Set means the provider needs a key, and names where it comes from."""
    placeholder_key: ClassVar[str] = "not-needed"
    """Sent to servers that ignore the key (the SDKs insist on one)."""
    unreachable_hint: ClassVar[str] = "is the server running?"
    usage_fields: ClassVar[tuple[str, str]]
    """The names the SDK's reply gives its input and output token counts under `usage`."""

    @classmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """A provider for `model`, with base URL and key from the settings of `cls.name`."""
        conf = settings.provider(cls.name)
        base_url = (
            checked_base_url(conf.base_url, cls.name, cls.normalize_base_url)
            if conf.base_url
            else cls.default_base_url
        )
        if base_url is None:
            raise BadInputError(
                f"{cls.name}:{model} names no server: write {cls.name}:http://HOST:PORT/v1/{model} "
                f"or set base_url under [llm.providers.{cls.name}] in {config_path()}"
            )
        if not conf.api_key and cls.api_key_env:
            raise cls.no_api_key(model, cls.api_key_env)
        return cls.configured(model, settings, base_url=base_url, api_key=conf.api_key)

    @classmethod
    def configured(
        cls, model: str, settings: LLMSettings, *, base_url: str, api_key: str | None
    ) -> Self:
        """A provider for `model` at `base_url`, with `api_key` (or the placeholder), the
        timeout of the settings and the concurrency of `cls.name`'s settings (or the default)."""
        conf = settings.provider(cls.name)
        return cls(
            model,
            base_url=base_url,
            api_key=api_key or cls.placeholder_key,
            timeout=settings.timeout,
            concurrency=conf.concurrency or settings.concurrency,
        )

    @staticmethod
    def normalize_base_url(url: str) -> str:
        """The base URL without a trailing slash."""
        return url.rstrip("/")

    @classmethod
    def no_api_key(cls, model: str, variable: str) -> ModelNotConfiguredError:
        """The error for `model` configured without an API key: where to give one."""
        return ModelNotConfiguredError(
            f"{cls.name}:{model} needs an API key: export {variable}=... "
            f"(or set api_key under [llm.providers.{cls.name}] in {config_path()})"
        )

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key: str,
        timeout: float,
        concurrency: int,
    ) -> None:
        super().__init__(model, base_url=base_url, timeout=timeout, concurrency=concurrency)
        self.api_key = api_key
        self._client: Any = self._make_client()
        self._client_loop: asyncio.AbstractEventLoop | None = None

    def _make_client(self) -> Any:
        """A new SDK async client for this provider (no SDK retries: the LLM client retries),
        whose reply bodies are bounded (`llm.bounded`)."""
        return self.client_class(
            api_key=self.api_key,
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=0,
            http_client=bounded_client(self.sdk, self.where, self.base_url, self.timeout),
        )

    def client(self) -> Any:
        """The SDK client of the running event loop."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop not in (None, loop):
            self._client = self._make_client()
        self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        """Close the SDK client unless it belongs to another event loop."""
        if self._client is not None and self._client_loop in (None, asyncio.get_running_loop()):
            await self._client.close()
        self._client = self._client_loop = None

    def sdk_reply(self, text: str, response: Any) -> ProviderReply:
        """The reply `text` of the SDK's `response`, with the token counts (`usage_fields`)
        and the model it reports: 0 tokens, and the model asked for, where the server leaves
        them out or sends something else."""
        usage = getattr(response, "usage", None)
        served = getattr(response, "model", None)
        inputs, outputs = (token_count(getattr(usage, f, 0)) for f in self.usage_fields)
        return self.reply(
            text, inputs, outputs, served_model=served if isinstance(served, str) else None
        )

    def translate_error(self, exc: Exception, *, format_mode: str | None = None) -> LLMError:
        """The LLMError for an SDK exception.

        `format_mode` is the structured mode the request asked for in a way the
        server may refuse (`json_schema`, `json_object`); a refusal about it
        becomes ResponseFormatRejected, so that the client falls back.
        """
        if isinstance(exc.__cause__, LLMError):  # raised under the SDK (a bounded body)
            return exc.__cause__
        if isinstance(exc, self.sdk.APITimeoutError):
            return LLMTimeoutError(
                f"{self.where} did not answer within {self.timeout:g} s", url=self.base_url
            )
        if isinstance(exc, self.sdk.APIConnectionError):
            cause = exc.__cause__ or exc
            return LLMUnavailableError(
                f"cannot reach {self.where}: {cause}",
                url=self.base_url,
                hint=self.unreachable_hint,
            )
        if isinstance(exc, self.sdk.APIStatusError):
            status: int = exc.status_code
            detail = _error_detail(exc)
            if status in RETRYABLE_STATUS or status >= 500:
                return LLMUnavailableError(
                    f"{self.where} answered {status}: {detail}",
                    url=self.base_url,
                    retry_after=_retry_after(exc),
                )
            if format_mode and is_format_rejection(status, detail, getattr(exc, "param", None)):
                return ResponseFormatRejected(
                    f"{self.where} refused {format_mode} replies for model '{self.model}' "
                    f"({status}): {detail}",
                    mode=format_mode,
                    url=self.base_url,
                )
            return LLMRequestError(
                f"{self.where} refused the request for model '{self.model}' ({status}): {detail}",
                url=self.base_url,
            )
        return LLMRequestError(f"{self.where}: {exc}", url=self.base_url)

    def wrong_shape(self, kind: str, field: str, value: Any) -> LLMRequestError:
        """The error for a 200 whose JSON is not a `kind` (the SDKs build a reply without
        checking its shape): `field`, the part that is wrong, shown."""
        return LLMRequestError(
            f"{self.where} sent a reply that is not a {kind} ({field}: {shown(value)}); "
            f"is {self.base_url} the API's URL?",
            url=self.base_url,
        )

    def unreadable_body(self, exc: ValueError | RecursionError) -> LLMRequestError:
        """The error for a 200 whose body the SDK could not decode as JSON."""
        return LLMRequestError(
            f"{self.where} answered with a body that is not a JSON reply ({unreadable_json(exc)}); "
            f"is {self.base_url} the API's URL?",
            url=self.base_url,
        )


def checked_base_url(
    url: str, provider: str, normalize: Callable[[str], str] = str, fix: str | None = None
) -> str:
    """`normalize(url)` if it is an http(s) URL with a host and a valid port; else BadInputError.

    The message ends with `fix`, by default where a provider's URL is set (its
    environment variable and the config file).

    >>> checked_base_url("http://localhost:8000/v1", "vllm")
    'http://localhost:8000/v1'
    """
    from urllib.parse import urlsplit

    from sceneplan import envvars
    from sceneplan.llm.config import config_path

    try:
        url_out = normalize(url)
        parts = urlsplit(url_out)
        parts.port  # noqa: B018 (raises ValueError for a port that is not one)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        problem = None if ok else "not an http:// or https:// URL with a host"
    except ValueError as exc:
        text = str(exc)
        cast = re.search(r"integer value as (.*)$", text)
        problem = f"the port {cast.group(1)} is not a number" if cast else text
    if problem is None:
        return url_out
    if fix is None:
        env = envvars.PROVIDER_SETTINGS.get((provider, "base_url"))
        fix = (f"set {env} or " if env else "set ") + (
            f"base_url under [llm.providers.{provider}] in {config_path()} "
            "to a URL such as http://localhost:8000/v1"
        )
    raise BadInputError(f"the {provider} server URL {url!r} is not usable ({problem}); {fix}")


def token_count(value: Any) -> int:
    """A token count a server reported, or 0 when what it sent is not a count.

    >>> token_count(12), token_count("many"), token_count(None)
    (12, 0, 0)
    """
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def unreadable_json(exc: ValueError | RecursionError) -> str:
    """Why JSON text could not be read, in a user's words (not Python's advice).

    >>> unreadable_json(ValueError("Exceeds the limit (4300 digits) for integer string"))
    'a number of more than 4300 digits'
    """
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    text = str(exc)
    limit = re.search(r"limit \((\d+) digits\)", text)
    if limit:
        return f"a number of more than {limit.group(1)} digits"
    return " ".join(text.split())[:120]


def _error_detail(exc: Exception) -> str:
    """The server's own error message, if its body has one.

    Servers put it in `error.message` (OpenAI, llama.cpp), `message` (vLLM),
    `detail` (FastAPI validation errors) or send plain text.
    """
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        if message:
            return str(message)
        if body.get("detail"):
            return _describe_detail(body["detail"])
    if isinstance(body, str) and body.strip():
        return body.strip()[:500]
    return getattr(exc, "message", None) or str(exc)


def _describe_detail(detail: Any) -> str:
    """A FastAPI/pydantic `detail` (a list of {loc, msg}) in one line.

    >>> _describe_detail([{"loc": ["body", "response_format"], "msg": "Input should be 'text'"}])
    "body.response_format: Input should be 'text'"
    """
    if isinstance(detail, list) and all(isinstance(d, dict) and "msg" in d for d in detail):
        return "; ".join(
            f"{'.'.join(str(part) for part in d.get('loc', []))}: {d['msg']}" for d in detail
        )
    return str(detail)


def _retry_after(exc: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return float(headers[name]) * scale
        except (KeyError, ValueError):
            continue
    return None
