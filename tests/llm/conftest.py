"""Fixtures of the LLM-layer tests: an isolated environment and the scripted server."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_llm import isolate_llm_env, scripted_llm  # noqa: F401  (the fixture)


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No keys, models or config from the machine; config and cache under tmp_path."""
    isolate_llm_env(monkeypatch, tmp_path)
