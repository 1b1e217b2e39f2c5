"""How the executor runs a plan (`ExecutionSettings`), and how a run that cannot go on stops.

`run.execute` and `run.run_plan` take the settings (as an object, or as keywords:
`execute(..., closed_loop=False)`); they are the `Executor`'s defaults too.
"""

from __future__ import annotations

from dataclasses import dataclass

from sceneplan.execute.replan import TIMEOUT_S

MAX_REPLANS = 10  # rounds of replanning after the first plan


@dataclass(frozen=True)
class ExecutionSettings:
    """How the executor runs a plan: what `run.run_plan` takes, and `run.execute` (as an object
    or as keywords: `execute(..., closed_loop=False)`); the `Executor`'s defaults too.

    >>> ExecutionSettings(max_replans=2)
    ExecutionSettings(closed_loop=True, replan='auto', max_replans=2, replan_timeout=15.0, search='greedy')
    """  # noqa: E501

    closed_loop: bool = True  # correct the belief and replan (False: send the plan as it is)
    replan: str = "auto"  # who replans: auto, symbolic or planner (`make_replanner`)
    max_replans: int = MAX_REPLANS  # rounds of replanning after the first plan
    replan_timeout: float = TIMEOUT_S  # seconds for each symbolic replan
    search: str = "greedy"  # how to search (search.ORDERS): greedy, likely, nearest or sweep


DEFAULT_SETTINGS = ExecutionSettings()


class Stop(Exception):
    """The run cannot go on: `reason` says why (the Episode's failure message)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
