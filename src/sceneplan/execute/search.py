"""Looking for objects the executor lost sight of: where to look, and the actions to look there.

An object dropped as missing (a surface seen whole without it) that the goal
names stops any plan: the executor searches first. The default search,
`greedy`, and the baseline `sweep` choose one look at a time (`worth.py`);
the two older orders are here:

- `likely`: the room the object was last believed in first;
  then the rooms whose assets are likely to hold such a thing, from the
  scene itself: how many objects of the lost object's category (a mug) rest
  on assets of each category (a shelf, a desk) in the robot's map, then how
  many objects of any category do, per asset of that category. A room's
  worth is the likelihood of its assets not yet seen, over what looking
  there costs (its assets to look at, and the travel there). Within a room,
  likely assets first.
- `nearest`: the room the object was last believed in,
  then every other room by path length, every asset of each in graph order.

Assets the robot has already seen whole since the run started (arriving in
a room shows what is on its assets) are skipped: only what it has not seen
(a closed cabinet's inside) is visited. The search ends as soon as every
lost object is seen again, or when its own budget of skill calls
(`search_budget`) is spent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from sceneplan.errors import LLMError, SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.execute.robot import action_for
from sceneplan.execute.skills import Skill, SkillCall
from sceneplan.graph.model import Node, NodeKind, Relation
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, LLMCall
from sceneplan.plugins import unknown_name
from sceneplan.world.actions import Action

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient

# The searches: the p/c greedy (worth.py, the default), the likely-first order, the
# nearest-first order of every asset, and the room sweep (worth.py).
ORDERS = ("greedy", "likely", "nearest", "sweep")
# A search's own budget in skill calls, per asset and room of the map: enough to visit
# every asset of the building (navigate, reach, open) with room to spare.
CALLS_PER_PLACE, MIN_SEARCH_CALLS = 3, 30
# How much an asset's category holding objects of the lost one's category counts,
# against its holding objects of any category.
SAME_KIND = 4.0
# Metres of travel that cost as much as looking at one more asset, in a room's worth.
TRAVEL_PER_ASSET = 10.0


def check_search(search: str) -> str:
    """A search's name as `ORDERS` has it, or BadInputError naming the choices.

    >>> check_search("sweep")
    'sweep'
    """
    if search not in ORDERS:
        raise unknown_name("search order", search, ORDERS)
    return search


def search_budget(belief: Belief) -> int:
    """Skill calls a search may make: CALLS_PER_PLACE per asset and room of the map."""
    graph = belief.graph
    places = sum(1 for n in graph if n.kind in (NodeKind.ASSET, NodeKind.ROOM))
    return max(MIN_SEARCH_CALLS, CALLS_PER_PLACE * places)


def last_room(belief: Belief, node: str) -> str | None:
    """The room a lost object was last believed in."""
    graph = belief.graph
    place = belief.lost.get(node)
    parent = place.parent if place is not None else None
    while parent is not None and parent in graph and graph.nodes[parent].kind is not NodeKind.ROOM:
        parent = graph.nodes[parent].parent
    return parent if parent is not None and parent in graph else None


def rooms_to_search(belief: Belief, lost: list[str]) -> list[str]:
    """The `nearest` order: where the lost objects were, then every room nearest first."""
    graph = belief.graph
    first = [room for node in lost if (room := last_room(belief, node)) is not None]
    navigator = Navigator(graph)
    at = belief.state.agent_at
    others = []
    for room in (n.id for n in graph if n.kind is NodeKind.ROOM):
        try:
            others.append((navigator.path_length(at, room), room))
        except SceneplanError:  # cut off (a blocked room): not searched
            continue
    return list(dict.fromkeys([*first, *(room for _, room in sorted(others))]))


def placed(belief: Belief, lost: Collection[str]) -> Iterator[tuple[Node, str]]:
    """The map's objects other than the lost ones, each with the asset it rests at: what
    the scene says about where things are kept."""
    state = belief.state
    for node in belief.graph:
        if node.kind is NodeKind.OBJECT and node.id not in lost:
            asset = state.support_asset(node.id)
            if asset is not None:
                yield node, asset


def likelihoods(belief: Belief, lost: list[str]) -> dict[str, float]:
    """Per asset of the map, how likely it is to hold one of the lost objects: objects of
    the same category on assets of its category (the map's co-occurrences, SAME_KIND
    each), objects of any category on them, per asset of that category; a little for
    any asset that takes things, nothing for one that does not."""
    state, graph = belief.state, belief.graph
    kinds = {belief.lost[n].category for n in lost if n in belief.lost}
    same: Counter[str] = Counter()
    anything: Counter[str] = Counter()
    for node, asset in placed(belief, lost):
        category = graph.nodes[asset].category
        anything[category] += 1
        if node.category in kinds:
            same[category] += 1
    assets = [n for n in graph if n.kind is NodeKind.ASSET]
    count = Counter(a.category for a in assets)
    out = {}
    for a in assets:
        takes = "release" in a.affordances or state.is_container(a.id)
        worth = SAME_KIND * same[a.category] + anything[a.category]
        out[a.id] = worth / count[a.category] + (0.1 if takes else 0.0)
    return out


def search_order(
    belief: Belief, lost: list[str], seen: Collection[str] = (), ranked: Sequence[str] = ()
) -> list[tuple[str, str | None]]:
    """The `likely` order: (room, None) to go to a room (arriving shows what is on its
    assets and in its open containers), (room, asset) to look at an asset there. Assets
    in `seen` (seen whole) are left out.

    Rooms in order of worth: the room the lost objects were last believed in first, then
    by the likelihood of their assets not yet seen, over the assets there and the travel.
    In each, the assets a look must open or reach that are of a kind that holds such
    things (or all of them, in the room the objects were last believed in); the rest
    (closed storage of other kinds) after every room, likely and near ones first.
    `ranked`: rooms an LLM named as likely, in its order: after the first room, before
    the others, each searched whole.
    """
    graph = belief.graph
    weight = likelihoods(belief, lost)
    kinds = same_kind(belief, lost)
    navigator = Navigator(graph)
    at = belief.state.agent_at
    first = {room for node in lost if (room := last_room(belief, node)) is not None}
    rooms: list[tuple[tuple, str]] = []
    travel: dict[str, float] = {}
    for room in (n.id for n in graph if n.kind is NodeKind.ROOM):
        todo = [a for a in _assets(belief, room) if a not in seen]
        if not todo:
            continue
        try:
            travel[room] = navigator.path_length(at, room)
        except SceneplanError:  # cut off (a blocked room): not searched
            continue
        worth = sum(weight[a] for a in todo) / (len(todo) + travel[room] / TRAVEL_PER_ASSET)
        rank = ranked.index(room) if room in ranked else len(ranked)
        rooms.append(((room not in first, rank, -worth, travel[room], room), room))
    out: list[tuple[str, str | None]] = []
    later: list[tuple[tuple, tuple[str, str]]] = []
    for _, room in sorted(rooms):
        out.append((room, None))
        for asset in sorted(
            (a for a in _assets(belief, room) if a not in seen), key=lambda a: -weight[a]
        ):
            if room in first or room in ranked or graph.nodes[asset].category in kinds:
                out.append((room, asset))
            else:
                later.append(((-weight[asset], travel[room], asset), (room, asset)))
    return out + [item for _, item in sorted(later)]


class LikelyRooms(BaseModel):
    """An LLM's answer: where a lost object is likely to be now."""

    rooms: list[str] = Field(description="room ids, the most likely first")


ROOMS_ASKED = 5  # rooms an LLM is asked to name


async def llm_rooms(
    llm: LLMClient, belief: Belief, lost: list[str], episode: Episode
) -> tuple[list[str], str | None]:
    """The rooms an LLM names as likely to hold the lost objects now (the call recorded in
    the Episode, stage `search`), and why it named none when it did not (a reply that
    did not validate, the model unreachable): the search then goes by the map alone."""
    graph, state = belief.graph, belief.state
    rooms = [n.id for n in graph if n.kind is NodeKind.ROOM]
    what = "; ".join(
        f"{n} (a {belief.lost[n].category}, last seen {_where(belief, n)})"
        for n in lost
        if n in belief.lost
    )
    listing = "\n".join(
        f"- {room}: "
        + (", ".join(sorted({graph.nodes[a].category for a in _assets(belief, room)})) or "-")
        for room in rooms
    )
    messages = [
        {
            "role": "system",
            "content": "You help a robot find objects someone moved in a building. Answer "
            "with JSON only.",
        },
        {
            "role": "user",
            "content": f"The robot did not find {what}. The rooms and the kinds of furniture "
            f"in each:\n{listing}\nThe robot is in {state.room_of(state.agent_id)}. Name up "
            f"to {ROOMS_ASKED} room ids where these are most likely now, the most likely "
            'first, as {"rooms": [...]}.',
        },
    ]
    try:
        response = await llm.acomplete(messages, schema=LikelyRooms)
    except LLMError as exc:
        episode.llm_calls.append(LLMCall("search", messages, "", error=str(exc)))
        return [], f"the LLM named no rooms ({exc})"
    usage, parsed = response.usage, response.parsed
    episode.llm_calls.append(
        LLMCall(
            "search",
            messages,
            response.text,
            parsed=parsed.model_dump(mode="json") if parsed is not None else None,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            latency_s=usage.latency_s,
            cost_usd=usage.cost_usd,
            cached=usage.cached,
            structured_mode=usage.structured_mode,
        )
    )
    named = list(dict.fromkeys(r for r in (parsed.rooms if parsed else []) if r in rooms))
    return named[:ROOMS_ASKED], None if named else "the LLM named no room of the map"


def _where(belief: Belief, node: str) -> str:
    place = belief.lost[node]
    relation = "in" if place.relation is Relation.INSIDE_OF else "on"
    return f"{relation} {place.parent}" if place.parent else "nowhere known"


def same_kind(belief: Belief, lost: list[str]) -> set[str]:
    """The asset categories on or in which the map has objects of a lost one's category."""
    kinds = {belief.lost[n].category for n in lost if n in belief.lost}
    graph = belief.graph
    return {graph.nodes[a].category for node, a in placed(belief, lost) if node.category in kinds}


def _assets(belief: Belief, room: str) -> list[str]:
    graph = belief.graph
    return [c for c in graph.children(room) if graph.nodes[c].kind is NodeKind.ASSET]


def surfaces_of(belief: Belief, asset: str) -> list[tuple[str, Relation]]:
    """The surfaces of an asset that could hide something: its top, and its inside when
    it holds things inside."""
    out = [(asset, Relation.ONTOP_OF)]
    if belief.state.is_container(asset):
        out.append((asset, Relation.INSIDE_OF))
    return out


def seen_whole(belief: Belief, asset: str, surfaces: Collection[tuple[str, Relation]]) -> bool:
    """Whether the robot has seen every surface of `asset` (`surfaces_of`)."""
    return all(s in surfaces for s in surfaces_of(belief, asset))


def look_actions(belief: Belief, room: str, asset: str | None) -> list[Action]:
    """The actions that make the robot observe `asset` (in `room`) from where it is now:
    the vocabulary's actions for going there, looking at it (or reaching it, where the
    vocabulary has no look) and opening it when it is a closed container. Without an
    asset, going to the room only."""
    state, graph = belief.state, belief.graph
    vocabulary = belief.vocabulary
    out: list[Action] = []

    def act(skill: Skill, **args: str) -> Action | None:
        return action_for(SkillCall(skill, args), state, vocabulary)

    go = act(Skill.NAVIGATE, target=room)
    if state.room_of(state.agent_id) != room:
        if go is not None and belief.check(go) is None:
            out.append(go)
        else:  # one link at a time
            path = Navigator(graph).shortest_path(state.agent_at, room)
            out += [a for p in path[1:] if (a := act(Skill.NAVIGATE, target=p)) is not None]
    if asset is None:
        return out
    closed = state.is_container(asset) and not state.opening_clear(asset)
    look_on = act(Skill.LOOK, asset=asset, relation="on")
    opening = act(Skill.OPEN, target=asset) if closed else None
    if look_on is None:  # reaching an asset shows it (SayPlan's access)
        reach = act(Skill.ACCESS, asset=asset)
        out += [a for a in (reach, opening) if a is not None]
        return out
    out.append(look_on)
    if state.is_container(asset):
        if opening is not None:
            out.append(opening)
        inside = act(Skill.LOOK, asset=asset, relation="inside")
        if inside is not None:
            out.append(inside)
    return out
