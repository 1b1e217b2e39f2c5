"""The Episode: a complete, JSON-serializable trace of one planner run.

Metrics are computed from stored Episodes, never by re-running, so an
Episode records everything: each LLM call, each simulator call, the search,
the plans, the verification, the goal check and the answer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, get_type_hints

from sceneplan.planners import records
from sceneplan.planners.records import (
    EvalFacts,
    ExecutionRecord,
    McpRecord,
    ObserveStart,
    RelaxedRecord,
    SceneShown,
    SclplanMetrics,
    SolveRecord,
)
from sceneplan.world.primitives import ErrorType  # the world's: each cause names its type


class Status(StrEnum):
    """How a run ended."""

    SUCCESS = "success"  # executable plan and goal reached (when known) / answer correct
    FAILED = "failed"  # the planner finished without a usable result
    ERROR = "error"  # the run stopped on an error (server down, bad reply, ...)


@dataclass
class LLMCall:
    """One exchange with the model."""

    stage: str  # "search", "plan", "goal", "react", ...
    messages: list[dict[str, str]]
    reply: str
    parsed: Any = None
    command: str | None = None  # the command or action read from the reply
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = 0.0  # None: the model has no price (unknown, not free)
    cached: bool = False
    error: str | None = None
    structured_mode: str | None = None  # json_schema / json_object / prompt (llm.structured)


@dataclass
class SimCall:
    """One call to the scene-graph simulator or its graph views."""

    op: str  # "expand", "contract", "verify", "step", "look"
    target: str  # the node, action or plan
    ok: bool
    feedback: str = ""
    cause: str | None = None  # the simulator's structured cause when it failed


@dataclass
class SearchTurn:
    """One turn of semantic search: the command applied and the graph shown before it."""

    turn: int
    command: str  # "expand", "contract", "plan", "answer", "invalid"
    node: str | None
    ok: bool
    feedback: str
    graph_tokens: int  # tokens of the serialized graph shown to the model this turn
    prompt_tokens: int = 0  # tokens of the whole prompt this turn
    memory: list[str] = field(default_factory=list)


@dataclass
class WorldStep:
    """One action of a partially observing run: checked on memory, then run in the true world.

    `action` names memory's ids, as the planner wrote it; `executed` is the
    same action in the true world's ids (None when it was not run: memory
    refused it). A look records what perception returned (`observations`,
    `Observation.to_dict()`), what it could have found (`expected`: the
    visible true objects memory lacked, scored by LookPlanGraph Table 4's
    measures) and the memory ids it added; a step the true
    world refused records the nodes memory had wrong and dropped
    (`forgotten`) or corrected.
    """

    index: int
    action: str
    executed: str | None
    ok: bool
    feedback: str = ""
    cause: str | None = None
    agent_at: str | None = None
    observations: list[dict[str, Any]] = field(default_factory=list)
    expected: list[dict[str, Any]] = field(default_factory=list)  # what the look could find
    added: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    corrected: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)  # asset/object ids in the prompt that chose it


@dataclass
class Episode:
    """Everything one planner did on one task or instruction."""

    planner: str
    model: str
    environment: str
    instruction: str
    task_id: str | None = None
    family: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the planner's non-default options
    status: Status = Status.FAILED
    error: str | None = None  # what stopped the run, for Status.ERROR
    llm_calls: list[LLMCall] = field(default_factory=list)
    sim_calls: list[SimCall] = field(default_factory=list)
    search: list[SearchTurn] = field(default_factory=list)
    explored: list[str] = field(default_factory=list)  # nodes expanded, in order
    plan: list[str] = field(default_factory=list)  # the final high-level plan
    full_plan: list[str] = field(default_factory=list)  # after pose expansion
    action_sources: list[str] = field(default_factory=list)  # per action of full_plan
    replans: int = 0  # plan rounds after the first
    executable: bool | None = None  # the simulator accepts the plan
    correct: bool | None = None  # the goal holds after the plan's relaxed execution
    failure: dict[str, Any] | None = None  # Failure.to_dict() of the last verification
    error_type: ErrorType | None = None
    goal: str | None = None
    goal_reached: bool | None = None
    goal_unmet: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    answer_correct: bool | None = None
    answer_room_explored: bool | None = None
    final_changes: dict[str, Any] = field(default_factory=dict)  # WorldState.changes()
    steps: list[WorldStep] = field(default_factory=list)  # partial observability only
    wall_time_s: float = 0.0
    # what the run's parts recorded beside the traces (planners/records.py); None: no such part
    execute: ExecutionRecord | None = None  # the executor's, when the plan was run on a robot
    observe: ObserveStart | None = None  # a partially observing run's start
    observed: list[str] | None = None  # the nodes the planner saw (for NRR)
    view: str | None = None  # the view a searching planner showed (search.view_mode)
    subgraph: list[str] | None = None  # the expanded nodes it kept in memory
    corrections: int | None = None  # LookPlanGraph's re-asks after a refusal, in the run
    correction_cap: str | None = None  # how they are capped (the report names it)
    scene: SceneShown | None = None
    relaxed: RelaxedRecord | None = None  # what the relaxed execution tolerated
    symbolic: SolveRecord | None = None  # the symbolic solver's result
    sclplan: SclplanMetrics | None = None  # SCLPlan Tables III-IV (ReAct-style planners)
    simulated_errors: list[dict[str, Any]] | None = None  # the stand-in model's injections
    mcp: McpRecord | None = None  # an agent's tool calls
    eval: EvalFacts | None = None  # the graph facts eval's metrics need (eval/annotate.py)

    # -- accounting -----------------------------------------------------------------

    @property
    def input_tokens(self) -> int:
        """Prompt tokens over all the run's LLM calls."""
        return sum(c.input_tokens for c in self.llm_calls)

    @property
    def output_tokens(self) -> int:
        """Reply tokens over all the run's LLM calls."""
        return sum(c.output_tokens for c in self.llm_calls)

    @property
    def success(self) -> bool:
        """The strict measure: the run ended with Status.SUCCESS."""
        return self.status is Status.SUCCESS

    def reason(self) -> str | None:
        """Why the run did not succeed, in one line; None for a success.

        The first known of: the error that stopped it, why the executor did not run the
        plan or stopped, the failure of the plan's last check, the goal facts that do not
        hold, the wrong answer.
        """
        if self.success:
            return None
        if self.status is Status.ERROR and self.error:
            return self.error
        run = self.execute
        if run is not None and (run.skipped or run.stopped):
            return run.skipped or run.stopped
        if self.failure and self.failure.get("message"):
            return str(self.failure["message"])
        if self.error:
            return self.error
        if self.goal_unmet:
            return "the goal does not hold: " + "; ".join(self.goal_unmet)
        if self.answer_correct is False:
            return "wrong answer: " + (", ".join(self.answer) or "nothing")
        if self.executable is False:
            return "the plan is not executable"
        return "the goal was not reached"

    @property
    def cost_usd(self) -> float | None:
        """List price of the calls; None when a call's model has no price."""
        costs = [c.cost_usd for c in self.llm_calls]
        return None if None in costs else sum(c for c in costs if c is not None)

    @property
    def llm_latency_s(self) -> float:
        """Seconds spent waiting for the model, summed over the calls."""
        return sum(c.latency_s for c in self.llm_calls)

    def summary(self) -> dict[str, Any]:
        """The headline fields, without the per-call traces."""
        skip = {"llm_calls", "sim_calls", "search", "steps", *RECORDS}
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip}
        out.update(
            success=self.success,
            llm_calls=len(self.llm_calls),
            search_turns=len(self.search),
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=None if self.cost_usd is None else round(self.cost_usd, 6),
        )
        return _plain(out)

    # -- serialization -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready) that `from_dict` turns back into an equal Episode.

        The records (`RECORDS`) go under one key, `"extra"`, each under its own name
        when the run made it.
        """
        without: dict[str, Any] = dict.fromkeys(RECORDS)
        out = _plain(asdict(replace(self, **without)))
        for name in RECORDS:
            del out[name]
        out["extra"] = {
            name: records.plain(value)
            for name in RECORDS
            if (value := getattr(self, name)) is not None
        }
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Episode:
        """An Episode from its `to_dict` form (as stored), the traces rebuilt."""
        data = dict(data)
        data["llm_calls"] = [LLMCall(**c) for c in data.get("llm_calls", [])]
        data["sim_calls"] = [SimCall(**c) for c in data.get("sim_calls", [])]
        data["search"] = [SearchTurn(**t) for t in data.get("search", [])]
        data["steps"] = [WorldStep(**s) for s in data.get("steps", [])]
        data["status"] = Status(data.get("status", Status.FAILED))
        if data.get("error_type") is not None:
            data["error_type"] = ErrorType(data["error_type"])
        kept = data.pop("extra", None) or {}  # the records, under their names
        types = _record_types()
        for name in RECORDS:
            if (value := kept.get(name)) is not None:
                try:
                    data[name] = records.read(types[name], value)
                except ValueError as exc:  # msgspec's: "Expected `int`, got `str` - at `$.x`"
                    raise ValueError(f"'extra.{name}': {exc}") from None
        return cls(**data)


# The Episode's record fields: under "extra" in its JSON.
RECORDS = (
    *("execute", "observe", "observed", "view", "subgraph", "corrections", "correction_cap"),
    *("scene", "relaxed", "symbolic", "sclplan", "simulated_errors", "mcp", "eval"),
)


@cache  # the Episode's annotations are strings: resolved once, not per episode read
def _record_types() -> dict[str, Any]:
    hints = get_type_hints(Episode)
    return {name: hints[name] for name in RECORDS}


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
