"""Scene graphs and tasks from where users have them.

One module per source, each a function `import_(path, **options) -> Imported`
(a graph, the tasks set in it, and an `ImportReport` of what was mapped,
guessed and dropped, by reason):

- `stanford3dsg`: a Stanford 3D Scene Graph file (the Home environment);
- `behavior`: one BEHAVIOR-1K BDDL problem (needs the `behavior` extra, `bddl`);
- `virtualhome`: a VirtualHome scene graph, with a task's goal and program;
- `spark-dsg`: a Hydra / Spark-DSG file (needs the `spark` extra, `spark_dsg`);
- `mp3d`: a Matterport3D house segmentation file (needs the `spark` extra).

Importers are found by name, the built-in ones first, then those other
packages declare in the `sceneplan.importers` entry-point group: the entry
point names a function `(path, **options)` returning an `Imported` or a
`SceneGraph` (docs/importers.md). Each module is imported when its name is
asked for, so a missing optional dependency only stops its own source.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph.model import SceneGraph
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.plugins import GROUPS, Registry

__all__ = ["IMPORTERS", "ImportReport", "Imported", "import_source", "list_importers"]

GROUP = GROUPS["importers"]

IMPORTERS: Registry[Any] = Registry(
    "importer",
    GROUP,
    {
        # a Stanford 3D Scene Graph building: JSON (Klickitat.tiny_verified.json) or .npz
        "stanford3dsg": "sceneplan.importers.stanford3dsg:import_",
        # a BEHAVIOR-1K BDDL problem file (problem0.bddl)
        "behavior": "sceneplan.importers.behavior:import_",
        # a VirtualHome graph JSON ({nodes, edges} or {init_graph, final_graph})
        "virtualhome": "sceneplan.importers.virtualhome:import_",
        # a Spark-DSG (Hydra) scene graph: .json or .sparkdsg (the spark extra)
        "spark-dsg": "sceneplan.importers.spark_dsg:import_",
        # a Matterport3D house segmentation file (.house; the spark extra)
        "mp3d": "sceneplan.importers.mp3d:import_",
        # an ALFWorld game file (game.tw-pddl, or its packed .json.gz)
        "alfworld": "sceneplan.importers.alfworld:import_",
    },
)


def list_importers() -> list[str]:
    """The built-in importers, then those of plugins, each sorted."""
    return IMPORTERS.names()


def import_source(source: str, path: str | Path, **options: Any) -> Imported:
    """Import `path` with the importer called `source`.

    >>> "behavior" in list_importers()
    True
    """
    path = Path(path)
    if not path.exists():
        raise BadInputError(f"no such file: {path}")
    result = IMPORTERS.call(source, path, **options)
    if source in IMPORTERS.builtins:
        imported: Imported = result
        return imported
    if isinstance(result, SceneGraph):  # a plugin's graph alone: all of it mapped
        report = ImportReport(source)
        report.mapped("node", len(result))
        return Imported(result, report)
    if not isinstance(result, Imported):
        raise BackendUnavailableError(
            f"the {GROUP} entry point '{source}' returned {type(result).__name__}, not an "
            "Imported or a SceneGraph (see docs/importers.md)"
        )
    return result
