"""Structured replies over both protocols: validation, the one re-ask, the recorded error."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

from sceneplan.errors import BadInputError, LLMReplyError


class Step(BaseModel):
    action: str
    target: str


class StrictStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str
    target: str


GOOD = {"action": "goto", "target": "kitchen"}


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_good_structured_reply(scripted_llm, protocol):
    scripted_llm.enqueue_json(GOOD, input_tokens=30, output_tokens=9)
    model = scripted_llm.model if protocol == "openai" else scripted_llm.anthropic_model
    with scripted_llm.client(model) as llm:
        response = llm.complete(
            [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Go."}],
            schema=Step,
        )
    assert response.parsed == Step(**GOOD)
    assert response.reasks == 0
    assert response.served_model == "scripted-model"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (30, 9)
    assert response.usage.latency_s > 0
    sent = scripted_llm.requests[0]
    assert scripted_llm.pending == 0
    if protocol == "openai":
        assert scripted_llm.paths == ["/v1/chat/completions"]
        assert sent["messages"][0] == {"role": "system", "content": "You plan."}
        assert sent["response_format"]["type"] == "json_schema"
        assert sent["response_format"]["json_schema"]["schema"] == Step.model_json_schema()
    else:
        assert scripted_llm.paths == ["/v1/messages"]
        assert sent["system"] == "You plan."
        assert sent["messages"] == [{"role": "user", "content": "Go."}]
        assert sent["tools"][0]["input_schema"] == Step.model_json_schema()
        assert sent["tool_choice"] == {"type": "tool", "name": sent["tools"][0]["name"]}


def test_strict_mode_only_for_closed_schemas(scripted_llm):
    scripted_llm.enqueue_json(GOOD)
    scripted_llm.enqueue_json(GOOD)
    with scripted_llm.client() as llm:
        llm.complete("go", schema=Step)
        llm.complete("go", schema=StrictStep)
    flags = [r["response_format"]["json_schema"]["strict"] for r in scripted_llm.requests]
    assert flags == [False, True]


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_invalid_json_then_good_is_reasked_once(scripted_llm, protocol):
    scripted_llm.enqueue_text("Sure! I'll go to the kitchen.", input_tokens=10, output_tokens=5)
    scripted_llm.enqueue_json(GOOD, input_tokens=20, output_tokens=6)
    model = scripted_llm.model if protocol == "openai" else scripted_llm.anthropic_model
    with scripted_llm.client(model) as llm:
        response = llm.complete("Go.", schema=Step)
    assert response.parsed == Step(**GOOD)
    assert response.reasks == 1
    assert (response.usage.input_tokens, response.usage.output_tokens) == (30, 11)
    reask = scripted_llm.requests[1]["messages"]
    assert reask[-2] == {"role": "assistant", "content": "Sure! I'll go to the kitchen."}
    assert "not valid JSON" in reask[-1]["content"]


def test_fenced_json_is_accepted(scripted_llm):
    scripted_llm.enqueue_text('```json\n{"action": "goto", "target": "kitchen"}\n```')
    with scripted_llm.client() as llm:
        assert llm.complete("Go.", schema=Step).parsed == Step(**GOOD)


def test_schema_mismatch_twice_is_a_recorded_error(scripted_llm):
    scripted_llm.enqueue_json({"action": "goto"})
    scripted_llm.enqueue_json({"action": "goto", "target": 7})
    with scripted_llm.client() as llm:
        with pytest.raises(LLMReplyError) as caught:
            llm.complete("Go.", schema=Step)
        ledger = llm.ledger
    error = caught.value
    assert error.raw_reply == '{"action": "goto", "target": 7}'
    assert error.problems == ["target: Input should be a valid string"]
    assert "Step" in str(error) and "re-ask" in str(error)
    assert error.usage is not None and error.usage.input_tokens == 24
    assert "target: Field required" in scripted_llm.requests[1]["messages"][-1]["content"]
    assert ledger.calls == 1 and ledger.errors == 1
    record = ledger.records[0]
    assert record.error_type == "LLMReplyError"
    assert record.reply == error.raw_reply and record.reasks == 1
    assert record.messages == [{"role": "user", "content": "Go."}]


def test_plain_text_reply_without_schema(scripted_llm):
    scripted_llm.enqueue_text("ok")
    with scripted_llm.client() as llm:
        response = llm.complete("Say ok", temperature=0.5, max_tokens=5)
    assert response.text == "ok" and response.parsed is None
    sent = scripted_llm.requests[0]
    assert sent["temperature"] == 0.5 and sent["max_tokens"] == 5
    assert "response_format" not in sent


def test_malformed_messages_are_refused_before_sending(scripted_llm):
    with scripted_llm.client() as llm, pytest.raises(BadInputError, match="message 0 must have"):
        llm.complete([{"role": "robot", "content": "beep"}])
    assert scripted_llm.requests == []
