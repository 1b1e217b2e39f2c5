"""The oracle on whole suites: every task solved from its formal goal, each plan verified.

For each suite: the oracle planner (symbolic solver, no LLM) plans every task
fully observed, in the SayPlan vocabulary (as `sceneplan eval -p oracle` does;
ALFWorld rooms in ALFWorld's own), search tasks answered from their answer
sets; the Episode's outcome is the simulator's verdict on the plan and the goal
check. Prints per suite the tasks solved, the failures (task id and outcome),
and the time; then the ten slowest tasks of all. Times are CPU seconds of this
process for the oracle's `plan` (the solver runs in a thread of it), which a
loaded machine inflates less than wall time.

    python benchmarks/suites.py [--suites behavior-grasif virtualhome-grasif] [--timeout 60]

Without --suites it runs every packaged suite. Target (issue 33): every task
at most 5 s, so that the oracle's timeout never decides a packaged task.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sceneplan.datasets.tasks import list_suites, load_suite
from sceneplan.planners import get_planner
from sceneplan.runs import resolve

TASK_TARGET_S = 5.0


def run_suite(suite: str, timeout: float, quiet: bool = False) -> list[tuple[float, str, str]]:
    """(CPU seconds, task id, outcome) of every task of the suite; prints a summary line."""
    rows = []
    started = time.process_time()
    for task in load_suite(suite):
        setup = resolve(task)
        planner = get_planner("oracle", timeout=timeout)
        t0 = time.process_time()
        episode = planner.plan(setup.target, setup.graph)
        seconds = time.process_time() - t0
        why = episode.error or episode.failure or "goal not reached"
        rows.append(
            (seconds, task.id, "ok" if episode.success else f"{episode.status.value}: {why}")
        )
    if not quiet:
        failed = [(task_id, outcome) for _, task_id, outcome in rows if outcome != "ok"]
        slowest = max(rows)
        print(
            f"{suite}: {len(rows) - len(failed)}/{len(rows)} solved and verified; "
            f"{time.process_time() - started:.1f} s CPU in all, "
            f"{statistics.mean(t for t, _, _ in rows):.2f} s per task, "
            f"slowest {slowest[0]:.1f} s ({slowest[1]})",
            flush=True,
        )
        for task_id, outcome in failed:
            print(f"  FAILED {task_id}: {outcome}")
    return rows


def run_all(suites: list[str] | None = None, timeout: float = 60.0, quiet: bool = False):
    """Every task of the suites (all packaged ones by default), as `run_suite` gives them."""
    return [row for suite in suites or list_suites() for row in run_suite(suite, timeout, quiet)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", nargs="+", default=list_suites())
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    rows = run_all(args.suites, args.timeout)
    over = sum(1 for seconds, _, _ in rows if seconds > TASK_TARGET_S)
    print(
        f"\n{len(rows)} tasks, {sum(t for t, _, _ in rows):.0f} s CPU in all; "
        f"{over} over {TASK_TARGET_S:g} s. The ten slowest:"
    )
    for seconds, task_id, outcome in sorted(rows, reverse=True)[:10]:
        print(f"  {seconds:6.2f} s  {task_id}" + ("" if outcome == "ok" else f"  ({outcome})"))


if __name__ == "__main__":
    main()
