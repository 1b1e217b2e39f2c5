"""Every method against the simulated stand-in model, on whole suites, across error rates.

Run `python benchmarks/simulated.py [--rates 0,0.1,0.2,0.3] [--seed 1] [--suite office-planning]`.

The full run the tests cut to a subset (tests/simulated): each method on every task of
the suite with `simulated:p=RATE,seed=SEED`, through `sceneplan.eval` as `sceneplan eval`
runs it, into a scratch store, then the report's robustness rows (success and
executability per method and rate, and what each loop buys). Targets: at rate 0 every
method solves every task; at 0.2 SayPlan is executable on more tasks than
LLM-As-Planner. The load average is printed with the wall time.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from sceneplan.eval import robustness
from sceneplan.eval.runner import evaluate, load_tasks
from sceneplan.eval.store import Store

METHODS = [
    "sayplan",
    "sayplan[max_replans=0]",
    "sayplan_lite",
    "llm_as_planner",
    "llm_plus_p",
    "lookplangraph",
    "lookplangraph[max_corrections=0]",
    "react",
    "react_pv",
    "sclplan",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="0,0.2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--suite", default="office-planning")
    parser.add_argument("--methods", default=",".join(METHODS))
    args = parser.parse_args()
    models = [f"simulated:p={rate},seed={args.seed}" for rate in args.rates.split(",")]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "simulated.db"
        evaluate(load_tasks([args.suite]), args.methods.split(","), models, out, concurrency=4)
        with Store(out) as store:
            rows = robustness.robustness(store.records())
    print(robustness.markdown(rows))
    load = os.getloadavg()[0]
    print(f"\nwall {time.perf_counter() - started:.0f} s, load average {load:.2f}")
    zero = [r for r in rows if r["error_rate"] == 0]
    print("rate 0, every method solves every task:", all(r["success"] == 1 for r in zero))


if __name__ == "__main__":
    main()
