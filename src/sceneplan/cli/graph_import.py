"""`sceneplan graph import`: a scene graph (and its tasks) from another format, with its report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
import yaml

from sceneplan.cli.paths import check_output_file, same_file
from sceneplan.errors import BadInputError
from sceneplan.textinput import write_files

# The options only some importers take, by importer.
SOURCE_OPTIONS = {
    "labelspace": ("spark-dsg",),
    "movable": ("stanford3dsg", "spark-dsg", "mp3d"),
    "fixed": ("stanford3dsg", "spark-dsg", "mp3d"),
}


def run(
    source: str,
    src: Path,
    out: Path,
    tasks_out: Path | None,
    as_json: bool,
    options: dict[str, Any] | None = None,
    force: bool = False,
) -> None:
    """Import `src` with the importer `source`, write the graph (and tasks), print the report.

    Both outputs are checked before the import, and the tasks are made before
    either file is written: a refusal writes nothing.
    """
    from sceneplan.graph.io import format_text, to_dict
    from sceneplan.importers import import_source

    options = options or {}
    for option in options:
        if source not in SOURCE_OPTIONS.get(option, ()):
            takers = " and ".join(SOURCE_OPTIONS.get(option, ()))
            raise BadInputError(
                f"--{option} is an option of the {takers} importer(s), not of {source}; "
                "leave it out"
            )
    _check_outputs(src, out, tasks_out, force)
    imported = import_source(source, src, **options)
    tasks_text = None
    if tasks_out is not None:
        if not imported.tasks:
            raise BadInputError(f"the {source} importer found no task in {src}; leave out --tasks")
        data = [task.to_dict(defaults=False) for task in imported.tasks]
        for item, task in zip(data, imported.tasks, strict=True):
            item["environment"] = str(out)
            item.setdefault("suite", task.suite)
        tasks_text = yaml.safe_dump(data, sort_keys=False)
    outputs = {out: format_text(to_dict(imported.graph))}
    if tasks_out is not None and tasks_text is not None:
        outputs[tasks_out] = tasks_text
    write_files(outputs)  # both or neither, and an old OUT whole if the disk refuses
    counts = imported.graph.counts()
    if as_json:
        summary = {
            "graph": str(out),
            "nodes": len(imported.graph),
            "tasks": len(imported.tasks),
            "report": imported.report.to_dict(),
        }
        typer.echo(json.dumps(summary, indent=2))
        return
    kinds = ", ".join(f"{counts[k]} {k}" for k in ("room", "asset", "object", "pose") if counts[k])
    typer.echo(f"wrote {out}: {len(imported.graph)} nodes ({kinds})")
    if tasks_out is not None:
        typer.echo(f"wrote {tasks_out}: {len(imported.tasks)} task(s)")
    typer.echo(imported.report.text())


def _check_outputs(src: Path, out: Path, tasks_out: Path | None, force: bool) -> None:
    """OUT and --tasks: writable, new unless `force`, and neither the input nor each other."""
    named = [("OUT", out), *([("--tasks", tasks_out)] if tasks_out is not None else [])]
    for label, path in named:
        if same_file(path, src):
            raise BadInputError(
                f"{label} {path} is the file being imported; give another name for the output"
            )
    if tasks_out is not None and same_file(out, tasks_out):
        raise BadInputError(f"OUT and --tasks are the same file ({out}); give two names")
    check_output_file(out, "the graph file", force=force)
    if tasks_out is not None:
        check_output_file(tasks_out, "the task file", force=force)
    for label, path in named:  # before the import: a missing folder costs nothing
        if not path.parent.is_dir():
            raise BadInputError(
                f"{label} {path}: the folder {path.parent} does not exist (create it first)"
            )
