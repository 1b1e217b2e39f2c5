"""Perception benchmark: LookPlanGraph Table 4's augmentation accuracy, and looks per second.

Run `python benchmarks/perception.py [--repeats N] [--seed S]`. For each
simulated preset on the packaged `office` and `home` environments it prints
node presence (NP), `on` and `inside` accuracy (docs/perception.md) beside
the paper's GPT-4o figures (.66 / .30 / .36, measured on VirtualHome), the
precision of the observations, and how many looks a second the perception
answers (the accuracy bookkeeping included). Every look of an environment
is made `--repeats` times, each drawing anew.
"""

from __future__ import annotations

import argparse
import time

from sceneplan.datasets import load_environment
from sceneplan.perception import PRESETS, get_perception
from sceneplan.perception.accuracy import PAPER, augmentation_accuracy

ENVIRONMENTS = ("office", "home")


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20, help="times each look is made")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    paper = " / ".join(f"{PAPER[k]:.2f}" for k in ("np", "on", "inside"))
    header = (
        "| env | preset | NP | on | inside | paper NP / on / inside | precision "
        "| objects (on / inside) | looks | looks/s |"
    )
    print(header)
    print("|---" * 10 + "|")
    for env in ENVIRONMENTS:
        graph = load_environment(env)
        for preset in PRESETS:
            perception = get_perception(f"simulated:{preset},seed={args.seed}")
            started = time.perf_counter()
            result = augmentation_accuracy(perception, graph, repeats=args.repeats)
            rate = result["looks"] / (time.perf_counter() - started)
            print(
                f"| {env} | {preset} | {_cell(result['np'])} | {_cell(result['on'])} "
                f"| {_cell(result['inside'])} | {paper} | {_cell(result['precision'])} "
                f"| {result['n']} ({result['n_on']} / {result['n_inside']}) "
                f"| {result['looks']} | {rate:,.0f} |"
            )


if __name__ == "__main__":
    main()
