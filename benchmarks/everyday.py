"""What a user waits on every day: issue 33's table, measured.

Run `python benchmarks/everyday.py [--runs 5] [--suites]`. Each command runs
`--runs` times, interleaved with a bare `python -c pass` so both see the same
machine load; the table shows each command's CPU time (user + system of the
child process, which a busy machine inflates less than wall time) over the bare
interpreter's, median of the runs, beside issue 33's target, and the wall time
for reference. `eval` writes to a fresh store in a temporary folder each run.
`--suites` adds the last two rows by running the oracle on every packaged task
in this process (`benchmarks/suites.py`; minutes): the slowest task, and the
CPU time of the whole catalogue. `--only eval` measures only the rows whose
command holds that text (on a loaded machine, the interleaved runs of one row
against another tree, `PYTHONPATH=<tree>/src`, compare best).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from startup import _LAUNCH, run_once

# (row, argv after `sceneplan`, target: CPU seconds over `python -c pass`)
ROWS: list[tuple[str, list[str], float]] = [
    ("sceneplan --help", ["--help"], 0.15),
    ("sceneplan tasks show planning-simple-01", ["tasks", "show", "planning-simple-01"], 0.3),
    (
        "sceneplan solve office --task planning-simple-01",
        ["solve", "office", "--task", "planning-simple-01"],
        0.5,
    ),
    (
        "sceneplan eval -s office-planning -p oracle",
        ["eval", "-s", "office-planning", "-p", "oracle", "--out", "{store}"],
        5.0,
    ),
]
TASK_TARGET_S = 5.0  # the slowest packaged task, in process
CATALOGUE_TARGET_S = 180.0  # the oracle over every packaged suite


def measure(
    runs: int, rows: list[tuple[str, list[str], float]] = ROWS
) -> dict[str, tuple[float, float]]:
    """Each row's median CPU and wall time over the bare interpreter's, in seconds."""
    bare = [sys.executable, "-c", "pass"]
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    wall: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    bare_cpu: list[float] = []
    bare_wall: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs + 1):  # the first round warms the file cache and .pyc files
            seconds, used = run_once(bare)
            if run:
                bare_wall.append(seconds)
                bare_cpu.append(used)
            for name, args, _ in rows:
                store = str(Path(folder) / f"results{run}.db")
                argv = [*_LAUNCH, *(a.replace("{store}", store) for a in args)]
                seconds, used = run_once(argv)
                if run:
                    wall[name].append(seconds)
                    cpu[name].append(used)
    base_cpu, base_wall = statistics.median(bare_cpu), statistics.median(bare_wall)
    return {
        name: (statistics.median(cpu[name]) - base_cpu, statistics.median(wall[name]) - base_wall)
        for name, _, _ in rows
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument(
        "--suites", action="store_true", help="also run the oracle on every packaged task"
    )
    parser.add_argument("--only", default="", help="only the rows whose command holds this text")
    args = parser.parse_args()
    rows = [row for row in ROWS if args.only in row[0]]
    if not rows:
        parser.error(f"no row's command holds {args.only!r}")
    load = os.getloadavg()[0]
    figures = measure(args.runs, rows)
    print(
        f"CPU (user + sys) over `python -c pass`, median of {args.runs}; "
        f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after\n"
    )
    print("| what | CPU over bare | wall over bare | target | |\n|---|---:|---:|---:|---|")
    for name, _, target in rows:
        cpu, wall = figures[name]
        mark = "ok" if cpu <= target else "over"
        print(f"| `{name}` | +{cpu:.2f} s | +{wall:.2f} s | <= {target:g} s | {mark} |")
    if args.suites:
        from suites import run_all

        times = run_all(timeout=60.0, quiet=True)
        slowest = max(times, key=lambda row: row[0])
        total = sum(t for t, _, _ in times)
        mark = "ok" if slowest[0] <= TASK_TARGET_S else "over"
        print(
            f"| slowest packaged task for the oracle | {slowest[0]:.2f} s ({slowest[1]}) | | "
            f"<= {TASK_TARGET_S:g} s | {mark} |"
        )
        mark = "ok" if total <= CATALOGUE_TARGET_S else "over"
        print(
            f"| oracle over all {len(times)} packaged tasks (one process) | {total:.0f} s | | "
            f"<= {CATALOGUE_TARGET_S:g} s | {mark} |"
        )


if __name__ == "__main__":
    main()
