"""The JSON replies the SayPlan-family planners ask the model for.

Every field is required and no others are allowed, so the schemas qualify for
strict structured output; a reply that does not fit is re-asked once by the
LLM client and then turned into feedback by the planner.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Thought = str | list[str]


class StrictReply(BaseModel):
    """A reply with its declared fields only: the schema of strict structured output."""

    model_config = ConfigDict(extra="forbid")


class ReasonedReply(StrictReply):
    """A reply that opens with the model's chain of thought."""

    chain_of_thought: Thought


class Command(StrictReply):
    """A scene-graph API call of semantic search."""

    name: Literal["expand", "contract"]
    node: str = Field(description="the id of a room, floor or building node")

    def __str__(self) -> str:
        return f"{self.name}({self.node})"


class SearchReply(ReasonedReply):
    """One semantic-search turn: explore with a command, or switch to planning."""

    reasoning: str
    mode: Literal["exploring", "planning"]
    command: Command | None = Field(description="the next expand/contract; null when planning")


def _all_required(schema: dict, cls: type) -> None:
    """Send every property as required (strict structured output), though a reply that
    leaves out a nullable one still validates."""
    properties = schema.get("properties", {})
    schema["required"] = list(properties)
    for prop in properties.values():
        prop.pop("default", None)


class PlanningSearchReply(SearchReply):
    """A search turn of SayPlan's one dialogue (000, Algorithm 1): the reply that switches to
    planning carries the first plan; null (or []) while exploring."""

    model_config = ConfigDict(json_schema_extra=_all_required)

    plan: list[str] | None = Field(
        None, description="with mode planning: the plan, actions as name(node); else null"
    )


class FindReply(SearchReply):
    """A search turn of a search task: the answer is named when the mode switches to planning."""

    answer: list[str] = Field(description="ids of the nodes that answer the instruction")


class PlanReply(ReasonedReply):
    """A task plan: actions written as `name(node)`."""

    reasoning: str
    plan: list[str]


class NextMove(StrictReply):
    """LookPlanGraph's next action (App. A.1): a function and the node it acts on."""

    function_name: str
    function_target: str = Field(
        description="a node id; two, comma-separated, for an action of two (rinse(o, s), "
        "put_on(o, a) with two hands); empty for done"
    )

    def __str__(self) -> str:
        return f"{self.function_name}({self.function_target.strip()})"


class NextMoveReply(ReasonedReply):
    """One LookPlanGraph turn: reasoning, then the next move."""

    next_move: NextMove
