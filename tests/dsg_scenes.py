"""Small Hydra scene graphs built with the spark_dsg API (callers skip without spark_dsg).

`house()` is a three-room home: a kitchen (a table with a cup two place hops
from the room's place, a cabinet), a hallway joined to the kitchen by a
room-room edge and by places, and a living room named in German with a book
named in Japanese; an unknown class and a wall; a robot trajectory that ends
in the hallway (its newest node has not the largest id).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import spark_dsg as dsg

ROOM_CLASSES = {1: "kitchen", 2: "hallway", 3: "living room"}
OBJECT_CLASSES = {10: "cup", 11: "table", 12: "books", 13: "glorp", 14: "wall", 15: "cabinet"}


def R(i: int) -> int:
    return dsg.NodeSymbol("R", i).value


def P(i: int) -> int:
    return dsg.NodeSymbol("p", i).value


def O(i: int) -> int:  # noqa: E743 - Hydra's own letter for objects
    return dsg.NodeSymbol("O", i).value


def _attrs(cls, name: str, label: int | None, pos: Sequence[float]):
    attrs = cls()
    attrs.name = name
    attrs.position = np.array(pos, dtype=float)
    if label is not None:
        attrs.semantic_label = label
    return attrs


def add_room(g, i: int, label: int | None, pos, name: str | None = None) -> None:
    g.add_node(4, R(i), _attrs(dsg.RoomNodeAttributes, name or f"R({i})", label, pos))


def add_place(g, i: int, pos, partition: int = 0) -> None:
    attrs = _attrs(dsg.PlaceNodeAttributes, f"P({i})", None, pos)
    g.add_node(3, P(i), attrs, partition)


def add_object(g, i: int, label: int, pos, place: int, name: str | None = None) -> None:
    g.add_node(2, O(i), _attrs(dsg.ObjectNodeAttributes, name or f"O({i})", label, pos))
    g.insert_edge(O(i), P(place))


def add_agent(g, i: int, seconds: float, pos, place: int) -> None:
    attrs = dsg.AgentNodeAttributes()
    attrs.position = np.array(pos, dtype=float)
    attrs.timestamp = datetime.timedelta(seconds=seconds)
    # spark_dsg leaves the body rotation uninitialised: garbage that is sometimes NaN, which
    # it saves as null and then cannot read back ("type must be number, but is null")
    attrs.world_R_body = dsg.Quaternion(1.0, 0.0, 0.0, 0.0)
    key = dsg.NodeSymbol("a", i).value
    g.add_node(2, key, attrs, ord("a"))
    g.insert_edge(key, P(place))


def house(*, later: bool = False):
    """The house; `later` is the same run a while on (see test_spark_dsg.test_live_update)."""
    g = dsg.DynamicSceneGraph()
    g.set_labelspace(dsg.Labelspace(ROOM_CLASSES), 4, 0)
    g.set_labelspace(dsg.Labelspace(OBJECT_CLASSES), 2, 0)
    add_room(g, 0, 1, [0, 0, 0])
    add_room(g, 1, 2, [5, 0, 0])
    add_room(g, 2, 3, [10, 0, 0], name="Wohnzimmer für Gäste")
    for i, x in enumerate([0, 1, 2, 5, 8, 10]):
        add_place(g, i, [x, 0, 0])
    for i in range(5):
        g.insert_edge(P(i), P(i + 1))
    g.insert_edge(P(0), R(0))
    g.insert_edge(P(4), R(1))
    g.insert_edge(P(5), R(2))
    g.insert_edge(R(0), R(1))
    add_object(g, 2, 11, [0.5, 0, 0.5], place=1)  # the table, one hop from the kitchen
    add_object(g, 6, 15, [-0.5, 1, 0.5], place=0)  # a cabinet
    cup_place, cup_pos = (3, [5, 0, 1]) if later else (2, [0.6, 0.1, 1])
    add_object(g, 1, 10, cup_pos, place=cup_place)  # two hops from the kitchen
    add_object(g, 3, 12, [10, 0, 1], place=5, name="書籍")
    add_object(g, 4, 13, [8.5, 0, 1], place=4)  # an unknown class
    add_object(g, 5, 14, [9, 0, 1], place=4)
    # the trajectory: kitchen, then the hallway; a2 is the newest (largest timestamp)
    for i, (seconds, place) in enumerate([(0, 0), (1, 1), (9, 3), (5, 2)]):
        add_agent(g, i, seconds, [0, 0, 0], place)
    if later:
        add_room(g, 3, 1, [15, 0, 0])  # a second kitchen, explored later
        add_place(g, 6, [15, 0, 0])
        g.insert_edge(P(5), P(6))
        g.insert_edge(P(6), R(3))
        add_object(g, 7, 10, [15, 0, 1], place=6)  # a new cup
        add_agent(g, 4, 12, [15, 0, 0], place=6)
    return g


def rooms_only():
    """Three rooms in a row joined by room-room edges only, and a fourth joined to nothing."""
    g = dsg.DynamicSceneGraph()
    for i in range(4):
        add_room(g, i, None, [4.0 * i, 0, 0])
    g.insert_edge(R(0), R(1))
    g.insert_edge(R(1), R(2))
    return g


def save(g, path: Path) -> Path:
    g.save(str(path))
    return path
