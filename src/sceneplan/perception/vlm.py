"""A vision-language model as the perceiver: a camera image in, observations out (App. B).

`VLMPerception(llm, camera)` answers a look by asking `camera` (a callback
the user supplies) for an image of the asset, and sending it to a chat model
with image input through `sceneplan.llm` (OpenAI-compatible servers and
Anthropic). The prompt follows the structure of LookPlanGraph's App. B, in
sceneplan's words: describe the image; list the movable objects as JSON with
name, relation, related_to, states and properties; the allowed states and
relations; and the objects not to add (the assets of the room and the
objects memory already holds there). The reply is validated against
`VLMReply` (structured output where the server has it).

The reply becomes `Observation`s: the name is matched to a known category
(`names.py`; the categories of memory's objects plus `categories`),
`related_to` is resolved to the asset looked at, a node memory holds, or
another object of the same reply; a VLM knows no true ids, so `truth` and
`id` are None and the world associates the observations with true nodes.
A reply that is still unusable after the client's re-ask raises
LLMReplyError naming the look.
"""

from __future__ import annotations

import inspect
import json
import mimetypes
import re
from collections.abc import Awaitable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self

from pydantic import BaseModel, ConfigDict, field_validator

from sceneplan.errors import BadInputError, LLMReplyError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.llm.messages import ImagePart, Message
from sceneplan.perception.base import Perception
from sceneplan.perception.names import NameMatcher, normalise
from sceneplan.textinput import read_bytes
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient
    from sceneplan.llm.usage import Ledger

__all__ = ["Camera", "CameraImage", "SeenObject", "VLMPerception", "VLMReply"]


class CameraImage(ImagePart):
    """One camera image: encoded bytes (PNG, JPEG, GIF or WebP) and their media type."""

    @classmethod
    def from_file(cls, path: str | Path) -> Self:
        """An image file, its media type guessed from the suffix."""
        path = Path(path)
        media_type, _ = mimetypes.guess_type(path.name)
        data = read_bytes(path, "camera image")
        return cls(data, media_type or "application/octet-stream")


class Camera(Protocol):
    """The user's camera: an image of `asset` seen as a look `relation` it would see it.

    `truth` is the true world at the moment of the look (a simulator may
    render from it; a real robot ignores it). It may return the image or an
    awaitable of it.
    """

    def __call__(
        self, asset: str, relation: Relation, truth: WorldState
    ) -> CameraImage | ImagePart | Awaitable[CameraImage | ImagePart]: ...


_RELATION_WORDS = {
    "ontop_of": "ontop_of",
    "on_top_of": "ontop_of",
    "ontop": "ontop_of",
    "on_top": "ontop_of",
    "on": "ontop_of",
    "inside_of": "inside_of",
    "inside": "inside_of",
    "in": "inside_of",
    "within": "inside_of",
}
_NONE_WORDS = frozenset({"", "none", "null", "n/a", "unknown"})


def _text(value: Any) -> Any:
    """A name the model wrote as `["apple", 1]` (as in App. B's example) as 'apple 1'."""
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value if v is not None and str(v).strip())
    return value


def _words(value: Any) -> Any:
    """A list of words the model wrote as one string ('closed, red') as a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [w for w in re.split(r"[,;]", value) if w.strip()]
    return value


class SeenObject(BaseModel):
    """One object the model saw."""

    model_config = ConfigDict(extra="forbid")

    name: str
    relation: Literal["ontop_of", "inside_of"] | None
    related_to: str | None
    states: list[str]
    properties: list[str]

    @field_validator("name", "related_to", mode="before")
    @classmethod
    def _joined(cls, value: Any) -> Any:
        return _text(value)

    @field_validator("relation", mode="before")
    @classmethod
    def _relation(cls, value: Any) -> Any:
        if value is None or not isinstance(value, str):
            return value
        key = "_".join(value.strip().lower().replace("-", " ").split())
        if key in _NONE_WORDS:
            return None
        return _RELATION_WORDS.get(key, value)

    @field_validator("states", "properties", mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        return _words(value)


class VLMReply(BaseModel):
    """The reply the model is asked for: a description, then the new objects."""

    model_config = ConfigDict(extra="forbid")

    description: str
    objects: list[SeenObject]


_STATE_ALIASES = {
    "turned_on": "on",
    "switched_on": "on",
    "turned_off": "off",
    "switched_off": "off",
    "opened": "open",
    "shut": "closed",
    "close": "closed",
}

SYSTEM = """\
You are the eyes of a mobile robot. Each time, you see one camera image taken while \
the robot looks on top of or inside one piece of furniture or appliance (the asset). \
Report the movable objects you can see there, so that the robot can add them to its map.

How to answer:
1. First describe the image in one or two sentences ("description").
2. Then list the objects ("objects"). Only objects that can be picked up and moved \
belong in the list: never furniture, appliances, walls, or the asset itself.
3. For each object give:
   - name: a short common noun ("mug", "apple"); number identical objects ("apple 1", \
"apple 2");
   - relation: how it rests on what it is related to, one of: ontop_of, inside_of;
   - related_to: the asset's name, or the name of another object in your list that \
it rests on or in;
   - states: only words from the allowed states, or an empty list;
   - properties: what you can see about it (colour, material, size), or an empty list.
4. Leave out every object of the do-not-add list: the robot knows them already.
5. If you see nothing new, give an empty list."""


class VLMPerception(Perception):
    """A chat model with image input looking through the user's camera (module doc).

    `categories` adds names to match perceived names against (memory's object
    categories are always used) and, when given, is offered to the model as
    the preferred names. `states` are the state words the model may use
    (default: the opposing pairs of the domain and those memory uses).
    `ledger` receives each call, besides the client's own ledger.
    """

    def __init__(
        self,
        llm: LLMClient,
        camera: Camera,
        *,
        categories: Iterable[str] = (),
        states: Iterable[str] | None = None,
        ledger: Ledger | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if not callable(camera):
            raise BadInputError(
                f"the camera must be a callable (asset, relation, true_state) -> CameraImage, "
                f"got {camera!r}"
            )
        self.llm = llm
        self.camera = camera
        self.categories = tuple(categories)
        self.states = tuple(states) if states is not None else None
        self.ledger = ledger
        self.max_tokens = max_tokens
        self.name = f"vlm:{getattr(llm, 'model', type(llm).__name__)}"

    async def _observe(
        self, truth: WorldState, asset: str, relation: Relation, memory: Memory
    ) -> list[Observation]:
        image = await self._image(asset, relation, truth)
        look = _Context(memory, memory.memory_id(asset) or asset, relation, self.states)
        messages = self._messages(image, look)
        try:
            response = await self.llm.acomplete(
                messages, schema=VLMReply, ledger=self.ledger, max_tokens=self.max_tokens
            )
        except LLMReplyError as exc:
            error = LLMReplyError(
                f"the VLM's reply to a look {_phrase(relation)} {look.where} is not usable: "
                f"{exc.detail}",
                raw_reply=exc.raw_reply,
                problems=exc.problems,
            )
            error.usage = exc.usage
            raise error from exc
        assert response.parsed is not None  # a schema was given
        return look.observations(response.parsed, self._matcher(memory))

    async def _image(self, asset: str, relation: Relation, truth: WorldState) -> ImagePart:
        image = self.camera(asset, relation, truth)
        if inspect.isawaitable(image):
            image = await image
        if not isinstance(image, ImagePart):
            raise BadInputError(
                f"the camera returned {type(image).__name__} for {asset}; it must return a "
                "CameraImage(data, media_type)"
            )
        return image

    def _messages(self, image: ImagePart, look: _Context) -> list[Message]:
        """The request for one look: guidelines, the image with what it shows, the do-not-add list.

        The image is not in the last message, so the schema instructions some
        servers need appended to that message leave it in place.
        """
        view = f"The camera looks {_phrase(look.relation)} {look.where}"
        view += f" in {look.room}." if look.room else "."
        if self.categories:
            view += "\nWhere one fits, name objects with one of these words: " + ", ".join(
                sorted(set(self.categories))
            )
        allowed = (
            f"Allowed states: {', '.join(look.allowed_states)}.\n"
            "Allowed relations: ontop_of, inside_of.\n"
            f"Do not add these (known already): {json.dumps(look.do_not_add)}\n"
            'Reply with one JSON object: {"description": ..., "objects": [{"name": ..., '
            '"relation": ..., "related_to": ..., "states": [...], "properties": [...]}]}'
        )
        return [
            Message("system", SYSTEM),
            Message("user", view, images=(image,)),
            Message("user", allowed),
        ]

    def _matcher(self, memory: Memory) -> NameMatcher:
        known = [n.category for n in memory.graph if n.kind is NodeKind.OBJECT]
        return NameMatcher([*self.categories, *known])


class _Context:
    """What one look knows from memory: the asset, its room, the do-not-add list."""

    def __init__(
        self, memory: Memory, where: str, relation: Relation, states: tuple[str, ...] | None
    ):
        self.memory, self.where, self.relation = memory, where, relation
        graph, state = memory.graph, memory.state
        self.room = state.room_of(where) if where in graph else None
        self.assets = (
            [n for n in graph.children(self.room) if graph.nodes[n].kind is NodeKind.ASSET]
            if self.room
            else [where]
        )
        objects: list[str] = []
        for asset in self.assets:
            if asset in graph:
                objects += [o for o in state.contents(asset) if o not in objects]
        self.do_not_add = [*self.assets, *objects]
        if states is None:
            used = {w for n in graph for w in state.states(n.id)}
            states = tuple(sorted(set(EXCLUSIVE_STATES) | used))
        self.allowed_states = tuple(states)

    def observations(self, reply: VLMReply, matcher: NameMatcher) -> list[Observation]:
        graph = self.memory.graph
        fixed = {normalise(a) for a in self.assets if a}
        fixed |= {graph.nodes[a].category for a in self.assets if a in graph}
        known_ids = {n.lower() for n in self.do_not_add}
        kept: list[tuple[SeenObject, str]] = []
        taken: set[str] = set()
        for seen in reply.objects:
            name = " ".join(seen.name.split())
            if not name or normalise(name) in fixed or name.lower() in known_ids:
                continue
            unique, n = name, 2
            while unique.lower() in taken:
                unique, n = f"{name} {n}", n + 1
            taken.add(unique.lower())
            kept.append((seen, unique))
        names: dict[str, str] = {}
        for seen, unique in kept:
            for key in (seen.name.strip().lower(), unique.lower(), _compact(seen.name)):
                names.setdefault(key, unique)
        out = []
        for seen, unique in kept:
            out.append(
                Observation(
                    name=unique,
                    category=matcher.match(unique),
                    relation=Relation(seen.relation) if seen.relation else None,
                    related_to=self.resolve(seen.related_to, names, unique),
                    states=self.states_of(seen.states),
                    properties=tuple(p.strip() for p in seen.properties if p.strip()),
                )
            )
        return out

    def resolve(self, named: str | None, names: dict[str, str], own: str) -> str | None:
        """The memory id or reply name `related_to` stands for, or None when it names nothing."""
        if named is None or not named.strip() or named.strip().lower() in _NONE_WORDS:
            return None
        graph = self.memory.graph
        text = named.strip()
        if text in graph:
            return text
        compact = _compact(text)
        asset_names = {_compact(self.where)}
        if self.where in graph:
            asset_names.add(_compact(graph.nodes[self.where].category))
        if compact in asset_names:
            return self.where
        for key in (text.lower(), compact):
            if key in names and names[key] != own:
                return names[key]
        by_id = {_compact(n): n for n in self.do_not_add}
        if compact in by_id:
            return by_id[compact]
        same = [
            a for a in self.assets if a in graph and _compact(graph.nodes[a].category) == compact
        ]
        return same[0] if len(same) == 1 else None

    def states_of(self, words: list[str]) -> tuple[str, ...]:
        out = []
        for word in words:
            key = "_".join(word.strip().lower().split())
            key = _STATE_ALIASES.get(key, key)
            if key in self.allowed_states and key not in out:
                out.append(key)
        return tuple(out)


def _compact(text: str) -> str:
    """Letters and digits only, lower case: 'Kitchen bench' and 'kitchen_bench' agree."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _phrase(relation: Relation) -> str:
    return "inside" if relation is Relation.INSIDE_OF else "on top of"
