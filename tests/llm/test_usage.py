"""Accounting: prices, per-call usage, and ledgers of runs and episodes."""

from __future__ import annotations

import time

import pytest

from sceneplan.errors import LLMRequestError
from sceneplan.llm import Ledger
from sceneplan.llm.config import Price
from sceneplan.llm.prices import PriceTable


def test_packaged_prices_cover_dated_versions_and_local_models():
    table = PriceTable.load()
    assert table.lookup("openai:gpt-4o-2024-08-06") == table.lookup("openai:gpt-4o")
    assert table.lookup("anthropic:claude-sonnet-4-5-20250929").input == 3.0
    assert table.cost("ollama:qwen2.5:7b", 10_000, 10_000) == 0.0
    assert table.cost("openai:gpt-4o", 1_000_000, 100_000) == pytest.approx(3.5)
    assert table.cost("openai-compatible:unknown", 10, 10) is None
    assert table.lookup("anthropic:claude-opus-4-9") is None  # no guessing from a prefix


def test_config_prices_extend_and_override():
    table = PriceTable.load({"openai:gpt-4o": Price(input=1, output=1)})
    assert table.cost("openai:gpt-4o", 500_000, 500_000) == pytest.approx(1.0)


def test_run_and_episode_ledgers(scripted_llm):
    prices = {"openai-compatible:scripted-model": {"input": 2.0, "output": 10.0}}
    run_ledger = Ledger()
    episode = Ledger()
    scripted_llm.enqueue_text("a", input_tokens=1000, output_tokens=100)
    scripted_llm.enqueue_text("b", input_tokens=1000, output_tokens=100)
    scripted_llm.enqueue_status(400, body={"error": {"message": "context too long"}})
    started = time.perf_counter()
    with scripted_llm.client(ledger=run_ledger, prices=prices) as llm:
        first = llm.complete("one").usage
        assert first.cost_usd == pytest.approx(0.003)
        llm.complete("two", ledger=episode)
        cached = llm.complete("one").usage  # cached: costs nothing now
        with pytest.raises(LLMRequestError):
            llm.complete("three", ledger=episode)
    wall = time.perf_counter() - started
    assert run_ledger.summary() == {
        "calls": 4,
        "errors": 1,
        "cached_calls": 1,
        "input_tokens": 3000,
        "output_tokens": 300,
        "latency_s": run_ledger.latency_s,
        "cost_usd": pytest.approx(0.009),
        "spent_usd": pytest.approx(0.006),
        "unpriced_calls": 0,
    }
    # The calls ran one after another: their latencies add up to less than the wall time,
    # and the run's calls are the episode's two, the first call and the cached one.
    assert 0 < cached.latency_s < first.latency_s
    assert 0 < run_ledger.latency_s < wall
    assert run_ledger.latency_s - episode.latency_s == pytest.approx(
        first.latency_s + cached.latency_s
    )
    two = episode.records[0].usage.latency_s
    assert episode.latency_s > two  # the failed call's time counts too
    assert [r.error_type for r in episode.records] == [None, "LLMRequestError"]
    assert episode.records[1].error.endswith("(400): context too long")
    assert episode.records[0].to_dict()["messages"] == [{"role": "user", "content": "two"}]
