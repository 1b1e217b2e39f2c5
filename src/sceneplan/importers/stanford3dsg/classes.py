"""How Stanford 3D Scene Graph classes become nodes, and the hand-made content a build adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sceneplan.importers.taxonomy import classify

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


def _known(name: str, stem: str, group: str = "", state: tuple[str, ...] = ()) -> ClassSpec:
    """A class as the importers' shared taxonomy has it (kind, affordances, start state),
    with this dataset's stem, placement group and, where given, start state."""
    category = classify(name)
    if category is None:
        raise ValueError(f"class {name!r} is not in sceneplan.importers.taxonomy")
    return ClassSpec(stem, category.kind, category.affordances, state or category.state, group)


CLASSES: dict[str, ClassSpec] = {
    # assets: furniture and appliances that stay where they are
    "bed": _known("bed", "bed"),
    "bench": _known("bench", "bench"),
    "chair": _known("chair", "chair"),
    "couch": _known("couch", "couch"),
    "dining table": _known("dining table", "dining_table"),
    "microwave": _known("microwave", "microwave"),
    "oven": _known("oven", "oven"),
    "refrigerator": _known("refrigerator", "fridge"),
    "sink": _known("sink", "sink"),
    "toilet": _known("toilet", "toilet"),
    # objects: things a robot can pick up
    "book": _known("book", "book", "handheld"),
    "bottle": _known("bottle", "bottle", "tableware"),
    "bowl": _known("bowl", "bowl", "tableware", ("clean",)),
    "cell phone": _known("cell phone", "cell_phone", "handheld"),
    "laptop": _known("laptop", "laptop", "handheld"),
    "potted plant": _known("potted plant", "potted_plant", "decor"),
    "sports ball": _known("sports ball", "sports_ball", "handheld"),
    "vase": _known("vase", "vase", "decor", ("full",)),
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
