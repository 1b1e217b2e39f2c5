"""Check a chat model for what planning needs: each structured mode, within one time budget.

Planners ask for JSON replies, in the first structured mode the server accepts
(`json_schema`, then `json_object`, then `prompt`: see `sceneplan.llm.structured`).
`check_model` sends one tiny request in each mode, never cached, and reports
which modes work and the one planning would use. A reply counts only if it is
the JSON asked for: an empty reply, an HTML page or prose is not a working model.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from sceneplan.errors import LLMError
from sceneplan.llm.base import Provider, ResponseFormatRejected
from sceneplan.llm.client import create_provider
from sceneplan.llm.config import LLMSettings
from sceneplan.llm.messages import JSON_SCHEMA, STRUCTURED_MODES, Message, Request
from sceneplan.llm.retry import RetryPolicy
from sceneplan.llm.structured import parse_reply, with_schema_instruction

CHECK_MESSAGES: tuple[Message, ...] = (
    Message("system", "You are a connectivity check. Answer as briefly as you can."),
    Message("user", 'Reply with a JSON object whose "answer" is the word ok.'),
)

_HTML = re.compile(r"^\s*<(!doctype|html|head|body|\?xml)", re.IGNORECASE)


class CheckReply(BaseModel):
    """The reply every probe asks for (closed, so strict structured output accepts it)."""

    model_config = ConfigDict(extra="forbid")

    answer: str


class ProbeStatus(StrEnum):
    """How one structured mode fared."""

    OK = "ok"
    REFUSED = "refused"
    """The server refused this structured mode (a 400 about `response_format`)."""
    BAD_REPLY = "bad reply"
    """The server answered, but not with the JSON asked for (empty, HTML, prose)."""
    FAILED = "failed"
    """The request failed as a whole (server down, bad key, unknown model, out of time)."""
    NOT_TRIED = "not tried"


@dataclass(frozen=True)
class Probe:
    """One request in one structured mode and what came of it."""

    mode: str
    status: ProbeStatus
    detail: str = ""
    """The reply when it worked; otherwise what was wrong."""
    reply: str | None = None
    served_model: str | None = None
    latency_s: float | None = None
    input_tokens: int = 0
    output_tokens: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {**asdict(self), "status": str(self.status)}


@dataclass(frozen=True)
class CheckReport:
    """The probes of one model, in the order the client tries the modes."""

    model: str
    total_timeout: float
    probes: list[Probe] = field(default_factory=list)

    @property
    def planning_mode(self) -> str | None:
        """The mode planning would use, or None if planning would fail.

        The client moves past a mode only when the server refuses it, so the
        first mode not refused is the one planning uses, and it must work.
        """
        for probe in self.probes:
            if probe.status is not ProbeStatus.REFUSED:
                return probe.mode if probe.status is ProbeStatus.OK else None
        return None

    @property
    def ok(self) -> bool:
        """Whether planning can talk to this model."""
        return self.planning_mode is not None

    @property
    def served_model(self) -> str | None:
        """The model name the server gave, if it answered at all."""
        return next((p.served_model for p in self.probes if p.served_model), None)

    @property
    def problem(self) -> str | None:
        """Why planning would fail, in one sentence; None when it would not."""
        if self.ok:
            return None
        for probe in self.probes:
            if probe.status is ProbeStatus.REFUSED:
                continue
            if probe.status is ProbeStatus.BAD_REPLY:
                return (
                    f"{self.model} accepts {probe.mode} requests, but its reply is not usable: "
                    f"{probe.detail}"
                )
            return probe.detail
        return f"{self.model} refused every structured mode ({', '.join(STRUCTURED_MODES)})"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: ok, the mode planning would use, the problem, and each probe."""
        return {
            "ok": self.ok,
            "model": self.model,
            "served_model": self.served_model,
            "structured_mode": self.planning_mode,
            "error": self.problem,
            "total_timeout_s": self.total_timeout,
            "probes": [probe.to_dict() for probe in self.probes],
        }


def check_model(
    model: str,
    settings: LLMSettings,
    *,
    total_timeout: float,
    on_wait: Callable[[str], None] | None = None,
) -> CheckReport:
    """Probe `model` in every structured mode, all within `total_timeout` seconds.

    Nothing is cached or recorded. Retries follow `settings` (a server's
    Retry-After is granted up to `settings.retry_after_max`, else
    `backoff_max`); before each wait `on_wait` gets a sentence saying so. A
    failure of the request as a whole (server down, bad key, out of time) ends
    the check: the modes after it are `not tried`.
    """
    settings = settings.model_copy(update={"timeout": total_timeout})
    provider = create_provider(model, settings)
    return asyncio.run(_check(model, provider, settings, total_timeout, on_wait))


async def _check(
    model: str,
    provider: Provider,
    settings: LLMSettings,
    total: float,
    on_wait: Callable[[str], None] | None,
) -> CheckReport:
    waiting: list[str] = []

    def announce(exc: LLMError, seconds: float, retry: int) -> None:
        asked = f"; it asked for {exc.retry_after:g} s" if exc.retry_after is not None else ""
        message = (
            f"{exc.detail}; waiting {seconds:g} s before retry {retry} of "
            f"{settings.max_retries}{asked}"
        )
        waiting.append(message)
        if on_wait is not None:
            on_wait(message)

    policy = RetryPolicy(
        settings.max_retries,
        settings.backoff_base,
        settings.backoff_max,
        retry_after_cap=settings.retry_after_max,
        on_wait=announce,
    )
    report = CheckReport(model, total)
    deadline = time.monotonic() + total
    try:
        for mode in STRUCTURED_MODES:
            if any(probe.status is ProbeStatus.FAILED for probe in report.probes):
                report.probes.append(Probe(mode, ProbeStatus.NOT_TRIED))
                continue
            waiting.clear()
            try:
                async with asyncio.timeout(deadline - time.monotonic()):
                    report.probes.append(await _probe(provider, policy, model, mode))
            except TimeoutError:
                during = f", while {waiting[-1]}" if waiting else ""
                detail = (
                    f"{provider.where} gave no usable answer within {total:g} s in total{during}"
                )
                report.probes.append(Probe(mode, ProbeStatus.FAILED, detail))
    finally:
        await provider.aclose()
    return report


async def _probe(provider: Provider, policy: RetryPolicy, model: str, mode: str) -> Probe:
    schema = CheckReply.model_json_schema()
    messages = CHECK_MESSAGES
    if mode != JSON_SCHEMA:
        messages = with_schema_instruction(messages, schema)
    request = Request(model, messages, schema, structured_mode=mode)
    started = time.perf_counter()
    try:
        reply = await policy.run(lambda: provider.complete(request))
    except ResponseFormatRejected as exc:
        return Probe(mode, ProbeStatus.REFUSED, exc.detail)
    except LLMError as exc:
        return Probe(mode, ProbeStatus.FAILED, str(exc))
    latency = time.perf_counter() - started
    common: dict[str, Any] = {
        "reply": reply.text,
        "served_model": reply.served_model,
        "latency_s": latency,
        "input_tokens": reply.input_tokens,
        "output_tokens": reply.output_tokens,
    }
    problem = reply_problem(reply.text, lenient=mode != JSON_SCHEMA)
    if problem:
        return Probe(mode, ProbeStatus.BAD_REPLY, problem, **common)
    return Probe(mode, ProbeStatus.OK, reply.text.strip(), **common)


def reply_problem(text: str, *, lenient: bool) -> str | None:
    """What is wrong with a probe's reply, or None if it is the JSON asked for.

    >>> reply_problem('{"answer": "ok"}', lenient=False) is None
    True
    >>> reply_problem("  ", lenient=True)
    'the reply is empty'
    >>> reply_problem("<!DOCTYPE html><html>Sign in</html>", lenient=True)
    'the reply is an HTML page, not a model reply: is the URL that of the API?'
    """
    if not text.strip():
        return "the reply is empty"
    if _HTML.match(text):
        return "the reply is an HTML page, not a model reply: is the URL that of the API?"
    _, problems = parse_reply(text, CheckReply, lenient=lenient)
    if problems:
        return f"the reply is not the JSON asked for ({'; '.join(problems)}): {_excerpt(text)}"
    return None


def _excerpt(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= width else flat[: width - 3] + "...")
