"""Synthetic buildings of any size, as native-format dicts, for benchmarks.

Each floor is a corridor of poses with a room off each pose; stairs join the
first poses of consecutive floors. Rooms hold assets, and objects rest on or
inside them. Everything has a position, so topology edges are weighted by
distance. The same arguments always give the same building.
"""

from __future__ import annotations

import random
from typing import Any

ROOM_TYPES = ("office", "kitchen", "meeting_room", "lab", "bathroom", "lounge", "storage")
# name, affordances, state; containers (those that open) hold objects inside them.
ASSETS = (
    ("desk", ["release"], []),
    ("table", ["release"], []),
    ("shelf", ["release"], []),
    ("cabinet", ["open", "close", "release"], ["closed"]),
    ("fridge", ["open", "close", "release"], ["closed", "on"]),
    ("microwave", ["open", "close", "release", "turn_on", "turn_off"], ["closed", "off"]),
    ("drawer", ["open", "close", "release"], ["open"]),
)
OBJECTS = (
    ("apple", ["red", "ripe"]),
    ("mug", ["blue", "ceramic"]),
    ("book", ["paperback"]),
    ("stapler", ["black"]),
    ("plate", ["white"]),
    ("phone", ["charged"]),
    ("screwdriver", ["yellow"]),
    ("banana", ["yellow", "ripe"]),
)
ROOM_SPACING = 4.0  # metres between doors along a corridor
FLOOR_HEIGHT = 3.0


def synthetic_building(
    rooms: int,
    items_per_room: int = 40,
    *,
    rooms_per_floor: int = 100,
    seed: int = 0,
) -> dict[str, Any]:
    """A building of `rooms` rooms with `items_per_room` assets and objects each (1:3).

    Room ids are `{type}{n}` with n counting from 0 across the building, so
    `first_and_last_room(rooms)` names the two rooms farthest apart.
    """
    rng = random.Random(seed)
    floors = -(-rooms // rooms_per_floor)
    places: list[dict[str, Any]] = []
    contents: list[dict[str, Any]] = []
    links: list[list[str]] = []
    assets_per_room = max(1, items_per_room // 4)
    counter = 0
    for floor in range(floors):
        z = floor * FLOOR_HEIGHT
        on_floor = min(rooms_per_floor, rooms - floor * rooms_per_floor)
        for i in range(on_floor):
            room, pose = room_id(counter), f"pose{counter}"
            places.append(_node(room, "room", f"floor{floor}", position=[i * ROOM_SPACING, 3, z]))
            places.append(_node(pose, "pose", f"floor{floor}", position=[i * ROOM_SPACING, 0, z]))
            links.append([room, pose])
            if i > 0:
                links.append([f"pose{counter - 1}", pose])
            elif floor > 0:
                links.append([f"pose{counter - rooms_per_floor}", pose])  # the stairs
            contents += _room_contents(rng, room, counter, assets_per_room, items_per_room)
            counter += 1
    head = [{"id": "building", "kind": "building"}]
    head += [_node(f"floor{f}", "floor", "building") for f in range(floors)]
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": f"synthetic_{rooms}",
        "description": f"{rooms} rooms on {floors} floors, {items_per_room} items per room",
        "nodes": [*head, *places, *contents, _node("agent", "agent", room_id(0))],
        "links": links,
    }


def room_id(n: int) -> str:
    return f"{ROOM_TYPES[n % len(ROOM_TYPES)]}{n}"


def first_and_last_room(rooms: int) -> tuple[str, str]:
    """The first room of the ground floor and the last room of the top floor."""
    return room_id(0), room_id(rooms - 1)


def _room_contents(
    rng: random.Random, room: str, n: int, assets: int, items: int
) -> list[dict[str, Any]]:
    out, held = [], []
    for a in range(assets):
        name, affordances, state = ASSETS[rng.randrange(len(ASSETS))]
        asset_id = f"{name}{n}_{a}"
        out.append(_node(asset_id, "asset", room, affordances=affordances, state=state))
        held.append((asset_id, "inside_of" if "open" in affordances else "ontop_of"))
    for o in range(items - assets):
        name, attributes = OBJECTS[rng.randrange(len(OBJECTS))]
        parent, relation = held[rng.randrange(len(held))]
        out.append(
            _node(
                f"{name}{n}_{o}",
                "object",
                parent,
                relation=relation,
                affordances=["pickup"],
                attributes=attributes,
            )
        )
    return out


def _node(node_id: str, kind: str, parent: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": kind, "parent": parent, **{k: v for k, v in fields.items() if v}}
