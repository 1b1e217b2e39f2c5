"""Scale: load, memory, collapsed tokens, verify and solve at 100 / 1,000 / 10,000 rooms.

Run `python benchmarks/scale.py [--sizes 100 1000 10000] [--repeat 3]`. For each
synthetic building (benchmarks/synthetic.py, 40 assets and objects per room)
written to a JSON file:
- load: `sceneplan.graph.load(path)`, side by side with parsing the same file
  with orjson (the fastest JSON parser installed), best of --repeat runs each;
  orjson is timed twice: as Python runs it (cyclic GC on) and with the GC paused,
  as `load` runs; the ratio is load over the GC-paused parse (the stricter one);
  CPU times (this process's) are shown too, steadier on a busy machine;
- peak RSS of a fresh interpreter that loads the file (and of one that only
  imports sceneplan.graph, for the baseline);
- tokens of the collapsed view (`collapse` + `view_to_text` + `count_tokens`);
- verify: `Simulator.verify_plan` of an executable 50-step plan (core.py's);
- solve: `symbolic.solver.solve` of a fetch-and-place goal (an object of the
  first room placed in the last room).
Then the growth of each column: the least-squares slope of log(value) against
log(rooms); 1 is linear, below 1 sublinear. The parse itself grows a little
faster than linear on a small machine (memory), so the growth of load over
parse (cpu ratio, 0 = the same) tells what the loader adds.
Targets (issue 15): load <= 2 s and <= 5x the orjson parse at 10,000 rooms,
peak RSS <= 1.5 GB, no column growing faster than linear.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from core import fifty_step_plan  # run as a script: benchmarks/ is sys.path[0]
from synthetic import first_and_last_room, synthetic_building

from sceneplan.graph import SceneGraph, collapse, count_tokens, load, view_to_text
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator

SIZES = (100, 1_000, 10_000)
ITEMS_PER_ROOM = 40
LOAD_TARGET_S = 2.0
RATIO_TARGET = 5.0
RSS_TARGET_MB = 1536

# The child's own peak: VmHWM (Linux) starts afresh at exec, while ru_maxrss keeps the
# value of the process it was forked from (this one, which holds the loaded graphs).
_RSS = (
    "import resource, sys\n"
    "from sceneplan.graph import load\n"
    "graph = load(sys.argv[1]) if len(sys.argv) > 1 else None\n"
    "try:\n"
    "    with open('/proc/self/status') as status:\n"
    "        hwm = next(line for line in status if line.startswith('VmHWM:'))\n"
    "    print(int(hwm.split()[1]))\n"  # KiB
    "except (OSError, StopIteration):\n"
    "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"  # KiB on Linux
)


def best_of(action: Callable[[], object], repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def gc_paused(action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        gc.disable()
        try:
            return action()
        finally:
            gc.enable()

    return run


def peak_rss_mb(*argv: str) -> float:
    """Peak resident memory of a fresh interpreter running _RSS with `argv`, in MB."""
    done = subprocess.run(
        [sys.executable, "-c", _RSS, *argv], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip()) / 1024


def load_columns(path: Path, repeat: int) -> tuple[dict[str, float], SceneGraph]:
    """Load, orjson parse (GC on and paused) side by side, interleaved run by run.

    Wall and CPU time (this process's) of each: on a busy machine CPU time is the
    steadier of the two.
    """
    import orjson

    def parse() -> object:
        return orjson.loads(path.read_bytes())

    walls: dict[str, list[float]] = {"load": [], "orjson": [], "orjson paused": []}
    cpus: dict[str, list[float]] = {name: [] for name in walls}
    graph = load(path)
    for _ in range(repeat):
        del graph
        gc.collect()
        for name, action in (
            ("orjson", parse),
            ("orjson paused", gc_paused(parse)),
            ("load", lambda: load(path)),
        ):
            wall, cpu = time.perf_counter(), time.process_time()
            result = action()
            walls[name].append(time.perf_counter() - wall)
            cpus[name].append(time.process_time() - cpu)
            if name == "load":
                graph = result
            del result
    row = {f"{name} s": min(times) for name, times in walls.items()}
    row["load/orjson"] = row["load s"] / row["orjson paused s"]
    row["load cpu s"] = min(cpus["load"])
    row["orjson cpu s"] = min(cpus["orjson paused"])
    row["cpu ratio"] = row["load cpu s"] / row["orjson cpu s"]
    return row, graph


def fetch_and_place_goal(graph: SceneGraph, rooms: int) -> str:
    """An object of the first room, to be put down in the last room."""
    first, last = first_and_last_room(rooms)
    obj = next(
        n.id
        for n in graph.of_kind(NodeKind.OBJECT)
        if graph.room_of(n.id) == first and n.relation is not None
    )
    return f"in_room({obj}, {last}) and handempty()"


def measure(rooms: int, repeat: int, folder: Path) -> dict[str, float]:
    path = folder / f"synthetic_{rooms}.json"
    data = synthetic_building(rooms, ITEMS_PER_ROOM)
    path.write_text(json.dumps(data), encoding="utf-8")
    row: dict[str, float] = {"nodes": len(data["nodes"]), "MB": path.stat().st_size / 1e6}
    del data
    gc.collect()
    times, graph = load_columns(path, repeat)
    row.update(times)
    row["peak RSS MB"] = peak_rss_mb(str(path))
    row["tokens"] = count_tokens(view_to_text(collapse(graph)))
    simulator = Simulator(graph)
    plan = fifty_step_plan(graph)
    assert simulator.verify_plan(plan).ok
    row["verify ms"] = best_of(lambda: simulator.verify_plan(plan), max(repeat, 5)) * 1e3
    problem = PlanningProblem(graph, fetch_and_place_goal(graph, rooms))
    result = solve(problem)
    assert result.ok, result.status
    row["solve ms"] = (
        best_of(lambda: solve(PlanningProblem(graph, problem.goal)), max(repeat, 3)) * 1e3
    )
    row["plan steps"] = len(result.plan)
    path.unlink()
    return row


FORMATS = {
    "nodes": "{:,.0f}",
    "MB": "{:.1f}",
    "load s": "{:.3f}",
    "orjson s": "{:.3f}",
    "orjson paused s": "{:.3f}",
    "load/orjson": "{:.2f}",
    "load cpu s": "{:.3f}",
    "orjson cpu s": "{:.3f}",
    "cpu ratio": "{:.2f}",
    "peak RSS MB": "{:.0f}",
    "RSS over base MB": "{:.0f}",
    "tokens": "{:,.0f}",
    "verify ms": "{:.2f}",
    "solve ms": "{:.1f}",
    "plan steps": "{:.0f}",
}
GROWTH = (
    "nodes",
    "load s",
    "orjson paused s",
    "load cpu s",
    "orjson cpu s",
    "cpu ratio",
    "RSS over base MB",
    "tokens",
    "verify ms",
    "solve ms",
)


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) against log(x)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum(
        (a - mx) ** 2 for a in lx
    )


def table(rows: dict[int, dict[str, float]]) -> str:
    columns = ["rooms", *FORMATS]
    cells = [
        [f"{rooms:,}", *(FORMATS[c].format(row[c]) for c in FORMATS)] for rooms, row in rows.items()
    ]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (best kept)")
    args = parser.parse_args()
    rows: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        baseline = peak_rss_mb()
        for rooms in args.sizes:
            rows[rooms] = measure(rooms, args.repeat, Path(folder))
            rows[rooms]["RSS over base MB"] = rows[rooms]["peak RSS MB"] - baseline
            print(f"  done: {rooms:,} rooms", file=sys.stderr, flush=True)
    print(f"Synthetic buildings, {ITEMS_PER_ROOM} assets and objects per room\n")
    print(table(rows))
    print(f"\n(peak RSS of an interpreter that only imports sceneplan.graph: {baseline:.0f} MB)")
    if len(rows) > 1:
        print("\nGrowth: slope of log(value) against log(rooms) (1 = linear)\n")
        for column in GROWTH:
            value = slope(list(rows), [max(rows[r][column], 1e-9) for r in rows])
            verdict = "linear or better" if value <= 1.1 else "WORSE THAN LINEAR"
            print(f"  {column:16} {value:5.2f}  {verdict}")
    top = rows[max(rows)]
    print(
        f"\nAt {max(rows):,} rooms: load {top['load s']:.2f} s (target <= {LOAD_TARGET_S} s), "
        f"{top['load/orjson']:.2f}x orjson with GC paused (target <= {RATIO_TARGET}x; "
        f"{top['load s'] / top['orjson s']:.2f}x orjson with GC on; in CPU time "
        f"{top['load cpu s']:.2f} s, {top['cpu ratio']:.2f}x), "
        f"peak RSS {top['peak RSS MB']:.0f} MB (target <= {RSS_TARGET_MB} MB)"
    )


if __name__ == "__main__":
    main()
