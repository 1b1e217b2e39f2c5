"""Build the packaged Office environment: the office floor of the SayPlan paper.

SayPlan (Rana et al., CoRL 2023) evaluates on a real office floor of 37 rooms
with 73 assets and 78 objects, but never released the scene graph. This
script reconstructs one in sceneplan's native format from what the paper
prints:

- the room, asset and object names of its appendices: the explored-room
  sequences of App. F and the plans of App. G (``cabinet5`` in
  ``jasons_office``, ``apple3`` in Peter's ``cabinet2``, the six
  ``complimentary_tshirt`` on ``desk9``, ``desk10``, ``desk15``, ``desk18``
  and ``desk25``, ...);
- the corridor topology, read off the pose sequences that the paper's path
  planner inserted into the App. G plans (the kitchen is reached through
  ``pose23``, ``pose24``, ``pose25``; Peter's office through ``pose7``,
  ``pose5``, ``pose2``, ``pose1``). The robot starts at ``pose8``, where every
  App. G plan begins;
- the contents that each of the 60 Office instructions of App. C needs to
  have exactly the answer, or the reachable goal, that the paper implies.

Room and pose positions are a hand-drawn floor plan in metres, chosen so that
Euclidean Dijkstra reproduces the App. G routes; asset positions are spread
around their room's centre unless given. Everything declared below is the
whole environment: one `Room` per room, its assets, and their objects.

The output is deterministic: the same script gives the same bytes.

Usage: ``python scripts/build_office.py [--out PATH] [--check]``
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sceneplan.graph.io import format_text, native_node

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO_ROOT / "src" / "sceneplan" / "datasets" / "environments" / "office.json"

BUILDING = "office_building"
FLOOR = "floor0"
AGENT_AT = "pose8"
ASSET_RING = 2.0  # metres from the room centre at which assets are spread by default

DESCRIPTION = (
    "The office floor of SayPlan (Rana et al., CoRL 2023): 37 rooms of a robotics "
    "research centre with offices, PhD and postdoc bays, labs, meeting rooms, a kitchen "
    "and a cafeteria. Reconstructed from the paper's appendices (names from App. F and "
    "G, routes from the App. G plans); contents made to fit its 60 Office instructions. "
    "The robot starts in the corridor at pose8."
)

# Affordance sets.
SURFACE = ("release",)
CONTAINER = ("open", "close", "release")
SWITCH = ("turn_on", "turn_off")


# ---------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Obj:
    """A movable object; it rests on (or, in a container, inside) its asset."""

    id: str
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    category: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Asset:
    """An immovable asset of a room with the objects on or in it."""

    id: str
    affordances: tuple[str, ...]
    contents: tuple[Obj, ...] = ()
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    category: str | None = None
    description: str | None = None
    position: tuple[float, float] | None = None

    @property
    def relation(self) -> str:
        """How its objects rest on it: inside a container, on top of anything else."""
        return "inside_of" if "open" in self.affordances else "ontop_of"


@dataclass(frozen=True)
class Room:
    """A room: its centre, the corridor pose its door opens onto, and its assets."""

    position: tuple[float, float]
    door: str
    assets: tuple[Asset, ...] = ()
    attributes: tuple[str, ...] = ()
    description: str | None = None


def obj(
    id_: str,
    *state: str,
    attrs: tuple[str, ...] = (),
    cat: str | None = None,
    desc: str | None = None,
) -> Obj:
    """An object; positional arguments after the id are its state words."""
    return Obj(id_, tuple(state), attrs, cat, desc)


def surface(id_: str, *contents: Obj, **fields: Any) -> Asset:
    """Something to put things on: a desk, table, shelf, bench, chair."""
    return Asset(id_, SURFACE, contents, **_asset_fields(fields))


def container(id_: str, *contents: Obj, state: tuple[str, ...] = ("closed",), **fields) -> Asset:
    """Something with a door or lid: a cabinet, cupboard, drawer, bin, fridge."""
    return Asset(id_, CONTAINER, contents, state=state, **_asset_fields(fields))


def appliance(
    id_: str, *contents: Obj, state: tuple[str, ...] = ("closed", "off"), **fields
) -> Asset:
    """A container that can be switched on: dishwasher, microwave."""
    return Asset(id_, CONTAINER + SWITCH, contents, state=state, **_asset_fields(fields))


def device(id_: str, *contents: Obj, state: tuple[str, ...] = ("off",), **fields) -> Asset:
    """A switchable surface: coffee machine, printer."""
    return Asset(id_, SWITCH + SURFACE, contents, state=state, **_asset_fields(fields))


def fixture(id_: str, **fields: Any) -> Asset:
    """Something that is only there to be found: a poster, an extinguisher."""
    return Asset(id_, (), **_asset_fields(fields))


def _asset_fields(fields: dict[str, Any]) -> dict[str, Any]:
    names = {"attrs": "attributes", "cat": "category", "desc": "description"}
    return {names.get(k, k): v for k, v in fields.items()}


def tshirt(n: int) -> Obj:
    """One of the six complimentary T-shirts of the PhD students."""
    return obj(f"complimentary_tshirt{n}", desc="A free T-shirt handed out at a conference.")


def water(n: int) -> Obj:
    """One of the bottles of water in the supplies room."""
    return obj(f"bottled_water{n}", "full", desc="A sealed 600 ml bottle of still water.")


# The corridor poses: the hand-drawn floor plan (x east, y north, metres).
POSES: dict[str, tuple[float, float]] = {
    "pose1": (6, 42),
    "pose2": (12, 34),
    "pose3": (24, 38),
    "pose4": (24, 46),
    "pose5": (10, 20),
    "pose6": (2, 14),
    "pose7": (20, 10),
    "pose8": (26, 20),
    "pose9": (38, 32),
    "pose10": (44, 40),
    "pose11": (54, 42),
    "pose12": (50, 30),
    "pose13": (38, 22),
    "pose14": (50, 22),
    "pose15": (52, 0),
    "pose16": (28, 2),
    "pose17": (24, -8),
    "pose18": (40, 0),
    "pose19": (44, -10),
    "pose20": (60, -6),
    "pose21": (72, 28),
    "pose22": (64, 22),
    "pose23": (62, 10),
    "pose24": (72, 10),
    "pose25": (82, 10),
    "pose26": (90, 20),
}

# Corridor segments. Two loops: the west ring 8-7-5-2-3-9-13 and the pair of
# east-west corridors 7-8-13-14-23 (north) and 7-16-18-15-23 (south), which
# App. G's planner used interchangeably; the rest are spurs.
CORRIDORS: tuple[tuple[str, str], ...] = (
    ("pose8", "pose7"),
    ("pose8", "pose13"),
    ("pose7", "pose5"),
    ("pose5", "pose2"),
    ("pose2", "pose1"),
    ("pose2", "pose3"),
    ("pose3", "pose9"),
    ("pose9", "pose13"),
    ("pose5", "pose6"),
    ("pose3", "pose4"),
    ("pose9", "pose10"),
    ("pose10", "pose11"),
    ("pose13", "pose14"),
    ("pose14", "pose12"),
    ("pose14", "pose23"),
    ("pose23", "pose22"),
    ("pose22", "pose21"),
    ("pose23", "pose24"),
    ("pose24", "pose25"),
    ("pose25", "pose26"),
    ("pose7", "pose16"),
    ("pose16", "pose17"),
    ("pose16", "pose18"),
    ("pose18", "pose19"),
    ("pose18", "pose15"),
    ("pose15", "pose23"),
    ("pose15", "pose20"),
)

ROOMS: dict[str, Room] = {
    # -- shared spaces ------------------------------------------------------
    "kitchen": Room(
        (86, 4),
        "pose25",
        (
            surface(
                "kitchen_bench",
                obj("orange1", "ripe", attrs=("orange",)),
                obj("apple1", "ripe", attrs=("red",)),
                obj("banana1", "unripe", attrs=("green",)),
                obj("bread", attrs=("sliced", "wholemeal")),
                obj("butter"),
                obj("kale_leaves2", attrs=("green",), cat="kale"),
                obj("sponge", attrs=("yellow",)),
                cat="bench",
            ),
            container(
                "fridge",
                obj("chicken_kebab", "cold"),
                obj("noodles", "cold", desc="Leftover stir-fried vegetable noodles."),
                obj("salmon_bagel", "cold", "spoiled", desc="Well past its use-by date."),
                obj("cheese", "cold", attrs=("sliced",)),
                obj("tomato", "cold", "ripe", attrs=("red",)),
                obj("carrot", "cold", attrs=("orange",)),
                state=("closed", "on"),
            ),
            container("freezer", obj("j64m", "cold"), state=("closed", "on")),
            appliance(
                "dishwasher",
                obj("plate2", "clean", attrs=("white",)),
                obj("bowl", "clean", attrs=("white",)),
                obj("spoon", "clean"),
            ),
            appliance("microwave"),
            # Off, as App. G's coffee plans need (they switch it on); a mug waits
            # under the spout, so switching it on shows it works (planning-simple-12).
            device(
                "coffee_machine",
                obj("mug1", "clean", "empty", attrs=("purple",), cat="mug"),
                attrs=("espresso",),
            ),
            container(
                "cabinet", obj("plate3", "clean", attrs=("white",)), desc="The crockery cupboard."
            ),
            container("drawer", obj("teaspoon", "clean"), desc="The cutlery drawer."),
            container("compost_bin", cat="bin", desc="For food scraps."),
            container(
                "recycling_bin",
                obj("orange_peel"),
                obj("apple_core"),
                obj("milk_carton", "empty"),
                cat="bin",
                desc="For clean paper, cans, cartons and hard plastic.",
            ),
            container(
                "rubbish_bin",
                obj("plastic_bottle", "empty"),
                obj("banana_peel"),
                cat="bin",
                desc="General waste.",
            ),
            fixture("fire_extinguisher4", attrs=("red",), position=(83.5, 8.0)),
        ),
    ),
    "cafeteria": Room(
        (80, 18),
        "pose25",
        (
            surface(
                "lunch_table",
                obj("plate", "dirty", attrs=("white",)),
                obj("fork", "dirty"),
                obj("knife", "dirty"),
                cat="table",
            ),
            surface(
                "serving_counter",
                obj("banana2", "ripe", attrs=("yellow",)),
                obj("napkins", attrs=("paper",)),
                cat="counter",
            ),
        ),
        description="The lunchroom next to the kitchen.",
    ),
    "admin": Room(
        (40, 6),
        "pose18",
        (
            surface("shelf", state=("dusty",)),
            fixture("fire_extinguisher1", attrs=("red",), position=(41.0, 2.5)),
        ),
    ),
    "lobby": Room(
        (48, 15),
        "pose14",
        (
            surface(
                "shelf2",
                obj(
                    "parcel",
                    attrs=("cardboard",),
                    desc="A courier box of LiDAR sensors for the mobile robot bases.",
                ),
                cat="shelf",
            ),
            fixture("fire_extinguisher2", attrs=("red",), position=(49.0, 19.0)),
        ),
    ),
    "supplies_station": Room(
        (72, 4),
        "pose24",
        (
            container("cupboard1", obj("paper_towel", attrs=("roll",)), obj("printer_paper")),
            container(
                "cupboard2",
                obj("orange_juice", "full", attrs=("carton",)),
                obj("biscuits", attrs=("packet",)),
                obj("potato_chips", attrs=("packet",)),
                *(water(n) for n in range(1, 6)),
                obj("sparkling_wine", "full", attrs=("bottle",)),
            ),
        ),
        description="The supplies room.",
    ),
    "printing_zone1": Room((72, 16), "pose24", (device("printer1", state=("on",)),)),
    "printing_zone2": Room(
        (30, 38),
        "pose3",
        (
            device(
                "printer2",
                obj("document", attrs=("paper",), desc="Freshly printed, still in the tray."),
                state=("on",),
            ),
            fixture("fire_extinguisher3", attrs=("red",), position=(27.0, 38.5)),
        ),
    ),
    "presentation_lounge": Room((88, 28), "pose26", (device("projector", state=("off",)),)),
    "server_room": Room((66, -2), "pose20", (fixture("server_rack", state=("on",)),)),
    # -- labs and lounges -----------------------------------------------------
    "mobile_robotics_lab": Room(
        (28, 12),
        "pose8",
        (
            surface("table4", obj("realsense_camera1", attrs=("depth_camera",)), cat="table"),
            surface("shelf3", obj("book2", attrs=("hardcover",)), cat="shelf"),
        ),
    ),
    "manipulation_lab": Room(
        (54, -8),
        "pose15",
        (
            surface(
                "workbench",
                obj("robotic_gripper", attrs=("two_finger",)),
                obj("book1", attrs=("paperback",)),
                obj("realsense_camera2", attrs=("depth_camera",)),
            ),
        ),
    ),
    "agriculture_lab": Room(
        (64, -12),
        "pose20",
        (surface("grow_rack", obj("kale_leaves1", attrs=("green",), cat="kale"), cat="rack"),),
    ),
    "robot_lounge1": Room(
        (46, 32),
        "pose12",
        (surface("coffee_table", obj("sweet_wrapper", attrs=("plastic",)), cat="table"),),
    ),
    "robot_lounge2": Room(
        (54, 32),
        "pose12",
        (container("toolbox", obj("screwdriver"), attrs=("metal",)),),
    ),
    # -- meeting rooms ------------------------------------------------------------
    "meeting_room1": Room(
        (18, 30),
        "pose2",
        (
            surface("table5", cat="table"),
            *(surface(f"chair{n}", state=("occupied",)) for n in (11, 12, 13)),
        ),
        attributes=("medium",),
        description="Seats 8; about 24 square metres.",
    ),
    "meeting_room2": Room(
        (16, 22),
        "pose5",
        (surface("chair15"), surface("chair16")),
        attributes=("small",),
        description="Seats 4; about 12 square metres.",
    ),
    "meeting_room3": Room(
        (96, 26),
        "pose26",
        (surface("table1", obj("headphones1", attrs=("black",)), cat="table"),),
        attributes=("large",),
        description="Seats 20; about 60 square metres.",
    ),
    "meeting_room4": Room(
        (66, 34),
        "pose21",
        (surface("table2", obj("chess_pieces"), obj("dice"), cat="table"),),
        attributes=("small",),
        description="Seats 6; about 18 square metres.",
    ),
    # -- PhD and postdoc bays -------------------------------------------------
    "phd_bay1": Room(
        (-4, 12), "pose6", (surface("desk9", tshirt(1)), surface("desk10", tshirt(2)))
    ),
    "phd_bay2": Room(
        (18, -14),
        "pose17",
        (surface("desk15", tshirt(3)), surface("desk18", tshirt(4), tshirt(6))),
    ),
    "phd_bay3": Room((30, -14), "pose17", (surface("desk20", obj("drone1", attrs=("black",))),)),
    "phd_bay4": Room((44, -16), "pose19", (surface("desk25", tshirt(5)),)),
    "postdoc_bay1": Room((74, 34), "pose21", (surface("desk13"),)),
    "postdoc_bay2": Room(
        (80, 30),
        "pose21",
        (
            surface("desk26", obj("umbrella", attrs=("purple",)), obj("hoodie", attrs=("purple",))),
            surface("desk27", obj("dog_leash", attrs=("red",))),
        ),
    ),
    # -- offices -----------------------------------------------------------------
    "peters_office": Room(
        (2, 48),
        "pose1",
        (
            surface(
                "desk2",
                obj("phone", attrs=("valuable",)),
                obj("wallet", attrs=("valuable", "leather")),
            ),
            container("cabinet2", obj("apple3", "ripe", attrs=("green",))),
        ),
    ),
    "tobis_office": Room(
        (10, 48),
        "pose1",
        (
            surface(
                "desk38",
                obj("soda_can", "empty", attrs=("aluminium",), desc="Tipped over and empty."),
                obj("pepsi", "full", attrs=("can",), desc="Unopened."),
                desc="Sticky with spilt soda.",
            ),
            container("cabinet1", obj("paper_clips")),
        ),
    ),
    "nikos_office": Room(
        (4, 24),
        "pose5",
        (
            surface("desk1", obj("coffee_mug", "clean", "empty", attrs=("white",), cat="mug")),
            # a cabinet, a desk and a chair: office-simple-12 (App. F, both sequences stop here)
            container("cabinet11"),
            surface("chair1"),
        ),
    ),
    "michaels_office": Room(
        (20, 52),
        "pose4",
        (
            surface("desk6", obj("k31x"), obj("scissors")),
            container("drawer2", obj("stapler2"), state=("open",)),
            container("cabinet6"),
            fixture(
                "terminator_poster", cat="poster", desc="A framed poster of The Terminator (1984)."
            ),
        ),
    ),
    "wills_office": Room(
        (40, 46),
        "pose10",
        (
            surface("desk4"),
            container(
                "cabinet4",
                obj("drone2", attrs=("white",)),
                obj("undergrad_thesis1", attrs=("bound",)),
                obj("apple4", "rotten"),
            ),
        ),
    ),
    "luis_office": Room((45, 46), "pose10", (surface("desk7"), container("cabinet7"))),
    "filipes_office": Room(
        (50, 46),
        "pose10",
        (
            surface("desk37", obj("stapler"), obj("headphones2", attrs=("white",))),
            container("cabinet8", obj("folder")),
        ),
    ),
    "ajays_office": Room((28, 52), "pose4", (surface("desk8"), container("cabinet9"))),
    "lauriannes_office": Room((58, 36), "pose11", (surface("desk28"), container("cabinet10"))),
    # the office without a cabinet: office-simple-11 (App. F, the human's sequence ends here)
    "chris_office": Room((56, 48), "pose11", (surface("desk29"), surface("chair2"))),
    "dimitys_office": Room(
        (60, 26),
        "pose22",
        (
            surface(
                "desk3",
                obj("buzzer", desc="A novelty buzzer that goes off when someone sits on it."),
            ),
            container("cabinet3", obj("apple2", "rotten")),
        ),
    ),
    "aarons_office": Room((60, 42), "pose11", (surface("desk31"), container("cabinet12"))),
    "jasons_office": Room(
        (36, 15),
        "pose13",
        (
            surface("desk5", obj("monitor", attrs=("24_inch",))),
            container("cabinet5", state=("open",)),
        ),
    ),
}


# ---------------------------------------------------------------------------
# Building the graph
# ---------------------------------------------------------------------------


def build() -> dict[str, Any]:
    """The Office environment as a native-format graph dict."""
    nodes: list[dict[str, Any]] = [
        {"id": BUILDING, "kind": "building"},
        {"id": FLOOR, "kind": "floor", "parent": BUILDING},
    ]
    for room_id, room in ROOMS.items():
        nodes.append(
            _node(
                room_id,
                "room",
                FLOOR,
                attributes=room.attributes,
                position=room.position,
                description=room.description,
            )
        )
    for pose_id, position in POSES.items():
        nodes.append(_node(pose_id, "pose", FLOOR, position=position))
    for room_id, room in ROOMS.items():
        spread = [a.id for a in room.assets if a.position is None]
        for asset in room.assets:
            nodes.append(
                _node(
                    asset.id,
                    "asset",
                    room_id,
                    category=asset.category,
                    affordances=asset.affordances,
                    state=asset.state,
                    attributes=asset.attributes,
                    position=asset.position or _spread(room, spread.index(asset.id), len(spread)),
                    description=asset.description,
                )
            )
            for item in asset.contents:
                nodes.append(
                    _node(
                        item.id,
                        "object",
                        asset.id,
                        relation=asset.relation,
                        category=item.category,
                        affordances=("pickup",),
                        state=item.state,
                        attributes=item.attributes,
                        description=item.description,
                    )
                )
    nodes.append({"id": "agent", "kind": "agent", "parent": AGENT_AT})
    links = [[room_id, room.door] for room_id, room in ROOMS.items()]
    links.extend([a, b] for a, b in CORRIDORS)
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": "office",
        "description": DESCRIPTION,
        "nodes": nodes,
        "links": links,
    }


def _node(node_id: str, kind: str, parent: str, **fields: Any) -> dict[str, Any]:
    """One node in the native field order, leaving out empty fields."""
    if fields.get("position"):
        fields["position"] = [float(v) for v in fields["position"]]
    return native_node(id=node_id, kind=kind, parent=parent, **fields)


def _spread(room: Room, index: int, count: int) -> tuple[float, float]:
    """The default position of asset `index` of `count`: evenly around the room centre."""
    angle = math.pi / 4 - 2 * math.pi * index / count
    x = room.position[0] + ASSET_RING * math.cos(angle)
    y = room.position[1] + ASSET_RING * math.sin(angle)
    return (round(x, 1) + 0.0, round(y, 1) + 0.0)


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def summary(graph: dict[str, Any]) -> str:
    """Node counts per kind and the number of links, in one line."""
    kinds = Counter(node["kind"] for node in graph["nodes"])
    counts = ", ".join(f"{kinds[k]} {k}s" for k in ("room", "pose", "asset", "object"))
    return f"{counts}, {len(graph['links'])} links"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output JSON file")
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write; exit 1 if the output file differs from a fresh build",
    )
    args = parser.parse_args(argv)
    graph = build()
    text = format_text(graph)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(
                f"build_office: {args.out} is out of date; rerun without --check", file=sys.stderr
            )
            return 1
        print(f"{args.out} is up to date: {summary(graph)}")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {summary(graph)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
