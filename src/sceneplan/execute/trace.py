"""What the executor writes in the Episode: one `WorldStep` per action sent, and its record.

The record (`ExecutionRecord`, planners/records.py) starts with the robot and the
planner's plan (`start_record`), gains the skill calls and belief updates of each step
(`record_step`), the rounds and searches as they happen, and is tallied at the end
(`tally`). docs/execute.md ("The trace") describes it for readers of the JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sceneplan.execute.robot import Robot
from sceneplan.execute.skills import SkillCall, SkillResult
from sceneplan.planners.episode import Episode, WorldStep
from sceneplan.planners.records import CallRecord, ExecutionRecord, Planned, Round, UpdateRecord
from sceneplan.world.actions import Action
from sceneplan.world.reconcile import ADDING, FORGETTING, Change

FORMAT = "sceneplan-execution"
VERSION = 1
# Kinds of belief updates that correct the map (not the robot's own moves and grasps).
CORRECTIONS = frozenset({"moved", "missing", "found", "new", "state", "locked", "blocked"})
# Where a step's belief updates are listed in its WorldStep, by the kinds reconcile gives
# (others: "corrected"); only the node itself, not what a missing one took along.
_STEP_LISTS = dict.fromkeys(ADDING, "added") | dict.fromkeys(FORGETTING, "forgotten")


def robot_record(robot: Robot) -> ExecutionRecord:
    """A new record for a run on `robot`, its description (`Robot.describe()`) filled in."""
    described = robot.describe()
    known = {k: v for k, v in described.items() if k in ExecutionRecord.__struct_fields__}
    return ExecutionRecord(**known)


def record_of(episode: Episode) -> ExecutionRecord:
    """The record `start_record` put in `episode`."""
    assert episode.execute is not None, "the executor records only in a run it started"
    return episode.execute


def start_record(
    episode: Episode,
    robot: Robot,
    planned: list[Action],
    *,
    closed_loop: bool,
    replanner: str | None,
    max_replans: int,
) -> ExecutionRecord:
    """Start the record of running the planner's plan (`planned`, without its ending
    action) in `episode`, keeping what the planner made; the Episode's plan is then emptied
    to hold the actions the robot carries out."""
    record = robot_record(robot)
    record.format, record.version = FORMAT, VERSION
    record.closed_loop, record.replanner, record.max_replans = closed_loop, replanner, max_replans
    record.planned = Planned(
        plan=list(episode.plan),
        full_plan=list(episode.full_plan),
        replans=episode.replans,
        executable=episode.executable,
        status=episode.status.value,
        goal_reached=episode.goal_reached,
    )
    record.rounds = [Round(round=0, source="planner", at_step=0, plan=[str(a) for a in planned])]
    record.fault_free_steps = len(planned)
    episode.execute = record
    episode.plan, episode.full_plan, episode.action_sources = [], [], []
    episode.replans = 0
    episode.error, episode.error_type, episode.failure = None, None, None
    return record


def record_step(
    episode: Episode,
    action: Action,
    call: SkillCall,
    result: SkillResult,
    expected: list[dict[str, Any]],
    updates: list[Change],
    reached: Iterable[tuple[SkillCall, SkillResult]] = (),
) -> None:
    """One action sent: its WorldStep, its skill calls (`reached`: those made first to
    reach the thing, then `call`) and the belief's updates; the plan gains the action
    when it ran."""
    index = len(episode.steps)
    lists: dict[str, list[str]] = {"added": [], "forgotten": [], "corrected": []}
    for update in updates:
        listed = lists[_STEP_LISTS.get(update.kind, "corrected")]
        if update.node not in listed:
            listed.append(update.node)
    episode.steps.append(
        WorldStep(
            index=index,
            action=str(action),
            executed=str(call) if result.ok else None,
            ok=result.ok,
            feedback=result.message or ("ok" if result.ok else "failed"),
            cause=result.reason.value if result.reason else None,
            agent_at=result.at,
            observations=[s.to_observation().to_dict() for s in result.seen],
            expected=expected,
            **lists,
        )
    )
    record = record_of(episode)
    for made, answer in (*reached, (call, result)):
        record.calls.append(CallRecord(step=index, call=made.to_dict(), result=answer.to_dict()))
    record.updates += [
        UpdateRecord(step=index, kind=u.kind, node=u.node, before=u.before, after=u.after)
        for u in updates
    ]
    if result.ok:
        episode.plan.append(str(action))


def tally(record: ExecutionRecord) -> None:
    """The record's counts from its lists (once `steps` is set): skill calls, the searches'
    cost, the corrections of the map, the steps beyond the fault-free plan, the failures."""
    record.skill_calls = len(record.calls)
    record.search_calls = sum(s.calls for s in record.searches)
    record.search_metres = round(sum(s.metres for s in record.searches), 2)
    record.search_seen = sum(s.seen for s in record.searches)
    record.corrections = sum(u.kind in CORRECTIONS for u in record.updates)
    record.extra_steps = record.steps - (record.fault_free_steps or 0)
    record.failed_steps = sum(not c.ok for c in record.calls)
