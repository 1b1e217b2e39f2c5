"""The one family of errors sceneplan raises for problems a user can cause.

Library code raises these with a message that names the bad value and, where
there is one, the fix. Only the CLI turns them into exit codes and one-line
messages.
"""

from __future__ import annotations

from typing import Any


class SceneplanError(Exception):
    """Base of every error sceneplan raises on purpose."""


class BadInputError(SceneplanError):
    """A file, argument or reply that does not have the expected form."""


class GraphValidationError(BadInputError):
    """A scene-graph file with one or more problems; `problems` lists them all."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        head = f"{source}: {len(problems)} problem(s) in the scene graph"
        super().__init__(head + "\n" + "\n".join(f"  - {p}" for p in problems))


class UnknownNodeError(BadInputError):
    """A node id that the scene graph does not have."""

    def __init__(self, node_id: str, hint: str = ""):
        self.node_id = node_id
        super().__init__(f"unknown node '{node_id}'" + (f" ({hint})" if hint else ""))


class ViewError(BadInputError):
    """An expand or contract that cannot be applied to the current view."""


class PlanParseError(BadInputError):
    """An action string that is not of the form name(arg, ...)."""


class PlanExecutionError(SceneplanError):
    """A plan that fails in the simulator where an executable one was required."""


class GoalParseError(BadInputError):
    """A goal formula that does not parse or names something unknown."""


class UnreachableError(SceneplanError):
    """No path connects two places in the scene graph's topology."""


class UnsupportedError(SceneplanError):
    """A request the chosen component does not support."""


class BackendUnavailableError(SceneplanError):
    """An optional backend or service that is not installed or not reachable."""


class LLMError(SceneplanError):
    """A chat model that could not be asked, or whose answer could not be used.

    `retryable` marks transport failures worth another attempt (429, 5xx,
    connection errors, timeouts); `url` names the server when there is one;
    `hint`, the fix, ends the message.
    """

    retryable: bool = False

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        retry_after: float | None = None,
        hint: str | None = None,
    ):
        super().__init__(f"{message}; {hint}" if hint else message)
        self.detail = message
        self.url = url
        self.retry_after = retry_after
        self.hint = hint


class ModelNotConfiguredError(LLMError):
    """No chat model was named and none is configured; the message says how to configure one."""


class LLMRequestError(LLMError):
    """The server refused the request (bad key, unknown model, invalid parameters)."""


class LLMUnavailableError(LLMError, BackendUnavailableError):
    """The server could not be reached or kept failing (connection refused, 429, 5xx)."""

    retryable = True


class LLMTimeoutError(LLMUnavailableError):
    """The server did not answer within the configured timeout."""


class LLMReplyError(LLMError, BadInputError):
    """A reply that still did not parse or match its schema after one re-ask.

    `raw_reply` is the model's last text and `problems` the validation errors;
    `usage` (set by the client) holds the tokens and time the failed call cost.
    """

    def __init__(self, message: str, *, raw_reply: str, problems: list[str]):
        super().__init__(message)
        self.raw_reply = raw_reply
        self.problems = list(problems)
        self.usage: Any = None  # an llm.usage.Usage; not imported, errors import nothing


class ReplayMismatchError(LLMError):
    """A `replay:` transcript has no recorded reply for the request; names the first difference."""
