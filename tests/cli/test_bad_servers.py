"""LLM servers and settings that misbehave (issue 26): one message, exit 2, no traceback.

Servers are real loopback HTTP servers (pytest-httpserver): a 200 whose body
is text or broken JSON, JSON holding a 5,000-digit number, replies that never
match their schema; settings: a server URL that is not one, a cache folder
that is a file.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()
HUGE = "9" * 5000


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch, tmp_path):
    isolate_llm_env(monkeypatch, tmp_path)
    config = tmp_path / "config" / "sceneplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[llm]\nmax_retries = 0\ntimeout = 5\n")


def _completion(content: str) -> dict:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _clean(result, *expected: str) -> str:
    output = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for text in expected:
        assert text in output, result.output
    return output


BODIES = [
    ("text", "this is not json", "text/plain", "answered with text, not a chat completion"),
    ("broken json", "{not json", "application/json", "answered with a body that is not a JSON"),
    (
        "huge number",
        '{"id": "x", "created": ' + HUGE + ', "choices": []}',
        "application/json",
        "(a number of more than 4300 digits)",
    ),
    ("deep", "[" * 100_000 + "]" * 100_000, "application/json", "(nested too deeply)"),
]


@pytest.mark.parametrize(
    ("body", "content_type", "message"), [b[1:] for b in BODIES], ids=[b[0] for b in BODIES]
)
def test_a_200_that_is_not_json(httpserver, body, content_type, message):
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        body, content_type=content_type
    )
    model = f"openai-compatible:{httpserver.url_for('/v1')}/m"
    _clean(runner.invoke(app, ["llm", "check", model]), message, httpserver.url_for("/v1"))


def test_a_reply_holding_a_huge_number(httpserver):
    httpserver.expect_request("/v1/chat/completions").respond_with_json(
        _completion('{"answer": ' + HUGE + "}")
    )
    result = runner.invoke(
        app, ["llm", "check", f"openai-compatible:{httpserver.url_for('/v1')}/m"]
    )
    _clean(result, "the reply is not the JSON asked for", "number out of range")


def test_a_plan_whose_replies_are_all_unusable_ends_as_error_after_three_calls(httpserver):
    httpserver.expect_request("/v1/chat/completions").respond_with_json(
        _completion('{"reply": "ok"}')
    )
    model = f"openai-compatible:{httpserver.url_for('/v1')}/m"
    result = runner.invoke(
        app, ["plan", "-t", "planning-simple-02", "-p", "sayplan", "--llm", model]
    )
    output = _clean(result, "none of the model's replies could be used (3 calls")
    assert "status error" in output
    assert "3 LLM call(s)" in output
    assert len(httpserver.log) <= 6  # three calls, each asked again once (some cached)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("::::", "the ollama server URL '::::' is not usable (the port ':::' is not a number)"),
        ("gpu-box:99999", "(Port out of range 0-65535)"),
        ("ftp://gpu-box", "(not an http:// or https:// URL with a host)"),
    ],
)
def test_a_server_url_that_is_not_one(monkeypatch, value, message):
    monkeypatch.setenv("OLLAMA_HOST", value)
    _clean(runner.invoke(app, ["llm", "check", "ollama:qwen2.5:7b"]), message, "set OLLAMA_HOST")


def test_a_model_url_with_a_bad_port():
    result = runner.invoke(app, ["llm", "check", "openai-compatible:http://h:abc/v1/m"])
    _clean(result, "the port 'abc' is not a number", "openai-compatible:http://HOST:PORT/v1/MODEL")


@pytest.mark.parametrize("below", ["", "/sub"])
def test_a_cache_folder_that_is_a_file(monkeypatch, tmp_path, httpserver, below):
    (tmp_path / "a_file").write_text("x")
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "a_file") + below)
    model = f"openai-compatible:{httpserver.url_for('/v1')}/m"
    result = runner.invoke(
        app, ["plan", "-t", "planning-simple-02", "-p", "sayplan", "--llm", model]
    )
    _clean(result, f"{tmp_path / 'a_file'} is a file, not a folder", "set SCENEPLAN_CACHE_DIR")
    assert httpserver.log == []  # refused before any request


def test_an_anthropic_200_that_is_not_json(httpserver, monkeypatch):
    httpserver.expect_request("/v1/messages").respond_with_data(
        "{not json", content_type="application/json"
    )
    monkeypatch.setenv("ANTHROPIC_BASE_URL", httpserver.url_for("/"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    result = runner.invoke(app, ["llm", "check", "anthropic:m"])
    _clean(result, "answered with a body that is not a JSON reply")
