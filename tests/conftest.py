"""Fixtures every test folder shares: the scripted LLM server, and no LLM key, model or
config from the machine; and the property tests' profile.

With `SCENEPLAN_TEST_DERANDOMIZE=1` (set by `.ci/run`) hypothesis draws the same
examples on every run, so that CI's verdict on a commit does not depend on the draw;
elsewhere each run draws new ones, which is how the fuzz tests find new inputs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from scripted_llm import LoopbackServer, ScriptedLLMServer, isolate_llm_env

settings.register_profile("derandomized", derandomize=True)
if os.environ.get("SCENEPLAN_TEST_DERANDOMIZE") == "1":
    settings.load_profile("derandomized")


@pytest.fixture
def scripted_llm(tmp_path: Path) -> Iterator[ScriptedLLMServer]:
    """A scripted LLM server on 127.0.0.1 for one test (tests/scripted_llm.py)."""
    server = LoopbackServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    scripted = ScriptedLLMServer(server, tmp_path / "llm-cache")
    try:
        yield scripted
    finally:
        scripted.release()
        server.clear()
        server.stop()


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path) -> Iterator[None]:
    """No LLM keys, models or config from the machine; config and cache dirs under tmp_path.

    Its own MonkeyPatch, not the `monkeypatch` fixture: a test's `monkeypatch` is then set
    up, and undone, in the order the test asks for it among its other fixtures.
    """
    with pytest.MonkeyPatch.context() as patch:
        isolate_llm_env(patch, tmp_path)
        yield
