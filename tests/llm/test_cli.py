"""`sceneplan llm check` through typer's test runner, against the scripted server."""

from __future__ import annotations

import json
import time

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()

OK = {"answer": "ok"}


@pytest.fixture
def fast_config(tmp_path):
    """A config file with one quick retry, where the isolated environment looks for it."""
    config = tmp_path / "config" / "sceneplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[llm]\nmax_retries = 1\nbackoff_base = 0.01\nbackoff_max = 0.05\n")
    return config


def enqueue_ok(scripted_llm, times=3):
    for _ in range(times):
        scripted_llm.enqueue_json(OK, input_tokens=21, output_tokens=1)


def test_check_asks_in_every_structured_mode(scripted_llm):
    enqueue_ok(scripted_llm)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert result.exit_code == 0, result.output
    assert scripted_llm.formats == ["json_schema", "json_object", None]
    for mode in ("json_schema", "json_object", "prompt"):
        assert f"  {mode}" in result.output
    assert result.output.count(" ok ") == 3
    assert "21 tokens in, 1 out" in result.output
    assert "served as scripted-model" in result.output
    assert "ok planning will use json_schema replies" in result.output
    # JSON mode and plain text carry the schema in the prompt; json_schema in response_format.
    assert "JSON schema" in scripted_llm.requests[1]["messages"][-1]["content"]
    assert "JSON schema" in scripted_llm.requests[2]["messages"][-1]["content"]
    assert "JSON schema" not in scripted_llm.requests[0]["messages"][-1]["content"]


def test_check_json_and_never_cached(scripted_llm):
    enqueue_ok(scripted_llm, 6)
    for _ in range(2):
        result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["ok"] is True and report["structured_mode"] == "json_schema"
        assert report["model"] == scripted_llm.model
        assert report["served_model"] == "scripted-model"
        assert [p["status"] for p in report["probes"]] == ["ok", "ok", "ok"]
        assert all(p["latency_s"] > 0 for p in report["probes"])
    assert len(scripted_llm.requests) == 6


def test_check_reports_refused_modes_and_the_one_planning_uses(scripted_llm):
    scripted_llm.reject_format("json_schema")
    enqueue_ok(scripted_llm, 2)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [p["status"] for p in report["probes"]] == ["refused", "ok", "ok"]
    assert "response_format type 'json_schema' is not supported" in report["probes"][0]["detail"]
    assert report["structured_mode"] == "json_object"


def test_check_falls_to_plain_text_when_both_formats_are_refused(scripted_llm):
    scripted_llm.reject_format("json_schema")
    scripted_llm.reject_format("json_object")
    scripted_llm.enqueue_text('Sure! {"answer": "ok"}')
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert result.exit_code == 0, result.output
    assert "refused" in result.output
    assert "ok planning will use prompt replies" in result.output


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("", "the reply is empty"),
        ("   \n", "the reply is empty"),
        ("<!DOCTYPE html><html><body>Sign in</body></html>", "the reply is an HTML page"),
        ("ok", "the reply is not the JSON asked for"),
    ],
)
def test_an_unusable_reply_is_not_ok(scripted_llm, reply, problem):
    scripted_llm.enqueue_text(reply)
    enqueue_ok(scripted_llm, 2)  # the other modes work, but planning would use json_schema
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert result.exit_code == 2, result.output
    assert "bad reply" in result.output
    assert f"accepts json_schema requests, but its reply is not usable: {problem}" in result.output
    assert "planning will use" not in result.output


def test_an_html_page_instead_of_the_api(httpserver):
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        "<!DOCTYPE html><html><body>Log in to the proxy</body></html>", content_type="text/html"
    )
    model = f"openai-compatible:{httpserver.url_for('/v1')}/m"
    result = runner.invoke(app, ["llm", "check", model, "--json"])
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert "answered with an HTML page, not a chat completion" in report["error"]
    assert [p["status"] for p in report["probes"]] == ["failed", "not tried", "not tried"]


def test_timeout_is_the_total_of_the_check(scripted_llm, fast_config):
    for _ in range(4):
        scripted_llm.enqueue_hang(5)
    started = time.monotonic()
    result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--timeout", "0.5", "--json"])
    assert time.monotonic() - started < 2.5
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["model"] == scripted_llm.model
    assert "gave no usable answer within 0.5 s in total" in report["error"]
    assert [p["status"] for p in report["probes"]] == ["failed", "not tried", "not tried"]


def test_retry_after_is_capped_and_the_wait_is_announced(scripted_llm, fast_config):
    scripted_llm.enqueue_status(429, headers={"Retry-After": "3600"})
    enqueue_ok(scripted_llm)
    started = time.monotonic()
    result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--max-wait", "0.2"])
    assert time.monotonic() - started < 5
    assert result.exit_code == 0, result.output
    assert "waiting: " in result.stderr
    assert "answered 429" in result.stderr
    assert "waiting 0.2 s before retry 1 of 1; it asked for 3600 s" in result.stderr


def test_retry_after_cap_comes_from_the_config(scripted_llm, fast_config):
    fast_config.write_text(fast_config.read_text() + "retry_after_max = 0.1\n")
    scripted_llm.enqueue_status(503, headers={"Retry-After": "120"})
    enqueue_ok(scripted_llm)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert result.exit_code == 0, result.output
    assert "waiting 0.1 s before retry 1 of 1; it asked for 120 s" in result.stderr


def test_a_wait_longer_than_the_time_left_says_so(scripted_llm, fast_config):
    scripted_llm.enqueue_status(429, headers={"Retry-After": "30"})
    enqueue_ok(scripted_llm)
    result = runner.invoke(
        app, ["llm", "check", scripted_llm.model, "--timeout", "0.3", "--max-wait", "30"]
    )
    assert result.exit_code == 2
    assert "gave no usable answer within 0.3 s in total, while" in result.stderr
    assert "waiting 30 s before retry 1 of 1" in result.stderr


def test_check_uses_the_configured_model(scripted_llm, monkeypatch):
    monkeypatch.setenv("SCENEPLAN_LLM", scripted_llm.model)
    enqueue_ok(scripted_llm)
    result = runner.invoke(app, ["llm", "check"])
    assert result.exit_code == 0, result.output
    assert scripted_llm.model in result.output


def test_check_without_a_model_says_how_to_configure_one():
    result = runner.invoke(app, ["llm", "check"])
    assert result.exit_code == 2
    assert "error: no LLM configured" in result.output
    assert "OPENAI_API_KEY" in result.output and "ollama serve" in result.output


def test_check_over_the_anthropic_protocol(scripted_llm, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", scripted_llm.httpserver.url_for("/"))
    enqueue_ok(scripted_llm)
    result = runner.invoke(app, ["llm", "check", scripted_llm.anthropic_model, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [p["status"] for p in report["probes"]] == ["ok", "ok", "ok"]
    assert scripted_llm.requests[0]["tool_choice"]["type"] == "tool"  # json_schema: the tool
    assert "tools" not in scripted_llm.requests[1]
