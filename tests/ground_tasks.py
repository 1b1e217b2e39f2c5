"""Tiny ground tasks built by hand, shared by the tests of the search back ends."""

from __future__ import annotations

from sceneplan.symbolic.task import CondEffect, FactTable, GroundAction, GroundTask


class Builder:
    """Facts by name, actions by keyword; `task` closes it."""

    def __init__(self) -> None:
        self.table = FactTable()
        self.actions: list[GroundAction] = []

    def f(self, *names: str) -> frozenset[int]:
        return self.table.many((n,) for n in names)

    def when(self, pre=(), neg=(), add=(), delete=()) -> CondEffect:
        return CondEffect(self.f(*pre), self.f(*neg), self.f(*add), self.f(*delete))

    def action(self, name, pre=(), neg=(), add=(), delete=(), effects=()) -> GroundAction:
        a = GroundAction(
            name, None, self.f(*pre), self.f(*neg), self.f(*add), self.f(*delete), tuple(effects)
        )
        self.actions.append(a)
        return a

    def task(self, init=(), goal=(), goal_neg=()) -> GroundTask:
        init_ids, goal_ids, neg_ids = self.f(*init), self.f(*goal), self.f(*goal_neg)
        return GroundTask(self.table.facts, init_ids, goal_ids, neg_ids, list(self.actions))


def execute(task: GroundTask, plan: list[int]) -> frozenset[int]:
    """Run a plan of action indices, failing on an inapplicable step."""
    state = task.init
    for step, index in enumerate(plan):
        action = task.actions[index]
        assert action.applicable(state), f"step {step} ({action.name}) is not applicable"
        state = action.apply(state)
    return state


def names(task: GroundTask, plan: list[int]) -> list[str]:
    return [task.actions[i].name for i in plan]


def chain(n: int, distractors: int = 0) -> GroundTask:
    """p0 -> p1 -> ... -> pn, one action per link, listed in reverse, plus independent toggles."""
    b = Builder()
    for i in reversed(range(n)):
        b.action(f"step{i}", pre=[f"p{i}"], add=[f"p{i + 1}"], delete=[f"p{i}"])
    for j in range(distractors):
        b.action(f"set{j}", neg=[f"d{j}"], add=[f"d{j}"])
        b.action(f"clear{j}", pre=[f"d{j}"], delete=[f"d{j}"])
    return b.task(init=["p0"], goal=[f"p{n}"])


def trap(toggles: int) -> GroundTask:
    """Solvable when deletes are ignored, unsolvable in fact: `win` needs x and y,
    and setting either clears the other. The toggles multiply the states."""
    b = Builder()
    b.action("set_x", add=["x"], delete=["y"])
    b.action("set_y", add=["y"], delete=["x"])
    for j in range(toggles):
        b.action(f"set{j}", neg=[f"d{j}"], add=[f"d{j}"])
        b.action(f"clear{j}", pre=[f"d{j}"], delete=[f"d{j}"])
    b.action("win", pre=["x", "y"], add=["goal"])
    return b.task(goal=["goal"])


class LateClock:
    """A clock for a search whose deadline counts this thread's CPU (`time.thread_time`):
    the deadline is taken at 0, every later reading is long past it."""

    def __init__(self) -> None:
        self.readings = 0

    def thread_time(self) -> float:
        self.readings += 1
        return 0.0 if self.readings == 1 else 1e9
