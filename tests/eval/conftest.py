"""Fixtures of the eval tests: the toy planners, task files, results stores."""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from eval_helpers import COFFEE_TASKS
from sceneplan.planners.base import PLANNERS

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def no_toy_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy planners run without the delay a machine may set."""
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
        monkeypatch.setitem(PLANNERS.builtins, name, f"toy_planners:{cls}")
    monkeypatch.setattr(module.InterruptingPlanner, "budget", 3)
    monkeypatch.setattr(module.ReferencePlanner, "peak", 0)
    # the interrupting toy presses Ctrl-C: Python's own SIGINT handler must be in place,
    # which a shell does not give a job it starts in the background (`cmd &` ignores SIGINT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield module
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server for the store's tests (its `postgres` database).

    SCENEPLAN_TEST_POSTGRES when set (`.ci/run` starts a cluster and sets it); otherwise a
    throwaway cluster of this session when the server's binaries are installed. Without
    either, the tests that need it fail in CI and are skipped elsewhere.
    """
    import pg_cluster

    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    url = os.environ.get(pg_cluster.ENV)
    if url:
        yield url
        return
    if pg_cluster.binaries() is None:
        reason = f"no PostgreSQL: set {pg_cluster.ENV} or install postgresql (initdb)"
        if os.environ.get("CI"):
            pytest.fail(f"CI needs a PostgreSQL server: {reason}")
        pytest.skip(reason)
    url, folder = pg_cluster.start()
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty database on the test server, dropped after the test: its URL."""
    import pg_cluster

    with pg_cluster.new_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new results store of each kind: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "results.db")
    return request.getfixturevalue("postgres_url")
