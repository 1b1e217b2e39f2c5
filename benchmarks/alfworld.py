"""The oracle on all 134 ALFWorld tasks: success and time per task type; with --alfred,
each plan is also checked by unified-planning against the game's own PDDL domain and goal.

Usage: ``python benchmarks/alfworld.py [--alfred] [--data ../shared/data/alfworld]``
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sceneplan import runs
from sceneplan.datasets.tasks import load_suite
from sceneplan.importers.alfworld import read_game, validate_in_alfred

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "alfworld"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--alfred", action="store_true", help="check plans in ALFRED's domain")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {}
    started = time.perf_counter()
    for task in load_suite("alfworld-valid-unseen"):
        t0 = time.perf_counter()
        episode = runs.plan("oracle", task)
        solved = bool(episode.executable and episode.goal_reached)
        seconds = time.perf_counter() - t0
        valid = None
        if args.alfred and solved:
            name = task.source.split()[-1].replace("/", "__") + ".json.gz"
            valid, why = validate_in_alfred(
                read_game(args.data / "valid_unseen" / name), episode.plan
            )
            if not valid:
                print(f"{task.id}: not valid in ALFRED: {why}")
        row = rows.setdefault(task.note, [0, 0, 0, 0.0, 0])
        row[0] += 1
        row[1] += solved
        row[2] += bool(valid)
        row[3] += seconds
        row[4] += len(episode.plan)
        if not solved:
            print(f"{task.id}: not solved: {episode.error or episode.goal_unmet}")
    print(f"{'task type':32} tasks solved alfred  oracle_s  mean_len")
    for kind, (n, ok, up, seconds, length) in sorted(rows.items()):
        checked = up if args.alfred else "-"
        print(f"{kind:32} {n:5} {ok:6} {checked:>6} {seconds:9.2f} {length / n:9.2f}")
    print(f"total {sum(r[0] for r in rows.values())} tasks, {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
