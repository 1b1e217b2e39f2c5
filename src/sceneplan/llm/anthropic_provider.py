"""Anthropic's messages API through the official `anthropic` SDK.

Structured replies use tool use: one tool whose input schema is the reply
schema, and `tool_choice` forcing the model to call it. Every Claude model
with tools supports this, and the tool's input is the JSON reply; it is the
`json_schema` structured mode. In the other modes (never reached with the
Anthropic API, which does not refuse the tool) no tool is sent: the schema is
in the prompt.

The messages API of this SDK generation takes no sampling temperature, so the
request's temperature is not sent (it still decides whether the reply is
cached). Images in a user message go as `image` blocks with a base64 source,
before the message's text.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Self

import anthropic

from sceneplan import envvars
from sceneplan.llm.base import SDKProvider, checked_base_url
from sceneplan.llm.messages import JSON_SCHEMA, ImagePart, ProviderReply, Request

if TYPE_CHECKING:
    from sceneplan.llm.config import LLMSettings

REPLY_TOOL = "reply"
DEFAULT_MAX_TOKENS = 4096  # the API requires max_tokens


class AnthropicProvider(SDKProvider):
    """Claude models (key and URL from the Anthropic variables of `envvars`)."""

    name = "anthropic"
    label = "the Anthropic API"
    unreachable_hint = f"check the network, or {envvars.ANTHROPIC_BASE_URL} if you set it"
    status_error = anthropic.APIStatusError
    connection_error = anthropic.APIConnectionError
    timeout_error = anthropic.APITimeoutError

    @classmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """A provider for `model`; needs an API key."""
        conf = settings.provider(cls.name)
        if not conf.api_key:
            raise cls.no_api_key(model, envvars.ANTHROPIC_API_KEY)
        base_url = conf.base_url or "https://api.anthropic.com"
        return cls(
            model,
            base_url=checked_base_url(base_url, cls.name).rstrip("/"),
            api_key=conf.api_key,
            timeout=settings.timeout,
            concurrency=conf.concurrency or settings.concurrency,
        )

    def _make_client(self) -> anthropic.AsyncAnthropic:
        return anthropic.AsyncAnthropic(
            api_key=self.api_key, base_url=self.base_url, timeout=self.timeout, max_retries=0
        )

    async def _complete(self, request: Request) -> ProviderReply:
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": [m.wire(_image_block) for m in request.messages if m.role != "system"],
        }
        if system:
            params["system"] = system
        if request.schema is not None and request.mode == JSON_SCHEMA:
            params["tools"] = [
                {
                    "name": REPLY_TOOL,
                    "description": "Give your reply: the tool input is the reply itself.",
                    "input_schema": request.schema,
                }
            ]
            params["tool_choice"] = {"type": "tool", "name": REPLY_TOOL}
        try:
            message = await self.client().messages.create(**params)
        except anthropic.AnthropicError as exc:
            raise self.translate_error(exc) from exc
        except (ValueError, RecursionError) as exc:  # the SDK decoding a 200's body
            raise self.unreadable_body(exc) from None
        return self.reply(
            _reply_text(message.content),
            message.usage.input_tokens,
            message.usage.output_tokens,
            served_model=message.model,
        )


def _image_block(image: ImagePart) -> dict[str, Any]:
    """An image as the messages API takes it: an `image` block with a base64 source."""
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": image.media_type, "data": image.base64()},
    }


def _reply_text(blocks: list[Any]) -> str:
    """The reply tool's input as JSON if the model called it, else the text blocks."""
    for block in blocks:
        if block.type == "tool_use" and block.name == REPLY_TOOL:
            return json.dumps(block.input, ensure_ascii=False)
    return "".join(block.text for block in blocks if block.type == "text")
