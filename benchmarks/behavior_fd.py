"""BEHAVIOR-1K against Fast Downward, whole processes side by side (issue 43).

Run `python benchmarks/behavior_fd.py [--tasks 20] [--runs 3] [--optimal]`.
A fixed sample of behavior-1k tasks (every k-th, k = tasks in the suite /
--tasks): each task's problem is exported once (`sceneplan pddl ENV --task
ID`, the whole graph); then, --runs times, interleaved, `sceneplan solve ENV
--task ID --json` (as a user types it: its default timeout, 30 s, is ample
here) as one process against Fast Downward's lama-first on that
PDDL (translate and search, the `up-fast-downward` wheel of the `symbolic`
extra, through benchmarks/pddl_export.py). CPU is user + system of the
processes, the median of the runs; the table prints the ratio (ours / FD) per
task and the median ratio, with the plans' lengths, and with --optimal the
length of an optimal plan (FD's A* with h_max, once, where it finishes in
its limit: LM-cut does not take the domain's conditional effects). Our
process runs with its bytecode cached, as an installed package's is (and
FD's wheel's); FD out of time counts its time limit as its CPU, a lower
bound. Target: median ratio at most 0.5, every task solved, no plan longer
than FD's. The load average is printed before and after: the machine
is shared, so only ratios from the same run mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

from pddl_export import FD_LIMIT_S, fast_downward_script, run_fast_downward  # benchmarks/ first
from startup import _LAUNCH as LAUNCH
from startup import installed_env

from sceneplan.datasets.tasks import load_suite

OPTIMAL = "astar(hmax())"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours(env: str, task_id: str) -> tuple[float, int | None]:
    """CPU seconds of `sceneplan solve` as a process, and its plan's length (None: no plan)."""
    before = children_cpu()
    done = subprocess.run(
        [*LAUNCH, "solve", env, "--task", task_id, "--json"],
        capture_output=True,
        text=True,
        check=False,
        env=installed_env(),
    )
    cpu = children_cpu() - before
    try:
        data = json.loads(done.stdout)
    except ValueError:
        return cpu, None
    result = data.get("result", data)
    return cpu, len(result["plan"]) if result.get("status") == "plan" else None


def fd(script: Path, folder: Path, config: str) -> tuple[float, int | None]:
    """CPU seconds of Fast Downward's translate and search, and its plan's length (None: no
    plan). Out of time, its CPU is counted as the time limit (that of the processes killed
    is lost)."""
    translate = run_fast_downward(script, folder)
    if translate.failure:
        return _spent(translate), None
    search = run_fast_downward(script, folder, config)
    steps = None
    if search.plan_text is not None:
        steps = sum(1 for line in search.plan_text.splitlines() if line.startswith("("))
    return translate.cpu + _spent(search), steps


def _spent(run) -> float:
    return max(run.cpu, FD_LIMIT_S) if run.failure.startswith("time limit") else run.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20, help="tasks in the sample")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs of each")
    parser.add_argument("--optimal", action="store_true", help="also FD's A* with LM-cut, once")
    args = parser.parse_args()
    script = fast_downward_script()
    if script is None:
        raise SystemExit("Fast Downward is not installed: pip install -e '.[symbolic]'")
    from pddl_export import CONFIGS

    CONFIGS.setdefault("optimal", ["--search", OPTIMAL])
    suite = load_suite("behavior-1k")
    step = max(1, len(suite) // args.tasks)
    sample = suite[::step][: args.tasks]
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for task in sample:
            folder = Path(tmp) / task.id
            subprocess.run(
                [*LAUNCH, "pddl", task.environment, "--task", task.id, "--out", str(folder)],
                capture_output=True,
                check=True,
            )
            mine, theirs = [], []
            for _ in range(args.runs):
                cpu, length = ours(task.environment, task.id)
                mine.append(cpu)
                fd_cpu, fd_length = fd(script, folder, "lama-first")
                theirs.append(fd_cpu)
            best = fd(script, folder, "optimal")[1] if args.optimal else None
            row = (task.id, statistics.median(mine), statistics.median(theirs), length)
            rows.append((*row, fd_length, best))
            print(_line(rows[-1]), flush=True)
    ratios = [r[1] / r[2] for r in rows if r[2] > 0]
    solved = sum(r[3] is not None for r in rows)
    longer = [r[0] for r in rows if r[3] is not None and r[4] is not None and r[3] > r[4]]
    if args.optimal:
        print(_against_optimal(rows))
    print(
        f"\n{len(rows)} tasks, {args.runs} interleaved runs each; load average {load:.2f} "
        f"before, {os.getloadavg()[0]:.2f} after\nmedian CPU ratio ours / FD lama-first: "
        f"{statistics.median(ratios):.2f} (target <= 0.5); solved {solved}/{len(rows)} "
        f"(FD {sum(r[4] is not None for r in rows)}); longer than FD's: {longer or 'none'}"
    )


def _against_optimal(rows: list[tuple]) -> str:
    """Plan length over the optimum's, ours and FD's, on the tasks where FD's A* finished."""
    known = [r for r in rows if r[5]]
    ours = [r[3] / r[5] for r in known if r[3] is not None]
    theirs = [r[4] / r[5] for r in known if r[4] is not None]
    return (
        f"plan length / optimal on the {len(known)} tasks FD's A* finished: ours mean "
        f"{statistics.mean(ours):.3f}, worst {max(ours):.2f}, optimal on "
        f"{sum(x == 1 for x in ours)}; FD lama-first mean {statistics.mean(theirs):.3f}, "
        f"worst {max(theirs):.2f}, optimal on {sum(x == 1 for x in theirs)}"
    )


def _line(row: tuple) -> str:
    task, mine, theirs, length, fd_length, best = row
    optimal = "" if best is None else f"  optimal {best}"
    return (
        f"{task:58} ours/FD CPU {mine / theirs if theirs else float('inf'):5.2f}  "
        f"plan {length} vs FD {fd_length}{optimal}"
    )


if __name__ == "__main__":
    main()
