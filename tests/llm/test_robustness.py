"""Retries, timeouts, unreachable servers, refused requests, cancellation, concurrency."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from sceneplan.errors import (
    BackendUnavailableError,
    LLMRequestError,
    LLMTimeoutError,
    LLMUnavailableError,
    UnsupportedError,
)
from sceneplan.llm import LLMClient, LLMSettings, load_settings
from sceneplan.llm.retry import RetryPolicy


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_429_then_success(scripted_llm, protocol):
    scripted_llm.enqueue_status(429, headers={"retry-after": "0.01"})
    scripted_llm.enqueue_status(503)
    scripted_llm.enqueue_text("ok")
    model = scripted_llm.model if protocol == "openai" else scripted_llm.anthropic_model
    with scripted_llm.client(model) as llm:
        assert llm.complete("hi").text == "ok"
        assert llm.ledger.calls == 1 and llm.ledger.errors == 0
    assert len(scripted_llm.requests) == 3


def test_retries_are_bounded(scripted_llm):
    for _ in range(3):
        scripted_llm.enqueue_status(500, body={"error": {"message": "boom"}})
    with scripted_llm.client(max_retries=2) as llm:
        with pytest.raises(LLMUnavailableError) as caught:
            llm.complete("hi")
        assert llm.ledger.errors == 1
    assert "answered 500: boom" in str(caught.value)
    assert "gave up after 3 attempts" in str(caught.value)
    assert len(scripted_llm.requests) == 3


def test_refused_request_is_not_retried(scripted_llm):
    scripted_llm.enqueue_status(401, body={"error": {"message": "invalid api key"}})
    with scripted_llm.client() as llm, pytest.raises(LLMRequestError) as caught:
        llm.complete("hi")
    assert "refused the request for model 'scripted-model' (401): invalid api key" in str(
        caught.value
    )
    assert len(scripted_llm.requests) == 1


def test_timeout(scripted_llm):
    scripted_llm.enqueue_hang(5)
    scripted_llm.enqueue_hang(5)
    started = time.perf_counter()
    llm = scripted_llm.client(timeout=0.2, max_retries=1)
    with llm, pytest.raises(LLMTimeoutError) as caught:
        llm.complete("hi")
    assert time.perf_counter() - started < 2
    assert f"{scripted_llm.base_url} did not answer within 0.2 s" in str(caught.value)
    assert "gave up after 2 attempts" in str(caught.value)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_server_down_names_the_url(tmp_path):
    url = f"http://127.0.0.1:{_free_port()}/v1"
    settings = LLMSettings(
        cache_dir=tmp_path, timeout=2, max_retries=1, backoff_base=0.01, backoff_max=0.02
    )
    llm = LLMClient(f"openai-compatible:{url}/m", settings=settings)
    with llm, pytest.raises(LLMUnavailableError) as caught:
        llm.complete("hi")
    message = str(caught.value)
    assert f"cannot reach the OpenAI-compatible server at {url}: " in message
    assert "is the server running?" in message
    assert isinstance(caught.value, BackendUnavailableError)
    assert caught.value.url == url


def test_ollama_down_says_how_to_start_it(monkeypatch, tmp_path):
    port = _free_port()
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{port}")
    llm = LLMClient("ollama:qwen2.5:7b", settings=load_settings(max_retries=0))
    with llm, pytest.raises(LLMUnavailableError) as caught:
        llm.complete("hi")
    message = str(caught.value)
    assert f"cannot reach the Ollama server at http://127.0.0.1:{port}/v1" in message
    assert "ollama serve" in message and "OLLAMA_HOST" in message


def test_cancellation_is_clean(scripted_llm):
    scripted_llm.enqueue_hang(5)
    scripted_llm.enqueue_text("after")

    async def scenario():
        async with scripted_llm.client(concurrency=1) as llm:
            task = asyncio.create_task(llm.acomplete("slow"))
            while not scripted_llm.requests:
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # The concurrency slot was released: the next call goes through.
            reply = await llm.acomplete("next")
            return reply.text, llm.ledger.calls

    assert asyncio.run(scenario()) == ("after", 1)


@pytest.mark.slow
def test_concurrency_limit(scripted_llm):
    for i in range(4):
        scripted_llm.enqueue_hang(0.15, text=f"r{i}")

    async def scenario():
        async with scripted_llm.client(concurrency=2) as llm:
            started = time.perf_counter()
            replies = await asyncio.gather(*(llm.acomplete(f"q{i}") for i in range(4)))
            return time.perf_counter() - started, sorted(r.text for r in replies)

    elapsed, texts = asyncio.run(scenario())
    assert texts == ["r0", "r1", "r2", "r3"]
    assert elapsed >= 0.3  # two waves of two, never four at once


def test_sync_call_inside_event_loop_is_refused(scripted_llm):
    async def scenario():
        with scripted_llm.client() as llm:
            llm.complete("hi")

    with pytest.raises(UnsupportedError, match="acomplete"):
        asyncio.run(scenario())


def test_backoff_grows_with_jitter_and_honours_retry_after():
    policy = RetryPolicy(max_retries=5, base=1.0, cap=8.0)
    for retry, ceiling in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 8.0), (4, 8.0)]:
        assert ceiling / 2 <= policy.delay(retry) <= ceiling
    assert policy.delay(0, retry_after=3.0) == 3.0
    assert policy.delay(0, retry_after=60.0) == 8.0
