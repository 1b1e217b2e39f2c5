"""Build the packaged Home environment (Klickitat) from the Stanford 3D Scene Graph data.

The SayPlan paper's "Home" is the Klickitat house of the Stanford 3D Scene
Graph dataset: 28 rooms on 3 floors. SayPlan never released its version of
the graph, so this script rebuilds one in sceneplan's native format with the
Stanford 3DSG importer (`sceneplan.importers.stanford3dsg`), which does 1-3;
this script holds 4, the Home's hand-made content:

1. Rooms and floors come from the data. Each room is named by its category
   and a per-category index in data-id order (``bathroom0``..``bathroom4``,
   ``lobby0``, ...), which reproduces the names of SayPlan App. F.
2. Poses are derived from geometry. Two rooms on the same floor whose
   bounding boxes touch (or overlap) along at least a door's width share a
   door pose at the middle of the contact region; floors still split into
   several parts are joined at the closest pair of rooms; each staircase
   leads through a pose pair to the room above it that it overlaps most.
3. The 84 human-verified objects become assets (immovable furniture and
   appliances) or objects (movable things); the automatically labelled file
   is not used. Each object is placed on the nearest suitable surface of its
   room within reach; objects with none get a derived shelf per room.
4. Hand-made content (the `HAND_*` tables below) adds the assets, objects,
   states and attributes that the 30 SayPlan Home search instructions need.

The output is deterministic: the same input gives the same bytes.

Usage: ``python scripts/build_home.py [DATA_DIR] [--out PATH] [--check]``
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from sceneplan.errors import SceneplanError
from sceneplan.graph.io import format_text
from sceneplan.importers.stanford3dsg import Hand, HandAsset, HandObject, build, read
from sceneplan.importers.taxonomy import OPENABLE, SWITCHABLE

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "klickitat"
DEFAULT_OUT = REPO_ROOT / "src" / "sceneplan" / "datasets" / "environments" / "home.json"
VERIFIED_FILE = "Klickitat.tiny_verified.json"

DESCRIPTION = (
    "The Klickitat family home of the Stanford 3D Scene Graph dataset (Armeni et al., "
    "ICCV 2019), the 'Home' environment of SayPlan: 3 floors, 28 rooms. Rooms, floors "
    "and verified objects come from the dataset; poses are derived from room geometry; "
    "extra objects and states were added by hand for the SayPlan Home search tasks. "
    "Licensed for non-commercial research use only."
)

# ---------------------------------------------------------------------------
# Hand-made content for the SayPlan Home instructions (see DATA.md)
# ---------------------------------------------------------------------------

HAND_ASSETS: tuple[HandAsset, ...] = (
    HandAsset(
        "bed", "bedroom0", (0.4, 0.6), (2.0, 1.6, 0.6), description="a bare mattress, no bedding"
    ),
    HandAsset("desk", "home_office0", (-13.1, -10.7), (0.8, 1.4, 0.75), attributes=("wooden",)),
    HandAsset("crib", "bedroom3", (-0.5, -14.3), (1.3, 0.7, 1.0), attributes=("white", "wooden")),
    HandAsset("tv", "living_room0", (-3.4, 6.2), (1.2, 0.1, 0.7), SWITCHABLE, ("off",)),
    HandAsset("tv_stand", "living_room1", (-4.6, 6.4), (1.6, 0.45, 0.5)),
    HandAsset("tv", "living_room1", (-4.6, 6.5), (1.4, 0.1, 0.8), SWITCHABLE, ("off",)),
    HandAsset(
        "microwave",
        "dining_room0",
        (-6.9, 6.3),
        (0.5, 0.4, 0.3),
        OPENABLE + SWITCHABLE,
        ("closed", "off"),
        description="a small microwave on the sideboard",
    ),
    HandAsset("kitchen_counter", "kitchen1", (-1.0, -2.3), (2.4, 0.6, 0.9)),
    HandAsset("wardrobe", "closet0", (-2.2, -5.6), (1.8, 0.6, 2.0), OPENABLE, ("closed",)),
)

HAND_OBJECTS: tuple[HandObject, ...] = (
    # simple search
    HandObject(
        "wine_bottle",
        "dining_table1",
        "dining_room1",
        category="bottle",
        state=("full",),
        attributes=("red", "glass"),
        description="a bottle of red wine",
    ),
    HandObject("rattle", "crib0", "bedroom3", attributes=("yellow", "plastic")),
    HandObject("suitcase", "couch1", "living_room0", attributes=("black",)),
    HandObject(
        "baby_monitor",
        "dining_table1",
        "dining_room1",
        affordances=("pickup", *SWITCHABLE),
        state=("on",),
    ),
    HandObject("razor", "sink7", "bathroom3"),
    HandObject("shaving_cream", "sink7", "bathroom3"),
    HandObject("pillow", "bed1", "bedroom1", attributes=("white",)),
    HandObject("pillow", "bed0", "bedroom3", attributes=("blue",)),
    # complex search
    HandObject(
        "game_console",
        "tv_stand0",
        "living_room1",
        affordances=("pickup", *SWITCHABLE),
        state=("off",),
    ),
    HandObject("banana", "kitchen_counter0", "kitchen1", state=("ripe",), attributes=("yellow",)),
    HandObject("sock", "bed2", "bedroom0", attributes=("red", "striped", "wool")),
    HandObject("sock", "couch0", "living_room1", attributes=("red", "striped", "wool")),
    HandObject("sock", "bed1", "bedroom1", attributes=("grey", "cotton")),
    HandObject("roast_chicken", "dining_table0", "dining_room0", state=("hot",)),
    HandObject("vegetable_lasagna", "dining_table2", "dining_room2", state=("hot",)),
    HandObject("coat", "wardrobe0", "closet0", relation="inside_of", attributes=("navy", "wool")),
)

# Changes to nodes built from the data, by final id: (expected room, fields to set).
HAND_EDITS: dict[str, tuple[str, dict[str, Any]]] = {
    "potted_plant2": (
        "bathroom1",
        {"attributes": ["thorny"], "description": "a potted rose bush with thorny stems"},
    ),
    "potted_plant5": (
        "living_room2",
        {
            "attributes": ["succulent", "round"],
            "description": "a small round succulent from the desert; water once a month",
        },
    ),
    "potted_plant6": (
        "living_room2",
        {"state": ["dry"], "attributes": ["wilted"], "description": "its soil is dry"},
    ),
    "vase1": ("bathroom4", {"state": ["empty"]}),
    "vase4": ("living_room2", {"state": ["empty"]}),
    "bowl0": ("dining_room2", {"state": ["dirty"]}),
    "bottle0": ("kitchen1", {"state": ["empty"], "description": "an empty water bottle"}),
    "cell_phone0": ("dining_room2", {"state": ["on"]}),
    "sports_ball0": ("playroom0", {"category": "ball"}),
}

# Objects whose parent is set by hand rather than by the nearest-surface rule.
PLACEMENT_OVERRIDES: dict[str, str] = {
    "book0": "bed0",  # SayPlan: "I forgot my book on a bed" (the book lies 1.6 m from it)
}

HOME = Hand(
    name="home",
    building="klickitat",
    description=DESCRIPTION,
    agent_room="lobby0",
    assets=HAND_ASSETS,
    objects=HAND_OBJECTS,
    edits=HAND_EDITS,
    placement_overrides=PLACEMENT_OVERRIDES,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "data_dir",
        nargs="?",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help=f"folder holding {VERIFIED_FILE} (default: {DEFAULT_DATA_DIR})",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output JSON file")
    parser.add_argument(
        "--check", action="store_true", help="only compare with --out; exit 1 if it differs"
    )
    args = parser.parse_args(argv)
    source = args.data_dir / VERIFIED_FILE if args.data_dir.is_dir() else args.data_dir
    try:
        graph = build(read(source), HOME)
    except SceneplanError as exc:
        print(f"build_home: {exc}", file=sys.stderr)
        return 1
    text = format_text(graph)
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'up to date' if same else 'differs from a rebuild'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    kinds = Counter(node["kind"] for node in graph["nodes"])
    summary = ", ".join(f"{kinds[k]} {k}s" for k in ("floor", "room", "pose", "asset", "object"))
    print(f"wrote {args.out}: {summary}, {len(graph['links'])} links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
