"""Images in user messages: the wire format of each protocol, records and cache keys."""

from __future__ import annotations

import base64

import pytest
from pydantic import BaseModel

from sceneplan.errors import BadInputError
from sceneplan.llm.cache import request_key
from sceneplan.llm.messages import ImagePart, Message, Request

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))


class Seen(BaseModel):
    objects: list[str]


def _prompt(image: ImagePart) -> list[Message]:
    return [
        Message("system", "You describe images."),
        Message("user", "What is on the desk?", images=(image,)),
        Message("user", "Answer in JSON."),
    ]


def test_openai_protocol_sends_an_image_url_part_with_a_data_url(scripted_llm):
    scripted_llm.enqueue_json({"objects": ["mug"]})
    with scripted_llm.client() as llm:
        reply = llm.complete(_prompt(ImagePart(PNG, "image/png")), schema=Seen)
    assert reply.parsed == Seen(objects=["mug"])
    messages = scripted_llm.requests[0]["messages"]
    assert messages[0] == {"role": "system", "content": "You describe images."}
    image, text = messages[1]["content"]
    assert image["type"] == "image_url"
    assert image["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert text == {"type": "text", "text": "What is on the desk?"}
    assert messages[2] == {"role": "user", "content": "Answer in JSON."}


def test_anthropic_protocol_sends_a_base64_image_block(scripted_llm):
    scripted_llm.enqueue_json({"objects": ["mug"]})
    with scripted_llm.client(scripted_llm.anthropic_model) as llm:
        reply = llm.complete(_prompt(ImagePart(PNG, "image/jpeg")), schema=Seen)
    assert reply.parsed == Seen(objects=["mug"])
    body = scripted_llm.requests[0]
    assert body["system"] == "You describe images."
    image, text = body["messages"][0]["content"]
    assert image == {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/jpeg",
            "data": base64.b64encode(PNG).decode(),
        },
    }
    assert text == {"type": "text", "text": "What is on the desk?"}


def test_text_only_messages_are_sent_and_keyed_as_before(scripted_llm):
    scripted_llm.enqueue_text("hello")
    with scripted_llm.client() as llm:
        llm.complete("hi")
    assert scripted_llm.requests[0]["messages"] == [{"role": "user", "content": "hi"}]
    assert Message("user", "hi").to_dict() == {"role": "user", "content": "hi"}


def test_records_hold_the_digest_not_the_bytes_and_keys_tell_images_apart(scripted_llm):
    first, second = ImagePart(PNG, "image/png"), ImagePart(PNG + b"x", "image/png")
    recorded = Message("user", "look", images=(first,)).to_dict()
    assert recorded["images"] == [
        {"media_type": "image/png", "bytes": len(PNG), "sha256": first.digest()}
    ]
    assert base64.b64encode(PNG).decode() not in str(recorded)
    keys = {
        request_key(Request("m", (Message("user", "look", images=images),)))
        for images in ((), (first,), (second,))
    }
    assert len(keys) == 3
    # the same image again is served from the cache
    scripted_llm.enqueue_text("a mug")
    with scripted_llm.client() as llm:
        assert llm.complete([Message("user", "look", images=(first,))]).text == "a mug"
        again = llm.complete([Message("user", "look", images=(first,))])
    assert again.usage.cached and len(scripted_llm.requests) == 1
    assert llm.ledger.records[0].messages[0]["images"][0]["sha256"] == first.digest()


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: ImagePart(b"", "image/png"), "bytes"),
        (lambda: ImagePart(PNG, "image/bmp"), "image/bmp"),
        (lambda: Message("assistant", "x", images=(ImagePart(PNG, "image/png"),)), "user"),
    ],
)
def test_bad_images_are_clear_errors(make, words):
    with pytest.raises(BadInputError, match=words):
        make()
