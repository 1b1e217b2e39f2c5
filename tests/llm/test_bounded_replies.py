"""Model servers that misbehave: bodies that never end or trickle, replies of the wrong shape."""

from __future__ import annotations

import time

import pytest

from endless_http import misbehaving_server
from sceneplan.errors import LLMError, LLMRequestError
from sceneplan.llm import LLMClient, LLMSettings


def _client(url: str, tmp_path, protocol: str, **settings) -> LLMClient:
    values = {"timeout": 5.0, "max_retries": 2, "cache": False, "cache_dir": tmp_path}
    values |= {"backoff_base": 0.01, "backoff_max": 0.02} | settings
    if protocol == "anthropic":
        values["providers"] = {"anthropic": {"base_url": url, "api_key": "k"}}
        return LLMClient("anthropic:m", settings=LLMSettings.model_validate(values))
    return LLMClient(f"openai-compatible:{url}/v1/m", settings=LLMSettings.model_validate(values))


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_a_body_that_never_ends_is_cut_at_the_limit_and_not_retried(tmp_path, protocol):
    with (
        misbehaving_server("endless") as url,
        _client(url, tmp_path, protocol) as llm,
        pytest.raises(LLMRequestError, match=r"sent a body of more than 16 MiB") as caught,
    ):
        llm.complete("hi")
    assert url in str(caught.value)


@pytest.mark.slow
def test_a_body_that_trickles_ends_at_the_timeout(tmp_path):
    started = time.monotonic()
    with (
        misbehaving_server("trickle") as url,
        _client(url, tmp_path, "openai", timeout=0.5) as llm,
        pytest.raises(LLMError),
    ):
        llm.complete("hi")
    assert time.monotonic() - started < 5  # three attempts of 0.5 s, not forever


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"choices": "many"}', "sent a reply that is not a chat completion"),
        (b'{"choices": [{"message": {"content": 7}}]}', "not a chat completion"),
        (b'{"choices": [1]}', "not a chat completion"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_an_openai_reply_of_the_wrong_shape_is_one_error(tmp_path, body, message):
    with (
        misbehaving_server("body", body) as url,
        _client(url, tmp_path, "openai") as llm,
        pytest.raises(LLMRequestError, match=message),
    ):
        llm.complete("hi")


def test_an_anthropic_reply_of_the_wrong_shape_is_one_error(tmp_path):
    body = b'{"content": "many", "usage": {"input_tokens": "x"}}'
    with (
        misbehaving_server("body", body) as url,
        _client(url, tmp_path, "anthropic") as llm,
        pytest.raises(LLMRequestError, match="sent a reply that is not a message"),
    ):
        llm.complete("hi")


def test_usage_that_is_not_a_count_is_counted_as_zero(tmp_path):
    body = b'{"choices": [{"message": {"content": "ok"}}], "usage": {"prompt_tokens": "many"}}'
    with misbehaving_server("body", body) as url, _client(url, tmp_path, "openai") as llm:
        reply = llm.complete("hi")
    assert reply.text == "ok" and reply.usage.input_tokens == 0
