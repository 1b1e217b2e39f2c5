"""Household categories: what can be picked up, what holds things, what is building.

Scans and robots label what they see with a class name (`chair`, `books`,
`kitchen#counter`, `Fridge`) but never say whether a robot can move it. This
table says so, for every importer of such graphs (Stanford 3DSG, Spark-DSG, Matterport3D):

- **movable objects** (`kind` "object"): small things a hand can take (a cup,
  book, bottle, laptop, lamp, pillow, towel), affordance `pickup`;
- **fixed assets** (`kind` "asset"): furniture and appliances that hold
  things (a table, sofa, fridge, bed: `release`, openable ones `open`/`close`,
  appliances `turn_on`/`turn_off`, with their start state);
- **structure** (`kind` "structure"): parts of the building (walls, floors,
  doors, curtains, pictures on the wall) and people: no node;
- anything else is unknown: `classify` returns None and the importer keeps it
  fixed, counted with the `--movable` / `--fixed` hint. Generic labels
  ("objects", "misc") are unknown on purpose: what they cover may be a cup or a
  radiator.

>>> classify("Books").kind, classify("kitchen#counter").kind, classify("wall").kind
('object', 'asset', 'structure')
>>> classify("microwave").affordances
('open', 'close', 'release', 'turn_on', 'turn_off')
>>> classify("glorp") is None
True
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CATEGORIES",
    "OPENABLE",
    "OPENS",
    "SWITCHABLE",
    "Category",
    "Supports",
    "classify",
    "nearest",
    "normalize",
    "override",
    "slug",
]

# The affordances every importer gives a thing that opens (a cabinet, ALFWorld's fridge, a
# BEHAVIOR `openable`, a VirtualHome CAN_OPEN) and one that switches on and off.
OPENS = ("open", "close")
SWITCHABLE = ("turn_on", "turn_off")
OPENABLE = (*OPENS, "release")  # an openable piece of furniture also takes things


@dataclass(frozen=True)
class Category:
    """How things of one class become nodes."""

    name: str  # the canonical category, snake_case (`coffee_table`)
    kind: str  # "object", "asset" or "structure"
    affordances: tuple[str, ...] = ()
    state: tuple[str, ...] = ()


def _objects(names: str, affordances: tuple[str, ...] = (), state: tuple[str, ...] = ()):
    return {n: Category(n, "object", ("pickup", *affordances), state) for n in names.split()}


def _assets(names: str, affordances: tuple[str, ...] = ("release",), state=()):
    return {n: Category(n, "asset", affordances, state) for n in names.split()}


def _structure(names: str):
    return {n: Category(n, "structure") for n in names.split()}


# The one table every importer asks (Stanford 3DSG, Spark-DSG, Matterport3D): a class it
# calls movable is movable whatever a dataset's own affordances say; a fixture is never
# movable; a class it does not know is kept fixed and counted with the --movable / --fixed
# hint. To extend it, add a name to the line of its kind (words joined by `_`).
CATEGORIES: dict[str, Category] = {
    # things a hand can take
    **_objects(
        """apple banana orange cake sandwich pizza donut carrot broccoli hot_dog basket bag
        handbag suitcase backpack umbrella tie book bottle bowl box can cup wine_glass glass mug
        plate fork knife spoon scissors cushion pillow blanket towel bathrobe clothes shoe
        plant potted_plant plant_pot vase keys remote mouse keyboard toy teddy_bear ball
        sports_ball frisbee kite baseball_bat baseball_glove skateboard surfboard tennis_racket
        toothbrush hair_drier tissue_paper toilet_paper tabletop_trinket trinket candle clock
        soap tray"""
    ),
    **_objects("laptop phone cell_phone speaker lamp", affordances=SWITCHABLE, state=("off",)),
    # furniture that holds things
    **_assets(
        """table desk counter countertop kitchen_counter shelf shelving kitchen_shelf bookshelf
        nightstand bedside_table coffee_table dining_table side_table tv_stand stand bench bed
        couch sofa chair armchair sofa_chair stool seating furniture bar ottoman ledge"""
    ),
    **_assets(
        "cabinet bath_cabinet kitchen_cabinet chest_of_drawers drawer dresser wardrobe closet "
        "cupboard",
        affordances=OPENABLE,
        state=("closed",),
    ),
    **_assets("trashcan trash_can bin", affordances=("release", "receptacle")),
    **_assets("sink", affordances=("release", *SWITCHABLE), state=("off",)),  # its tap
    # appliances
    **_assets("fridge refrigerator", affordances=OPENABLE, state=("closed", "on")),
    **_assets(
        "microwave oven dishwasher washing_machine",
        affordances=OPENABLE + SWITCHABLE,
        state=("closed", "off"),
    ),
    **_assets(
        """tv television tv_monitor monitor screen computer appliance light lighting fan
        toaster""",
        affordances=SWITCHABLE,
        state=("off",),
    ),
    # fixtures and large things: never movable, hold nothing
    **_assets(
        """toilet bathtub shower fireplace piano radiator heater water_heater boiler faucet tap
        gym_equipment bicycle motorcycle boat car""",
        affordances=(),
    ),
    # parts of the building, and people: no node
    **_structure(
        """wall floor ceiling door doorframe window curtain blinds rug carpet mirror picture
        painting wall_frame board_panel room_divider shower_wall shower_floor bedpost stairs
        railing column beam void delete remove button light_switch vent trees wall_decoration
        human person"""
    ),
}

# Other spellings the sources use, -> the table's name.
_ALIASES = {
    "books": "book",
    "plants": "plant",
    "screens": "screen",
    "tv_screen": "tv",
    "wineglass": "wine_glass",
    "cellphone": "cell_phone",
}


def normalize(name: str) -> str:
    """A class name as the table writes it: lower case, words joined by `_`.

    >>> normalize("Kitchen#Counter"), normalize("bedside table")
    ('kitchen_counter', 'bedside_table')
    """
    return re.sub(r"[\s#\-/]+", "_", name.strip().lower()).strip("_")


def classify(name: str) -> Category | None:
    """The category of a class name, or None when the table does not know it."""
    key = normalize(name)
    key = _ALIASES.get(key, key)
    if key in CATEGORIES:
        return CATEGORIES[key]
    if key.endswith("s") and key[:-1] in CATEGORIES:  # plural: "towels"
        return CATEGORIES[key[:-1]]
    return None


def override(name: str, kind: str) -> Category:
    """A category forced movable (`kind` "object") or fixed ("asset") by the user."""
    known = classify(name)
    key = known.name if known else normalize(name) or "thing"
    if known is not None and known.kind == kind:
        return known
    if kind == "object":
        switches = tuple(a for a in known.affordances if a in SWITCHABLE) if known else ()
        return Category(key, "object", ("pickup", *switches), ("off",) if switches else ())
    return Category(key, "asset", ("release",))


def slug(text: str) -> str:
    """A plan-safe ASCII id stem: transliterated, never empty for a name with letters.

    Goals, plans and PDDL take ASCII names, so other scripts are transliterated
    (with `anyascii`, of the `spark` extra; without it accents are dropped and
    other letters become their code points).

    >>> slug("Wohnzimmer für Gäste"), slug("O(11)")
    ('wohnzimmer_fur_gaste', 'o_11')
    """
    text = unicodedata.normalize("NFC", text)
    try:
        from anyascii import anyascii

        text = anyascii(text)
    except ImportError:
        text = "".join(
            ch
            if ch.isascii()
            else unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            or (f"_u{ord(ch):x}_" if ch.isalnum() else " ")
            for ch in text
        )
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def nearest(
    position: Sequence[float] | None,
    candidates: Iterable[tuple[str, Sequence[float] | None]],
) -> str | None:
    """The candidate id closest to `position` (ties: the smaller id), or None.

    Candidates without a position count as infinitely far but are still
    chosen when no candidate has one.
    """
    best: tuple[float, str] | None = None
    for node_id, where in candidates:
        if position is None or where is None:
            distance = math.inf
        else:
            distance = math.dist(position[:3], where[:3])
        if best is None or (distance, node_id) < best:
            best = (distance, node_id)
    return best[1] if best else None


class Supports:
    """Where movable objects rest: on (or, if it opens, in) the nearest asset of their room
    that holds things, else on a floor asset derived for the room (made once, kept in
    `derived`).

    >>> s = Supports(lambda stem: stem)
    >>> s.add("kitchen", "table", [0, 0, 0], ("release",))
    >>> s.add("kitchen", "fridge", [5, 0, 0], ("open", "close", "release"))
    >>> s.place("kitchen", [4, 0, 1]), s.place("hall", [9, 9, 0])[:2]
    (('fridge', 'inside_of', 'on the nearest asset of its room'), ('floor_hall', 'ontop_of'))
    """

    def __init__(self, unique: Callable[[str], str]):
        self._unique = unique  # makes an id unique among the graph's
        self._holders: dict[str, list[tuple[str, Sequence[float] | None]]] = {}
        self._opens: set[str] = set()
        self._floors: dict[str, str] = {}
        self.derived: list[dict[str, Any]] = []

    def add(
        self,
        room: str,
        asset: str,
        position: Sequence[float] | None,
        affordances: Iterable[str],
    ) -> None:
        """An asset of `room`; it holds things if it affords `release`."""
        affordances = tuple(affordances)
        if "release" in affordances:
            self._holders.setdefault(room, []).append((asset, position))
        if "open" in affordances:
            self._opens.add(asset)

    def relation(self, asset: str) -> str:
        """How things rest on this asset: inside what opens, on top of the rest."""
        return "inside_of" if asset in self._opens else "ontop_of"

    def place(self, room: str, position: Sequence[float] | None) -> tuple[str, str, str]:
        """(parent, relation, how) for a movable object of `room` at `position`."""
        holders = self._holders.get(room)
        if holders:
            parent = nearest(position, holders) or holders[0][0]
            return parent, self.relation(parent), "on the nearest asset of its room"
        if room not in self._floors:
            from sceneplan.graph.io import native_node

            self._floors[room] = self._unique(f"floor_{room}")
            self.derived.append(
                native_node(
                    id=self._floors[room],
                    kind="asset",
                    parent=room,
                    category="floor",
                    affordances=["release"],
                    description=f"the floor of {room} (derived: no asset there)",
                )
            )
        return self._floors[room], "ontop_of", "on the floor of its room (no asset)"
