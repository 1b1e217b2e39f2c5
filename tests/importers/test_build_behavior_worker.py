"""scripts/build_behavior.py's worker process: a solve past its limit is killed, a crash is
one task's reason, and the build goes on with a fresh worker (without a private name of
the standard library)."""

import importlib.util
import os
import sys
import time
from pathlib import Path

import pytest

from sceneplan.datasets import load_environment

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_behavior.py"


@pytest.fixture(scope="module")
def build_behavior():
    spec = importlib.util.spec_from_file_location("build_behavior", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_behavior"] = module  # the worker unpickles its functions by name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("build_behavior", None)


@pytest.fixture
def worker(build_behavior):
    worker = build_behavior.Worker()
    yield worker
    worker.close()


def test_a_call_past_its_limit_kills_the_worker_and_the_next_call_starts_another(worker):
    started = time.perf_counter()
    with pytest.raises(TimeoutError):
        worker.call(time.sleep, (30,), 0.5)
    assert time.perf_counter() - started < 10  # killed, not waited for
    assert worker.call(pow, (2, 10), 10) == 1024


def test_a_worker_that_dies_is_reported_and_the_next_call_starts_another(build_behavior, worker):
    assert worker.call(os.getpid, (), 10) != os.getpid()
    with pytest.raises(build_behavior.WorkerDied):
        worker.call(os._exit, (3,), 10)
    assert worker.call(pow, (3, 2), 10) == 9


def test_an_error_in_the_worker_is_raised_in_the_build_and_the_worker_goes_on(worker):
    first = worker.call(os.getpid, (), 10)
    with pytest.raises(ZeroDivisionError):
        worker.call(divmod, (1, 0), 10)
    assert worker.call(os.getpid, (), 10) == first  # the same process, caches still warm


def test_the_solver_pool_solves_in_its_worker_and_names_a_timeout(build_behavior):
    graph = load_environment("coffee")
    pool = build_behavior.SolverPool(timeout=30)
    try:
        plan, why, seconds = pool.plan(graph, "open(fridge)")
        assert (plan, why) == (["go_to(kitchen)", "open(fridge)", "done()"], "")
        assert seconds >= 0
    finally:
        pool.close()
    stuck = build_behavior.SolverPool(timeout=7, hard_timeout=0.0)
    try:
        assert stuck.plan(graph, "open(fridge)") == (
            None,
            "oracle: the solver ran past its 7 s timeout (killed)",
            0.0,
        )
    finally:
        stuck.close()
