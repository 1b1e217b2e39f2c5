"""The executor's belief update on a robot reply naming many new objects: linear, not quadratic.

Run `python benchmarks/belief_update.py [--sizes 5000,20000,80000]`. For each
size N, one `look` reply naming N new objects on one surface is read
(`SkillResult.from_dict`) and applied (`Belief.observe`) to the coffee scene.
Printed: the time of each size, the time per object, and the ratio of each
size's time to the one before (4x the objects: about 4x the time when the
update is linear, 16x when quadratic), with the load average.
"""

from __future__ import annotations

import argparse
import os
import time

from sceneplan.datasets import load_environment
from sceneplan.execute.belief import Belief
from sceneplan.execute.skills import Skill, SkillCall, SkillResult


def one(n: int) -> float:
    """Seconds to read and apply one reply naming `n` new objects."""
    belief = Belief(load_environment("coffee"))
    asset = "kitchen_bench" if "kitchen_bench" in belief.graph else "bed2"
    seen = [
        {"id": f"thing{i}", "parent": asset, "relation": "on", "new": True, "category": "cup"}
        for i in range(n)
    ]
    call = SkillCall(Skill.LOOK, {"asset": asset, "relation": "on"})
    started = time.perf_counter()
    belief.observe(call, SkillResult.from_dict({"ok": True, "seen": seen}, call))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,20000,80000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f}")
    before = None
    for n in sizes:
        seconds = one(n)
        ratio = (
            f"  x{seconds / before[1]:.1f} the time for x{n / before[0]:.0f} the objects"
            if before
            else ""
        )
        print(f"{n:>8,} objects  {seconds:7.2f} s  {seconds / n * 1e6:6.1f} us/object{ratio}")
        before = (n, seconds)


if __name__ == "__main__":
    main()
