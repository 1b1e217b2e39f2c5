"""Acting in the simulator one action at a time, recording which component proposed each.

The ReAct-family planners (react, react_pv, sclplan) execute as they plan.
An action that runs joins the Episode's plan with its source: "planner" (the
global symbolic plan), "pv" (steps precondition verification inserted) or
"react" (the model's own). An action the simulator rejects changes nothing
and is not part of the plan: it is recorded as a failed step and becomes the
model's next observation. `finish` writes the metrics of SCLPlan Tables III
and IV to `Episode.sclplan`.

In ALFWorld the environment ends the episode: the moment the task's goal
holds (`reached`), the episode is over and won, whichever component's step
got it there, and no step follows (ALFWorld's `done` flag). Elsewhere the
planner ends its run (`done()`, or the goal it wrote holding).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sceneplan.errors import GoalParseError
from sceneplan.planners.base import Run
from sceneplan.planners.episode import Episode
from sceneplan.planners.records import SclplanMetrics
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.simulator import Failure
from sceneplan.world.state import WorldState

SOURCES = ("planner", "pv", "react")


def env_steps(episode: Episode) -> int:
    """Environment steps as SCLPlan counts them (Tables I-III): actions sent to the
    environment to run (simulator `step` calls, refused ones included). Precondition
    checks are not steps (`checks`); neither are views nor whole-plan verifications."""
    return sum(call.op == "step" for call in episode.sim_calls)


def checks(episode: Episode) -> int:
    """Precondition checks (PV asking whether an action can run): counted apart from steps."""
    return sum(call.op == "check" for call in episode.sim_calls)


@dataclass
class Execution:
    """The world as the actions so far left it, and the counts behind the metrics."""

    run: Run
    state: WorldState
    pv: bool  # whether precondition verification is on (its rates are None otherwise)
    react_predictions: int = 0  # model replies asked for a next action
    react_invalid: int = 0  # of those, actions that could not run as proposed
    pv_corrected: int = 0  # of those, actions PV made executable
    symbolic_s: float = 0.0  # time in the symbolic planner (global plan and PV)
    last_failure: Failure | None = None
    info: dict[str, Any] = field(default_factory=dict)  # a planner's own metrics (its goal, ...)
    observed: set[str] | None = None  # the assets and objects the model was shown (for NRR)
    end: Formula | None = None  # the goal whose holding ends the episode (ALFWorld's)

    @classmethod
    def start(cls, run: Run, pv: bool) -> Execution:
        """Start from the run's initial world (in ALFWorld, with the task's goal as its end)."""
        state = run.simulator.initial_state()
        run.final_state = state
        return cls(run, state, pv, end=environment_end(run))

    @property
    def reached(self) -> bool:
        """Whether the environment has ended the episode: its goal holds (ALFWorld only)."""
        return self.end is not None and self.end.holds(self.state)

    def step(self, action: Action, source: str) -> Failure | None:
        """Run one action; if it runs, it joins the plan with its source, else the failure."""
        new, failure = self.run.simulator.step(self.state, action)
        if failure is not None:
            self.reject(failure, "step")
            return failure
        self.run.record_sim("step", str(action), True, f"{action} succeeded")
        self.state = self.run.final_state = new
        episode = self.run.episode
        episode.plan.append(str(action))
        episode.full_plan.append(str(action))
        episode.action_sources.append(source)
        return None

    def steps(self, actions: Iterable[Action], source: str) -> Failure | None:
        """Run actions in order up to the first that fails (that failure), or until the
        environment ends the episode (None, as when all ran)."""
        for action in actions:
            if self.reached:
                break
            failure = self.step(action, source)
            if failure is not None:
                return failure
        return None

    def reject(self, failure: Failure, op: str) -> None:
        """Record an action that could not run: a failed "step", or a "check" before PV."""
        self.last_failure = failure
        self.run.record_sim(op, str(failure.action), False, failure.message, failure.cause.value)

    def finish(self, ended: bool) -> None:
        """Judge the run and write its metrics; `ended`: by done() or by reaching the goal.

        The plan holds only actions that ran, so it is executable when the run
        ended as it should; otherwise the last rejection is the Episode's failure.
        """
        episode = self.run.episode
        episode.executable = ended
        failure = None if ended else self.last_failure
        episode.failure = failure.to_dict() if failure is not None else None
        episode.sclplan = self.metrics()
        if self.observed is not None:
            episode.observed = sorted(self.observed)

    def metrics(self) -> SclplanMetrics:
        """SCLPlan Tables III-IV for this run: steps, action sources, invalid predictions, PV."""
        episode = self.run.episode
        counts = {source: episode.action_sources.count(source) for source in SOURCES}
        total = sum(counts.values())
        return SclplanMetrics(
            env_steps=env_steps(episode),
            checks=checks(episode),
            actions=counts,
            fractions={s: (n / total if total else None) for s, n in counts.items()},
            react_predictions=self.react_predictions,
            react_invalid=self.react_invalid,
            react_invalid_rate=_ratio(self.react_invalid, self.react_predictions),
            pv_corrected=self.pv_corrected if self.pv else None,
            pv_corrected_rate=_ratio(self.pv_corrected, self.react_invalid) if self.pv else None,
            symbolic_s=round(self.symbolic_s, 6),
            **self.info,
        )


def environment_end(run: Run) -> Formula | None:
    """The goal whose holding ends the episode in the environment itself: where the
    vocabulary says so (`ends_when_goal_holds`: ALFWorld stops a game the moment it is
    won), the task's; elsewhere none."""
    task = run.task
    if not run.simulator.vocabulary.ends_when_goal_holds or task is None or task.goal is None:
        return None
    try:
        return parse_goal(task.goal, run.graph)
    except GoalParseError:
        return None  # `finish_episode` reports the task's unreadable goal


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None
