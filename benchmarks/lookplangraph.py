"""The partially observing oracle on the GraSIF Office tasks and their dynamic variants.

For each perception (perfect, and gpt4o-like over several seeds) the oracle
looks where each task's objects are, plans on its memory and acts in the
true world (docs/lookplangraph.md). Prints, per suite and perception: the
success rate (LookPlanGraph's SR), the mean plan length (APL, looks
included), looks and world refusals per task, and the looks' graph
augmentation scores (Table 4: NP, on, inside), scored from the Episodes.

    python benchmarks/lookplangraph.py [--seeds 5] [--suites office-grasif office-dynamic]
"""

from __future__ import annotations

import argparse
import statistics
import time

from sceneplan.datasets.tasks import load_suite
from sceneplan.eval.metrics import plan_length
from sceneplan.planners import get_planner
from sceneplan.runs import resolve
from sceneplan.world.memory import Observation
from sceneplan.world.partial import LookScore, score_look


def run_suite(suite: str, perception: str) -> dict[str, float | None]:
    """The oracle over one suite with one perception: SR, APL, looks, refusals, Table 4."""
    episodes = []
    started = time.perf_counter()
    for task in load_suite(suite):
        setup = resolve(task)
        planner = get_planner("oracle", observe="partial", perception=perception, timeout=30)
        episodes.append(planner.plan(setup.target, setup.graph, prior=setup.prior))
    score = LookScore()
    for episode in episodes:
        for step in episode.steps:
            if step.expected or step.observations:
                seen = [Observation.from_dict(o) for o in step.observations]
                score.add(score_look(seen, step.expected))
    n = len(episodes)
    return {
        "n": n,
        "sr": sum(e.goal_reached is True for e in episodes) / n,
        "apl": statistics.mean(plan_length(e) for e in episodes),
        "looks": statistics.mean(
            sum(s.action.startswith("look_") for s in e.steps) for e in episodes
        ),
        "refused": statistics.mean(sum(not s.ok for s in e.steps) for e in episodes),
        **score.rates(),
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds of the gpt4o-like preset")
    parser.add_argument("--suites", nargs="+", default=["office-grasif", "office-dynamic"])
    args = parser.parse_args()
    perceptions = ["simulated:perfect"] + [
        f"simulated:gpt4o-like,seed={seed}" for seed in range(args.seeds)
    ]
    header = f"{'suite':15} {'perception':30} {'n':>3} {'SR':>5} {'APL':>6} {'looks':>6} "
    print(header + f"{'refused':>8} {'NP':>5} {'on':>5} {'inside':>6} {'s':>6}")

    def fmt(value: float | None) -> str:
        return "  -  " if value is None else f"{value:5.2f}"

    for suite in args.suites:
        noisy = []
        for perception in perceptions:
            row = run_suite(suite, perception)
            if "gpt4o" in perception:
                noisy.append(row)
            print(
                f"{suite:15} {perception:30} {row['n']:3d} {fmt(row['sr'])} {row['apl']:6.2f} "
                f"{row['looks']:6.2f} {row['refused']:8.2f} {fmt(row['np'])} {fmt(row['on'])} "
                f"{fmt(row['inside']):>6} {row['seconds']:6.1f}"
            )
        if noisy:
            srs = [r["sr"] for r in noisy]
            spread = statistics.stdev(srs) if len(srs) > 1 else 0.0
            print(
                f"{suite:15} {'gpt4o-like, mean over seeds':30}     "
                f"{statistics.mean(srs):5.2f} (±{spread:.2f})"
            )
    print("paper, Table 4 (gpt-4o on VirtualHome): NP 0.66, on 0.30, inside 0.36")


if __name__ == "__main__":
    main()
