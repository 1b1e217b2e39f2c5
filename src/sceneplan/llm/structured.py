"""JSON replies against a pydantic model: how the schema is asked for, validation, the re-ask.

A schema is asked for in one of three structured modes, tried in this order
until the server accepts one (see docs/llm.md, "Structured replies"):

- `json_schema`: the server constrains the reply to the schema (OpenAI-style
  `response_format` with a JSON schema; a forced tool call on Anthropic);
- `json_object`: JSON mode (`response_format: {"type": "json_object"}`), with
  the schema described in the prompt;
- `prompt`: plain text, with the schema described in the prompt; the first
  JSON object in the reply that matches is taken (prose or a code fence may
  surround it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from sceneplan.llm.messages import (
    JSON_OBJECT,
    JSON_SCHEMA,
    STRUCTURED_MODES,
    Message,
)

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"^```[\w-]*\s*\n(.*?)\n?```$", re.DOTALL)

RESPONSE_FORMAT_MODES = frozenset({JSON_SCHEMA, JSON_OBJECT})
"""The modes sent as a `response_format` (or tool) that a server may reject."""

_FORMAT_WORDS = re.compile(
    r"response[_ ]?format|json[_ ]?schema|json[_ ]?object|json mode|structured[_ -]?output"
    r"|guided[_ ]json",
    re.IGNORECASE,
)
FORMAT_REJECTION_STATUS = frozenset({400, 422})
"""HTTP statuses with which servers refuse a request parameter (422: FastAPI-based servers)."""


def next_mode(mode: str) -> str | None:
    """The structured mode to try after `mode` was rejected, or None after the last.

    >>> next_mode("json_schema"), next_mode("json_object"), next_mode("prompt")
    ('json_object', 'prompt', None)
    """
    index = STRUCTURED_MODES.index(mode) + 1
    return STRUCTURED_MODES[index] if index < len(STRUCTURED_MODES) else None


def is_format_rejection(status: int, detail: str, param: str | None = None) -> bool:
    """Whether an HTTP error refuses the requested structured output, not the request as a whole.

    True for a 400/422 whose error names `response_format` as the bad parameter
    or whose message is about the response format or JSON schema / JSON mode;
    any other refusal (context too long, unknown model, bad key) is not.

    >>> is_format_rejection(400, 'response_format type must be one of "text" or '
    ...                     '"json_object", but got: json_schema')
    True
    >>> is_format_rejection(400, "Invalid parameter", param="response_format")
    True
    >>> is_format_rejection(400, "This model's maximum context length is 8192 tokens.")
    False
    >>> is_format_rejection(401, "invalid json_schema api key")
    False
    """
    if status not in FORMAT_REJECTION_STATUS:
        return False
    return param == "response_format" or bool(_FORMAT_WORDS.search(detail))


def schema_instruction(schema: dict[str, Any]) -> str:
    """The words that ask for the schema in the prompt (JSON mode and plain-text mode)."""
    return (
        "Reply with only one JSON object, without any other text, that matches this JSON "
        f"schema:\n{json.dumps(schema, ensure_ascii=False)}"
    )


def with_schema_instruction(
    messages: Sequence[Message], schema: dict[str, Any]
) -> tuple[Message, ...]:
    """`messages` with the schema described at the end of the last user turn.

    The instruction goes into the last message when it is the user's (close to
    where the reply starts, and any chat template accepts it); otherwise a user
    turn carrying it is added.
    """
    instruction = schema_instruction(schema)
    *head, last = messages
    if last.role == "user":
        return (*head, Message("user", f"{last.content}\n\n{instruction}"))
    return (*head, last, Message("user", instruction))


def schema_name(schema: dict[str, Any]) -> str:
    """A name for the schema that every API accepts (letters, digits, _ and -).

    >>> schema_name({"title": "Plan step"})
    'Plan_step'
    """
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "reply"))
    return name[:64]


def is_strict_compatible(schema: Any) -> bool:
    """Whether OpenAI's strict structured outputs accept `schema`.

    Strict mode needs every object closed (`additionalProperties: false`) with
    all its properties required; a pydantic model gets there with
    `extra="forbid"` and no defaults. Other schemas are sent non-strict and
    rely on validation and the re-ask.

    >>> is_strict_compatible({"type": "object", "properties": {"a": {"type": "string"}},
    ...                       "required": ["a"], "additionalProperties": False})
    True
    >>> is_strict_compatible({"type": "object", "properties": {"a": {"type": "string"}}})
    False
    """
    if isinstance(schema, list):
        return all(is_strict_compatible(item) for item in schema)
    if not isinstance(schema, dict):
        return True
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required", [])) != set(properties):
            return False
    return all(is_strict_compatible(value) for value in schema.values())


def parse_reply(text: str, model: type[M], *, lenient: bool = False) -> tuple[M | None, list[str]]:
    """Validate `text` as JSON for `model`: the object, or None and the problems found.

    A reply wrapped in a Markdown code fence is unwrapped first. With
    `lenient` (replies to a schema asked for in the prompt), a reply that is
    not itself the JSON object is searched for JSON objects, and the first
    that validates is taken; if none does, the problems are those of the
    first object found (or of the whole reply, when it holds none).
    """
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    parsed, problems = _validate(fenced.group(1) if fenced else stripped, model)
    if parsed is not None or not lenient:
        return parsed, problems
    first: list[str] | None = None
    for candidate in json_objects(text):
        parsed, found = _validate(candidate, model)
        if parsed is not None:
            return parsed, []
        first = found if first is None else first
    return None, first if first is not None else problems


def json_objects(text: str) -> Iterator[str]:
    """The top-level JSON objects embedded in `text`, in order, as text.

    >>> list(json_objects('Here: {"a": {"b": 1}} and {"c": 2}. {oops}'))
    ['{"a": {"b": 1}}', '{"c": 2}']
    """
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):  # not JSON; a huge number; nested too deeply
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            yield text[start:end]
        start = text.find("{", end)


def _validate(text: str, model: type[M]) -> tuple[M | None, list[str]]:
    try:
        return model.model_validate_json(text), []
    except ValidationError as exc:
        return None, [_describe(error) for error in exc.errors(include_url=False)]


def reask_messages(reply: str, problems: list[str]) -> tuple[Message, Message]:
    """The turns that show the model its unusable reply and ask once more."""
    listed = "\n".join(f"- {problem}" for problem in problems)
    return (
        Message("assistant", reply),
        Message(
            "user",
            "Your reply could not be used: it must be a single JSON object that matches the "
            f"required schema.\nProblems:\n{listed}\nReply again with only the corrected JSON "
            "object.",
        ),
    )


def _describe(error: Any) -> str:
    location = ".".join(str(part) for part in error["loc"])
    if error["type"] == "json_invalid":
        return f"not valid JSON: {error['ctx'].get('error', error['msg'])}"
    return f"{location}: {error['msg']}" if location else error["msg"]
