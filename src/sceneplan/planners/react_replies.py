"""The JSON replies the ReAct-family planners (react, react_pv, sclplan) ask the model for.

As in `replies`, every field is required and no others are allowed, so the
schemas qualify for strict structured output.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RoomsReply(BaseModel):
    """The rooms to show in full when the whole scene graph is too large for the prompt."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str
    rooms: list[str] = Field(description="ids of the rooms the task needs")


class GoalReply(BaseModel):
    """SCLPlan Phase 1: the instruction as a formula of the goal language."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str
    goal: str = Field(description="a goal-language formula over node ids")


class ActionReply(BaseModel):
    """One ReAct step: a thought, then the next action (`done()` when the task is complete)."""

    model_config = ConfigDict(extra="forbid")

    thought: str
    action: str = Field(description="the next action, written as name(node id)")
