"""Spark-DSG (Hydra) scene graphs as sceneplan scenes, read with `spark_dsg` itself.

Hydra saves its graph with Spark-DSG: JSON (every encoding `spark_dsg`
reads, the 1.0.0 one included) or binary `.sparkdsg`. The `spark` extra
brings `spark_dsg`. Rules (docs/importers.md counts each in the report):

- buildings -> the building (and one floor); rooms -> rooms, named by their
  `name` (any script) or their labelspace class and symbol index
  (`kitchen0`), else `room<i>`; places (3D, and 2D: partition 1) -> poses,
  in the room that the fewest place hops lead to; places no path leads from
  to a room are dropped and counted;
- links: place-place, place-room and room-room edges; edges naming nodes the
  file lacks are left out (noted); pieces no edge joins are linked where the
  file's own place edges reach (`pieces`);
- objects -> a class through the file's labelspace (`semantic_label`), else
  through `--labelspace` (Hydra's label spaces are packaged by name), else
  through the one packaged space the labels fit (`labelspaces`);
  the shared taxonomy (`importers.taxonomy`) says movable object, fixed
  asset or part of the building; a movable object rests on the asset its
  edge names, else on (or in, if it opens) the nearest asset of its room;
- the newest agent node (largest timestamp) -> the robot, at its place.

`update(graph, path)` brings an imported scene up to a newer DSG of the same
run, ids stable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.graph.io import from_dict, to_dict
from sceneplan.graph.model import SceneGraph
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.spark_dsg import labelspaces
from sceneplan.importers.spark_dsg.load import load_dsg, require_spark_dsg
from sceneplan.importers.spark_dsg.mapping import Options, convert_nodes, kept_ids
from sceneplan.importers.taxonomy import slug
from sceneplan.textinput import read_yaml

__all__ = ["HYDRA_LABELSPACES", "convert", "import_", "read_labelspace", "update"]

# Hydra's label spaces packaged by name (label_spaces/, see its README), for a file that
# carries none of its own.
HYDRA_LABELSPACES: tuple[str, ...] = tuple(labelspaces.names())


def import_(
    path: str | Path,
    *,
    name: str | None = None,
    labelspace: str | Path | None = None,
    movable: tuple[str, ...] | list[str] = (),
    fixed: tuple[str, ...] | list[str] = (),
) -> Imported:
    """A Spark-DSG file as a scene graph, with the report of every node of the file.

    `labelspace` names the object classes when the file has none: a file
    (Hydra's label-space YAML with `label_names`, or a mapping label -> name)
    or a packaged name (`mpcat40`, `uhumans2`, ...: `HYDRA_LABELSPACES`).
    Without it, a file with no label space of its own is read with the one
    packaged space its labels fit, said in the report's first line, or refused
    naming the option. `movable` / `fixed` force classes to objects or assets.
    """
    path = Path(path)
    graph, warnings = load_dsg(path)
    return convert(
        graph,
        name=name or path.stem,
        source=str(path),
        labelspace=labelspace,
        movable=movable,
        fixed=fixed,
        warnings=warnings,
    )


def convert(
    graph: Any,
    *,
    name: str,
    source: str = "<dsg>",
    labelspace: str | Path | None = None,
    movable: tuple[str, ...] | list[str] = (),
    fixed: tuple[str, ...] | list[str] = (),
    warnings: list[str] | None = None,
    keep_ids: dict[str, str] | None = None,
) -> Imported:
    """A loaded `spark_dsg.DynamicSceneGraph` as a scene graph."""
    require_spark_dsg()
    labels, where = read_labelspace(labelspace)
    both = {slug(c) for c in movable} & {slug(c) for c in fixed}
    if both:
        raise BadInputError(
            f"class {sorted(both)[0]} is given both --movable and --fixed; keep one of them"
        )
    options = Options(
        object_labels=labels,
        object_labels_from=where,
        movable=frozenset(slug(c) for c in movable),
        fixed=frozenset(slug(c) for c in fixed),
        keep_ids=keep_ids or {},
    )
    report = ImportReport("spark-dsg")
    report.notes.extend(f"spark_dsg: {w}" for w in warnings or ())
    nodes, links = convert_nodes(graph, report, options)
    if not any(n["kind"] == "room" for n in nodes):
        raise BadInputError(
            f"{source}: the Spark-DSG graph has no room nodes (layer 4); sceneplan plans over "
            "rooms: run Hydra's room detection, or add rooms"
        )
    total = graph.num_nodes()
    counted = sum(report.counts().values())
    if counted != total:  # a rule above forgot a node: a bug, said plainly
        raise AssertionError(f"spark-dsg report counts {counted} of the file's {total} nodes")
    scene = from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": name,
            "description": f"Imported from the Spark-DSG file {Path(source).name} ({total} nodes)",
            "nodes": nodes,
            "links": [list(link) for link in links],
        },
        source,
    )
    return Imported(scene, report, extra={"file_nodes": total})


def read_labelspace(spec: str | Path | None) -> tuple[dict[int, str] | None, str]:
    """Label -> class name from a packaged name or a file, and where it came from.

    None (no --labelspace): no labels; the mapping picks a packaged space only if
    the file's labels fit exactly one, else asks for the option.
    """
    if spec is None:
        return None, ""
    packaged = labelspaces.resolve(spec)
    if packaged is not None:
        return packaged
    path = Path(spec)
    if isinstance(spec, str) and not path.suffix and not path.exists():
        raise labelspaces.unknown_name(spec)
    try:
        data = read_yaml(path, "--labelspace")
    except BadInputError as exc:
        known = ", ".join(HYDRA_LABELSPACES)
        raise BadInputError(f"{exc}; give a label-space file or one of: {known}") from None
    rows = data.get("label_names") if isinstance(data, dict) else None
    try:
        if rows is not None:  # Hydra's own format
            labels = {int(row["label"]): str(row["name"]) for row in rows}
        elif isinstance(data, dict):
            labels = {int(k): str(v) for k, v in data.items()}
        else:
            raise TypeError
    except (TypeError, KeyError, ValueError):
        raise BadInputError(
            f"--labelspace {path}: expected Hydra's `label_names: [{{label: 1, name: cup}}]` "
            "or a mapping `1: cup`"
        ) from None
    return labels, str(path)


def _kept(stale: list[dict[str, Any]], new_ids: set[str]) -> list[dict[str, Any]]:
    """The nodes of the scene the newer file no longer has, every one: a node whose parent
    went too is kept with that parent (an object in a room Hydra forgot), so none is lost."""
    kept_ids: set[str] = set()
    grew = True
    while grew:  # parents first: a node is kept once its parent is in the graph
        before = len(kept_ids)
        for node in stale:
            parent = node.get("parent")
            if parent is None or parent in new_ids or parent in kept_ids:
                kept_ids.add(node["id"])
        grew = len(kept_ids) > before
    return [n for n in stale if n["id"] in kept_ids]


def update(
    scene: SceneGraph,
    path: str | Path,
    *,
    labelspace: str | Path | None = None,
    movable: tuple[str, ...] | list[str] = (),
    fixed: tuple[str, ...] | list[str] = (),
) -> Imported:
    """The scene brought up to a newer DSG of the same run: ids stay, the newer file wins.

    New rooms, places and objects join; an object Hydra moved moves; the
    robot's pose follows. A node the newer file no longer has stays (Hydra
    forgets what it stops seeing; the robot's memory keeps it), counted in the
    notes. State the scene has gained (a door opened, an object held) is kept
    for nodes whose place did not change.
    """
    path = Path(path)
    dsg_graph, warnings = load_dsg(path)
    old = to_dict(scene)
    fresh = convert(
        dsg_graph,
        name=scene.name,
        source=str(path),
        labelspace=labelspace,
        movable=movable,
        fixed=fixed,
        warnings=warnings,
        keep_ids=kept_ids(old["nodes"]),
    )
    new = to_dict(fresh.graph)
    new_ids = {n["id"] for n in new["nodes"]}
    before = {n["id"]: n for n in old["nodes"]}
    merged = []
    for node in new["nodes"]:
        prior = before.get(node["id"])
        if prior is not None and prior.get("parent") == node.get("parent"):
            for key in ("state", "relation"):
                if key in prior:
                    node[key] = prior[key]
        merged.append(node)
    stale = [n for n in old["nodes"] if n["id"] not in new_ids]
    kept = _kept(stale, new_ids)
    merged += kept
    if kept:
        fresh.report.notes.append(
            f"{len(kept)} node(s) of the scene the newer file no longer has are kept: "
            + ", ".join(n["id"] for n in kept[:8])
            + (" ..." if len(kept) > 8 else "")
        )
    links = {tuple(link) for link in new["links"]}
    names = {n["id"] for n in merged}
    links |= {tuple(link) for link in old["links"] if set(link) <= names}
    new["nodes"] = merged
    new["links"] = [list(link) for link in sorted(links)]
    new["description"] = old.get("description", new.get("description", ""))
    graph = from_dict(new, str(path))
    return Imported(graph, fresh.report, extra=fresh.extra)
