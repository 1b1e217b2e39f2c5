"""The oracle on whole suites: every task solved from its formal goal, each plan verified.

For each suite: the oracle planner (symbolic solver, no LLM) plans every task
fully observed, in the SayPlan vocabulary (as `sceneplan eval -p oracle` does;
ALFWorld rooms in ALFWorld's own), search tasks answered from their answer
sets; the Episode's outcome is
the simulator's verdict on the plan and the goal check. Prints per suite the
tasks solved, the failures (task id and outcome), and the time (total, mean
and slowest task).

    python benchmarks/suites.py [--suites behavior-grasif virtualhome-grasif] [--timeout 60]

Without --suites it runs every packaged suite.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sceneplan.datasets.tasks import list_suites, load_suite
from sceneplan.planners import get_planner
from sceneplan.runs import resolve


def run_suite(suite: str, timeout: float) -> None:
    tasks = load_suite(suite)
    times, failed = [], []
    started = time.perf_counter()
    for task in tasks:
        setup = resolve(task)
        planner = get_planner("oracle", timeout=timeout)
        t0 = time.perf_counter()
        episode = planner.plan(setup.target, setup.graph)
        times.append((time.perf_counter() - t0, task.id))
        why = episode.error or episode.failure or "goal not reached"
        if not episode.success:
            failed.append((task.id, f"{episode.status.value}: {why}"))
    total = time.perf_counter() - started
    slowest = max(times)
    print(
        f"{suite}: {len(tasks) - len(failed)}/{len(tasks)} solved and verified; "
        f"{total:.1f} s in all, {statistics.mean(t for t, _ in times):.2f} s per task, "
        f"slowest {slowest[0]:.1f} s ({slowest[1]})"
    )
    for task_id, outcome in failed:
        print(f"  FAILED {task_id}: {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", nargs="+", default=list_suites())
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    for suite in args.suites:
        run_suite(suite, args.timeout)


if __name__ == "__main__":
    main()
