"""VLMPerception against the scripted loopback server, through both chat protocols."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest

from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError, LLMReplyError
from sceneplan.graph.model import Relation
from sceneplan.perception.accuracy import aaugmentation_accuracy
from sceneplan.perception.vlm import SYSTEM, CameraImage, VLMPerception
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import PartialWorld
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH

ON, IN = Relation.ONTOP_OF, Relation.INSIDE_OF
PNG = b"\x89PNG\r\n\x1a\n" + b"camera-frame" * 8


class Camera:
    """Records each call and returns the same frame."""

    def __init__(self, media_type: str = "image/png") -> None:
        self.calls: list[tuple[str, Relation]] = []
        self.media_type = media_type

    def __call__(self, asset, relation, truth):
        assert isinstance(truth, WorldState)
        self.calls.append((asset, relation))
        return CameraImage(PNG, self.media_type)


def _seen(name, relation, related_to):
    return {
        "name": name,
        "relation": relation,
        "related_to": related_to,
        "states": [],
        "properties": [],
    }


REPLY = {
    "description": "An open wardrobe: a blue mug with a spoon in it, a sock, a box.",
    "objects": [
        {
            "name": "Coffee mug",
            "relation": "inside_of",
            "related_to": "wardrobe",
            "states": ["empty", "turned_off", "sparkly"],
            "properties": ["blue"],
        },
        {  # the looser forms a model may write: validated into the schema's
            "name": ["teaspoon", 1],
            "relation": "inside",
            "related_to": "coffee mug",
            "states": "",
            "properties": "metal, small",
        },
        {"name": "wardrobe", "relation": None, "related_to": None, "states": [], "properties": []},
        {
            "name": "book1",
            "relation": "ontop_of",
            "related_to": "bed",
            "states": [],
            "properties": [],
        },
        {
            "name": "sock",
            "relation": "ontop_of",
            "related_to": "Bed",
            "states": [],
            "properties": [],
        },
        {
            "name": "box",
            "relation": "inside_of",
            "related_to": "shelf",
            "states": [],
            "properties": [],
        },
    ],
}
CATEGORIES = ["mug", "teaspoon", "sock"]  # coffee_mug is a mug (its category)


@pytest.fixture
def coffee():
    graph = load_environment("coffee")
    truth = WorldState(graph)
    truth.set_state("wardrobe1", "open")
    memory = Memory.static(graph)
    # memory already knows a book on the bed (a VLM named it: book1)
    memory.add([Observation("book", "book", ON, "bed1")], "bed1", ON)
    return truth, memory


def _observe(scripted_llm, coffee, model=None):
    truth, memory = coffee
    camera = Camera()
    scripted_llm.enqueue_json(REPLY)
    with scripted_llm.client(model) as llm:
        perception = VLMPerception(llm, camera, categories=CATEGORIES)
        seen = perception.observe_sync(truth, "wardrobe1", IN, memory)
    assert camera.calls == [("wardrobe1", IN)]
    return seen


def _check_observations(seen):
    assert [o.name for o in seen] == ["Coffee mug", "teaspoon 1", "sock", "box"]
    mug, spoon, sock, box = seen
    assert (mug.category, mug.relation, mug.related_to) == ("mug", IN, "wardrobe1")
    assert (mug.states, mug.properties) == (("empty", "off"), ("blue",))
    assert (mug.truth, mug.id) == (None, None)
    assert (spoon.category, spoon.relation, spoon.related_to) == ("teaspoon", IN, "Coffee mug")
    assert spoon.properties == ("metal", "small")
    assert (sock.category, sock.related_to) == ("sock", "bed1")
    assert (box.category, box.related_to) == (None, None)  # names no known category or node


def test_openai_protocol_sends_the_image_and_the_do_not_add_list(scripted_llm, coffee):
    seen = _observe(scripted_llm, coffee)
    _check_observations(seen)
    body = scripted_llm.requests[0]
    assert scripted_llm.formats == ["json_schema"]
    assert body["response_format"]["json_schema"]["name"] == "VLMReply"
    system, view, rules = body["messages"]
    assert system == {"role": "system", "content": SYSTEM}
    image, text = view["content"]
    assert image["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert text["text"].startswith("The camera looks inside wardrobe1 in bobs_room.")
    assert "mug, sock, teaspoon" in text["text"]
    assert 'Do not add these (known already): ["bed1", "wardrobe1", "book1"]' in rules["content"]
    assert "Allowed relations: ontop_of, inside_of" in rules["content"]
    assert "closed" in rules["content"] and "open" in rules["content"]


def test_anthropic_protocol_sends_a_base64_image_block(scripted_llm, coffee):
    seen = _observe(scripted_llm, coffee, scripted_llm.anthropic_model)
    _check_observations(seen)
    body = scripted_llm.requests[0]
    assert scripted_llm.paths == ["/v1/messages"]
    assert body["system"] == SYSTEM
    view, rules = body["messages"]
    image, text = view["content"]
    assert image["type"] == "image"
    assert image["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": base64.b64encode(PNG).decode(),
    }
    assert "wardrobe1" in text["text"]
    assert '["bed1", "wardrobe1", "book1"]' in rules["content"]
    assert body["tools"][0]["input_schema"]["required"] == ["description", "objects"]


def test_the_world_associates_what_the_vlm_saw_with_true_nodes(scripted_llm, coffee):
    truth, memory = coffee
    world = PartialWorld(truth, memory, LOOKPLANGRAPH)
    seen = _observe(scripted_llm, coffee)
    change = world.look("wardrobe1", IN, seen)
    assert change.added == ["mug1", "teaspoon1", "sock1", "box1"]
    assert memory.true_id("mug1") == "coffee_mug"
    assert memory.state.parent("teaspoon1") == "mug1"
    assert memory.state.parent("sock1") == "bed1"


@pytest.mark.parametrize("model", [None, "anthropic"])
def test_a_reply_that_is_not_json_is_a_clear_error(scripted_llm, coffee, model):
    truth, memory = coffee
    scripted_llm.enqueue_text("I can see a blue mug in the wardrobe.")
    scripted_llm.enqueue_text("Sorry, a blue mug.")  # the re-ask gets no better
    model = scripted_llm.anthropic_model if model else None
    with scripted_llm.client(model) as llm:
        perception = VLMPerception(llm, Camera())
        with pytest.raises(LLMReplyError) as info:
            perception.observe_sync(truth, "wardrobe1", IN, memory)
    message = str(info.value)
    assert "look inside wardrobe1 is not usable" in message
    assert "not valid JSON" in message
    assert info.value.raw_reply == "Sorry, a blue mug."
    assert info.value.usage is not None and len(scripted_llm.requests) == 2


def test_a_reply_of_the_wrong_shape_is_a_clear_error(scripted_llm, coffee):
    truth, memory = coffee
    for _ in range(2):
        scripted_llm.enqueue_json({"objects": "a mug"})
    with (
        scripted_llm.client() as llm,
        pytest.raises(LLMReplyError, match=r"look inside wardrobe1 .*description"),
    ):
        VLMPerception(llm, Camera()).observe_sync(truth, "wardrobe1", IN, memory)


def test_cameras_may_be_async_and_must_return_images(scripted_llm, coffee):
    truth, memory = coffee

    async def later(asset, relation, state):
        return CameraImage(PNG, "image/jpeg")

    scripted_llm.enqueue_json({"description": "empty", "objects": []})
    with scripted_llm.client() as llm:
        assert VLMPerception(llm, later).observe_sync(truth, "bed1", ON, memory) == []
        url = scripted_llm.requests[0]["messages"][1]["content"][0]["image_url"]["url"]
        assert url.startswith("data:image/jpeg;base64,")
        with pytest.raises(BadInputError, match="camera returned bytes"):
            VLMPerception(llm, lambda *_: PNG).observe_sync(truth, "bed1", ON, memory)
        with pytest.raises(BadInputError, match="callable"):
            VLMPerception(llm, "camera0")  # type: ignore[arg-type]


def test_camera_images_from_files(tmp_path):
    path = tmp_path / "frame.jpg"
    path.write_bytes(PNG)
    image = CameraImage.from_file(path)
    assert (image.media_type, image.data) == ("image/jpeg", PNG)
    (tmp_path / "frame.txt").write_text("x")
    with pytest.raises(BadInputError, match="not supported"):
        CameraImage.from_file(tmp_path / "frame.txt")
    with pytest.raises(BadInputError, match="cannot read"):
        CameraImage.from_file(tmp_path / "missing.png")


def test_augmentation_accuracy_of_a_vlm_associates_by_category(scripted_llm, shelf):
    objects = {
        "bench": [
            ("bowl", "ontop_of", "bench"),
            ("apple", "inside_of", "bowl"),
            ("mug", "ontop_of", "table"),  # on the bench, really
        ],
        "cabinet": [],
        "table": [("lamp", "ontop_of", "table")],
    }
    for asset in ("bench", "table", "cabinet"):  # default_looks: assets in file order
        listed = [_seen(*seen) for seen in objects[asset]]
        scripted_llm.enqueue_json({"description": asset, "objects": listed})
    categories = ["bowl", "apple", "mug", "lamp", "plate", "box", "card", "pen"]

    async def measure():
        async with scripted_llm.client() as llm:
            perception = VLMPerception(llm, Camera(), categories=categories)
            return await aaugmentation_accuracy(perception, shelf)

    result = asyncio.run(measure())
    assert (result["n"], result["n_on"], result["n_inside"]) == (7, 5, 2)
    assert result["np"] == round(4 / 7, 4)
    assert (result["on"], result["inside"]) == (0.4, 0.5)
    assert result["precision"] == 1.0
    assert json.dumps(result)


def test_a_server_without_structured_output_still_gets_the_image(scripted_llm, coffee):
    truth, memory = coffee
    scripted_llm.reject_format("json_schema")
    scripted_llm.reject_format("json_object")
    scripted_llm.enqueue_text("Here you go:\n```json\n" + json.dumps(REPLY) + "\n```")
    with scripted_llm.client() as llm:
        perception = VLMPerception(llm, Camera(), categories=CATEGORIES)
        _check_observations(perception.observe_sync(truth, "wardrobe1", IN, memory))
    assert scripted_llm.formats == ["json_schema", "json_object", None]
    _, view, rules = scripted_llm.requests[-1]["messages"]
    assert view["content"][0]["type"] == "image_url"  # the schema went into the last message
    assert "JSON schema" in rules["content"]
