"""The LAPKT back end: BFS(f), the planner of the SCLPlan paper, fed our ground task.

LAPKT runs in a worker process: it prints to file descriptor 1, its memory
grows with every solve and is never freed, and it cannot be interrupted. The
worker is reused for `RECYCLE_AFTER` solves and then replaced; a solve that
overruns its timeout kills the worker.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

from sceneplan.errors import BackendUnavailableError
from sceneplan.symbolic.gbfs import SearchOutcome
from sceneplan.symbolic.task import GroundTask

RECYCLE_AFTER = 100
# LAPKT's BFS(f) gives up after its own budget, reporting no plan.
_LAPKT_BUDGET_S = 60.0


def _payload(task: GroundTask) -> dict:
    negated = set(task.goal_neg)
    for a in task.actions:
        negated |= a.neg
        for e in a.effects:
            negated |= e.neg
    return {
        "facts": len(task.facts),
        "negated": sorted(negated),
        "init": sorted(task.init),
        "goal": [(f, False) for f in sorted(task.goal)]
        + [(f, True) for f in sorted(task.goal_neg)],
        "actions": [
            (
                [(f, False) for f in sorted(a.pre)] + [(f, True) for f in sorted(a.neg)],
                [(f, False) for f in sorted(a.add)] + [(f, True) for f in sorted(a.delete)],
                [
                    (
                        [(f, False) for f in sorted(e.pre)] + [(f, True) for f in sorted(e.neg)],
                        [(f, False) for f in sorted(e.add)] + [(f, True) for f in sorted(e.delete)],
                    )
                    for e in a.effects
                ],
                a.cost,
            )
            for a in task.actions
        ],
    }


def _solve_in_worker(payload: dict, folder: str) -> list[int] | None:
    from lapkt.core.lib import planner

    p = planner.BFS_f_Planner()
    for i in range(payload["facts"]):
        p.add_atom(f"f{i}")
    p.notify_negated_conditions(payload["negated"])
    p.create_negated_fluents()  # after the atoms and before the actions, or LAPKT crashes
    for index, (pre, eff, conditional, cost) in enumerate(payload["actions"]):
        p.add_action(f"a{index}", False)
        p.add_precondition(index, pre)
        p.add_effect(index, eff)
        for cond, ceff in conditional:
            p.add_cond_effect(index, cond, ceff)
        p.set_cost(index, float(cost))
    p.set_init([(f, False) for f in payload["init"]])
    p.set_goal(payload["goal"])
    plan_file = Path(folder) / "plan.txt"
    plan_file.unlink(missing_ok=True)
    p.plan_filename = str(plan_file)
    p.log_filename = str(Path(folder) / "search.log")
    p.setup(True)
    p.solve()
    if not plan_file.exists():
        return None
    names = plan_file.read_text().split()
    return [int(n.strip("()").lower().removeprefix("a")) for n in names if n.strip()]


def _worker(conn: Connection) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # LAPKT writes progress to stdout
    with tempfile.TemporaryDirectory(prefix="sceneplan-lapkt-") as folder:
        while True:
            payload = conn.recv()
            if payload is None:
                return
            conn.send(_solve_in_worker(payload, folder))


class LapktBFSf:
    """BFS(f) from LAPKT in a recycled worker process."""

    name = "bfsf"

    def __init__(self) -> None:
        try:
            import lapkt.core.lib.planner  # noqa: F401
        except ImportError:
            raise BackendUnavailableError(
                "the 'bfsf' planner needs LAPKT: pip install 'sceneplan[lapkt]'"
            ) from None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._solves = 0

    def _start(self) -> Connection:
        if self._process is None or not self._process.is_alive() or self._solves >= RECYCLE_AFTER:
            self.close()
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            self._process = context.Process(target=_worker, args=(child,), daemon=True)
            self._process.start()
            child.close()
            self._conn, self._solves = parent, 0
        assert self._conn is not None
        return self._conn

    def close(self) -> None:
        """Stop the worker process, if one is running."""
        if self._process is not None:
            if self._process.is_alive() and self._conn is not None:
                with contextlib.suppress(OSError):
                    self._conn.send(None)
                self._process.join(timeout=1)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()
        self._process = self._conn = None

    def search(self, task: GroundTask, timeout: float) -> SearchOutcome:
        conn = self._start()
        started = time.perf_counter()
        conn.send(_payload(task))
        self._solves += 1
        if not conn.poll(timeout):
            self.close()
            return SearchOutcome("timeout", [])
        try:
            plan = conn.recv()
        except EOFError:
            self.close()
            raise BackendUnavailableError("the LAPKT worker process died during a solve") from None
        if plan is None:
            overran = time.perf_counter() - started >= _LAPKT_BUDGET_S
            return SearchOutcome("timeout" if overran else "unsolvable", [])
        return SearchOutcome("plan", plan)
