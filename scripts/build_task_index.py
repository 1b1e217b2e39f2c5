"""Write `datasets/tasks/index.json`: which packaged task file holds which suites,
environments and task ids, so that a lookup (`tasks show ID`, `solve --task ID`,
`load_suite(NAME)`) reads only the file it needs.

Every `*.yaml` in `src/sceneplan/datasets/tasks/` is indexed, so a new suite needs
nothing but this command (the suites' build scripts run it after writing their
files). Deterministic: the same task files give the same bytes.

Usage: ``python scripts/build_task_index.py [--check]`` (`--check`: exit 1 if the
index is out of date, write nothing).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sceneplan.datasets.tasks import INDEX_FILE, build_index, index_text

INDEX = Path(__file__).resolve().parents[1] / "src/sceneplan/datasets/tasks" / INDEX_FILE


def refresh(check: bool) -> int:
    """Write the index (or, with `check`, compare it); 1 when `check` finds it out of date."""
    text = index_text(build_index())
    if check:
        if not INDEX.exists() or INDEX.read_text(encoding="utf-8") != text:
            rerun = "run python scripts/build_task_index.py"
            print(f"{INDEX} is out of date; {rerun}", file=sys.stderr)
            return 1
        return 0
    if not INDEX.exists() or INDEX.read_text(encoding="utf-8") != text:
        INDEX.write_text(text, encoding="utf-8")
        print(f"wrote {INDEX}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    return refresh(parser.parse_args().check)


if __name__ == "__main__":
    sys.exit(main())
