"""Fixtures of the LLM-layer tests: an isolated environment and the scripted server."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_llm import scripted_llm  # noqa: F401  (the fixture)

ENV_VARS = (
    "SCENEPLAN_LLM",
    "SCENEPLAN_CONFIG",
    "SCENEPLAN_CACHE_DIR",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OLLAMA_HOST",
    "VLLM_API_KEY",
    "VLLM_BASE_URL",
)


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No keys, models or config from the machine; config and cache under tmp_path."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
