"""A catalogue of tiny scenes shared by many tests."""

from __future__ import annotations

from sceneplan.graph import SceneGraph, from_dict


def node(id_: str, kind: str, parent: str | None = None, **fields) -> dict:
    out = {"id": id_, "kind": kind, **fields}
    if parent is not None:
        out["parent"] = parent
    return out


def kitchen_dict() -> dict:
    """Two rooms joined by two poses; a kitchen with appliances and nested containers."""
    cont = ["open", "close", "release"]
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "tiny_kitchen",
        "nodes": [
            node("office", "room", position=[0.0, 0.0]),
            node("kitchen", "room", position=[6.0, 0.0]),
            node("pose1", "pose", position=[2.0, 0.0]),
            node("pose2", "pose", position=[4.0, 0.0]),
            node("desk", "asset", "office", affordances=["release"]),
            node("fridge", "asset", "kitchen", affordances=cont, state=["closed", "on"]),
            node(
                "microwave",
                "asset",
                "kitchen",
                affordances=[*cont, "turn_on", "turn_off"],
                state=["closed", "off"],
            ),
            node(
                "dishwasher",
                "asset",
                "kitchen",
                affordances=[*cont, "turn_on", "turn_off"],
                state=["open", "off"],
            ),
            node(
                "coffee_machine",
                "asset",
                "kitchen",
                affordances=["release", "turn_on", "turn_off"],
                state=["off"],
            ),
            node("bench", "asset", "kitchen", affordances=["release"]),
            node("cabinet", "asset", "kitchen", affordances=cont, state=["open"]),
            node(
                "box",
                "object",
                "cabinet",
                relation="inside_of",
                affordances=["pickup", "open", "close", "release"],
                state=["closed"],
            ),
            node("pen", "object", "box", relation="inside_of", affordances=["pickup"]),
            node(
                "plate",
                "object",
                "bench",
                relation="ontop_of",
                affordances=["pickup"],
                state=["dirty"],
            ),
            node(
                "mug",
                "object",
                "desk",
                relation="ontop_of",
                affordances=["pickup"],
                state=["empty"],
            ),
            node("soup", "object", "fridge", relation="inside_of", affordances=["pickup"]),
            node("apple", "object", "bench", relation="ontop_of", affordances=["pickup"]),
            node("agent", "agent", "office"),
        ],
        "links": [["office", "pose1"], ["pose1", "pose2"], ["pose2", "kitchen"]],
    }


def kitchen() -> SceneGraph:
    return from_dict(kitchen_dict(), "tiny_kitchen")


SWITCH = ["turn_on", "turn_off"]
CONTAINER = ["open", "close", "release"]


def rest_scene() -> SceneGraph:
    """A sofa to sit or lie on in the office, a stool to sit on in the kitchen."""
    data = kitchen_dict()
    data["name"] = "rest"
    data["nodes"] += [
        node("sofa", "asset", "office", affordances=["release", "sit", "lie"]),
        node("stool", "asset", "kitchen", affordances=["sit"]),
    ]
    return from_dict(data, "rest")


def frost_scene() -> SceneGraph:
    """A freezer (cold and frozen) beside the fridge (cold)."""
    data = kitchen_dict()
    data["name"] = "frost"
    data["nodes"].append(
        node("freezer", "asset", "kitchen", affordances=CONTAINER, state=["closed", "on"])
    )
    return from_dict(data, "frost")


def bake_dict() -> dict:
    """The tiny kitchen with BEHAVIOR's appliances: an oven (a container with a switch), a
    grill (cooks what stands on it), a toaster object (a receptacle with a switch), an
    always-running electric_refrigerator; a frozen pie, a raw steak and a slice of bread."""
    data = kitchen_dict()
    data["name"] = "bake"
    data["nodes"] += [
        node(
            "oven", "asset", "kitchen", affordances=[*CONTAINER, *SWITCH], state=["closed", "off"]
        ),
        node("grill", "asset", "kitchen", affordances=["release", *SWITCH], state=["off"]),
        node(
            "electric_refrigerator",
            "asset",
            "kitchen",
            affordances=CONTAINER,
            state=["closed", "on"],
        ),
        node(
            "toaster",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "receptacle", "release", *SWITCH],
            state=["off"],
        ),
        node(
            "pie", "object", "bench", relation="ontop_of", affordances=["pickup"], state=["frozen"]
        ),
        node(
            "steak", "object", "bench", relation="ontop_of", affordances=["pickup"], state=["raw"]
        ),
        node("bread", "object", "bench", relation="ontop_of", affordances=["pickup"]),
    ]
    return data


def bake_scene() -> SceneGraph:
    return from_dict(bake_dict(), "bake")


def substance_scene():
    """A sink that gives water, a shaker of salt, a bucket, a bowl, a rag and a brush, and a
    bench covered with dust and a stain (BEHAVIOR's substances, world/substances.py)."""
    data = kitchen_dict()
    data["name"] = "substances"
    for n in data["nodes"]:
        if n["id"] == "bench":
            n["affordances"] = [*n["affordances"], "coat"]
            n["state"] = ["covered_dust", "covered_stain"]
    take = ["pickup", "release"]
    data["nodes"] += [
        node(
            "sink",
            "asset",
            "kitchen",
            affordances=["release", "turn_on", "turn_off", "source", "fill"],
            state=["off", "insource_water"],
        ),
        node(
            "bucket",
            "object",
            "bench",
            relation="ontop_of",
            affordances=[*take, "receptacle", "fill", "pour"],
        ),
        node("bowl", "object", "bench", relation="ontop_of", affordances=[*take, "fill", "coat"]),
        node(
            "shaker",
            "object",
            "bench",
            relation="ontop_of",
            affordances=["pickup", "pour"],
            state=["insource_salt"],
        ),
        node(
            "rag", "object", "bench", relation="ontop_of", affordances=["pickup", "soak", "wiper"]
        ),
        node("brush", "object", "desk", relation="ontop_of", affordances=["pickup", "wiper"]),
    ]
    return from_dict(data, "substances")
