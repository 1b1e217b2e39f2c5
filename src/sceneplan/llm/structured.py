"""JSON replies against a pydantic model: the schema sent, validation, and the re-ask."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from sceneplan.llm.messages import Message

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"^```[\w-]*\s*\n(.*?)\n?```$", re.DOTALL)


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


def parse_reply(text: str, model: type[M]) -> tuple[M | None, list[str]]:
    """Validate `text` as JSON for `model`: the object, or None and the problems found.

    A reply wrapped in a Markdown code fence is unwrapped first.
    """
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    try:
        return model.model_validate_json(fenced.group(1) if fenced else stripped), []
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
