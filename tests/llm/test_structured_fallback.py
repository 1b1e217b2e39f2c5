"""Servers that refuse structured output: JSON mode, then plain text, remembered and replayed."""

from __future__ import annotations

import asyncio
import json

import pytest
from pydantic import BaseModel

from sayplan_script import expand, switch
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import LLMReplyError, LLMRequestError
from sceneplan.llm import LLMClient, LLMSettings
from sceneplan.llm.replay import first_difference
from sceneplan.llm.structured import is_format_rejection, json_objects, parse_reply
from sceneplan.planners import Episode, get_planner


class Step(BaseModel):
    action: str
    target: str


GOOD = {"action": "goto", "target": "kitchen"}
OFFICE = {"action": "goto", "target": "office"}

# Error bodies as servers send them when they lack a structured-output feature.
LLAMA_CPP_NO_JSON_SCHEMA = {  # llama.cpp server builds before json_schema support
    "error": {
        "code": 400,
        "message": 'response_format type must be one of "text" or "json_object", '
        "but got: json_schema",
        "type": "invalid_request_error",
    }
}
VLLM_NO_JSON_SCHEMA = {  # vLLM 0.4: the pydantic validation error, at the top level
    "object": "error",
    "message": "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
    "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]",
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}
OPENAI_NO_JSON_SCHEMA = {  # models without structured outputs
    "error": {
        "message": "Invalid parameter: 'response_format' of type 'json_schema' is not "
        "supported with this model. Learn more about supported models at the Structured "
        "Outputs guide: https://platform.openai.com/docs/guides/structured-outputs",
        "type": "invalid_request_error",
        "param": "response_format",
        "code": None,
    }
}
OPENAI_NO_JSON_OBJECT = {
    "error": {
        "message": "Invalid parameter: 'response_format' of type 'json_object' is not "
        "supported with this model.",
        "type": "invalid_request_error",
        "param": "response_format",
        "code": None,
    }
}
PROXY_NO_RESPONSE_FORMAT = {  # a gateway in front of a model that takes no response_format
    "error": {
        "message": "UnsupportedParamsError: this model does not support parameters: "
        "['response_format']. To drop these, set `drop_params=True`.",
        "type": None,
        "param": None,
        "code": "400",
    }
}
FASTAPI_422 = {  # a FastAPI server's own validation error: no "error", only "detail"
    "detail": [
        {
            "type": "literal_error",
            "loc": ["body", "response_format", "type"],
            "msg": "Input should be 'text'",
            "input": "json_object",
        }
    ]
}
CONTEXT_TOO_LONG = {
    "error": {
        "message": "This model's maximum context length is 8192 tokens. However, your "
        "messages resulted in 9120 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}


def _schema_text() -> str:
    return json.dumps(Step.model_json_schema(), ensure_ascii=False)


@pytest.mark.parametrize(
    ("status", "body"),
    [(400, LLAMA_CPP_NO_JSON_SCHEMA), (400, VLLM_NO_JSON_SCHEMA), (400, OPENAI_NO_JSON_SCHEMA)],
    ids=["llama.cpp", "vllm", "openai"],
)
def test_refused_json_schema_falls_back_to_json_mode(scripted_llm, status, body):
    scripted_llm.reject_format("json_schema", status=status, body=body)
    scripted_llm.enqueue_json(GOOD, input_tokens=30, output_tokens=9)
    scripted_llm.enqueue_json(OFFICE)
    prompt = [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Go."}]
    with scripted_llm.client() as llm:
        first = llm.complete(prompt, schema=Step)
        assert llm.structured_mode == "json_object"
        second = llm.complete("Go on.", schema=Step)
        ledger = llm.ledger

    assert first.parsed == Step(**GOOD) and second.parsed == Step(**OFFICE)
    assert first.structured_mode == first.usage.structured_mode == "json_object"
    assert second.structured_mode == "json_object"
    assert (first.usage.input_tokens, first.usage.output_tokens) == (30, 9)
    assert first.reasks == 0 and not first.usage.cached
    # Refused once, then JSON mode; the second call goes straight to JSON mode.
    assert scripted_llm.formats == ["json_schema", "json_object", "json_object"]
    refused, retried, later = scripted_llm.requests
    assert refused["messages"] == prompt
    assert retried["response_format"] == {"type": "json_object"}
    assert retried["messages"][0] == {"role": "system", "content": "You plan."}
    asked = retried["messages"][-1]["content"]
    assert asked.startswith("Go.\n\nReply with only one JSON object") and _schema_text() in asked
    assert later["messages"][-1]["content"].startswith("Go on.\n\n")
    assert [r.usage.structured_mode for r in ledger.records] == ["json_object", "json_object"]
    assert ledger.errors == 0
    # The caller's prompt is recorded as given; the schema instruction is the mode's.
    assert ledger.records[0].messages == prompt


def test_refused_json_mode_too_falls_back_to_plain_text(scripted_llm):
    scripted_llm.reject_format("json_schema", body=OPENAI_NO_JSON_SCHEMA)
    scripted_llm.reject_format("json_object", body=OPENAI_NO_JSON_OBJECT)
    scripted_llm.enqueue_text(
        'Sure! Here is the step:\n```json\n{"action": "goto", "target": "kitchen"}\n```\n'
        "Let me know if you need more."
    )
    scripted_llm.enqueue_text(
        'I would go to the office first: {"action": "goto", '
        '"target": "office"} and then look around.'
    )
    with scripted_llm.client() as llm:
        first = llm.complete("Go.", schema=Step)
        second = llm.complete("Go on.", schema=Step)
        assert llm.structured_mode == "prompt"

    assert first.parsed == Step(**GOOD) and first.structured_mode == "prompt"
    assert second.parsed == Step(**OFFICE) and second.structured_mode == "prompt"
    assert first.text.startswith("Sure!")  # the raw reply is kept as sent
    assert scripted_llm.formats == ["json_schema", "json_object", None, None]
    plain = scripted_llm.requests[2]
    assert "response_format" not in plain
    assert _schema_text() in plain["messages"][-1]["content"]
    assert _schema_text() in scripted_llm.requests[3]["messages"][-1]["content"]


@pytest.mark.parametrize(
    ("status", "body"), [(400, PROXY_NO_RESPONSE_FORMAT), (422, FASTAPI_422)], ids=str
)
def test_other_refusals_of_json_mode_fall_back_too(scripted_llm, status, body):
    scripted_llm.reject_format("json_schema", body=LLAMA_CPP_NO_JSON_SCHEMA)
    scripted_llm.reject_format("json_object", status=status, body=body)
    scripted_llm.enqueue_json(GOOD)
    with scripted_llm.client() as llm:
        response = llm.complete("Go.", schema=Step)
    assert response.parsed == Step(**GOOD) and response.structured_mode == "prompt"
    assert scripted_llm.formats == ["json_schema", "json_object", None]


def test_a_400_about_something_else_is_a_clear_error(scripted_llm):
    scripted_llm.enqueue_status(400, body=CONTEXT_TOO_LONG)
    scripted_llm.enqueue_json(GOOD)
    with scripted_llm.client() as llm:
        with pytest.raises(LLMRequestError) as caught:
            llm.complete("Go.", schema=Step)
        assert llm.structured_mode == "json_schema"  # nothing learnt from it
        record = llm.ledger.records[0]
        # The server is fine with structured output: the next call uses it.
        assert llm.complete("Go.", schema=Step).structured_mode == "json_schema"
    message = str(caught.value)
    assert type(caught.value) is LLMRequestError
    assert "refused the request for model 'scripted-model' (400)" in message
    assert "maximum context length is 8192 tokens" in message
    assert scripted_llm.formats == ["json_schema", "json_schema"]  # no fallback was tried
    assert record.error_type == "LLMRequestError" and record.usage.structured_mode == "json_schema"


def test_a_400_after_falling_back_is_a_clear_error(scripted_llm):
    scripted_llm.reject_format("json_schema", body=LLAMA_CPP_NO_JSON_SCHEMA)
    scripted_llm.enqueue_json(GOOD)
    scripted_llm.enqueue_status(
        400,
        body={
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
            }
        },
    )
    with scripted_llm.client() as llm:
        llm.complete("Go.", schema=Step)
        with pytest.raises(LLMRequestError, match="exceeds the available context size"):
            llm.complete("A very long prompt.", schema=Step)
        assert llm.structured_mode == "json_object"
        assert llm.ledger.records[-1].usage.structured_mode == "json_object"
    assert scripted_llm.formats == ["json_schema", "json_object", "json_object"]


def test_plain_text_mode_reasks_in_plain_text(scripted_llm):
    scripted_llm.reject_format("json_schema", body=OPENAI_NO_JSON_SCHEMA)
    scripted_llm.reject_format("json_object", body=OPENAI_NO_JSON_OBJECT)
    scripted_llm.enqueue_text("I think the kitchen, to be honest.")
    scripted_llm.enqueue_text('Apologies. {"action": "goto", "target": "kitchen"}')
    with scripted_llm.client() as llm:
        response = llm.complete("Go.", schema=Step)
    assert response.parsed == Step(**GOOD) and response.reasks == 1
    assert response.structured_mode == "prompt"
    assert scripted_llm.formats == ["json_schema", "json_object", None, None]
    reask = scripted_llm.requests[3]["messages"]
    assert _schema_text() in reask[0]["content"]  # the first turn still carries the schema
    assert "not valid JSON" in reask[-1]["content"]


def test_unusable_reply_in_plain_text_mode_is_a_recorded_error_with_its_mode(scripted_llm):
    scripted_llm.reject_format("json_schema", body=OPENAI_NO_JSON_SCHEMA)
    scripted_llm.reject_format("json_object", body=OPENAI_NO_JSON_OBJECT)
    scripted_llm.enqueue_text('Maybe {"action": "goto"}?')
    scripted_llm.enqueue_text("No idea.")
    with scripted_llm.client() as llm:
        with pytest.raises(LLMReplyError) as caught:
            llm.complete("Go.", schema=Step)
        record = llm.ledger.records[0]
    assert caught.value.usage.structured_mode == "prompt"
    assert record.usage.structured_mode == "prompt" and record.reasks == 1
    # The problems of the first reply were those of the object it held.
    assert "target: Field required" in scripted_llm.requests[3]["messages"][-1]["content"]


def test_concurrent_first_calls_all_fall_back_and_the_client_remembers(scripted_llm):
    scripted_llm.reject_format("json_schema", body=LLAMA_CPP_NO_JSON_SCHEMA)
    for _ in range(4):
        scripted_llm.enqueue_json(GOOD)

    async def scenario():
        async with scripted_llm.client(concurrency=3) as llm:
            replies = await asyncio.gather(*(llm.acomplete(f"q{i}", schema=Step) for i in range(3)))
            later = await llm.acomplete("q3", schema=Step)
            return replies, later

    replies, later = asyncio.run(scenario())
    assert {r.structured_mode for r in replies} == {"json_object"}
    assert later.structured_mode == "json_object"
    assert scripted_llm.formats.count("json_schema") <= 3
    assert scripted_llm.formats[-1] == "json_object"
    assert scripted_llm.formats.count("json_object") == 4


def test_calls_without_a_schema_are_untouched_by_the_mode(scripted_llm):
    scripted_llm.reject_format("json_schema", body=LLAMA_CPP_NO_JSON_SCHEMA)
    scripted_llm.enqueue_json(GOOD)
    scripted_llm.enqueue_text("ok")
    with scripted_llm.client() as llm:
        llm.complete("Go.", schema=Step)
        response = llm.complete("Say ok")
    assert response.text == "ok" and response.structured_mode is None
    assert scripted_llm.requests[-1]["messages"] == [{"role": "user", "content": "Say ok"}]


def test_anthropic_tool_use_is_the_json_schema_mode(scripted_llm):
    scripted_llm.enqueue_json(GOOD)
    with scripted_llm.client(scripted_llm.anthropic_model) as llm:
        response = llm.complete("Go.", schema=Step)
    assert response.parsed == Step(**GOOD) and response.structured_mode == "json_schema"
    assert scripted_llm.requests[0]["tools"][0]["input_schema"] == Step.model_json_schema()


# -- cache and replay ---------------------------------------------------------------


def _fallback_server(scripted_llm) -> None:
    scripted_llm.reject_format("json_schema", body=OPENAI_NO_JSON_SCHEMA)
    scripted_llm.reject_format("json_object", body=OPENAI_NO_JSON_OBJECT)


def test_a_cached_rerun_repeats_the_fallback_without_asking(scripted_llm):
    _fallback_server(scripted_llm)
    scripted_llm.enqueue_text('Here: {"action": "goto", "target": "kitchen"}')
    with scripted_llm.client() as llm:
        first = llm.complete("Go.", schema=Step)
    assert len(scripted_llm.requests) == 3
    with scripted_llm.client() as llm:  # a new client: nothing remembered but the cache
        second = llm.complete("Go.", schema=Step)
        assert llm.structured_mode == "prompt"
    assert len(scripted_llm.requests) == 3  # the refusals came from the cache too
    assert second.parsed == first.parsed and second.structured_mode == "prompt"
    assert second.usage.cached and not first.usage.cached


def test_record_then_replay_reproduces_the_mode(scripted_llm, tmp_path):
    transcript = tmp_path / "run.jsonl"
    _fallback_server(scripted_llm)
    scripted_llm.enqueue_text('Here: {"action": "goto", "target": "kitchen"}')
    scripted_llm.enqueue_text("not json at all")
    scripted_llm.enqueue_json(OFFICE)
    scripted_llm.enqueue_text("plain")

    def run(llm: LLMClient) -> list[tuple]:
        out = []
        for prompt, schema in [("Go.", Step), ("Go on.", Step), ("Say it", None)]:
            r = llm.complete(prompt, schema=schema)
            out.append((r.text, r.parsed, r.reasks, r.structured_mode, r.usage.input_tokens))
        return out

    with scripted_llm.client(transcript=transcript) as llm:
        recorded = run(llm)
    assert [mode for *_, mode, _ in recorded] == ["prompt", "prompt", None]
    header, *lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert header == {"format": "sceneplan-llm-transcript", "version": 2}
    assert ["rejected" in line for line in lines] == [True, True, False, False, False, False]
    assert "'json_schema' is not supported" in lines[0]["rejected"]
    assert "structured_mode" not in lines[0]["request"]  # json_schema: keys as before
    assert lines[1]["request"]["structured_mode"] == "json_object"
    assert lines[2]["request"]["structured_mode"] == "prompt"

    settings = LLMSettings(cache_dir=tmp_path / "replay-cache")
    with LLMClient(f"replay:{transcript}", settings=settings) as llm:
        replayed = run(llm)
        assert llm.structured_mode == "prompt"
    assert replayed == recorded
    assert len(scripted_llm.requests) == 6  # the replay asked no server


def test_replay_by_other_clients_still_falls_back(scripted_llm, tmp_path):
    """Refusals are replayed wherever the mode is asked for, not only where they were recorded."""
    transcript = tmp_path / "run.jsonl"
    _fallback_server(scripted_llm)
    scripted_llm.enqueue_json(GOOD)
    scripted_llm.enqueue_json(OFFICE)
    with scripted_llm.client(transcript=transcript) as llm:
        llm.complete("Go.", schema=Step)
        llm.complete("Go on.", schema=Step)  # recorded straight in plain-text mode
    settings = LLMSettings(cache=False)
    with LLMClient(f"replay:{transcript}", settings=settings) as llm:  # a fresh client
        assert llm.complete("Go on.", schema=Step).parsed == Step(**OFFICE)
    with LLMClient(f"replay:{transcript}", settings=settings) as llm:
        assert llm.complete("Go.", schema=Step).structured_mode == "prompt"


def test_replay_names_a_different_mode():
    messages = [{"role": "user", "content": "Go."}]
    recorded = {"messages": messages, "schema": {}, "structured_mode": "prompt"}
    assert (
        first_difference(recorded, {"messages": messages, "schema": {}})
        == "structured mode: recorded prompt, requested json_schema"
    )


def test_version_1_transcripts_still_replay(tmp_path):
    path = tmp_path / "old.jsonl"
    request = {
        "model": "openai:gpt-4o",
        "messages": [{"role": "user", "content": "Go."}],
        "schema": Step.model_json_schema(),
        "temperature": 0.0,
        "max_tokens": None,
    }
    reply = {
        "text": json.dumps(GOOD),
        "input_tokens": 5,
        "output_tokens": 3,
        "served_model": "gpt-4o",
        "price_key": "openai:gpt-4o",
    }
    path.write_text(
        json.dumps({"format": "sceneplan-llm-transcript", "version": 1})
        + "\n"
        + json.dumps({"request": request, "reply": reply, "latency_s": 0.1, "cached": False})
        + "\n"
    )
    with LLMClient(f"replay:{path}", settings=LLMSettings(cache=False)) as llm:
        response = llm.complete("Go.", schema=Step)
    assert response.parsed == Step(**GOOD) and response.structured_mode == "json_schema"


# -- the pieces ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "body", "param", "expected"),
    [
        (400, LLAMA_CPP_NO_JSON_SCHEMA["error"]["message"], None, True),
        (400, VLLM_NO_JSON_SCHEMA["message"], None, True),
        (400, OPENAI_NO_JSON_SCHEMA["error"]["message"], "response_format", True),
        (
            400,
            "Invalid schema for response_format 'Step': 'additionalProperties' is required",
            "response_format",
            True,
        ),
        (400, "The provided JSON schema contains features not supported by xgrammar.", None, True),
        (400, "Unrecognized request argument supplied", "response_format", True),
        (400, CONTEXT_TOO_LONG["error"]["message"], "messages", False),
        (400, "temperature must be between 0 and 2", "temperature", False),
        (404, "The model 'json_schema-7b' does not exist", None, False),
        (500, "response_format crashed the server", None, False),
    ],
)
def test_which_refusals_are_about_the_format(status, body, param, expected):
    assert is_format_rejection(status, body, param) is expected


@pytest.mark.parametrize(
    ("reply", "target"),
    [
        ('{"action": "goto", "target": "kitchen"}', "kitchen"),
        ('```json\n{"action": "goto", "target": "kitchen"}\n```', "kitchen"),
        ('Plan:\n```json\n{"action": "goto", "target": "kitchen"}\n```\nDone.', "kitchen"),
        ('Use {curly} braces: {"action": "goto", "target": "hall"} ok', "hall"),
        ('Schema {"type": "object"} then {"action": "goto", "target": "attic"}', "attic"),
        ('{"action": "goto", "target": "a"} or {"action": "goto", "target": "b"}', "a"),
    ],
)
def test_lenient_parsing_takes_the_first_matching_object(reply, target):
    parsed, problems = parse_reply(reply, Step, lenient=True)
    assert problems == [] and parsed == Step(action="goto", target=target)


def test_lenient_parsing_problems():
    assert parse_reply("no json here", Step, lenient=True)[1][0].startswith("not valid JSON")
    assert parse_reply('x {"action": 1} y', Step, lenient=True)[1] == [
        "action: Input should be a valid string",
        "target: Field required",
    ]
    # Strict parsing (json_schema mode) is unchanged: prose around the object is an error.
    assert parse_reply('Here: {"action": "goto", "target": "kitchen"}', Step)[0] is None


def test_json_objects_skips_nested_and_broken_braces():
    text = 'a {"x": {"y": {}}} b {not json} c {"z": [1, {"w": 2}]}'
    assert list(json_objects(text)) == ['{"x": {"y": {}}}', '{"z": [1, {"w": 2}]}']


# -- the Episode --------------------------------------------------------------------


def test_the_episode_records_the_mode_of_each_call(scripted_llm):
    scripted_llm.reject_format("json_schema", body=VLLM_NO_JSON_SCHEMA)
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_text("I cannot plan that.")  # the plan reply: unusable twice
    scripted_llm.enqueue_text("Still no plan.")
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("llm_plus_p"), get_task("planning-simple-02"), llm=llm)
    assert scripted_llm.formats[:2] == ["json_schema", "json_object"]
    assert "json_schema" not in scripted_llm.formats[2:]
    modes = [call.structured_mode for call in episode.llm_calls]
    assert len(modes) == 3 and set(modes) == {"json_object"}
    assert episode.llm_calls[-1].error is not None  # the failed call has its mode too
    again = Episode.from_dict(json.loads(json.dumps(episode.to_dict())))
    assert [call.structured_mode for call in again.llm_calls] == modes
