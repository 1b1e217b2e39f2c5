"""The LAPKT back end: BFS(f), the planner of the SCLPlan paper, fed our ground task.

LAPKT runs in a worker process: it prints to file descriptor 1, its memory
grows with every solve and is never freed, and it cannot be interrupted. The
worker is reused for `RECYCLE_AFTER` solves and then replaced; a solve that
overruns its timeout kills the worker.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pickle
import select
import subprocess
import sys
import tempfile
import time
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


def _serve() -> None:
    """The worker's loop: length-prefixed pickles in on stdin, out on the original stdout."""
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # LAPKT writes its progress to stdout
    requests = sys.stdin.buffer
    with tempfile.TemporaryDirectory(prefix="sceneplan-lapkt-") as folder:
        while header := requests.read(8):
            payload = pickle.loads(requests.read(int.from_bytes(header, "big")))
            body = pickle.dumps(_solve_in_worker(payload, folder))
            replies.write(len(body).to_bytes(8, "big") + body)
            replies.flush()


class LapktBFSf:
    """BFS(f) from LAPKT in a recycled worker process."""

    name = "bfsf"

    def __init__(self) -> None:
        if importlib.util.find_spec("lapkt") is None:
            raise BackendUnavailableError(
                "the 'bfsf' planner needs LAPKT: pip install 'sceneplan[lapkt]'"
            )
        self._process: subprocess.Popen | None = None
        self._solves = 0

    def _start(self) -> subprocess.Popen:
        if (
            self._process is None
            or self._process.poll() is not None
            or (self._solves >= RECYCLE_AFTER)
        ):
            self.close()
            self._process = subprocess.Popen(
                [sys.executable, "-m", "sceneplan.symbolic.lapkt_backend"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self._solves = 0
        return self._process

    def close(self) -> None:
        """Stop the worker process, if one is running."""
        if self._process is not None:
            with contextlib.suppress(OSError):
                self._process.stdin.close()  # type: ignore[union-attr]
            try:
                self._process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            with contextlib.suppress(OSError):
                self._process.stdout.close()  # type: ignore[union-attr]
        self._process = None

    def search(self, task: GroundTask, timeout: float) -> SearchOutcome:
        """The task searched by LAPKT's BFS(f) in its worker process."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        started = time.perf_counter()
        body = pickle.dumps(_payload(task))
        try:
            process.stdin.write(len(body).to_bytes(8, "big") + body)
            process.stdin.flush()
        except OSError:
            self.close()
            raise BackendUnavailableError("the LAPKT worker process is not running") from None
        self._solves += 1
        try:
            ready, _, _ = select.select([process.stdout], [], [], timeout)
        except BaseException:  # its reply would stay unread and answer the next request
            process.kill()
            self.close()
            raise
        if not ready:
            process.kill()
            self.close()
            return SearchOutcome("timeout", [])
        header = process.stdout.read(8)
        if len(header) < 8:
            self.close()
            raise BackendUnavailableError("the LAPKT worker process died during a solve")
        plan = pickle.loads(process.stdout.read(int.from_bytes(header, "big")))
        at_goal = task.goal <= task.init and not (task.goal_neg & task.init)
        if plan == [] and not at_goal:
            plan = None  # LAPKT leaves an empty plan file when BFS(f) finds nothing
        if plan is None:
            overran = time.perf_counter() - started >= _LAPKT_BUDGET_S
            return SearchOutcome("timeout" if overran else "unsolvable", [])
        return SearchOutcome("plan", plan)


if __name__ == "__main__":
    _serve()
