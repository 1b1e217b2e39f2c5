"""Execution under faults with the oracle (no LLM): closed loop against open loop.

Run `python benchmarks/faults.py [--seeds 5] [--sweep-seeds 3] [--plot faults.png]`
(about 10 minutes on a shared 2-core machine; `--no-sweep` for the first part only).

1. The done-when measure of docs/execute.md: the oracle's plan for each of the
   30 Office planning tasks, executed on the simulated robot with
   `moved:0.3,grasp:0.1` over `--seeds` seeds, closed loop (observe, correct
   the graph, replan with the symbolic solver) and open loop (the same plan
   as it is). Target: closed loop reaches the goal in >= 95 % of the runs.
2. Success against fault rate, one fault kind at a time (`--rates`), over
   `--sweep-seeds` seeds: the table, and with `--plot` the figure
   (`sceneplan.eval.faults.write_fault_plot`, needs matplotlib).

Each task is planned once (on the map before its world script, where it has
one: `--suite office-dynamic`); every run executes a copy of that plan, so the
seeds alone make the runs differ.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from sceneplan.datasets.tasks import load_suite
from sceneplan.eval.faults import fault_rows, render_faults, write_fault_plot
from sceneplan.execute import ExecutionSettings, SimulatedRobot, run_plan
from sceneplan.execute.run import believed, plan_on_memory
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Episode
from sceneplan.runs import resolve

TARGET = 0.95


async def measure(planned, faults: str, seeds: range, closed_loop: bool, timeout: float):
    """Every (task, seed) run of one fault spec, closed or open loop."""
    settings = ExecutionSettings(closed_loop=closed_loop, replan_timeout=timeout)
    planner = get_planner("oracle")
    out = []
    for seed in seeds:
        for setup, episode in planned:
            known = believed(setup)  # a task with a world script: the map before it
            robot = SimulatedRobot(setup.graph, faults, seed, stream=setup.task.id, known=known)
            copy = Episode.from_dict(episode.to_dict())
            out.append(await run_plan(copy, setup, robot, planner, settings=settings))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="office-planning")
    parser.add_argument("--faults", default="moved:0.3,grasp:0.1")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sweep-seeds", type=int, default=3)
    parser.add_argument("--rates", default="0.1,0.3,0.5", help="probabilities of the sweep")
    parser.add_argument("--kinds", default="moved,grasp,stuck,blocked")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per replan")
    parser.add_argument("--plot", default=None, help="write the sweep's figure (PNG) here")
    parser.add_argument("--no-sweep", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    planner = get_planner("oracle")
    planned = []
    for task in load_suite(args.suite):
        setup = resolve(task)
        planned.append((setup, asyncio.run(plan_on_memory(planner, setup, None))))
    print(f"{len(planned)} tasks of {args.suite} planned by the oracle")

    episodes = []
    for closed in (True, False):
        episodes += asyncio.run(
            measure(planned, args.faults, range(1, args.seeds + 1), closed, args.timeout)
        )
    rows = fault_rows(episodes)
    print(render_faults(rows, f"{args.suite}, oracle, {args.faults}, {args.seeds} seeds"))
    closed_row = next(r for r in rows if r.loop == "closed")
    verdict = "meets" if closed_row.success >= TARGET else "MISSES"
    print(f"closed loop {100 * closed_row.success:.1f} % {verdict} the {TARGET:.0%} target\n")

    if not args.no_sweep:
        sweep = []
        seeds = range(1, args.sweep_seeds + 1)
        specs = ["none"] + [
            f"{kind}:{rate}" for kind in args.kinds.split(",") for rate in args.rates.split(",")
        ]
        for spec in specs:
            for closed in (True, False):
                sweep += asyncio.run(measure(planned, spec, seeds, closed, args.timeout))
        sweep_rows = fault_rows(sweep)
        title = f"{args.suite}, oracle, success vs fault rate, {args.sweep_seeds} seed(s)"
        print(render_faults(sweep_rows, title))
        if args.plot:
            print(f"figure written to {write_fault_plot(sweep_rows, args.plot)}")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
