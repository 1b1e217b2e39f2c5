"""Graph-augmentation accuracy of a perception (LookPlanGraph §6.2, Table 4).

For each look (by default every asset with objects on it or inside it,
containers opened for the look) the perception observes the asset with a
memory that holds no objects, and its observations are compared with the
ground truth, the objects the look could see (`world.partial.visible`):

- node presence (`np`): ground-truth objects found / ground-truth objects;
- `on`: ground-truth objects `ontop_of` something reported with that relation
  and the right `related_to` / ground-truth `ontop_of` objects;
- `inside`: the same for `inside_of`.

An observation is associated with a ground-truth object by its `truth`, or,
when the perceiver gave none (a VLM), with an unclaimed ground-truth object
of the same category, as the world does when it adds a look to memory. Its
`related_to` counts as right when it names the true parent: the asset's or
a known object's memory id, or another observation of the same look (by id
or name) that stands for the parent. Figures are pooled over all looks.

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.perception import get_perception
>>> result = augmentation_accuracy(get_perception("simulated:perfect"), load_environment("office"))
>>> result["np"], result["on"], result["inside"], result["n"]
(1.0, 1.0, 1.0, 83)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.perception.base import LOOK_RELATIONS, Perception
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import visible
from sceneplan.world.state import WorldState

__all__ = ["PAPER", "aaugmentation_accuracy", "augmentation_accuracy", "default_looks"]

PAPER = {"np": 0.66, "on": 0.30, "inside": 0.36}
"""LookPlanGraph Table 4, GPT-4o on VirtualHome."""

Look = tuple[str, Relation]


def default_looks(graph: SceneGraph) -> list[Look]:
    """Every (asset, relation) with at least one object resting on/in the asset that way."""
    looks = []
    for node in graph.of_kind(NodeKind.ASSET):
        relations = {graph.nodes[c].relation for c in graph.children(node.id)}
        looks += [(node.id, r) for r in LOOK_RELATIONS if r in relations]
    return looks


def augmentation_accuracy(
    perception: Perception,
    graph: SceneGraph,
    looks: Sequence[Look] | None = None,
    *,
    repeats: int = 1,
) -> dict[str, Any]:
    """Node presence, `on` and `inside` accuracy of `perception` on `graph` (module doc).

    Returns `np`, `on`, `inside` (None where there was nothing to find), `n`
    (ground-truth objects over all looks), `n_on`, `n_inside`, `looks`, and
    `precision` (observations that stand for a ground-truth object / all
    observations). `repeats` makes every look that many times.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(aaugmentation_accuracy(perception, graph, looks, repeats=repeats))
    raise UnsupportedError(
        "augmentation_accuracy() blocks; inside an event loop await aaugmentation_accuracy()"
    )


async def aaugmentation_accuracy(
    perception: Perception,
    graph: SceneGraph,
    looks: Sequence[Look] | None = None,
    *,
    repeats: int = 1,
) -> dict[str, Any]:
    """`augmentation_accuracy`, for async code (a VLM perception)."""
    memory = Memory.static(graph)
    tally = _Tally()
    for _ in range(repeats):
        for asset, relation in looks if looks is not None else default_looks(graph):
            truth = WorldState(graph)
            if relation is Relation.INSIDE_OF and "closed" in truth.states(asset):
                truth.set_state(asset, "open")
            expected = list(visible(truth, asset, relation))
            seen = await perception.observe(truth, asset, relation, memory)
            tally.add(truth, memory, expected, seen)
    return tally.result()


class _Tally:
    def __init__(self) -> None:
        self.counts = dict.fromkeys(
            ("looks", "n", "found", "n_on", "on", "n_inside", "inside", "obs", "true_obs"), 0
        )

    def add(
        self, truth: WorldState, memory: Memory, expected: list[str], seen: list[Observation]
    ) -> None:
        c = self.counts
        c["looks"] += 1
        by_truth = _associate(truth, expected, seen)
        refs: dict[str, str] = {}
        for true_id, each in by_truth.items():
            refs.update({key: true_id for key in (each.id, each.name) if key})
        c["obs"] += len(seen)
        c["true_obs"] += len(by_truth)
        for true_id in expected:
            relation = truth.relation(true_id)
            key = "on" if relation is Relation.ONTOP_OF else "inside"
            c["n"] += 1
            c[f"n_{key}"] += 1
            obs = by_truth.get(true_id)
            if obs is None:
                continue
            c["found"] += 1
            named = obs.related_to
            if named in refs:
                parent: str | None = refs[named]
            elif named is not None and memory.knows(named):
                parent = memory.true_id(named)
            else:
                parent = named
            if obs.relation is relation and parent == truth.parent(true_id):
                c[key] += 1

    def result(self) -> dict[str, Any]:
        c = self.counts

        def ratio(part: str, whole: str) -> float | None:
            return round(c[part] / c[whole], 4) if c[whole] else None

        return {
            "np": ratio("found", "n"),
            "on": ratio("on", "n_on"),
            "inside": ratio("inside", "n_inside"),
            "n": c["n"],
            "n_on": c["n_on"],
            "n_inside": c["n_inside"],
            "looks": c["looks"],
            "precision": ratio("true_obs", "obs"),
        }


def _associate(
    truth: WorldState, expected: list[str], seen: list[Observation]
) -> dict[str, Observation]:
    """Ground-truth id -> the observation standing for it (by truth, else by category)."""
    wanted = set(expected)
    out: dict[str, Observation] = {}
    for obs in seen:
        if obs.truth in wanted and obs.truth not in out:
            out[obs.truth] = obs
    for obs in seen:
        if obs.truth is None and obs.category is not None:
            match = next(
                (
                    t
                    for t in expected
                    if t not in out and truth.graph.nodes[t].category == obs.category
                ),
                None,
            )
            if match is not None:
                out[match] = obs
    return out
