"""The typed records an Episode carries beside its traces: what a run's parts wrote down.

Each is a msgspec Struct hung off the `Episode` as an optional field (None
where the run had no such part): the executor's `ExecutionRecord`, the
partially observing planners' `ObserveStart` and `observed`, the view a
hierarchical planner showed, SCLPlan's and ReAct's `SclplanMetrics`, the
symbolic solver's `SolveRecord`, eval's `EvalFacts`, an agent's `McpRecord`.
In an Episode's JSON they sit under its `"extra"` key, each under its field's
name, with the fields left at their defaults omitted; `read` takes a record
back from that form (an older run's, whose missing fields get their defaults).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from sceneplan.symbolic.solver import SolveResult

__all__ = [
    "CallRecord",
    "Confirmation",
    "EvalFacts",
    "ExecutionRecord",
    "McpRecord",
    "ObserveStart",
    "Planned",
    "RelaxedRecord",
    "Round",
    "SceneShown",
    "SclplanMetrics",
    "SearchRecord",
    "SolveRecord",
    "UpdateRecord",
    "plain",
    "read",
    "solve_record",
]


class _Record(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A record's common form: keyword fields, those at their defaults left out of its JSON.

    pydantic takes a record as msgspec reads it (`read`), so a model or a TypeAdapter
    may have one as a field's type.
    """

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema  # only where pydantic checks an Episode

        return core_schema.no_info_plain_validator_function(lambda data: read(cls, data))


# -- the executor's (execute/executor.py) -------------------------------------------------


class Planned(_Record):
    """The planner's result, as it was before the executor ran its plan."""

    plan: list[str] = []
    full_plan: list[str] = []
    replans: int = 0
    executable: bool | None = None
    status: str = "failed"
    goal_reached: bool | None = None


class Round(_Record):
    """One round of planning: the planner's first plan (round 0), a replan or a search."""

    round: int
    source: str  # "planner", "search" or the replanner's name
    at_step: int  # the steps run before it
    reason: str | None = None  # what made the round necessary
    plan: list[str] | None = None  # None: the round made no plan (a search, a failed replan)
    note: str | None = None
    time_s: float | None = None


class CallRecord(_Record):
    """One skill call the robot was sent, as the robot protocol writes call and result."""

    step: int  # the WorldStep it belongs to
    call: dict[str, Any]  # SkillCall.to_dict()
    result: dict[str, Any]  # SkillResult.to_dict()

    @property
    def ok(self) -> bool:
        """Whether the robot did what the call asked."""
        return bool(self.result.get("ok"))


class UpdateRecord(_Record):
    """One change the executor made to its belief after a step (a `world.reconcile.Change`)."""

    step: int
    kind: str
    node: str
    before: str | None = None
    after: str | None = None


class SearchRecord(_Record):
    """One search for objects the goal names that the robot lost sight of, and its cost."""

    lost: list[str]
    order: str  # search.ORDERS
    llm_rooms: list[str] | None = None  # the rooms the LLM named, in its order
    llm_note: str | None = None
    looked: int = 0  # assets the search went to look at
    seen: int = 0  # assets the robot saw while searching
    calls: int = 0  # skill calls it took
    metres: float = 0.0
    found: bool = False


class Confirmation(_Record):
    """A look at a goal's node that rested on memory alone, before the goal was declared."""

    node: str
    asset: str
    step: int


class ExecutionRecord(_Record):
    """What the executor did with a plan: the robot, the rounds, the calls and their cost.

    A plan that was not executable is not sent: the record is then the robot's
    description and `skipped`, why.
    """

    # the robot (Robot.describe())
    robot: str = ""
    url: str | None = None
    faults: str | None = None
    seed: int | None = None
    stream: str | None = None
    skipped: str | None = None
    format: str | None = None
    version: int | None = None
    closed_loop: bool | None = None
    replanner: str | None = None
    max_replans: int | None = None
    planned: Planned | None = None
    rounds: list[Round] = []
    calls: list[CallRecord] = []
    updates: list[UpdateRecord] = []
    searches: list[SearchRecord] = []
    confirmed: list[Confirmation] = []
    fault_free_steps: int | None = None  # the steps of the first plan
    # the end: why it stopped (None: it ran to the end) and the counts
    stopped: str | None = None
    goal_believed: bool | None = None
    judged_in: str | None = None  # "truth" (a simulator) or "belief"
    steps: int = 0
    skill_calls: int = 0
    looks: int = 0  # skill calls made to search or to confirm
    metres: float = 0.0
    search_calls: int = 0
    search_metres: float = 0.0
    search_seen: int = 0
    corrections: int = 0  # belief updates that corrected the map
    extra_steps: int | None = None  # steps beyond the first plan's
    failed_steps: int = 0
    injected: list[dict[str, Any]] | None = None  # the faults a simulated robot injected
    time_s: float | None = None

    @property
    def ran(self) -> bool:
        """Whether the plan was sent to the robot (not skipped)."""
        return self.skipped is None


# -- the planners' --------------------------------------------------------------------------


class ObserveStart(_Record):
    """How a partially observing run began: its perception and the objects in memory."""

    perception: str = ""
    memory: list[str] = []


class SceneShown(_Record):
    """What a scene prompt showed: all of the graph, or which rooms, and what it ignored."""

    shown: str = "all"
    rooms: list[str] | None = None
    ignored: list[str] = []


class RelaxedRecord(_Record):
    """What a relaxed execution of the plan tolerated: ignored and skipped steps' messages."""

    ignored: list[str] = []
    skipped: list[str] = []


class SolveRecord(_Record):
    """A symbolic solver's result (SolveResult.to_dict()), its plan left out."""

    status: str
    plan: list[str] | None = None
    planner: str | None = None
    scope: str | None = None
    grounding_s: float = 0.0
    search_s: float = 0.0
    validation_s: float = 0.0
    stats: dict[str, Any] = {}


def solve_record(result: SolveResult) -> SolveRecord:
    """What an Episode keeps of a solver's result: all but the plan (the Episode has it)."""
    return SolveRecord(**(result.to_dict() | {"plan": None}))


class SclplanMetrics(_Record):
    """SCLPlan Tables III-IV for one ReAct-style run (planners/execution.py), with SCLPlan's
    goal and global-plan counts where it made them."""

    env_steps: int = 0
    checks: int = 0
    actions: dict[str, int] = {}
    fractions: dict[str, float | None] = {}
    react_predictions: int = 0
    react_invalid: int = 0
    react_invalid_rate: float | None = None
    pv_corrected: int | None = None
    pv_corrected_rate: float | None = None
    symbolic_s: float = 0.0
    solver: str | None = None  # PV's and the global plan's symbolic planner
    goal: str | None = None  # SCLPlan's: the goal the model stated
    goal_valid: bool | None = None
    goal_attempts: int | None = None
    goal_calls: int | None = None
    gsp_calls: int | None = None
    global_plan_found: bool | None = None
    llm_calls: int | None = None


# -- eval's and the agents' ----------------------------------------------------------------


class EvalFacts(_Record):
    """The graph facts eval's metrics need (eval/annotate.py), read off the start graph."""

    explored_rooms: list[str] = []
    observed: list[str] | None = None  # the assets and objects the planner saw
    important: list[str] | None = None  # the nodes the goal needs changed
    right: list[str] | None = None  # of those the run changed, the ones now right
    goal_changed: list[str] | None = None  # against the goal graph, when the task has one
    run_changed: list[str] | None = None
    goal_right: list[str] | None = None
    goal_mismatch: list[str] | None = None
    goal_graph_error: str | None = None

    @property
    def has_goal_graph(self) -> bool:
        """Whether the run was scored against a goal graph (the task had one)."""
        return self.goal_mismatch is not None


class McpRecord(_Record):
    """An agent's session over MCP: each tool call with its result, and its robot."""

    calls: list[dict[str, Any]] = []
    robot: str | None = None


def read(kind: Any, data: Any) -> Any:
    """A record of type `kind` from its JSON form (`plain`'s); msgspec.ValidationError (a
    ValueError) naming the path of a field of the wrong type."""
    return msgspec.convert(data, kind)


def plain(record: Any) -> Any:
    """A record as JSON-ready data, its fields at their defaults left out."""
    return msgspec.to_builtins(record)
