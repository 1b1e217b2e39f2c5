"""The skill-call budget of the plan being run: a stop for a robot that keeps failing.

The plan being run (the first, or the last replan's) may make `CALLS_PER_STEP`
skill calls per step, at least `MIN_CALLS`, counted from when it came: a robot
that keeps failing in a way no replan budget counts is stopped with how many
calls failed. Searching and confirming the goal by looking are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from sceneplan.execute.settings import Stop

CALLS_PER_STEP, MIN_CALLS = 4, 50


@dataclass
class CallBudget:
    """Skill calls made (looks aside) and of which failed, against the current plan's budget."""

    calls: int = 0  # skill calls made (searches and confirmations excluded)
    failures: int = 0  # of which failed
    budget: int = 0  # skill calls the plan being run may make
    plan_size: int = 0  # the steps of the plan being run
    since: tuple[int, int] = (0, 0)  # (calls, failures) when it came

    def count(self, ok: bool) -> None:
        """One skill call made for the plan, `ok` or not."""
        self.calls += 1
        self.failures += not ok

    def give(self, steps: int) -> None:
        """Give a plan of `steps` steps, now being run, its budget, counted from here."""
        self.budget = max(MIN_CALLS, CALLS_PER_STEP * steps)
        self.plan_size, self.since = steps, (self.calls, self.failures)

    def check(self, left: int) -> None:
        """Stop (with `left` steps still to run) when the plan has used its budget; say how
        many calls failed (a robot that keeps failing) or that none did."""
        calls, failed = self.calls - self.since[0], self.failures - self.since[1]
        if calls < self.budget:
            return
        made = f"{calls} skill calls made on a plan of {self.plan_size} step(s)"
        if failed:
            raise Stop(f"{made}, {failed} of them failed: the robot keeps failing")
        raise Stop(f"{made}, none failed, and {left} step(s) are still to run")
