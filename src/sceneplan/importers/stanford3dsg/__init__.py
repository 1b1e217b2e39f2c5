"""Stanford 3D Scene Graph (Armeni et al., ICCV 2019) files to scene graphs.

Reads the JSON of one building (`rooms` with floor, category, centre and
size; `objects` with class, room, centre, size and material), such as
`Klickitat.tiny_verified.json`, the SayPlan Home. Rooms and floors are
mapped; door and stair poses, object placement and the agent's room are
derived (see `build`). `scripts/build_home.py` adds the Home's hand-made
content through a `Hand`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import from_dict
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.stanford3dsg.build import build
from sceneplan.importers.stanford3dsg.classes import Hand, HandAsset, HandObject
from sceneplan.textinput import parse_json, read_bytes

__all__ = ["Hand", "HandAsset", "HandObject", "build", "import_", "read"]


def read(path: str | Path) -> dict[str, Any]:
    """The parsed file, or one clear message if it cannot be read as JSON."""
    path = Path(path)
    try:
        return parse_json(read_bytes(path), str(path))
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInputError(
            f"{path}: not a Stanford 3D Scene Graph file (not JSON: {exc})"
        ) from None


def import_(path: str | Path, *, name: str | None = None, hand: Hand | None = None) -> Imported:
    """A Stanford 3DSG file as a scene graph; `hand` adds hand-made content."""
    path = Path(path)
    stem = name or path.name.split(".")[0].lower()
    hand = hand or Hand(name=stem, building=stem)
    report = ImportReport("stanford3dsg")
    data = build(read(path), hand, report)
    return Imported(from_dict(data, str(path)), report)
