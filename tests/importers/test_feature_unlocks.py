"""The counting logic of benchmarks/feature_unlocks.py on hand-made tasks (no bddl needed)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "feature_unlocks.py"


def _load():
    spec = importlib.util.spec_from_file_location("_feature_unlocks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fu = _load()
Need = fu.Need

# 8 tasks: 2 need nothing, 3 need a, 1 needs b, 1 needs a and b, 1 misses something
TASKS = [
    Need("t1"),
    Need("t2"),
    Need("t3", frozenset({"a"})),
    Need("t4", frozenset({"a"})),
    Need("t5", frozenset({"a"})),
    Need("t6", frozenset({"b"})),
    Need("t7", frozenset({"a", "b"})),
    Need("t8", frozenset({"b"}), frozenset({"goal:folded"})),
]


def test_expressible_and_count():
    assert fu.expressible(TASKS[0], [])
    assert not fu.expressible(TASKS[2], [])
    assert fu.expressible(TASKS[6], ["a", "b", "c"])
    assert not fu.expressible(TASKS[7], ["a", "b", "c"])  # misses what no feature gives
    assert fu.count(TASKS, []) == 2
    assert fu.count(TASKS, ["a"]) == 5
    assert fu.count(TASKS, ["b"]) == 3
    assert fu.count(TASKS, ["a", "b"]) == 7


def test_greedy_order_marginal_and_cumulative():
    ladder = fu.greedy(TASKS, ["b", "c", "a"])
    assert (ladder.total, ladder.base) == (8, 2)
    # a unlocks 3 first (b only 1); then b unlocks t6 and t7; c unlocks nothing
    assert ladder.steps == [("a", 3, 5), ("b", 2, 7), ("c", 0, 7)]
    assert ladder.base + sum(m for _, m, _ in ladder.steps) == ladder.steps[-1][2]


def test_greedy_ties_go_to_the_feature_more_tasks_need_then_to_the_order():
    # neither x nor y unlocks a task alone; two tasks need y, one needs x
    tasks = [
        Need("p", frozenset({"x", "y"})),
        Need("q", frozenset({"y", "z"})),
        Need("r", frozenset({"y", "z"})),
    ]
    ladder = fu.greedy(tasks, ["x", "y", "z"])
    assert ladder.steps == [("y", 0, 0), ("z", 2, 2), ("x", 1, 3)]
    ladder = fu.greedy([Need("s", frozenset({"u"})), Need("t", frozenset({"v"}))], ["v", "u"])
    assert [name for name, _, _ in ladder.steps] == ["v", "u"]


def test_needs_of_maps_tokens_to_features_base_and_missing():
    features = (
        fu.Feature("nextto", True, frozenset({"goal:nextto"}), frozenset({"edge:close"}), ()),
        fu.Feature("goal actions", False, frozenset(), frozenset({"goal-action"}), ()),
        fu.Feature("clean", True, frozenset(), frozenset({"verb:rinse"}), ()),
        fu.Feature("also rinse", False, frozenset(), frozenset({"verb:rinse"}), ()),
    )
    want, missing = fu.needs_of({"goal:ontop", "goal:nextto", "goal:folded"}, "behavior", features)
    assert want == {"nextto"} and missing == {"goal:folded"}  # goal:ontop is base
    want, missing = fu.needs_of(
        {"goal-action", "verb:rinse", "edge:holds"}, "virtualhome", features
    )
    assert want == {"goal actions", "clean", "also rinse"} and not missing


def test_top_missing_counts_each_token_once_per_task():
    tasks = [
        Need("a", missing=frozenset({"init:filled", "goal:real"})),
        Need("b", missing=frozenset({"init:filled"})),
        Need("c", frozenset({"x"})),
    ]
    assert fu.top_missing(tasks) == [("init:filled", 2), ("goal:real", 1)]


def test_every_feature_is_data_with_tokens_and_a_probe():
    names = [f.name for f in fu.FEATURES]
    assert len(names) == len(set(names))
    assert {"nextto", "two hands", "frozen", "cooked (appliances)"} <= set(names)
    for feature in fu.FEATURES:
        assert feature.behavior or feature.virtualhome, feature.name
        assert feature.probes, feature.name
        assert not (feature.behavior & fu.BASE["behavior"]), feature.name
        assert not (feature.virtualhome & fu.BASE["virtualhome"]), feature.name


@pytest.mark.parametrize("only", ["behavior", "virtualhome"])
def test_a_missing_extra_is_exit_2_naming_it(only, monkeypatch, capsys):
    module = {"behavior": "bddl", "virtualhome": "virtualhome_eval"}[only]
    real = importlib.util.find_spec
    monkeypatch.setattr(
        fu.importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a)
    )
    assert fu.main(["--only", only]) == 2
    err = capsys.readouterr().err
    assert f"pip install -e '.[{only}]'" in err and "Traceback" not in err
    assert err.count("\n") == 1


@pytest.mark.slow
def test_an_unknown_feature_name_is_exit_2():
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--not-landed", "teleport"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "unknown feature 'teleport'" in run.stderr and "Traceback" not in run.stderr
