"""Searching for moved objects on a stale map: each search strategy on the moved-object suites.

Run `python benchmarks/search.py [--suites office-dynamic,home-moved]` (about 3
minutes on a shared 2-core machine).

Each task of the moved-object suites is planned by the oracle on the map the
robot last made (`memory: prior`) and executed on the simulated robot in the
true world (no injected faults: the world script is the fault), closed loop
with each search of `sceneplan.execute.search` (`greedy`, the default;
`likely`; `nearest`, the order before issue 28; `sweep`) and open loop.
Per suite and order it prints: the goal reached, the belief corrections,
and per object found by a search

- assets looked at: the assets the search went to look at (reached, opened
  or looked at); an asset arriving in its room showed whole is not counted;
- assets seen: every asset whose top or inside the robot saw while
  searching, arrivals included;
- skill calls the search made, and metres it travelled.

Target (issues 28, 39): closed loop 100 % with every search, open loop
failing on at least half, and no object the world holds left unfound.
`benchmarks/search_cost.py` measures the searches on many more moves.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from sceneplan.datasets.tasks import load_suite
from sceneplan.execute import execute
from sceneplan.execute.search import ORDERS
from sceneplan.planners import get_planner


def figures(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"median {statistics.median(values):g}, max {max(values)}"


def run(suite: str, order: str, closed: bool) -> dict:
    reached, corrections, looked, seen, calls, metres, unfound = 0, 0, [], [], [], [], 0
    tasks = load_suite(suite)
    for task in tasks:
        episode = asyncio.run(
            execute(get_planner("oracle"), task, closed_loop=closed, search=order)
        )
        record = episode.execute
        assert record is not None
        reached += episode.status.value == "success"
        corrections += record.corrections
        for search in record.searches:
            if not search.found:
                unfound += 1
                continue
            looked.append(search.looked)
            seen.append(search.seen)
            calls.append(search.calls)
            metres.append(search.metres)
    return {
        "tasks": len(tasks),
        "reached": reached,
        "corrections": corrections,
        "looked": looked,
        "seen": seen,
        "calls": calls,
        "metres": metres,
        "unfound": unfound,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="office-dynamic,home-moved")
    args = parser.parse_args()
    started = time.perf_counter()
    for suite in args.suites.split(","):
        print(f"## {suite}, oracle on the simulated robot, belief from the prior")
        for order in ORDERS:
            r = run(suite, order, True)
            print(
                f"closed loop, {order:7} search: goal reached {r['reached']}/{r['tasks']}, "
                f"corrections {r['corrections']}, unfound {r['unfound']}\n"
                f"  assets looked at per found object: {figures(r['looked'])}\n"
                f"  assets seen per found object:      {figures(r['seen'])}\n"
                f"  skill calls per search:            {figures(r['calls'])}\n"
                f"  metres per search:                 {figures(r['metres'])}"
            )
        r = run(suite, ORDERS[0], False)
        failed = r["tasks"] - r["reached"]
        print(f"open loop: goal reached {r['reached']}/{r['tasks']} (fails {failed})\n")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
