"""Fixtures of the eval tests: an isolated environment, the scripted server, the toy planners."""

from __future__ import annotations

import importlib
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from eval_helpers import COFFEE_TASKS
from sceneplan.planners.base import PLANNERS
from scripted_llm import isolate_llm_env, scripted_llm  # noqa: F401  (the fixture)

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No keys, models or config from the machine (nor the toy planners' delay)."""
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.delenv("SCENEPLAN_TOY_DELAY", raising=False)


@pytest.fixture
def coffee_tasks() -> Path:
    """A user task file over the packaged `coffee` graph: two tasks of each family."""
    return COFFEE_TASKS


@pytest.fixture
def toys(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The toy planners (tests/eval/toy_planners.py), registered by name for this test."""
    monkeypatch.syspath_prepend(str(HERE))
    module = importlib.import_module("toy_planners")
    for name, cls in module.TOYS.items():
        monkeypatch.setitem(PLANNERS, name, ("toy_planners", cls))
    monkeypatch.setattr(module.InterruptingPlanner, "budget", 3)
    monkeypatch.setattr(module.ReferencePlanner, "peak", 0)
    # the interrupting toy presses Ctrl-C: Python's own SIGINT handler must be in place,
    # which a shell does not give a job it starts in the background (`cmd &` ignores SIGINT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield module
    finally:
        signal.signal(signal.SIGINT, previous)
