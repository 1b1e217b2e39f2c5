"""Bad inputs of `sceneplan llm check`: its arguments and bad LLM replies.

Each row: exit status 2, no traceback, and a message naming the problem.
"""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from scripted_llm import isolate_llm_env

runner = CliRunner()


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch, tmp_path):
    isolate_llm_env(monkeypatch, tmp_path)
    config = tmp_path / "config" / "sceneplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[llm]\nmax_retries = 1\nbackoff_base = 0.01\nbackoff_max = 0.05\n")


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"openai-compatible:http://127.0.0.1:{port}/v1/m"


def assert_clean_failure(result, *expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for text in expected:
        assert text in result.output, result.output


ARGUMENTS = [
    (["--timeout", "-5"], "Invalid value for '--timeout'"),
    (["--timeout", "0"], "Invalid value for '--timeout'"),
    (["--timeout", "nan"], "Invalid value for '--timeout'"),
    (["--timeout", "inf"], "Invalid value for '--timeout'"),
    (["--timeout", "soon"], "Invalid value for '--timeout'"),
    (["--max-wait", "-1"], "Invalid value for '--max-wait'"),
    (["--colour"], "No such option"),
]


@pytest.mark.parametrize(("args", "message"), ARGUMENTS, ids=[" ".join(a) for a, _ in ARGUMENTS])
def test_bad_check_options(args, message):
    result = runner.invoke(app, ["llm", "check", "ollama:qwen2.5:7b", *args])
    assert_clean_failure(result, message)


MODELS = [
    ("", "Invalid value for 'MODEL': is empty"),
    ("gpt-4o", "must be written PROVIDER:MODEL"),
    ("nope:m", "unknown LLM provider 'nope'"),
    ("openai:gpt-4o", "needs an API key: export OPENAI_API_KEY"),
    ("openai-compatible:m", "names no server"),
]


@pytest.mark.parametrize(("model", "message"), MODELS, ids=[m or "empty" for m, _ in MODELS])
def test_bad_model_names(model, message):
    assert_clean_failure(runner.invoke(app, ["llm", "check", model]), message)


def test_no_model_configured():
    assert_clean_failure(runner.invoke(app, ["llm", "check"]), "error: no LLM configured")


def test_server_down():
    result = runner.invoke(app, ["llm", "check", closed_port_url()])
    assert_clean_failure(result, "cannot reach the OpenAI-compatible server", "not tried")


def test_server_down_as_json():
    result = runner.invoke(app, ["llm", "check", closed_port_url(), "--json"])
    assert_clean_failure(result, '"ok": false', "cannot reach")


REPLIES = [
    ("empty", "", "the reply is empty"),
    ("blank", " \n\t", "the reply is empty"),
    ("html", "<html><body><h1>502 Bad Gateway</h1></body></html>", "the reply is an HTML page"),
    ("not json", "ok", "not the JSON asked for (not valid JSON"),
    ("wrong json", '{"reply": "ok"}', "not the JSON asked for (answer: Field required"),
    ("truncated json", '{"answer": "o', "not the JSON asked for"),
]


@pytest.mark.parametrize(
    ("reply", "message"), [r[1:] for r in REPLIES], ids=[r[0] for r in REPLIES]
)
def test_bad_replies(scripted_llm, reply, message):
    for _ in range(3):
        scripted_llm.enqueue_text(reply)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert_clean_failure(result, "bad reply", message, "error: ")


STATUSES = [
    (401, {"error": {"message": "Incorrect API key provided"}}, "Incorrect API key provided"),
    (404, {"error": {"message": "model 'm' not found"}}, "model 'm' not found"),
    (500, {"error": {"message": "CUDA out of memory"}}, "answered 500: CUDA out of memory"),
    (502, "<html><body>Bad Gateway</body></html>", "answered 502"),
]


@pytest.mark.parametrize(("status", "body", "message"), STATUSES, ids=[str(s[0]) for s in STATUSES])
def test_bad_statuses(scripted_llm, status, body, message):
    for _ in range(2):  # the first attempt and the one retry
        scripted_llm.enqueue_status(status, body=body)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert_clean_failure(result, message, "failed")


def test_an_html_page_in_place_of_the_api(httpserver):
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        "<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>", content_type="text/html"
    )
    result = runner.invoke(
        app, ["llm", "check", f"openai-compatible:{httpserver.url_for('/v1')}/m"]
    )
    assert_clean_failure(result, "answered with an HTML page, not a chat completion")
