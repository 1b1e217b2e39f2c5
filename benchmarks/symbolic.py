"""Symbolic planning speed: our grounder + search vs Fast Downward on the exported PDDL.

Run `python benchmarks/symbolic.py [--fd-tasks N] [--rooms 1000]`. For every
Office and Home planning task: time to ground and to search with our planner
(gbfs, and LAPKT's BFS(f) when installed), and Fast Downward through
unified-planning on the exported PDDL (`up-fast-downward`, optional). Then a
synthetic building: the relevant subgraph against the whole graph.
Targets: median under 100 ms per Office task with our planner, never slower
than Fast Downward on the same problem; fetch-and-place at 10,000 rooms in
<= 30 ms in-process. Plan quality is measured by benchmarks/plan_quality.py,
the exported PDDL in standard tools by benchmarks/pddl_export.py.
"""

from __future__ import annotations

import argparse
import statistics
import time

from synthetic import first_and_last_room, synthetic_building  # benchmarks/ is sys.path[0]

from sceneplan.datasets.tasks import list_suites, load_suite
from sceneplan.graph import from_dict
from sceneplan.runs import resolve
from sceneplan.symbolic.pddl import export_pddl
from sceneplan.symbolic.solver import PlanningProblem, available_backends, solve

FD_TIMEOUT_S = 60.0


def fast_downward(graph, goal: str) -> tuple[float, float, int] | None:
    """(parse s, solve s, plan length; -1 if none within FD_TIMEOUT_S) with Fast Downward.

    None when it is not installed.
    """
    try:
        import unified_planning.shortcuts as ups
        from unified_planning.io import PDDLReader
    except ImportError:
        return None
    ups.get_environment().credits_stream = None
    files = export_pddl(graph, goal)
    t0 = time.perf_counter()
    problem = PDDLReader().parse_problem_string(files.domain, files.problem)
    t1 = time.perf_counter()
    try:
        with ups.OneshotPlanner(name="fast-downward") as planner:
            result = planner.solve(problem, timeout=FD_TIMEOUT_S)
    except Exception:  # the engine is missing or refuses the problem
        return None
    plan = result.plan
    return t1 - t0, time.perf_counter() - t1, len(plan.actions) if plan else -1


def tasks_table(fd_tasks: int) -> None:
    """One row per planning task; Fast Downward on the first `fd_tasks` of them."""
    backends = [b for b in available_backends() if b in ("gbfs", "bfsf")]  # see plan_quality
    header = ["task", *(f"{b} ground+search ms" for b in backends), "steps"]
    if fd_tasks:
        header += ["gbfs whole-graph ms", "FD parse ms", "FD solve ms", "FD steps"]
    print(" | ".join(header))
    totals: dict[str, list[float]] = {b: [] for b in backends}
    fd_totals: list[float] = []
    suites = [s for s in list_suites() if s.endswith("planning")]
    tasks = [task for suite in suites for task in load_suite(suite)]
    for index, task in enumerate(tasks):
        graph = resolve(task).graph  # the task's start state, as planners get it
        row = [task.id]
        steps = 0
        for backend in backends:
            result = solve(PlanningProblem(graph, task.goal), planner=backend)
            ms = (result.grounding_s + result.search_s) * 1000
            totals[backend].append(ms)
            row.append(f"{result.grounding_s * 1000:.1f}+{result.search_s * 1000:.1f}")
            steps = len(result.plan)
        row.append(str(steps))
        if index < fd_tasks:  # the same problem as FD's: the whole graph, no focus
            whole = solve(PlanningProblem(graph, task.goal), focus=False, timeout=FD_TIMEOUT_S)
            row.append(f"{whole.total_s * 1000:.0f}" + ("" if whole.ok else f" ({whole.status})"))
            fd = fast_downward(graph, task.goal)
            if fd is None:
                row += ["-", "-", "-"]
            else:
                fd_totals.append(fd[1] * 1000)
                row += [f"{fd[0] * 1000:.0f}", f"{fd[1] * 1000:.0f}", str(fd[2])]
        print(" | ".join(row), flush=True)
    for backend, values in totals.items():
        print(f"median {backend}: {statistics.median(values):.1f} ms, max {max(values):.1f} ms")
    if fd_totals:
        print(
            f"median Fast Downward solve over {len(fd_totals)} tasks: "
            f"{statistics.median(fd_totals):.0f} ms"
        )


def synthetic_table(rooms_list: list[int]) -> None:
    """Fetch-and-place (an object of the first room to the last room) in-process.

    `solve ms` is the whole call (ground, search, expand, verify, post-process):
    the first on the graph (the Navigator's paths are computed) and the median
    of the next five (they are reused). Target at 10,000 rooms: <= 30 ms.
    """
    print(
        "rooms | nodes | scope | ground actions | ground ms | search ms | "
        "validate+post-process ms | solve ms first | solve ms median | steps"
    )
    for rooms in rooms_list:
        graph = from_dict(synthetic_building(rooms, items_per_room=8))
        objects = [n.id for n in graph if n.kind.value == "object"]
        _, last = first_and_last_room(rooms)
        goal = f"in_room({objects[0]}, {last}) and handempty()"
        for focus in (True, False):
            if not focus and rooms > 30:
                print(f"{rooms} | {len(graph)} | whole graph | (not run: grows with rooms²) |")
                continue
            times = []
            for _ in range(6 if focus else 1):
                t0 = time.perf_counter()
                result = solve(PlanningProblem(graph, goal), focus=focus, timeout=120)
                times.append((time.perf_counter() - t0) * 1000)
            warm = f"{statistics.median(times[1:]):.1f}" if len(times) > 1 else "-"
            print(
                f"{rooms} | {len(graph)} | {result.scope} | {result.stats.get('actions')} | "
                f"{result.grounding_s * 1000:.1f} | {result.search_s * 1000:.1f} | "
                f"{result.validation_s * 1000:.1f} | {times[0]:.1f} | {warm} | {len(result.plan)}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--fd-tasks",
        type=int,
        default=3,
        help="run Fast Downward on the first N tasks (0: none; each may take FD_TIMEOUT_S)",
    )
    parser.add_argument("--rooms", type=int, nargs="*", default=[10, 30, 1000, 10000])
    args = parser.parse_args()
    tasks_table(args.fd_tasks)
    synthetic_table(args.rooms)


if __name__ == "__main__":
    main()
