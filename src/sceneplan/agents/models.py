"""What the agent tools take and return: pydantic models, so each tool declares its schemas.

The fields are those of the CLI's `--json` output where a command prints the
same thing: a view is `sceneplan graph show --json` (plus what the command
did), a verification `sceneplan verify --json` (plus the feedback sentence),
a solution `sceneplan solve --json`. Each model is built from the library's
own `to_dict` where there is one, so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

# Bounds of the tools' text inputs: far above any node id, goal or plan of the packaged
# suites (the longest reference plan is under 2,000 characters), low enough that a
# client sending megabytes gets a schema error instead of a parse of them.
MAX_NODE = 200
MAX_GOAL = 4_000
MAX_PLAN = 20_000
MAX_STEPS = 1_000
MAX_QUERY = 200
MAX_SOLVE_S = 60.0

NodeId = Annotated[str, Field(min_length=1, max_length=MAX_NODE, description="A node id.")]
GoalText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_GOAL,
        description="A goal formula, e.g. 'full(coffee_mug)' or "
        "'and(closed(fridge), inside_of(orange, fridge))' (docs/goals.md).",
    ),
]
PlanSteps = Annotated[
    str | list[Annotated[str, Field(max_length=MAX_NODE * 4)]],
    Field(
        max_length=MAX_PLAN,
        description="Actions separated by '>' or ',' (e.g. 'goto(kitchen) > access(fridge) > "
        "done()'), or a list of actions. Moves between rooms need no poses: the path "
        "planner inserts them.",
    ),
]


class View(BaseModel):
    """The part of the scene graph the agent sees, as `sceneplan graph show --json` prints it."""

    graph: str = Field(description="The environment's name.")
    level: str = Field(description="How deep the view was collapsed to at first.")
    expanded: list[str] = Field(description="The nodes shown with what is under them.")
    memory: list[str] = Field(description="The nodes expanded so far, in order (SayPlan's memory).")
    visible: int = Field(description="How many nodes are shown.")
    tokens: int = Field(description="Tokens of the view's text (the compact JSON of `view`).")
    view: dict[str, Any] = Field(
        description="The visible nodes by kind, and the links between them."
    )
    message: str = Field("", description="What the command did (expand and contract).")


class NodeMatch(BaseModel):
    """One node `find` matched."""

    id: str
    kind: str
    category: str
    room: str | None = Field(description="The room it is in (None above the rooms).")
    parent: str | None
    state: list[str] = []
    affordances: list[str] = []
    description: str | None = None


class Found(BaseModel):
    """The nodes whose id or category matches a query."""

    query: str
    matches: list[NodeMatch]
    more: int = Field(0, description="Matches left out past the limit.")


class FailureData(BaseModel):
    """Why a plan stopped: the simulator's cause, the step (0-based in `plan`) and message."""

    cause: str
    action: str
    index: int | None
    facts: dict[str, Any] = {}
    message: str


class Verdict(BaseModel):
    """A plan checked in the simulator, as `sceneplan verify --json` prints it, with its
    feedback sentence (the failing step and why, or "plan verified")."""

    ok: bool
    executed: int = Field(description="Steps run before the failure (all of them when ok).")
    plan: list[str] = Field(description="The plan run: the path planner's poses filled in.")
    failure: FailureData | None
    ignored: list[str] = Field(description="Steps after done(), not run.")
    feedback: str


class Solution(BaseModel):
    """What `sceneplan solve --json` prints: the plan found (or why none), its verification
    and whether the goal holds after it; `reason` says in words why there is no plan."""

    status: str = Field(description="plan, unsolvable (no plan exists) or timeout.")
    plan: list[str]
    planner: str
    scope: str
    grounding_s: float
    search_s: float
    validation_s: float
    stats: dict[str, Any]
    goal: str
    verification: Verdict
    goal_reached: bool
    reason: str = ""


class GoalCheck(BaseModel):
    """Whether a goal holds: in the start state, or after a plan."""

    goal: str
    holds: bool
    unmet: list[str] = Field(description="The parts of the goal that do not hold.")
    after: list[str] = Field(description="The plan run first (empty: the start state).")
    verification: Verdict | None = None


class Answered(BaseModel):
    """The nodes named as the answer to a search task."""

    answer: list[str]
    unknown: list[str] = Field(description="Named ids that are not nodes of the graph.")


class Execution(BaseModel):
    """What the robot did: the closed-loop executor's record (docs/execute.md)."""

    status: str = Field(description="success, failed, or error (the robot could not be used).")
    error: str | None = Field(None, description="What stopped the run, for status error.")
    goal_reached: bool | None
    steps: list[dict[str, Any]] = Field(description="Every skill run: action, ok, feedback.")
    record: dict[str, Any] = Field(description="The executor's record (Episode extra 'execute').")
