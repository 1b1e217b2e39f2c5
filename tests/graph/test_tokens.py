"""Token counts come from the real cl100k_base / o200k_base tokenizers."""

from __future__ import annotations

import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError
from sceneplan.graph import count_tokens, from_dict, token_report
from scenes import node


@pytest.mark.slow
def test_known_counts():
    # The token ids of this sentence in tiktoken's README are [83, 1609, 5963, 374, 2294, 0].
    assert count_tokens("tiktoken is great!") == 6
    assert count_tokens("") == 0
    assert count_tokens("Привет мир") == 5
    assert count_tokens("Привет мир", "o200k_base") == 3


def test_special_tokens_count_as_text():
    assert count_tokens("<|endoftext|>") > 1


def test_unknown_encoding():
    with pytest.raises(BadInputError, match="unknown tokenizer encoding 'p50k'; available: cl100k"):
        count_tokens("hello", "p50k")


def test_coffee_report():
    graph = load_environment("coffee")
    report = token_report(graph)
    assert report.full.tokens > report.collapsed.tokens > 0
    rows = {row.entity: row for row in report.kinds}
    assert list(rows) == ["building", "floor", "room", "pose", "agent", "asset", "object", "links"]
    counts = graph.counts()
    assert all(rows[kind].count == counts[kind] for kind in rows)
    assert report.full.count == len(graph) + counts["links"]  # entities include edges
    assert report.collapsed.count == 13 + counts["links"]
    # Fragments tokenized apart lose a few merges across their boundaries.
    assert sum(row.tokens for row in report.kinds) == pytest.approx(report.full.tokens, rel=0.05)
    assert rows["asset"].average == rows["asset"].tokens / 6


def test_report_as_dict_and_levels():
    graph = load_environment("coffee")
    data = token_report(graph, level="floor").to_dict()
    assert data["level"] == "floor" and data["encoding"] == "cl100k_base"
    assert data["collapsed"]["tokens"] < token_report(graph).collapsed.tokens
    # "building":["house"]: a node with nothing but its id is written as the bare id
    assert data["kinds"][0] == {"entity": "building", "count": 1, "tokens": 5, "average": 5.0}


def test_a_tiny_report_worked_by_hand():
    """A kitchen, a bench, an apple: the texts SayPlan's prompt shows, written out by hand."""
    graph = from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": "tiny",
            "nodes": [
                node("kitchen", "room"),
                node("bench", "asset", "kitchen", affordances=["release"]),
                node("apple", "object", "bench", relation="ontop_of", affordances=["pickup"]),
            ],
        },
        "tiny",
    )
    full = (
        '{"nodes":{"room":["kitchen"],'
        '"asset":[{"id":"bench","room":"kitchen","affordances":["release"]}],'
        '"object":[{"id":"apple","ontop_of":"bench","affordances":["pickup"]}]}}'
    )
    collapsed = '{"nodes":{"room":["kitchen"]}}'
    report = token_report(graph)
    assert (report.full.count, report.collapsed.count) == (3, 1)
    assert report.full.tokens == count_tokens(full) == 46
    assert report.collapsed.tokens == count_tokens(collapsed) == 9
    assert report.reduction_percent == pytest.approx(80.43, abs=0.01)  # 1 - 9/46
