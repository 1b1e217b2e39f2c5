"""The JSON replies the ReAct-family planners (react, react_pv, sclplan) ask the model for.

As in `replies` (`StrictReply`), every field is required and no others are allowed, so the
schemas qualify for strict structured output.
"""

from __future__ import annotations

from pydantic import Field

from sceneplan.planners.replies import StrictReply


class RoomsReply(StrictReply):
    """The rooms to show in full when the whole scene graph is too large for the prompt."""

    reasoning: str
    rooms: list[str] = Field(description="ids of the rooms the task needs")


class GoalReply(StrictReply):
    """SCLPlan Phase 1: the instruction as a goal state in PDDL."""

    reasoning: str
    goal: str = Field(description="a PDDL goal formula over the domain's predicates")


class ActionReply(StrictReply):
    """One ReAct step: a thought, then the next action (`done()` when the task is complete)."""

    thought: str
    action: str = Field(description="the next action, written as name(node id)")
