"""Reading a Spark-DSG file with `spark_dsg` itself (the `spark` extra)."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.textinput import check_file, parse_json, read_bytes, shown

__all__ = ["SUFFIXES", "load_dsg", "require_spark_dsg"]

SUFFIXES = (".json", ".sparkdsg", ".bson")


def require_spark_dsg() -> Any:
    """The `spark_dsg` module, or an error naming the extra that brings it."""
    try:
        import spark_dsg
    except ImportError:
        raise BackendUnavailableError(
            "the spark-dsg importer reads files with the spark_dsg package: "
            "pip install 'sceneplan[spark]'"
        ) from None
    return spark_dsg


def check_version(path: Path, library: str) -> None:
    """Refuse a JSON file whose header says a Spark-DSG version newer than the `library`
    installed: spark_dsg reads such a file without a word, and may read it wrong. A file
    without a header is of the format before headers, which spark_dsg reads."""
    try:
        data = parse_json(read_bytes(path), str(path))
    except ValueError:  # not JSON: spark_dsg says why when it reads it
        return
    header = data.get("SPARK_DSG_header") if isinstance(data, dict) else None
    if header is None:
        return
    version = header.get("version") if isinstance(header, dict) else None
    parts = [version.get(k) if isinstance(version, dict) else None for k in _VERSION_KEYS]
    if not all(type(p) is int for p in parts):
        raise BadInputError(
            f"{path}: the Spark-DSG header's version is {shown(version)}, not a version "
            "spark_dsg writes ({'major': 1, 'minor': 1, 'patch': 3})"
        )
    known = tuple(int(p) for p in re.findall(r"\d+", library)[:3])
    if tuple(parts) > known:
        written = ".".join(map(str, parts))
        raise BadInputError(
            f"{path}: written by Spark-DSG {written}, newer than the spark_dsg {library} "
            "installed, which may misread it; upgrade it (pip install -U spark-dsg)"
        )


_VERSION_KEYS = ("major", "minor", "patch")


def load_dsg(path: str | Path) -> tuple[Any, list[str]]:
    """The DynamicSceneGraph in `path` and the warnings spark_dsg printed while reading it.

    Every encoding spark_dsg reads is read (its JSON, old and new, and its
    binary `.sparkdsg`); a file it cannot read is one BadInputError quoting
    its reason.
    """
    path = Path(path)
    dsg = require_spark_dsg()
    if not path.exists():
        raise BadInputError(f"no such file: {path}")
    check_file(path)  # a named pipe or a device is refused, not read until it ends
    if path.suffix.lower() not in SUFFIXES:
        raise BadInputError(
            f"{path}: spark_dsg reads .json, .sparkdsg and .bson files, not "
            f"'{path.suffix or 'no suffix'}' (rename the file if it is one of those)"
        )
    if path.suffix.lower() == ".json":
        check_version(path, dsg.version())
    left_out: list[str] = []
    with _captured_stderr() as printed:
        try:
            graph = dsg.DynamicSceneGraph.load(str(path))
        except (RuntimeError, ValueError, IndexError, TypeError) as exc:
            reason = " ".join(str(exc).split())
            reason = re.sub(r"^\[[^\]]*\.cpp:\d+\]\s*", "", reason)  # the C++ source line
            graph = _without_dangling_edges(dsg, path, left_out)
            if graph is None:
                raise BadInputError(
                    f"{path}: not a Spark-DSG file spark_dsg can read ({reason})"
                ) from None
    warnings = list(
        dict.fromkeys(  # the file read twice (without its dangling edges) warns twice
            re.sub(r"^\[SPARK-DSG\]\s*(\[WARNING\]\s*)?", "", line).strip()
            for line in printed()
            if line.strip()
        )
    )
    if left_out:
        shown = ", ".join(left_out[:4]) + (" ..." if len(left_out) > 4 else "")
        warnings.append(
            f"refused {len(left_out)} edge(s) naming nodes the file does not have ({shown}); "
            "loaded without them"
        )
    return graph, warnings


def _without_dangling_edges(dsg: Any, path: Path, left_out: list[str]) -> Any:
    """The graph of a JSON file whose edges name missing nodes, loaded without those edges.

    Spark-DSG refuses such a file whole (its own earlier test file is one); None
    when the file is not that case (not JSON, or no such edge), so the caller
    reports spark_dsg's reason.
    """
    if path.suffix.lower() != ".json":
        return None
    try:
        data = parse_json(read_bytes(path), str(path))
        ids = {node["id"] for node in data["nodes"]}
        edges = data["edges"]
        if not all(_is_id(e["source"]) and _is_id(e["target"]) for e in edges):
            return None  # an edge that names no node id at all: spark_dsg's reason says so
        kept = [e for e in edges if e["source"] in ids and e["target"] in ids]
    except (ValueError, TypeError, KeyError):  # not that case
        return None
    if len(kept) == len(edges):
        return None
    left_out.extend(
        f"{dsg.NodeSymbol(e['source']).str()} -> {dsg.NodeSymbol(e['target']).str()}"
        for e in edges
        if e["source"] not in ids or e["target"] not in ids
    )
    data["edges"] = kept
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / path.name
        copy.write_text(json.dumps(data), encoding="utf-8")
        try:
            return dsg.DynamicSceneGraph.load(str(copy))
        except (RuntimeError, ValueError, IndexError, TypeError):
            return None


def _is_id(value: object) -> bool:
    """Whether `value` can be a Spark-DSG node id (a 64-bit unsigned integer)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64


class _captured_stderr:
    """Collect what C++ code writes to file descriptors 1 and 2 (spark_dsg's warnings)."""

    def __enter__(self):
        self._file = tempfile.TemporaryFile(mode="w+b")
        self._saved: list[tuple[int, int]] = []
        for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
            try:
                stream.flush()
                self._saved.append((fd, os.dup(fd)))
                os.dup2(self._file.fileno(), fd)
            except (OSError, ValueError, AttributeError):  # no such descriptor: let it through
                continue
        return self.lines

    def lines(self) -> list[str]:
        return self._lines

    def __exit__(self, *exc: object) -> None:
        for fd, saved in reversed(self._saved):
            os.dup2(saved, fd)
            os.close(saved)
        self._file.seek(0)
        self._lines = self._file.read().decode("utf-8", "replace").splitlines()
        self._file.close()
