"""`sceneplan llm check` through typer's test runner, against the scripted server."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def test_check_reports_success_latency_and_reply(scripted_llm):
    scripted_llm.enqueue_text("ok", input_tokens=21, output_tokens=1)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model])
    assert result.exit_code == 0, result.output
    assert f"ok {scripted_llm.model} answered in" in result.output
    assert "reply: ok" in result.output
    assert "21 tokens in, 1 out" in result.output
    assert "single word" in scripted_llm.requests[0]["messages"][-1]["content"]


def test_check_json_and_never_cached(scripted_llm):
    scripted_llm.enqueue_text("ok")
    scripted_llm.enqueue_text("ok again")
    for expected in ("ok", "ok again"):
        result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert report["ok"] is True and report["reply"] == expected
        assert report["model"] == scripted_llm.model
        assert report["served_model"] == "scripted-model"
        assert report["latency_s"] > 0 and report["cached"] is False


def test_check_uses_the_configured_model(scripted_llm, monkeypatch):
    monkeypatch.setenv("SCENEPLAN_LLM", scripted_llm.model)
    scripted_llm.enqueue_text("ok")
    result = runner.invoke(app, ["llm", "check"])
    assert result.exit_code == 0, result.output
    assert scripted_llm.model in result.output


def test_check_without_a_model_says_how_to_configure_one():
    result = runner.invoke(app, ["llm", "check"])
    assert result.exit_code == 2
    assert "error: no LLM configured" in result.output
    assert "OPENAI_API_KEY" in result.output and "ollama serve" in result.output


def test_check_against_a_silent_server(scripted_llm, tmp_path):
    config = tmp_path / "config" / "sceneplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[llm]\nmax_retries = 1\nbackoff_base = 0.01\n")
    scripted_llm.enqueue_hang(5)
    scripted_llm.enqueue_hang(5)
    result = runner.invoke(app, ["llm", "check", scripted_llm.model, "--timeout", "0.2", "--json"])
    assert result.exit_code == 2
    report = json.loads(result.output)
    assert report["ok"] is False and report["model"] == scripted_llm.model
    assert "did not answer within 0.2 s (gave up after 2 attempts)" in report["error"]
