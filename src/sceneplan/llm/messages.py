"""Chat messages, the canonical request sent to a provider, and its raw reply.

A user message may carry images (`ImagePart`): each provider sends them in its
own wire format (OpenAI: an `image_url` part with a data URL; Anthropic: an
`image` block with a base64 source). In `Message.to_dict`, and so in cache
keys, transcripts and call records, an image appears as its media type, size
and SHA-256 digest, never as its bytes; a text-only message is unchanged.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, cast, get_args

from sceneplan.errors import BadInputError

Role = Literal["system", "user", "assistant"]
ROLES: tuple[str, ...] = get_args(Role)

JSON_SCHEMA = "json_schema"
JSON_OBJECT = "json_object"
PROMPT = "prompt"
STRUCTURED_MODES: tuple[str, ...] = (JSON_SCHEMA, JSON_OBJECT, PROMPT)
"""How a reply schema is asked for, in the order tried (see `sceneplan.llm.structured`)."""


IMAGE_MEDIA_TYPES: tuple[str, ...] = ("image/png", "image/jpeg", "image/gif", "image/webp")
"""The image types both OpenAI-compatible servers and Anthropic accept."""


@dataclass(frozen=True)
class ImagePart:
    """An image in a user message: its encoded bytes and their media type (`image/png`, ...).

    >>> ImagePart(b"GIF89a", "image/gif").data_url()
    'data:image/gif;base64,R0lGODlh'
    """

    data: bytes = field(repr=False)
    media_type: str

    def __post_init__(self) -> None:
        if not isinstance(self.data, bytes | bytearray) or not self.data:
            raise BadInputError("an image needs its encoded bytes (got none)")
        if self.media_type not in IMAGE_MEDIA_TYPES:
            raise BadInputError(
                f"image media type '{self.media_type}' is not supported; "
                f"use one of {', '.join(IMAGE_MEDIA_TYPES)}"
            )

    def base64(self) -> str:
        """The bytes in base64, as both APIs take them."""
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """`data:<media type>;base64,<data>`, the OpenAI protocol's inline image URL."""
        return f"data:{self.media_type};base64,{self.base64()}"

    def digest(self) -> str:
        """SHA-256 of the bytes: stands for the image in keys and records."""
        return hashlib.sha256(self.data).hexdigest()

    def to_dict(self) -> dict[str, str | int]:
        """The image as recorded: media type, size and digest (not the bytes)."""
        return {"media_type": self.media_type, "bytes": len(self.data), "sha256": self.digest()}

    def __repr__(self) -> str:
        return f"ImagePart({self.media_type}, {len(self.data)} bytes)"


@dataclass(frozen=True)
class Message:
    """One chat turn; a user turn may also carry images (shown to the model before the text)."""

    role: Role
    content: str
    images: tuple[ImagePart, ...] = ()

    def __post_init__(self) -> None:
        if self.images and self.role != "user":
            raise BadInputError(f"only user messages may carry images, not {self.role} messages")
        if not isinstance(self.images, tuple):
            object.__setattr__(self, "images", tuple(self.images))

    def __repr__(self) -> str:
        images = f", images={self.images!r}" if self.images else ""
        return f"Message(role={self.role!r}, content={self.content!r}{images})"

    def to_dict(self) -> dict[str, Any]:
        """The `{"role", "content"}` dict every chat API accepts; with images, their digests.

        Providers build the wire format of images themselves (see the module doc).
        """
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.images:
            out["images"] = [image.to_dict() for image in self.images]
        return out

    def wire(self, image_part: Callable[[ImagePart], dict[str, Any]]) -> dict[str, Any]:
        """The message as a chat API takes it: the text alone, or with images a list of
        parts, the images first (each as `image_part` makes it, the provider's format),
        then the text."""
        if not self.images:
            return {"role": self.role, "content": self.content}
        parts = [image_part(image) for image in self.images]
        if self.content:
            parts.append({"type": "text", "text": self.content})
        return {"role": self.role, "content": parts}


MessagesLike = str | Sequence[Message | Mapping[str, str]]


def as_messages(messages: MessagesLike) -> tuple[Message, ...]:
    """Normalize a prompt: a bare string is one user message; dicts become Messages.

    >>> as_messages("hi")
    (Message(role='user', content='hi'),)
    """
    if isinstance(messages, str):
        return (Message("user", messages),)
    result = []
    for i, message in enumerate(messages):
        if not isinstance(message, Message):
            role, content = message.get("role"), message.get("content")
            if role not in ROLES or not isinstance(content, str):
                raise BadInputError(
                    f"message {i} must have a role in {ROLES} and a string content, got {message!r}"
                )
            message = Message(cast(Role, role), content)
        result.append(message)
    if not result:
        raise BadInputError("a chat request needs at least one message")
    return tuple(result)


@dataclass(frozen=True)
class Request:
    """Everything that determines a reply; its `key_data` keys the cache and the transcript.

    `structured_mode` says how `schema` is asked for (see `sceneplan.llm.structured`):
    `json_schema` (the server's own structured output), `json_object` (JSON
    mode) or `prompt` (plain text); in the last two the messages already
    describe the schema. It is part of the key only when it is not
    `json_schema`, so keys of requests made before the modes existed still hold.
    """

    model: str
    messages: tuple[Message, ...]
    schema: dict[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int | None = None
    structured_mode: str = JSON_SCHEMA

    def key_data(self) -> dict[str, Any]:
        """The request as plain JSON data."""
        data = {
            "model": self.model,
            "messages": [m.to_dict() for m in self.messages],
            "schema": self.schema,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.schema is not None and self.structured_mode != JSON_SCHEMA:
            data["structured_mode"] = self.structured_mode
        return data

    @property
    def mode(self) -> str | None:
        """The structured mode in effect: None without a schema."""
        return self.structured_mode if self.schema is not None else None

    def followed_by(self, *messages: Message) -> Request:
        """The same request with more turns appended (used to re-ask)."""
        return replace(self, messages=self.messages + messages)


@dataclass(frozen=True)
class ProviderReply:
    """What a provider returns for one request, before parsing.

    `served_model` is the model name the server reported; `price_key` is the
    `provider:model` name looked up in the price table.
    """

    text: str
    input_tokens: int
    output_tokens: int
    served_model: str
    price_key: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the cache and the transcript."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProviderReply:
        """Inverse of `to_dict`."""
        return cls(
            text=str(data["text"]),
            input_tokens=int(data["input_tokens"]),
            output_tokens=int(data["output_tokens"]),
            served_model=str(data["served_model"]),
            price_key=str(data["price_key"]),
        )
