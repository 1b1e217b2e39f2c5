"""Providers that speak the OpenAI chat-completions protocol: OpenAI, Ollama, vLLM, any server.

All go through the official `openai` SDK with a base URL. Structured replies
use `response_format` with a JSON schema, which OpenAI, Ollama, recent vLLM and
the llama.cpp server accept; a server that refuses it (older vLLM and
llama.cpp builds, some proxies, models without structured outputs) answers
400, and the request is asked again in JSON mode (`json_object`), then as plain
text (see `sceneplan.llm.structured`). Images in a user message go as
`image_url` parts with a data URL, which vision models on all these servers read.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Self
from urllib.parse import urlsplit

import openai

from sceneplan import envvars
from sceneplan.errors import BadInputError, LLMRequestError
from sceneplan.llm.base import SDKProvider, checked_base_url
from sceneplan.llm.messages import JSON_OBJECT, JSON_SCHEMA, ImagePart, ProviderReply, Request
from sceneplan.llm.structured import is_strict_compatible, schema_name

if TYPE_CHECKING:
    from sceneplan.llm.config import LLMSettings

_VERSION_SEGMENT = re.compile(r"^v\d+$")


class OpenAIProvider(SDKProvider):
    """OpenAI's API (or wherever `envvars.OPENAI_BASE_URL` points)."""

    name = "openai"
    label = "the OpenAI API"
    sdk: ClassVar[ModuleType] = openai
    client_class = openai.AsyncOpenAI
    default_base_url: ClassVar[str | None] = "https://api.openai.com/v1"
    api_key_env: ClassVar[str | None] = envvars.OPENAI_API_KEY
    max_tokens_param: ClassVar[str] = "max_completion_tokens"
    unreachable_hint = f"check the network, or {envvars.OPENAI_BASE_URL} if you set it"
    usage_fields = ("prompt_tokens", "completion_tokens")

    async def _complete(self, request: Request) -> ProviderReply:
        params: dict[str, Any] = {
            "model": self.model,
            "messages": [m.wire(_image_part) for m in request.messages],
            "temperature": request.temperature,
        }
        if request.max_tokens is not None:
            params[self.max_tokens_param] = request.max_tokens
        mode = request.mode
        if mode == JSON_SCHEMA and request.schema is not None:
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": schema_name(request.schema),
                    "schema": request.schema,
                    "strict": is_strict_compatible(request.schema),
                },
            }
        elif mode == JSON_OBJECT:
            params["response_format"] = {"type": "json_object"}
        try:
            completion = await self.client().chat.completions.create(**params)
        except openai.OpenAIError as exc:
            format_mode = mode if "response_format" in params else None
            raise self.translate_error(exc, format_mode=format_mode) from exc
        except (ValueError, RecursionError) as exc:  # the SDK decoding a 200's body
            raise self.unreadable_body(exc) from None
        if isinstance(completion, str) and completion.lstrip().startswith("<"):
            # A 200 with a web page: a login portal, a proxy, or a URL that is not the API's.
            raise LLMRequestError(
                f"{self.where} answered with an HTML page, not a chat completion: "
                f"{' '.join(completion.split())[:120]!r}; is {self.base_url} the API's URL "
                "(it usually ends in /v1)?",
                url=self.base_url,
            )
        if isinstance(completion, str):  # a 200 whose body is text, not JSON
            raise LLMRequestError(
                f"{self.where} answered with text, not a chat completion: "
                f"{' '.join(completion.split())[:120]!r}; is {self.base_url} the API's URL?",
                url=self.base_url,
            )
        choices = getattr(completion, "choices", None)
        if not choices:
            raise LLMRequestError(f"{self.where} sent a reply without choices", url=self.base_url)
        try:  # the SDK builds the reply without checking its shape
            message = choices[0].message
            text = message.content or message.refusal or ""
            if not isinstance(text, str):
                raise TypeError
        except (AttributeError, TypeError, IndexError, KeyError):
            raise self.wrong_shape("chat completion", "choices", choices) from None
        return self.sdk_reply(text, completion)


def _image_part(image: ImagePart) -> dict[str, Any]:
    """An image as the chat-completions API takes it: an `image_url` part with a data URL."""
    return {"type": "image_url", "image_url": {"url": image.data_url()}}


class OllamaProvider(OpenAIProvider):
    """A local Ollama server, through its OpenAI-compatible endpoint (`envvars.OLLAMA_HOST`)."""

    name = "ollama"
    label = "the Ollama server"
    default_base_url = "http://localhost:11434/v1"
    api_key_env = None
    placeholder_key = "ollama"
    max_tokens_param = "max_tokens"
    unreachable_hint = (
        f"start it with `ollama serve`, or set {envvars.OLLAMA_HOST} to where it runs"
    )

    @staticmethod
    def normalize_base_url(url: str) -> str:
        """Ollama's host variable as Ollama reads it (`host[:port]` or a URL), as a base URL.

        >>> OllamaProvider.normalize_base_url("0.0.0.0:11434")
        'http://0.0.0.0:11434/v1'
        >>> OllamaProvider.normalize_base_url("https://gpu-box")
        'https://gpu-box:11434/v1'
        """
        if "://" not in url:
            url = "http://" + url
        parts = urlsplit(url.rstrip("/"))
        netloc = parts.netloc if parts.port else f"{parts.netloc}:11434"
        path = parts.path if parts.path.endswith("/v1") else parts.path + "/v1"
        return f"{parts.scheme}://{netloc}{path}"


class VLLMProvider(OpenAIProvider):
    """A vLLM server (`vllm serve MODEL`), by default on localhost:8000."""

    name = "vllm"
    label = "the vLLM server"
    default_base_url = "http://localhost:8000/v1"
    api_key_env = None
    placeholder_key = "EMPTY"
    max_tokens_param = "max_tokens"
    unreachable_hint = (
        f"start it with `vllm serve MODEL`, or set {envvars.VLLM_BASE_URL} to where it runs"
    )


class OpenAICompatibleProvider(OpenAIProvider):
    """Any server with an OpenAI-compatible chat-completions endpoint.

    The model may carry the server: `openai-compatible:http://HOST:PORT/v1/MODEL`
    splits after the first path segment that looks like an API version (`v1`),
    or, without one, after the host. Otherwise the base URL comes from
    `[llm.providers.openai-compatible]` in the config file.
    """

    name = "openai-compatible"
    label = "the OpenAI-compatible server"
    default_base_url = None
    api_key_env = None
    max_tokens_param = "max_tokens"
    unreachable_hint = "is the server running?"

    @classmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """A provider for `model` or `URL/model`."""
        if not model.startswith(("http://", "https://")):
            return super().from_settings(model, settings)
        base_url, name = split_url_model(model)
        base_url = checked_base_url(
            base_url, cls.name, fix="write the model as openai-compatible:http://HOST:PORT/v1/MODEL"
        )
        api_key = settings.provider(cls.name).api_key
        return cls.configured(name, settings, base_url=base_url, api_key=api_key)


def split_url_model(value: str) -> tuple[str, str]:
    """Split `URL/model` into the base URL and the model name.

    >>> split_url_model("http://127.0.0.1:8000/v1/Qwen/Qwen2.5-7B-Instruct")
    ('http://127.0.0.1:8000/v1', 'Qwen/Qwen2.5-7B-Instruct')
    >>> split_url_model("http://gpu-box:8080/my-model")
    ('http://gpu-box:8080', 'my-model')
    """
    parts = urlsplit(value)
    segments = parts.path.strip("/").split("/")
    cut = next((i + 1 for i, s in enumerate(segments) if _VERSION_SEGMENT.match(s)), 0)
    base_path, model = "/".join(segments[:cut]), "/".join(segments[cut:])
    if not parts.netloc or not model:
        raise BadInputError(
            f"'{value}' must be URL/MODEL, e.g. openai-compatible:http://localhost:8000/v1/my-model"
        )
    return f"{parts.scheme}://{parts.netloc}" + (f"/{base_path}" if base_path else ""), model
