"""Plan quality: how long `solve`'s plans are against the shortest, and whether any detour is left.

Run `python benchmarks/plan_quality.py [--generated 120] [--optimal-timeout 30]`.

The test set: the 30 Office planning tasks (each from its start state) and
generated fetch, place and appliance problems on small synthetic buildings
(`benchmarks/synthetic.py`; the Home suite has no planning goals). Each is
solved with the default planner and with `solve(..., optimal=True)` (A* with
h_max, the cheapest plan of the scope it searches); a plan's length is its
number of steps after pose expansion, the length a robot executes. Printed:
the mean and worst ratio of the two (targets 1.02 and 1.25), how many plans
still hold a removable detour (target 0), and the median solve time on
Office (target: no worse than 5.2 ms). `--planner` compares another back end.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `synthetic`, when imported

from synthetic import synthetic_building

from sceneplan.datasets.tasks import load_suite
from sceneplan.graph import SceneGraph, from_dict
from sceneplan.graph.model import NodeKind
from sceneplan.runs import resolve
from sceneplan.symbolic.postprocess import PlanRun, removable_detours
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, solve
from sceneplan.world import parse_goal


@dataclass
class Case:
    """One problem of the test set."""

    name: str
    graph: SceneGraph
    goal: str


def office_cases() -> list[Case]:
    return [
        Case(task.id, resolve(task).graph, task.goal)
        for task in load_suite("office-planning")
        if task.goal is not None
    ]


CONTAINERS = ("cabinet", "fridge", "microwave", "drawer")
SURFACES = ("desk", "table", "shelf")


def generated_cases(count: int, seed: int = 0) -> list[Case]:
    """`count` fetch / place / appliance problems on synthetic buildings of 4 to 16 rooms."""
    rng = random.Random(seed)
    buildings: dict[tuple[int, int], SceneGraph] = {}
    out: list[Case] = []
    kinds = ("fetch", "place_inside", "place_on", "hot", "cold", "fetch_two")
    for index in range(count):
        key = (rng.randint(4, 16), rng.randrange(4))
        if key not in buildings:
            buildings[key] = from_dict(
                synthetic_building(key[0], items_per_room=8, rooms_per_floor=8, seed=key[1])
            )
        graph = buildings[key]
        objects = [n.id for n in graph if n.kind is NodeKind.OBJECT]
        assets = [n for n in graph if n.kind is NodeKind.ASSET]
        rooms = [n.id for n in graph if n.kind is NodeKind.ROOM]
        kind = kinds[index % len(kinds)]
        o, other = rng.sample(objects, 2)
        if kind == "fetch":
            goal = f"in_room({o}, {rng.choice(rooms)}) and handempty()"
        elif kind == "fetch_two":
            room = rng.choice(rooms)
            goal = f"in_room({o}, {room}) and in_room({other}, {room}) and handempty()"
        elif kind == "place_inside":
            target = rng.choice([a.id for a in assets if a.category in CONTAINERS])
            goal = f"inside_of({o}, {target})"
        elif kind == "place_on":
            target = rng.choice([a.id for a in assets if a.category in SURFACES])
            goal = f"ontop_of({o}, {target}) and handempty()"
        elif kind == "hot":
            goal = f"hot({o})"
        else:
            goal = f"cold({o}) and handempty()"
        out.append(Case(f"{graph.name}/{kind}{index}", graph, goal))
    return out


@dataclass
class Row:
    name: str
    steps: int | None
    optimal: int | None
    solve_ms: float
    optimal_ms: float
    detours: int


def measure(case: Case, planner: str, optimal_timeout: float) -> Row:
    goal = parse_goal(case.goal, case.graph)
    problem = PlanningProblem(case.graph, goal)
    solve(problem, planner=planner)  # warm the graph's caches (paths), as in a long run
    t0 = time.perf_counter()
    result = solve(PlanningProblem(case.graph, goal), planner=planner)
    solve_ms = (time.perf_counter() - t0) * 1000
    t1 = time.perf_counter()
    best = solve(PlanningProblem(case.graph, goal), optimal=True, timeout=optimal_timeout)
    optimal_ms = (time.perf_counter() - t1) * 1000
    detours = 0
    if result.ok and result.plan:
        detours = len(removable_detours(PlanRun(problem, problem.state, result.plan)))
    return Row(
        case.name,
        len(result.plan) if result.ok else None,
        len(best.plan) if best.ok else None,
        solve_ms,
        optimal_ms,
        detours,
    )


def report(title: str, rows: list[Row]) -> list[float]:
    ratios = [r.steps / r.optimal for r in rows if r.steps and r.optimal]
    unsolved = [r.name for r in rows if r.steps is None]
    no_optimum = [r.name for r in rows if r.steps and r.optimal is None]
    with_detours = [r.name for r in rows if r.detours]
    print(
        f"{title}: {len(rows)} problems, {len(ratios)} with an optimum; "
        f"length/optimal mean {statistics.mean(ratios):.3f}, worst {max(ratios):.3f}; "
        f"plans with a removable detour: {len(with_detours)}; "
        f"median solve {statistics.median(r.solve_ms for r in rows):.1f} ms, "
        f"median optimal solve {statistics.median(r.optimal_ms for r in rows):.1f} ms"
    )
    if unsolved:
        print(f"  no plan: {', '.join(unsolved)}")
    if no_optimum:
        print(f"  optimal search timed out: {', '.join(no_optimum)}")
    if with_detours:
        print(f"  detours left in: {', '.join(with_detours)}")
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=120, help="generated problems")
    parser.add_argument("--optimal-timeout", type=float, default=30.0)
    parser.add_argument("--planner", default=DEFAULT_PLANNER)
    parser.add_argument("--rows", action="store_true", help="print one line per problem")
    args = parser.parse_args()
    sets = {"office": office_cases(), "generated": generated_cases(args.generated)}
    everything: list[float] = []
    for title, cases in sets.items():
        rows = []
        for case in cases:
            row = measure(case, args.planner, args.optimal_timeout)
            rows.append(row)
            if args.rows:
                print(
                    f"{row.name} | {row.steps} | {row.optimal} | {row.solve_ms:.1f} ms | "
                    f"{row.optimal_ms:.0f} ms | detours {row.detours}",
                    flush=True,
                )
        everything += report(f"{title} ({args.planner})", rows)
    print(
        f"all: {len(everything)} problems with an optimum; length/optimal mean "
        f"{statistics.mean(everything):.3f}, worst {max(everything):.3f}"
    )


if __name__ == "__main__":
    main()
