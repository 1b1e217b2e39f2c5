"""Hydra's label spaces, packaged by name, and which of them a file's labels fit.

A Hydra DSG written without its label space holds only numbers
(`semantic_label`); what they mean depends on the segmentation network the run
used. `label_spaces/` holds Hydra's 13 spaces (provenance and licence in its
README). A file's labels "fit" a space when the space names every one of them;
the importer picks a space only when exactly one fits, and otherwise asks for
`--labelspace` (a Hydra-GNN Matterport3D DSG, whose labels are mpcat40's, also
fits four other spaces, and the `object_labels` of one of them, ade20k_mp3d,
better than mpcat40's own: no rule on the numbers alone can choose).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.textinput import parse_yaml

__all__ = ["ALIASES", "fitting", "names", "packaged"]

_SUFFIX = "_label_space.yaml"
ALIASES = {"uhumans2": "uhumans2_apartment", "ade20k": "ade20k_full"}


def _folder() -> Any:
    return resources.files("sceneplan.importers.spark_dsg") / "label_spaces"


def names() -> list[str]:
    """The packaged label spaces by name (`mpcat40`, `uhumans2_apartment`, ...)."""
    return sorted(
        entry.name.removesuffix(_SUFFIX)
        for entry in _folder().iterdir()
        if entry.name.endswith(_SUFFIX)
    )


def packaged(name: str) -> tuple[dict[int, str], frozenset[int]] | None:
    """A packaged space's label -> name and its object labels, or None if there is none."""
    name = ALIASES.get(name, name)
    if name not in names():
        return None
    entry = _folder() / f"{name}{_SUFFIX}"
    data = parse_yaml(entry.read_text(encoding="utf-8"), str(entry))
    labels = {int(row["label"]): str(row["name"]) for row in data["label_names"]}
    return labels, frozenset(int(label) for label in data.get("object_labels") or ())


def fitting(labels: Iterable[int]) -> list[str]:
    """The packaged spaces naming every label, those whose object labels hold them all first."""
    wanted = set(labels)
    out = []
    for name in names():
        space = packaged(name)
        assert space is not None
        named, objects = space
        if wanted <= set(named):
            out.append((not wanted <= objects, name))
    return [name for _, name in sorted(out)]


def resolve(spec: str | Path) -> tuple[dict[int, str], str] | None:
    """A packaged space by name (or alias) and how to say where it came from; None if none."""
    if not isinstance(spec, str) or Path(spec).suffix:
        return None
    space = packaged(spec)
    if space is None:
        return None
    return space[0], f"Hydra's {ALIASES.get(spec, spec)} label space"


def unknown_name(spec: str) -> BadInputError:
    """The error for a --labelspace that is neither a file nor a packaged name."""
    return BadInputError(
        f"--labelspace {spec}: no such file and no packaged label space of that name; give a "
        f"label-space YAML or one of: {', '.join(names())}"
    )
