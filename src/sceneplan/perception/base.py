"""The perception interface: what a look on top of or inside an asset sees.

A look (`look_on(a)`, `look_inside(a)`, LookPlanGraph §4.3) asks a
`Perception` what rests on or in asset `a` in the true world. It answers with
`Observation`s of the objects memory does not hold yet (App. B: name,
relation, related_to, states, properties); the world then associates them
with true nodes and adds them to memory (`world/partial.py`).

The public `observe` checks the request and calls `_observe`, which a
perception implements; `observe_sync` is the same for code without an
event loop.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod

from sceneplan.errors import BadInputError, UnknownNodeError, UnsupportedError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.state import WorldState

__all__ = ["LOOK_RELATIONS", "Perception"]

LOOK_RELATIONS = (Relation.ONTOP_OF, Relation.INSIDE_OF)
"""The relations a look can be made with: on top of an asset, or inside it."""


class Perception(ABC):
    """Turns a look at an asset in the true world into observations of new objects."""

    name: str
    """How runs and reports name this perception (`simulated:perfect`, `vlm:openai:gpt-4o`)."""

    async def observe(
        self, truth: WorldState, asset: str, relation: Relation, memory: Memory
    ) -> list[Observation]:
        """What a look `relation` `asset` (a true id) perceives, leaving out what `memory` holds.

        Raises UnknownNodeError for an asset the true world lacks, and
        BadInputError for a relation other than ontop_of / inside_of or a
        node that is not an asset or object.
        """
        if asset not in truth.graph:
            raise UnknownNodeError(asset, truth.graph.suggest(asset))
        relation = _relation(relation)
        kind = truth.graph.nodes[asset].kind
        if kind not in (NodeKind.ASSET, NodeKind.OBJECT):
            raise BadInputError(f"cannot look {_words(relation)} {asset}: it is a {kind.value}")
        return await self._observe(truth, asset, relation, memory)

    def observe_sync(
        self, truth: WorldState, asset: str, relation: Relation, memory: Memory
    ) -> list[Observation]:
        """Blocking `observe`, for scripts (not inside a running event loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.observe(truth, asset, relation, memory))
        raise UnsupportedError(
            "observe_sync() blocks, so it cannot run inside an event loop; "
            "use `await perception.observe(...)` there"
        )

    @abstractmethod
    async def _observe(
        self, truth: WorldState, asset: str, relation: Relation, memory: Memory
    ) -> list[Observation]:
        """The observations of one checked look."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _relation(relation: Relation | str) -> Relation:
    try:
        value = Relation(relation)
    except ValueError:
        value = None
    if value not in LOOK_RELATIONS:
        allowed = ", ".join(r.value for r in LOOK_RELATIONS)
        raise BadInputError(f"a look is made with relation {allowed}, not '{relation}'")
    return value


def _words(relation: Relation) -> str:
    """'on top of' or 'inside'."""
    return "inside" if relation is Relation.INSIDE_OF else "on top of"
