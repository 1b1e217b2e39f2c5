"""Write the package data's indexes: `datasets/tasks/index.json` (which packaged task file
holds which suites, environments and task ids, and where each task's lines are) and
`datasets/bundles/index.json` (where each bundled environment is in its bundle), so that
a lookup (`tasks show ID`, `solve --task ID`, `load_suite(NAME)`, an environment by name)
reads only what it needs.

Every `*.yaml` in `src/sceneplan/datasets/tasks/` and every bundle in
`src/sceneplan/datasets/bundles/` is indexed, so a new suite needs nothing but this
command (the suites' build scripts run it after writing their files). Deterministic:
the same files give the same bytes.

Usage: ``python scripts/build_task_index.py [--check]`` (`--check`: exit 1 if an
index is out of date, write nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sceneplan.datasets import registry
from sceneplan.datasets.packaged_index import INDEX_FILE
from sceneplan.datasets.tasks import build_index, index_text

DATA = Path(__file__).resolve().parents[1] / "src/sceneplan/datasets"
INDEX = DATA / "tasks" / INDEX_FILE
BUNDLE_INDEX = DATA / "bundles" / INDEX_FILE


def bundle_index_text() -> str:
    """The bundles' `index.json` text: one line per bundle."""
    index = registry.build_bundle_index()
    head = {k: v for k, v in index.items() if k != "bundles"}
    lines = ",\n  ".join(json.dumps(entry, ensure_ascii=False) for entry in index["bundles"])
    return json.dumps(head)[:-1] + f', "bundles": [\n  {lines}\n]}}\n'


def refresh(check: bool) -> int:
    """Write the indexes (or, with `check`, compare them); 1 when `check` finds one out of
    date."""
    stale = 0
    for path, text in ((INDEX, index_text(build_index())), (BUNDLE_INDEX, bundle_index_text())):
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        if check:
            print(f"{path} is out of date; run python scripts/build_task_index.py", file=sys.stderr)
            stale = 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    return refresh(parser.parse_args().check)


if __name__ == "__main__":
    sys.exit(main())
