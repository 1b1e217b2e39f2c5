"""Accounting: the usage of one call, and a ledger of every call of a run."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Usage:
    """Tokens, time and money one call took (re-asks included).

    `cost_usd` is what the call costs at list price, None if the model has no
    price; a call answered from the cache still reports it, with `cached` set.
    `structured_mode` is how a reply schema was asked for in the end
    (`json_schema`, `json_object` or `prompt`, see `sceneplan.llm.structured`);
    None for a call without a schema.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = 0.0
    cached: bool = False
    structured_mode: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)


@dataclass(frozen=True)
class CallRecord:
    """One call as a run log needs it: prompt, reply, usage, and the error if it failed."""

    model: str
    messages: list[dict[str, str]]
    reply: str
    parsed: dict[str, Any] | None
    usage: Usage
    reasks: int = 0
    error: str | None = None
    error_type: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)


@dataclass
class Ledger:
    """Every call of a run (or an episode), with totals."""

    records: list[CallRecord] = field(default_factory=list)

    def add(self, record: CallRecord) -> None:
        """Record one call."""
        self.records.append(record)

    @property
    def calls(self) -> int:
        """Calls made, failed ones included."""
        return len(self.records)

    @property
    def errors(self) -> int:
        """Calls that ended in an error."""
        return sum(r.error is not None for r in self.records)

    @property
    def cached_calls(self) -> int:
        """Calls answered from the response cache."""
        return sum(r.usage.cached for r in self.records)

    @property
    def input_tokens(self) -> int:
        """Input tokens of all calls."""
        return sum(r.usage.input_tokens for r in self.records)

    @property
    def output_tokens(self) -> int:
        """Output tokens of all calls."""
        return sum(r.usage.output_tokens for r in self.records)

    @property
    def latency_s(self) -> float:
        """Summed latency of all calls (more than wall time when calls overlap)."""
        return sum(r.usage.latency_s for r in self.records)

    @property
    def cost_usd(self) -> float:
        """List-price cost of the priced calls, cached ones included."""
        return sum(r.usage.cost_usd or 0.0 for r in self.records)

    @property
    def spent_usd(self) -> float:
        """What the priced calls actually cost: cached calls are free."""
        return sum(r.usage.cost_usd or 0.0 for r in self.records if not r.usage.cached)

    @property
    def unpriced_calls(self) -> int:
        """Calls to models with no price, missing from the costs."""
        return sum(r.usage.cost_usd is None for r in self.records)

    TOTALS: ClassVar[tuple[str, ...]] = (
        *("calls", "errors", "cached_calls", "input_tokens", "output_tokens", "latency_s"),
        *("cost_usd", "spent_usd", "unpriced_calls"),
    )
    """The totals `summary` gives, each a property of the same name."""

    def summary(self) -> dict[str, Any]:
        """The totals as plain data."""
        return {name: getattr(self, name) for name in self.TOTALS}
