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
from types import ModuleType
from typing import Any, ClassVar

import anthropic

from sceneplan import envvars
from sceneplan.llm.base import SDKProvider
from sceneplan.llm.messages import JSON_SCHEMA, ImagePart, ProviderReply, Request

REPLY_TOOL = "reply"
DEFAULT_MAX_TOKENS = 4096  # the API requires max_tokens


class AnthropicProvider(SDKProvider):
    """Claude models (key and URL from the Anthropic variables of `envvars`)."""

    name = "anthropic"
    label = "the Anthropic API"
    sdk: ClassVar[ModuleType] = anthropic
    client_class = anthropic.AsyncAnthropic
    default_base_url = "https://api.anthropic.com"
    api_key_env = envvars.ANTHROPIC_API_KEY
    unreachable_hint = f"check the network, or {envvars.ANTHROPIC_BASE_URL} if you set it"
    usage_fields = ("input_tokens", "output_tokens")

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
        try:  # the SDK builds the reply without checking its shape
            text = _reply_text(message.content)
            if not isinstance(text, str):
                raise TypeError
        except (AttributeError, TypeError, IndexError, KeyError):
            raise self.wrong_shape(
                "message", "content", getattr(message, "content", None)
            ) from None
        return self.sdk_reply(text, message)


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
