"""A real HTTP server on loopback that answers as an LLM, with scripted replies.

It speaks the OpenAI chat-completions protocol (`POST /v1/chat/completions`)
and the Anthropic messages protocol (`POST /v1/messages`), so the real SDKs
and the whole sceneplan.llm stack (retries, cache, validation) are exercised.
Replies are consumed in the order they were enqueued, whichever protocol asks.

    def test_plan(scripted_llm):                            # the fixture of tests/conftest.py
        scripted_llm.enqueue_json({"plan": ["goto(kitchen)"]})
        with scripted_llm.client() as llm:                  # an LLMClient on the server
            reply = llm.complete("Make coffee", schema=Plan)
        assert scripted_llm.requests[0]["messages"][-1]["content"] == "Make coffee"

`scripted_llm.model` is the model string for anything that takes one
(`openai-compatible:http://127.0.0.1:PORT/v1/scripted-model`), and
`scripted_llm.settings()` the matching fast settings (short timeouts, tiny
backoff, cache in the test's tmp_path).

`scripted_llm.reject_format("json_schema", body=...)` makes the server behave
like one without that structured-output feature: every OpenAI-protocol request
whose `response_format` has that type gets the error (400 by default), is
recorded in `requests`, and consumes no scripted reply.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sceneplan import envvars
from sceneplan.llm import Ledger, LLMClient, LLMSettings

MODEL_NAME = "scripted-model"


@dataclass
class _Scripted:
    text: str | None = None
    data: Any = None
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    input_tokens: int = 12
    output_tokens: int = 7


class LoopbackServer(HTTPServer):
    """pytest-httpserver's server on loopback, checking for its stop every 10 ms: with
    `serve_forever`'s default of 0.5 s, stopping the server cost every test half a second."""

    def thread_target(self) -> None:
        assert self.server is not None
        self.server.serve_forever(poll_interval=0.01)


class ScriptedLLMServer:
    """Queue replies with `enqueue_*`; read what the client sent in `requests`."""

    def __init__(self, httpserver: HTTPServer, cache_dir: Path) -> None:
        self.httpserver = httpserver
        self.cache_dir = cache_dir
        self.requests: list[dict[str, Any]] = []
        """The JSON bodies received, in order."""
        self.paths: list[str] = []
        self._queue: deque[_Scripted] = deque()
        self._rejected_formats: dict[str, tuple[int, Any]] = {}
        self._lock = threading.Lock()
        self._released = threading.Event()
        httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_handler(
            self._openai
        )
        httpserver.expect_request("/v1/messages", method="POST").respond_with_handler(
            self._anthropic
        )

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL: http://127.0.0.1:PORT/v1."""
        return self.httpserver.url_for("/v1")

    @property
    def model(self) -> str:
        """The model string that reaches this server through the OpenAI protocol."""
        return f"openai-compatible:{self.base_url}/{MODEL_NAME}"

    anthropic_model = f"anthropic:{MODEL_NAME}"
    """With `settings()`, reaches this server through the Anthropic protocol."""

    def settings(self, **overrides: Any) -> LLMSettings:
        """Fast test settings pointing the anthropic provider here; the environment is ignored."""
        values: dict[str, Any] = {
            "timeout": 2.0,
            "max_retries": 2,
            "backoff_base": 0.01,
            "backoff_max": 0.05,
            "cache_dir": self.cache_dir,
            "providers": {
                "anthropic": {"base_url": self.httpserver.url_for("/"), "api_key": "test-key"}
            },
        }
        values.update(overrides)
        return LLMSettings.model_validate(values)

    def client(
        self, model: str | None = None, *, ledger: Ledger | None = None, **overrides: Any
    ) -> LLMClient:
        """An LLMClient on this server (OpenAI protocol unless `model` says otherwise)."""
        return LLMClient(model or self.model, settings=self.settings(**overrides), ledger=ledger)

    def enqueue_text(self, text: str, *, input_tokens: int = 12, output_tokens: int = 7) -> None:
        """Answer the next request with `text`."""
        self._push(_Scripted(text=text, input_tokens=input_tokens, output_tokens=output_tokens))

    def enqueue_json(self, data: Any, *, input_tokens: int = 12, output_tokens: int = 7) -> None:
        """Answer the next request with `data` as JSON (a tool call, under Anthropic's protocol)."""
        self._push(_Scripted(data=data, input_tokens=input_tokens, output_tokens=output_tokens))

    def enqueue_status(
        self, status: int, *, body: Any = None, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the next request with an HTTP error (e.g. 429, 500)."""
        body = body if body is not None else {"error": {"message": f"scripted status {status}"}}
        self._push(_Scripted(status=status, body=body, headers=headers or {}))

    def enqueue_hang(self, seconds: float, text: str = "too late") -> None:
        """Hold the next request for `seconds` (or until the test ends), then answer `text`."""
        self._push(_Scripted(text=text, delay=seconds))

    def reject_format(self, kind: str, *, status: int = 400, body: Any = None) -> None:
        """Refuse every OpenAI-protocol request whose `response_format` type is `kind`.

        The refusal is `status` with `body` (by default an error naming the
        format), sent without consuming a scripted reply.
        """
        if body is None:
            body = {"error": {"message": f"response_format type '{kind}' is not supported"}}
        with self._lock:
            self._rejected_formats[kind] = (status, body)

    @property
    def formats(self) -> list[str | None]:
        """The `response_format` type of each request received (None where it had none)."""
        return [(r.get("response_format") or {}).get("type") for r in self.requests]

    @property
    def pending(self) -> int:
        """Replies enqueued and not yet sent."""
        return len(self._queue)

    def release(self) -> None:
        """Let held requests go (called when the fixture ends)."""
        self._released.set()

    def _push(self, scripted: _Scripted) -> None:
        with self._lock:
            self._queue.append(scripted)

    def _next(self, request: Request) -> _Scripted | Response:
        body = request.get_json(silent=True) or {}
        with self._lock:
            self.requests.append(body)
            self.paths.append(request.path)
            number = len(self.requests)
            scripted = self._queue.popleft() if self._queue else None
        if scripted is None:
            message = f"scripted LLM server: no reply queued for request {number}"
            return _json_response({"error": {"message": message}}, 400)
        if scripted.delay:
            self._released.wait(scripted.delay)
        if scripted.status != 200:
            return _json_response(scripted.body, scripted.status, scripted.headers)
        return scripted

    def _openai(self, request: Request) -> Response:
        body = request.get_json(silent=True) or {}
        kind = (body.get("response_format") or {}).get("type")
        with self._lock:
            rejected = self._rejected_formats.get(kind) if kind else None
            if rejected is not None:
                self.requests.append(body)
                self.paths.append(request.path)
        if rejected is not None:
            return _json_response(rejected[1], rejected[0])
        scripted = self._next(request)
        if isinstance(scripted, Response):
            return scripted
        content = scripted.text if scripted.text is not None else json.dumps(scripted.data)
        return _json_response(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": 0,
                "model": MODEL_NAME,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": scripted.input_tokens,
                    "completion_tokens": scripted.output_tokens,
                    "total_tokens": scripted.input_tokens + scripted.output_tokens,
                },
            }
        )

    def _anthropic(self, request: Request) -> Response:
        scripted = self._next(request)
        if isinstance(scripted, Response):
            return scripted
        tools = self.requests[-1].get("tools") or []
        if scripted.text is None and tools:
            block = {"type": "tool_use", "id": "toolu_1", "name": tools[0]["name"]}
            block["input"] = scripted.data
        else:
            text = scripted.text if scripted.text is not None else json.dumps(scripted.data)
            block = {"type": "text", "text": text}
        return _json_response(
            {
                "id": f"msg_{len(self.requests)}",
                "type": "message",
                "role": "assistant",
                "model": MODEL_NAME,
                "content": [block],
                "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn",
                "stop_sequence": None,
                "usage": {
                    "input_tokens": scripted.input_tokens,
                    "output_tokens": scripted.output_tokens,
                },
            }
        )


def _json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        json.dumps(data), status=status, headers=headers, content_type="application/json"
    )


# Environment variables through which the machine could choose a model, key or config.
LLM_ENV_VARS = envvars.LLM


def isolate_llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No keys, models or config from the machine; config and cache dirs under tmp_path."""
    for name in LLM_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
