"""Stanford 3D Scene Graph (Armeni et al., ICCV 2019) files to scene graphs.

Reads one building: the JSON conversion (`rooms` with floor, category, centre
and size; `objects` with class, room, centre, size and material), such as
`Klickitat.tiny_verified.json`, the SayPlan Home, or the dataset's own
`3DSceneGraph_NAME.npz` (the same records, read without running code from
the file: `npz`). What real files get wrong is repaired and counted (`repair`). Rooms and floors are
mapped; door and stair poses, object placement and the agent's room are
derived (see `build`). `scripts/build_home.py` adds the Home's hand-made
content through a `Hand`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import from_dict
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.stanford3dsg.build import build
from sceneplan.importers.stanford3dsg.classes import Hand, HandAsset, HandObject
from sceneplan.importers.stanford3dsg.npz import read_npz
from sceneplan.importers.taxonomy import slug
from sceneplan.textinput import read_json

__all__ = ["Hand", "HandAsset", "HandObject", "build", "import_", "read"]


def read(path: str | Path) -> dict[str, Any]:
    """The parsed file (JSON, or the dataset's .npz), or one clear message if it cannot be read."""
    path = Path(path)
    if path.suffix.lower() == ".npz":
        return read_npz(path)
    return read_json(path, "the Stanford 3D Scene Graph file")


def import_(
    path: str | Path,
    *,
    name: str | None = None,
    hand: Hand | None = None,
    movable: tuple[str, ...] | list[str] = (),
    fixed: tuple[str, ...] | list[str] = (),
) -> Imported:
    """A Stanford 3DSG file as a scene graph; `hand` adds hand-made content.

    `movable` / `fixed` force classes to objects or assets (the shared taxonomy
    decides the rest).
    """
    path = Path(path)
    stem = name or _building_name(path)
    hand = hand or Hand(name=stem, building=stem)
    both = {slug(c) for c in movable} & {slug(c) for c in fixed}
    if both:
        raise BadInputError(
            f"class {sorted(both)[0]} is given both --movable and --fixed; keep one of them"
        )
    report = ImportReport("stanford3dsg")
    data = build(
        read(path),
        hand,
        report,
        movable=frozenset(slug(c) for c in movable),
        fixed=frozenset(slug(c) for c in fixed),
    )
    return Imported(from_dict(data, str(path)), report)


def _building_name(path: Path) -> str:
    """`Allensville` of `Allensville.tiny_verified.json` and of `3DSceneGraph_Allensville.npz`."""
    stem = path.name.split(".")[0]
    return stem.removeprefix("3DSceneGraph_").lower() or "building"
