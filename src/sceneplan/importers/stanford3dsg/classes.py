"""How Stanford 3D Scene Graph classes become nodes, and the hand-made content a build adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sceneplan.importers.taxonomy import classify, override, slug

__all__ = ["PLACEMENT_SURFACES", "ClassSpec", "Hand", "HandAsset", "HandObject", "class_spec"]

# Where objects of a placement group may rest (asset categories).
TABLE_LIKE = frozenset(
    {"dining_table", "desk", "kitchen_counter", "shelf", "tv_stand", "bench", "coffee_table"}
)
PLACEMENT_SURFACES: dict[str, frozenset[str]] = {
    "decor": TABLE_LIKE | {"sink"},  # plants and vases; a sink stands for its vanity top
    "tableware": TABLE_LIKE,
    "handheld": TABLE_LIKE | {"bed", "couch"},
}
# What this dataset adds to the shared taxonomy (`importers.taxonomy`, which alone says
# movable or fixed): the placement group of movable classes (else "handheld"), ids that
# follow SayPlan's Home (`fridge0`), and start states of the Home's objects.
GROUPS = {
    "decor": "potted_plant plant vase",
    "tableware": """bottle bowl cup wine_glass glass mug plate fork knife spoon cake apple banana
        orange sandwich pizza donut carrot broccoli hot_dog""",
}
_GROUP_OF = {name: group for group, names in GROUPS.items() for name in names.split()}
STEMS = {"refrigerator": "fridge"}
STATES = {"bowl": ("clean",), "vase": ("full",)}


@dataclass(frozen=True)
class ClassSpec:
    """How one dataset class becomes a node."""

    stem: str
    kind: str  # "asset" or "object"
    affordances: tuple[str, ...] = ()
    state: tuple[str, ...] = ()
    group: str = ""  # placement group, objects only


def class_spec(
    name: str, movable: frozenset[str] = frozenset(), fixed: frozenset[str] = frozenset()
) -> tuple[ClassSpec, str]:
    """A dataset class as the shared taxonomy has it, and why when it is not the table's answer.

    `movable` / `fixed` (slugs) are the user's `--movable` / `--fixed`; a class the
    table does not know, or calls structure, is kept fixed (the dataset's own
    "pick up" affordance is not asked: it misses cups and spoons).
    """
    key = slug(name) or "thing"
    stem = STEMS.get(key, key)
    why = ""
    if key in movable:
        category, why = override(key, "object"), f"{key} made movable by --movable"
    elif key in fixed:
        category, why = override(key, "asset"), f"{key} made fixed by --fixed"
    else:
        known = classify(key)
        if known is None or known.kind == "structure":
            category = override(key, "asset")
            why = f"unknown class '{key}' kept fixed (--movable {key} or --fixed {key} to say)"
        else:
            category = known
    if category.kind == "object":
        group = _GROUP_OF.get(key, "handheld")
        state = STATES.get(key, category.state)
        return ClassSpec(stem, "object", category.affordances, state, group), why
    return ClassSpec(stem, "asset", category.affordances, category.state), why


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
