"""The exported PDDL in standard tools: Fast Downward, unified-planning's validator, file size.

Run `python benchmarks/pddl_export.py [--tasks N] [--rooms 100 1000] [--skip-fd]`.

1. Fast Downward (lama-first, the `up-fast-downward` wheel of the `symbolic`
   extra, run on the files `sceneplan pddl --task` writes) on every Office
   task's whole-graph problem: wall time of translate + search, and whether
   its plan runs in our simulator and reaches the goal. Target: <= 10 s each.
2. unified-planning's SequentialPlanValidator on each Office oracle plan
   (`symbolic.solve`), on the whole-graph problem. Target: <= 1 s each (the
   parse of the problem is printed apart; it is paid once per problem).
3. The size of the whole-graph problem of a synthetic building
   (`benchmarks/synthetic.py`, 40 items per room) at 100 and 1,000 rooms.
   Target: <= 20 MB at 1,000 rooms.
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from synthetic import first_and_last_room, synthetic_building  # benchmarks/ is sys.path[0]

from sceneplan.datasets.tasks import load_suite
from sceneplan.graph import from_dict
from sceneplan.runs import resolve
from sceneplan.symbolic.pddl import export_pddl, plan_pddl
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal, parse_plan

FD_LIMIT_S = 60.0
FD_MEMORY = "2G"  # the machine is shared: Fast Downward's own limit


def fast_downward_script() -> Path | None:
    """The Fast Downward driver shipped in the `up-fast-downward` wheel, if installed."""
    try:
        root = importlib.resources.files("up_fast_downward")
    except ModuleNotFoundError:
        return None
    path = Path(str(root.joinpath("downward/fast-downward.py")))
    return path if path.exists() else None


def run_fast_downward(script: Path, folder: Path) -> tuple[float, float, list[str] | None]:
    """(wall s, CPU s, plan steps or None) of lama-first on folder's domain and problem.

    The machine may be shared: CPU time (translator and search processes) is what
    the planner itself costs; wall time is what the user waits here.
    """
    plan_file = folder / "sas_plan"
    plan_file.unlink(missing_ok=True)
    cmd = [sys.executable, str(script), "--plan-file", str(plan_file)]
    cmd += ["--overall-time-limit", f"{FD_LIMIT_S:.0f}s", "--overall-memory-limit", FD_MEMORY]
    cmd += ["--alias", "lama-first", str(folder / "domain.pddl"), str(folder / "problem.pddl")]
    before = _children_cpu()
    start = time.perf_counter()
    # its own session, so that a timeout ends the translator and search processes too
    process = subprocess.Popen(
        cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        log, _ = process.communicate(timeout=FD_LIMIT_S + 10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return time.perf_counter() - start, _children_cpu() - before, None
    (folder / "fd.log").write_bytes(log)
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - before
    if not plan_file.exists():
        return elapsed, cpu, None
    lines = plan_file.read_text().splitlines()
    steps = [ln.strip("()").split() for ln in lines if ln.startswith("(")]
    return elapsed, cpu, [f"{s[0]}({', '.join(s[1:])})" for s in steps]


def _fd_failure(folder: Path) -> str:
    log = (folder / "fd.log").read_text(errors="replace") if (folder / "fd.log").exists() else ""
    if "Memory limit has been reached" in log:
        return f"search out of memory, {FD_MEMORY}"
    if "Time limit has been reached" in log or not log:
        return f"time limit, {FD_LIMIT_S:.0f} s"
    return "no solution"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def office_table(count: int, skip_fd: bool) -> None:
    import unified_planning.shortcuts as ups
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader

    ups.get_environment().credits_stream = None
    script = None if skip_fd else fast_downward_script()
    if not skip_fd and script is None:
        print("Fast Downward: not installed (pip install 'sceneplan[symbolic]'); column skipped")
    print("task | problem KB | FD lama-first wall s | FD CPU s | FD steps (runs+goal) | "
          "UP parse s | UP validate s | oracle steps")  # fmt: skip
    fd_times, fd_cpu, up_times, failures = [], [], [], []
    for task in load_suite("office-planning")[:count]:
        graph = resolve(task).graph
        goal = parse_goal(task.goal, graph)
        files = export_pddl(graph, goal)
        row = [task.id, f"{len(files.problem) / 1024:.0f}"]
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files.write(folder)
            if script is not None:
                elapsed, cpu, steps = run_fast_downward(script, folder)
                fd_times.append(elapsed)
                fd_cpu.append(cpu)
                row += [f"{elapsed:.2f}", f"{cpu:.2f}"]
                if steps is None:
                    row += [f"no plan ({_fd_failure(folder)})"]
                    failures.append(task.id)
                else:
                    verdict = Simulator(graph).verify_plan(parse_plan(steps))
                    good = verdict.ok and goal.holds(verdict.final_state)
                    row += [f"{len(steps)} ({'yes' if good else 'NO'})"]
                    if not good:
                        failures.append(task.id)
            else:
                row += ["-", "-", "-"]
        oracle = solve(PlanningProblem(graph, goal))
        t0 = time.perf_counter()
        problem = PDDLReader().parse_problem_string(files.domain, files.problem)
        t1 = time.perf_counter()
        plan = PDDLReader().parse_plan_string(problem, plan_pddl(oracle.plan))
        t2 = time.perf_counter()
        result = SequentialPlanValidator().validate(problem, plan)
        t3 = time.perf_counter()
        up_times.append(t3 - t2)
        ok = result.status is ValidationResultStatus.VALID
        row += [
            f"{t1 - t0:.2f}",
            f"{t3 - t2:.2f}" + ("" if ok else " INVALID"),
            str(len(plan.actions)),
        ]
        print(" | ".join(row), flush=True)
    if fd_times:
        print(
            f"Fast Downward lama-first: wall median {statistics.median(fd_times):.2f} s, "
            f"max {max(fd_times):.2f} s; CPU median {statistics.median(fd_cpu):.2f} s, "
            f"max {max(fd_cpu):.2f} s over {len(fd_times)} tasks; "
            f"no plan or wrong plan: {', '.join(failures) or 'none'}"
        )
    print(
        f"unified-planning validation: median {statistics.median(up_times):.2f} s, "
        f"max {max(up_times):.2f} s over {len(up_times)} oracle plans"
    )


def size_table(rooms_list: list[int]) -> None:
    print("rooms | nodes | problem MB | domain KB | export s")
    for rooms in rooms_list:
        graph = from_dict(synthetic_building(rooms))
        objects = [n.id for n in graph if n.kind.value == "object"]
        _, last = first_and_last_room(rooms)
        t0 = time.perf_counter()
        files = export_pddl(graph, f"in_room({objects[0]}, {last})")
        elapsed = time.perf_counter() - t0
        print(
            f"{rooms} | {len(graph)} | {len(files.problem.encode()) / 1e6:.1f} | "
            f"{len(files.domain) / 1024:.0f} | {elapsed:.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=30, help="the first N Office tasks")
    parser.add_argument("--rooms", type=int, nargs="*", default=[100, 1000])
    parser.add_argument("--skip-fd", action="store_true", help="do not run Fast Downward")
    args = parser.parse_args()
    size_table(args.rooms)
    office_table(args.tasks, args.skip_fd)


if __name__ == "__main__":
    main()
