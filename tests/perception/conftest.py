"""Fixtures of the perception tests: a small scene with nesting."""

from __future__ import annotations

import pytest

from sceneplan.graph import SceneGraph, from_dict
from scenes import node

CONTAINER = ["pickup", "open", "close", "release"]


def shelf_dict() -> dict:
    """A kitchen whose bench holds a bowl (with an apple in it), a closed box (with a pen
    in it, and a card on its lid) and a mug; a cabinet holds a plate; a second room."""
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "shelf",
        "nodes": [
            node("kitchen", "room"),
            node("hall", "room"),
            node("pose1", "pose"),
            node("bench", "asset", "kitchen", affordances=["release"]),
            node("table", "asset", "kitchen", affordances=["release"]),
            node(
                "cabinet",
                "asset",
                "kitchen",
                affordances=["open", "close", "release"],
                state=["closed"],
            ),
            node("bowl", "object", "bench", relation="ontop_of", affordances=["pickup"]),
            node("apple", "object", "bowl", relation="inside_of", affordances=["pickup"]),
            node(
                "box",
                "object",
                "bench",
                relation="ontop_of",
                affordances=CONTAINER,
                state=["closed"],
                attributes=["cardboard"],
            ),
            node("pen", "object", "box", relation="inside_of", affordances=["pickup"]),
            node("card", "object", "box", relation="ontop_of", affordances=["pickup"]),
            node(
                "mug",
                "object",
                "bench",
                relation="ontop_of",
                affordances=["pickup"],
                state=["dirty", "empty"],
                attributes=["blue"],
            ),
            node("plate", "object", "cabinet", relation="inside_of", affordances=["pickup"]),
            node("lamp", "object", "table", relation="ontop_of", affordances=["pickup"]),
            node("agent", "agent", "kitchen"),
        ],
        "links": [["kitchen", "pose1"], ["pose1", "hall"]],
    }


@pytest.fixture
def shelf() -> SceneGraph:
    return from_dict(shelf_dict(), "shelf")
