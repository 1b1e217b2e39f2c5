"""The response cache, transcripts, and replay from a transcript."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from sceneplan.errors import BadInputError, ReplayMismatchError
from sceneplan.llm import LLMClient, LLMSettings


class Answer(BaseModel):
    room: str


def test_cache_hit_makes_no_request(scripted_llm):
    scripted_llm.enqueue_json({"room": "kitchen"}, input_tokens=40, output_tokens=4)
    with scripted_llm.client() as llm:
        first = llm.complete("Where is the mug?", schema=Answer)
    with scripted_llm.client() as llm:  # a new client: the cache is on disk
        second = llm.complete("Where is the mug?", schema=Answer)
        ledger = llm.ledger
    assert len(scripted_llm.requests) == 1
    assert second.parsed == first.parsed and second.text == first.text
    assert second.usage.cached and not first.usage.cached
    assert second.usage.input_tokens == 40  # tokens are reported as the call used them
    assert ledger.cached_calls == 1
    assert (scripted_llm.cache_dir / "llm-cache.sqlite3").is_file()


def test_cache_key_covers_the_whole_request(scripted_llm):
    for text in ("a", "b", "c", "d"):
        scripted_llm.enqueue_text(text)
    with scripted_llm.client() as llm:
        assert llm.complete("q").text == "a"
        assert llm.complete("q", max_tokens=10).text == "b"
        assert llm.complete([{"role": "user", "content": "q"}]).text == "a"
        assert llm.complete("q", schema=None, temperature=0.0).text == "a"
        assert llm.complete("other").text == "c"
    assert len(scripted_llm.requests) == 3


def test_no_cache_above_temperature_zero_or_when_disabled(scripted_llm):
    for text in ("a", "b", "c", "d"):
        scripted_llm.enqueue_text(text)
    with scripted_llm.client() as llm:
        assert [llm.complete("q", temperature=0.7).text for _ in range(2)] == ["a", "b"]
    with scripted_llm.client(cache=False) as llm:
        assert [llm.complete("q").text for _ in range(2)] == ["c", "d"]
    assert not (scripted_llm.cache_dir / "llm-cache.sqlite3").exists()


def test_record_then_replay_gives_identical_results(scripted_llm, tmp_path):
    transcript = tmp_path / "run.jsonl"
    scripted_llm.enqueue_text("not json")
    scripted_llm.enqueue_json({"room": "office"}, input_tokens=50, output_tokens=8)
    scripted_llm.enqueue_text("first sample")
    scripted_llm.enqueue_text("second sample")
    prompts = ["Where is the stapler?", "Say something", "Say something"]

    def run(llm: LLMClient) -> list[tuple]:
        out = []
        for prompt, schema, temperature in zip(
            prompts, [Answer, None, None], [0.0, 1.0, 1.0], strict=True
        ):
            r = llm.complete(prompt, schema=schema, temperature=temperature)
            out.append((r.text, r.parsed, r.served_model, r.reasks, r.usage.input_tokens))
        return out

    with scripted_llm.client(transcript=transcript) as llm:
        recorded = run(llm)
    header, *lines = transcript.read_text().splitlines()
    assert json.loads(header) == {"format": "sceneplan-llm-transcript", "version": 2}
    assert len(lines) == 4  # the re-ask is a call of its own

    with LLMClient(f"replay:{transcript}", settings=LLMSettings(cache_dir=tmp_path)) as llm:
        replayed = run(llm)
    assert replayed == recorded
    assert recorded[0][1] == Answer(room="office") and recorded[0][3] == 1
    assert len(scripted_llm.requests) == 4  # the replay asked no server


def _plan_prompt(task: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Plan."}, {"role": "user", "content": task}]


def test_replay_names_the_first_difference(scripted_llm, tmp_path):
    transcript = tmp_path / "run.jsonl"
    scripted_llm.enqueue_text("ok")
    with scripted_llm.client(transcript=transcript) as llm:
        llm.complete(_plan_prompt("Go to the kitchen"))

    with LLMClient(f"replay:{transcript}", settings=LLMSettings(cache=False)) as llm:
        with pytest.raises(ReplayMismatchError) as caught:
            llm.complete(_plan_prompt("Go to the office"))
        message = str(caught.value)
        assert "closest is the call on line 2" in message
        assert "message 1 (user) content differs at character 10" in message
        assert "'Go to the kitchen'" in message and "'Go to the office'" in message

        with pytest.raises(
            ReplayMismatchError, match=r"temperature: recorded 0\.0, requested 0\.3"
        ):
            llm.complete(_plan_prompt("Go to the kitchen"), temperature=0.3)
        assert llm.complete(_plan_prompt("Go to the kitchen")).text == "ok"
        with pytest.raises(ReplayMismatchError, match="recorded 1 time"):
            llm.complete(_plan_prompt("Go to the kitchen"))


def test_bad_transcript_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "sceneplan-llm-transcript", "version": 1}\n{"request": 1}\n')
    with pytest.raises(BadInputError, match=r"bad\.jsonl:2: not a transcript line"):
        LLMClient(f"replay:{path}", settings=LLMSettings(cache=False))
    with pytest.raises(BadInputError, match="cannot read the LLM transcript"):
        LLMClient(f"replay:{tmp_path / 'missing.jsonl'}", settings=LLMSettings(cache=False))
