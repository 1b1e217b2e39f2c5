"""How Stanford 3D Scene Graph classes become nodes, and the hand-made content a build adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CLASSES", "PLACEMENT_SURFACES", "ClassSpec", "Hand", "HandAsset", "HandObject"]

OPENABLE = ("open", "close", "release")
SWITCHABLE = ("turn_on", "turn_off")

# Where objects of a placement group may rest (asset categories).
TABLE_LIKE = frozenset(
    {"dining_table", "desk", "kitchen_counter", "shelf", "tv_stand", "bench", "coffee_table"}
)
PLACEMENT_SURFACES: dict[str, frozenset[str]] = {
    "decor": TABLE_LIKE | {"sink"},  # plants and vases; a sink stands for its vanity top
    "tableware": TABLE_LIKE,
    "handheld": TABLE_LIKE | {"bed", "couch"},
}


@dataclass(frozen=True)
class ClassSpec:
    """How one dataset class becomes a node."""

    stem: str
    kind: str  # "asset" or "object"
    affordances: tuple[str, ...] = ()
    state: tuple[str, ...] = ()
    group: str = ""  # placement group, objects only


CLASSES: dict[str, ClassSpec] = {
    # assets: furniture and appliances that stay where they are
    "bed": ClassSpec("bed", "asset", ("release",)),
    "bench": ClassSpec("bench", "asset", ("release",)),
    "chair": ClassSpec("chair", "asset", ("release",)),
    "couch": ClassSpec("couch", "asset", ("release",)),
    "dining table": ClassSpec("dining_table", "asset", ("release",)),
    "microwave": ClassSpec("microwave", "asset", OPENABLE + SWITCHABLE, ("closed", "off")),
    "oven": ClassSpec("oven", "asset", OPENABLE + SWITCHABLE, ("closed", "off")),
    "refrigerator": ClassSpec("fridge", "asset", OPENABLE, ("closed", "on")),
    "sink": ClassSpec("sink", "asset", ("release", *SWITCHABLE), ("off",)),
    "toilet": ClassSpec("toilet", "asset"),
    # objects: things a robot can pick up
    "book": ClassSpec("book", "object", ("pickup",), group="handheld"),
    "bottle": ClassSpec("bottle", "object", ("pickup",), group="tableware"),
    "bowl": ClassSpec("bowl", "object", ("pickup",), ("clean",), group="tableware"),
    "cell phone": ClassSpec("cell_phone", "object", ("pickup", *SWITCHABLE), ("off",), "handheld"),
    "laptop": ClassSpec("laptop", "object", ("pickup", *SWITCHABLE), ("off",), "handheld"),
    "potted plant": ClassSpec("potted_plant", "object", ("pickup",), group="decor"),
    "sports ball": ClassSpec("sports_ball", "object", ("pickup",), group="handheld"),
    "vase": ClassSpec("vase", "object", ("pickup",), ("full",), group="decor"),
}


def guess_class(name: str, affordances: list[str]) -> ClassSpec:
    """A class the table does not know: an object if the data says it can be picked up."""
    stem = "_".join(name.split())
    if "pick up" in affordances:
        return ClassSpec(stem, "object", ("pickup",), group="handheld")
    return ClassSpec(stem, "asset", ("release",))


@dataclass(frozen=True)
class HandAsset:
    """An asset added by hand: its room, footprint centre (x, y) and size (x, y, z)."""

    stem: str
    room: str
    xy: tuple[float, float]
    size: tuple[float, float, float]
    affordances: tuple[str, ...] = ("release",)
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    description: str | None = None


@dataclass(frozen=True)
class HandObject:
    """An object added by hand, resting on (or inside) a named parent in a named room."""

    stem: str
    parent: str
    room: str
    relation: str = "ontop_of"
    category: str | None = None
    affordances: tuple[str, ...] = ("pickup",)
    state: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    description: str | None = None

    def __post_init__(self) -> None:
        if self.relation not in ("ontop_of", "inside_of"):
            raise ValueError(f"hand object {self.stem}: bad relation {self.relation!r}")


@dataclass(frozen=True)
class Hand:
    """What a build adds to the data: names, the agent's room, and hand-made content.

    `edits` maps a node id to (its expected room, the fields to set);
    `placement_overrides` an object id to the parent set by hand instead of
    the nearest-surface rule.
    """

    name: str = "stanford3dsg"
    building: str = "building"
    description: str = ""
    agent_room: str | None = None
    assets: tuple[HandAsset, ...] = ()
    objects: tuple[HandObject, ...] = ()
    edits: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    placement_overrides: dict[str, str] = field(default_factory=dict)
