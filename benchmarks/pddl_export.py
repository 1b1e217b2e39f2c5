"""The exported PDDL in standard tools: Fast Downward, unified-planning's validator, file size.

Run `python benchmarks/pddl_export.py [--tasks N] [--rooms 100 1000] [--skip-fd]`.

1. Fast Downward (lama-first, the `up-fast-downward` wheel of the `symbolic`
   extra, run on the files `sceneplan pddl --task` writes) on every Office
   task's whole-graph problem: wall time of translate + search, and whether
   its plan runs in our simulator and reaches the goal. Target: <= 10 s each.
2. unified-planning's SequentialPlanValidator on each Office oracle plan
   (`symbolic.solve`), on the whole-graph problem. Target: <= 1 s each (the
   parse of the problem is printed apart; it is paid once per problem).
   And on each task's focused problem (`sceneplan pddl --focus`).
3. The size of the whole-graph problem of a synthetic building
   (`benchmarks/synthetic.py`, 40 items per room) at 100 and 1,000 rooms.
   Target: <= 20 MB at 1,000 rooms.
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from synthetic import first_and_last_room, synthetic_building  # benchmarks/ is sys.path[0]

from sceneplan.datasets.tasks import load_suite
from sceneplan.graph import from_dict
from sceneplan.runs import resolve
from sceneplan.symbolic.pddl import (
    PDDLFiles,
    export_pddl,
    focused_problem,
    plan_from_pddl,
    plan_pddl,
)
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.textinput import Sexp, parse_sexp, show_sexp
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


# lama-first's relaxation heuristics compute negated axioms exactly, which exhausted memory
# while the domain's preconditions about hidden choices were axioms (they are fluents and
# existentials now); its FF half with negated axioms approximated is measured beside it.
FF_APPROX = (
    "lazy_greedy([ff(axioms=approximate_negative)],preferred=[ff(axioms=approximate_negative)])"
)
CONFIGS = {
    "lama-first": ["--alias", "lama-first"],
    "ff-approx": ["--search", FF_APPROX],
    "ff": ["--search", "lazy_greedy([ff()],preferred=[ff()])"],
}


@dataclass
class FDRun:
    """One Fast Downward component run: wall and CPU seconds, plan steps (None: no plan)."""

    wall: float
    cpu: float
    plan_text: str | None = None
    failure: str = ""


def run_fast_downward(script: Path, folder: Path, config: str | None = None) -> FDRun:
    """Translate folder's domain and problem (config None), or search its output.sas.

    The machine may be shared: CPU time is what the planner itself costs (the
    driver's children), wall time what the user waits here.
    """
    plan_file = folder / "sas_plan"
    plan_file.unlink(missing_ok=True)
    cmd = [sys.executable, str(script), "--plan-file", str(plan_file)]
    cmd += ["--overall-time-limit", f"{FD_LIMIT_S:.0f}s", "--overall-memory-limit", FD_MEMORY]
    if config is None:
        cmd += ["--translate", str(folder / "domain.pddl"), str(folder / "problem.pddl")]
    else:
        alias = CONFIGS[config]
        cmd += (
            [*alias[:2], str(folder / "output.sas")]
            if alias[0] == "--alias"
            else [
                str(folder / "output.sas"),
                *alias,
            ]
        )
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
        run = FDRun(time.perf_counter() - start, _children_cpu() - before)
        run.failure = f"time limit, {FD_LIMIT_S:.0f} s"
        return run
    run = FDRun(time.perf_counter() - start, _children_cpu() - before)
    text = log.decode(errors="replace")
    if config is None:
        run.failure = "" if (folder / "output.sas").exists() else "translate failed"
        return run
    if plan_file.exists():
        run.plan_text = plan_file.read_text()
    elif "Memory limit has been reached" in text:
        run.failure = f"out of memory, {FD_MEMORY}"
    elif "Time limit has been reached" in text:
        run.failure = f"time limit, {FD_LIMIT_S:.0f} s"
    else:
        run.failure = "no solution"
    return run


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def office_table(count: int, skip_fd: bool, start: int = 0) -> None:
    import unified_planning.shortcuts as ups
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader

    ups.get_environment().credits_stream = None
    script = None if skip_fd else fast_downward_script()
    if not skip_fd and script is None:
        print("Fast Downward: not installed (pip install 'sceneplan[symbolic]'); columns skipped")
    print(
        "task | problem KB | FD translate wall/CPU s | lama-first search wall/CPU s (plan) | "
        "ff-approx search wall/CPU s (plan) | UP parse s | UP validate s | oracle steps"
    )
    totals: dict[str, list[float]] = {"translate": [], "lama-first": [], "ff-approx": []}
    solved: dict[str, list[str]] = {"lama-first": [], "ff-approx": []}
    up_times: list[float] = []
    tasks = load_suite("office-planning")[start:count]
    for task in tasks:
        graph = resolve(task).graph
        goal = parse_goal(task.goal, graph)
        files = export_pddl(graph, goal)
        row = [task.id, f"{len(files.problem) / 1024:.0f}"]
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files.write(folder)
            if script is not None:
                translated = run_fast_downward(script, folder)
                totals["translate"].append(translated.cpu)
                row.append(f"{translated.wall:.1f}/{translated.cpu:.1f} {translated.failure}")
                for config in ("lama-first", "ff-approx"):
                    if translated.failure:
                        row.append("-")
                        continue
                    run = run_fast_downward(script, folder, config)
                    totals[config].append(translated.cpu + run.cpu)
                    if run.plan_text is None:
                        row.append(f"{run.wall:.1f}/{run.cpu:.1f} ({run.failure})")
                        continue
                    steps = plan_from_pddl(run.plan_text, graph)
                    verdict = Simulator(graph).verify_plan(parse_plan(steps))
                    good = verdict.ok and goal.holds(verdict.final_state)
                    if good:
                        solved[config].append(task.id)
                    ok = "valid" if good else "WRONG"
                    row.append(f"{run.wall:.1f}/{run.cpu:.1f} ({len(steps)} steps, {ok})")
            else:
                row += ["-", "-", "-"]
        oracle = solve(PlanningProblem(graph, goal))
        t0 = time.perf_counter()
        problem = PDDLReader().parse_problem_string(files.domain, files.problem)
        t1 = time.perf_counter()
        plan = PDDLReader().parse_plan_string(problem, plan_pddl(oracle.plan, graph))
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
    if totals["translate"]:
        for config in ("lama-first", "ff-approx"):
            cpu = totals[config]
            print(
                f"Fast Downward {config} (translate + search, CPU): solved {len(solved[config])}/"
                f"{len(tasks)}; median {statistics.median(cpu):.1f} s, max {max(cpu):.1f} s"
            )
    print(
        f"unified-planning validation: median {statistics.median(up_times):.2f} s, "
        f"max {max(up_times):.2f} s over {len(up_times)} oracle plans"
    )


def focused_table(count: int) -> None:
    """Fast Downward on each Office task's focused problem (`sceneplan pddl --focus`)."""
    script = fast_downward_script()
    if script is None:
        print("Fast Downward: not installed; focused table skipped")
        return
    times, cpus, lengths = [], [], []
    for task in load_suite("office-planning")[:count]:
        graph = resolve(task).graph
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            focused_problem(graph, task.goal).write(folder)
            translated = run_fast_downward(script, folder)
            run = run_fast_downward(script, folder, "lama-first")
        times.append(translated.wall + run.wall)
        cpus.append(translated.cpu + run.cpu)
        lengths.append(len(plan_from_pddl(run.plan_text, graph)) if run.plan_text else -1)
    solved = sum(n >= 0 for n in lengths)
    print(
        f"Fast Downward lama-first on the focused problems: {solved}/{len(times)} solved; "
        f"wall median {statistics.median(times):.2f} s, max {max(times):.2f} s; "
        f"CPU median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s"
    )


def _dnf(x: Sexp, negated: bool = False) -> list[frozenset[str]]:
    """A goal's disjunctive normal form, as sets of literal texts: contradictory terms
    dropped, and terms another term's subset implies (quantified parts stay whole)."""

    def minimal(terms: list[frozenset[str]]) -> list[frozenset[str]]:
        out: list[frozenset[str]] = []
        for term in sorted(set(terms), key=len):
            if not any(kept <= term for kept in out):
                out.append(term)
        return out

    if isinstance(x, list) and x and x[0] in ("and", "or"):
        conjunction = (x[0] == "and") != negated
        parts = [_dnf(y, negated) for y in x[1:]]
        if not conjunction:
            return minimal([t for part in parts for t in part])
        out = [frozenset()]
        for part in sorted(parts, key=len):
            out = minimal(
                [a | b for a in out for b in part if not any(f"(not {p})" in a | b for p in a | b)]
            )
        return out
    if isinstance(x, list) and x and x[0] == "not":
        return _dnf(x[1], not negated)
    return [frozenset([f"(not {show_sexp(x)})" if negated else show_sexp(x)])]


def goal_actions(files: PDDLFiles) -> tuple[PDDLFiles, int]:
    """The problem with its goal as actions, one per term of the goal's disjunctive normal
    form, each adding `(goal_reached)`, the new goal (the compilation unified-planning's
    Fast Downward integration applies so that the translator makes no goal axiom). The
    goal's objects become parameters bound by static `(goal_arg_K ?x)` facts, so the
    domain needs no constants."""
    head, _, goal = files.problem.rpartition("(:goal ")
    objects = set(re.findall(r"[a-z][a-z0-9_\-]*", head[head.index("(:objects") :]))
    index: dict[str, int] = {}
    actions = []
    name = re.compile(r"(?<=\s)[a-z][a-z0-9_\-]*(?=[\s)])")
    for k, term in enumerate(_dnf(parse_sexp(goal.rstrip()[:-2]))):
        text = " ".join(sorted(term))
        names = list(dict.fromkeys(n for n in name.findall(text) if n in objects))
        for n in names:
            index.setdefault(n, len(index))
        body = name.sub(lambda m: f"?g{index[m[0]]}" if m[0] in objects else m[0], text)
        params = " ".join(f"?g{index[n]} - object" for n in names)
        binds = " ".join(f"(goal_arg_{index[n]} ?g{index[n]})" for n in names)
        actions.append(
            f"  (:action reach_goal_{k}\n    :parameters ({params})\n"
            f"    :precondition (and {binds} {body})\n    :effect (goal_reached))"
        )
    declared = " ".join(f"(goal_arg_{i} ?x - object)" for i in index.values())
    domain = files.domain.replace("(:predicates", f"(:predicates (goal_reached) {declared}", 1)
    domain = domain.rstrip()[:-1] + "\n" + "\n".join(actions) + ")\n"
    facts = " ".join(f"(goal_arg_{i} {node})" for node, i in index.items())
    problem = head.replace("(:init", f"(:init {facts}", 1) + "(:goal (goal_reached)))\n"
    return PDDLFiles(domain, problem), len(actions)


def disjunctive_table(task_id: str) -> None:
    """One task's whole-graph problem as exported and with its goal as goal actions, under
    lama-first and lazy greedy search with FF alone: which part of lama-first stalls."""
    script = fast_downward_script()
    if script is None:
        print("Fast Downward: not installed; disjunctive table skipped")
        return
    task = next(t for t in load_suite("office-planning") if t.id == task_id)
    graph = resolve(task).graph
    goal = parse_goal(task.goal, graph)
    exported = export_pddl(graph, goal)
    compiled, count = goal_actions(exported)
    print(f"{task_id}: goal as exported (an axiom) and as {count} goal actions")
    print("form | translate CPU s | config | search CPU s (plan)")
    for form, files in (("exported", exported), ("goal actions", compiled)):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files.write(folder)
            translated = run_fast_downward(script, folder)
            for config in ("lama-first", "ff-approx" if form == "exported" else "ff"):
                run = run_fast_downward(script, folder, config)
                if run.plan_text is None:
                    outcome = run.failure
                else:
                    steps = plan_from_pddl(run.plan_text, graph)
                    steps = [s for s in steps if not s.startswith("reach_goal")]
                    verdict = Simulator(graph).verify_plan(parse_plan(steps))
                    good = verdict.ok and goal.holds(verdict.final_state)
                    outcome = f"{len(steps)} steps, {'valid' if good else 'WRONG'}"
                print(f"{form} | {translated.cpu:.1f} | {config} | {run.cpu:.1f} ({outcome})")


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


def export_time_table(suites: list[str]) -> None:
    """CPU time to export every goal task of each suite, whole-graph, in this process (one
    warm-up export first; the start states are resolved before the clock starts)."""
    print("suite | goal tasks | export s CPU")
    for suite in suites:
        starts = [(resolve(t, t.environment).graph, t.goal) for t in load_suite(suite) if t.goal]
        export_pddl(*starts[0])
        t0 = time.process_time()
        for graph, goal in starts:
            export_pddl(graph, goal)
        print(f"{suite} | {len(starts)} | {time.process_time() - t0:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=30, help="the first N Office tasks")
    parser.add_argument("--start", type=int, default=0, help="skip the first N of those")
    parser.add_argument("--rooms", type=int, nargs="*", default=[100, 1000])
    parser.add_argument("--skip-fd", action="store_true", help="do not run Fast Downward")
    parser.add_argument(
        "--focused-only", action="store_true", help="only Fast Downward on the focused problems"
    )
    parser.add_argument(
        "--disjunctive",
        metavar="TASK",
        help="only this task's problem as exported and with its goal as goal actions",
    )
    parser.add_argument(
        "--export-time",
        metavar="SUITE",
        nargs="*",
        help="only the CPU time to export every goal task of these suites "
        "(default: office-planning, behavior-1k)",
    )
    args = parser.parse_args()
    if args.export_time is not None:
        export_time_table(args.export_time or ["office-planning", "behavior-1k"])
        return
    if args.disjunctive:
        disjunctive_table(args.disjunctive)
        return
    if args.focused_only:
        focused_table(args.tasks)
        return
    size_table(args.rooms)
    if not args.skip_fd:
        focused_table(args.tasks)
    office_table(args.tasks, args.skip_fd, args.start)


if __name__ == "__main__":
    main()
