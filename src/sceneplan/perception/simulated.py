"""A simulated camera and perceiver: the true world's objects, with noise that can be tuned.

`SimulatedPerception` answers a look with what the true world has on or in
the asset: its children with that relation, and what rests on or in them,
except inside a closed object (`world.partial.visible`), minus what memory
already holds; a look inside an asset that is closed sees nothing. Without
noise (`perfect`) each observation is exact: the true id, category,
relation, related_to, states, properties and affordances.

`Noise` makes it err like a vision-language model. Each knob is a
probability, applied independently to each object (see docs/perception.md):

- `miss`: the object is not reported;
- `swap_on` / `swap_inside`: an object on top is reported inside, or one
  inside reported on top (`swap` in a spec sets both);
- `related`: `related_to` names the wrong thing (another asset of the room,
  another object seen, or the asset instead of the object it rests on);
- `state`: each state word that has an opposite (open/closed, on/off, ...)
  is reported as that opposite;
- `hallucinate`: the look reports an object that is not there (then,
  with the same probability, another, up to three);
- `synonym`: the object is called by another name ("cup", "fruit"), which
  `names.py` must match back to a category; when it recovers the true
  category the object is recognised, otherwise it has no id (and the
  matched category, or None), but keeps its `truth` so the world can
  associate it.

Every look draws from its own random stream, derived from the seed, the
asset, the relation and how many times this perception has looked there, and
each object from a stream of its own inside it: the same seed gives the same
observations, and turning one knob changes only what that knob does.
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sceneplan.errors import BadInputError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.perception.base import Perception
from sceneplan.perception.names import NameMatcher, normalise, synonyms
from sceneplan.probabilities import Probabilities
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import visible
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

__all__ = ["PRESETS", "Noise", "SimulatedPerception"]

MAX_HALLUCINATIONS = 3
"""At most this many objects that are not there, per look."""


@dataclass(frozen=True)
class Noise(Probabilities):
    """How often a simulated perception errs, per object (module doc); all 0 is perfect."""

    NOUN = "noise knob"

    miss: float = 0.0
    swap_on: float = 0.0
    swap_inside: float = 0.0
    related: float = 0.0
    state: float = 0.0
    hallucinate: float = 0.0
    synonym: float = 0.0

    def with_(self, **changes: float) -> Noise:
        """A copy with some knobs changed; `swap` sets both swap knobs."""
        if "swap" in changes:
            swap = changes.pop("swap")
            changes = {"swap_on": swap, "swap_inside": swap, **changes}
        unknown = sorted(set(changes) - set(self.names()))
        if unknown:
            raise BadInputError(
                f"unknown noise knob(s) {', '.join(unknown)}; knobs: "
                f"{', '.join(self.names())}, swap (both swaps)"
            )
        return replace(self, **changes)

    @property
    def perfect(self) -> bool:
        """Whether every knob is 0: each observation is exact."""
        return not self.any


PRESETS: dict[str, Noise] = {
    "perfect": Noise(),
    # Calibrated to LookPlanGraph Table 4 (GPT-4o on VirtualHome): node presence
    # 1 - miss = .66; `on` = .66 x (1 - swap_on) x (1 - related) = .30; `inside` =
    # .66 x (1 - swap_inside) x (1 - related) = .36. The table does not measure the
    # other three; these are modest guesses (docs/perception.md).
    "gpt4o-like": Noise(
        miss=0.34,
        swap_on=0.30,
        swap_inside=0.16,
        related=0.35,
        state=0.10,
        hallucinate=0.15,
        synonym=0.20,
    ),
}


class SimulatedPerception(Perception):
    """The true world's objects at the asset looked at, with `noise` (module doc).

    `categories` adds names the perceiver knows to those of the true world's
    objects, against which synonyms are matched back.

    >>> from sceneplan.datasets import load_environment
    >>> graph = load_environment("coffee")
    >>> truth, memory = WorldState(graph), Memory.static(graph)
    >>> truth.set_state("wardrobe1", "open")
    >>> seen = SimulatedPerception().observe_sync(truth, "wardrobe1", Relation.INSIDE_OF, memory)
    >>> [(o.id, o.relation.value, o.related_to) for o in seen]
    [('coffee_mug', 'inside_of', 'wardrobe1')]
    """

    def __init__(
        self,
        noise: Noise | str = "perfect",
        *,
        seed: int = 0,
        categories: Iterable[str] = (),
        name: str | None = None,
    ) -> None:
        if isinstance(noise, str):
            if noise not in PRESETS:
                raise BadInputError(
                    f"unknown perception preset '{noise}'; presets: {', '.join(PRESETS)}"
                )
            noise = PRESETS[noise]
        self.noise = noise
        self.seed = int(seed)
        self.categories = tuple(categories)
        self.name = name or describe(noise, self.seed)
        self._looks: Counter[tuple[str, str]] = Counter()
        self._matchers: weakref.WeakKeyDictionary[SceneGraph, NameMatcher] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def looks(self) -> int:
        """How many looks this perception has answered."""
        return sum(self._looks.values())

    async def _observe(
        self, truth: WorldState, asset: str, relation: Relation, memory: Memory
    ) -> list[Observation]:
        count = self._looks[asset, relation.value]
        self._looks[asset, relation.value] += 1
        return _Look(self, truth, asset, relation, memory, count).run()

    def matcher(self, graph: SceneGraph) -> NameMatcher:
        """The names this perceiver knows: the graph's object categories and `categories`."""
        found = self._matchers.get(graph)
        if found is None:
            known = [n.category for n in graph if n.kind is NodeKind.OBJECT]
            found = NameMatcher([*known, *self.categories])
            self._matchers[graph] = found
        return found


def describe(noise: Noise, seed: int = 0) -> str:
    """The spec that makes this perception: `simulated:gpt4o-like,seed=3`, `simulated:miss=0.2`.

    >>> describe(PRESETS["gpt4o-like"], 3), describe(Noise(miss=0.25)), describe(Noise())
    ('simulated:gpt4o-like,seed=3', 'simulated:miss=0.25', 'simulated:perfect')
    """
    preset = next((name for name, values in PRESETS.items() if values == noise), None)
    parts = [preset] if preset else noise.pairs("=")
    if seed and not noise.perfect:
        parts.append(f"seed={seed}")
    return "simulated:" + ",".join(parts)


class _Look:
    """One look's draws and observations."""

    def __init__(
        self,
        perception: SimulatedPerception,
        truth: WorldState,
        asset: str,
        relation: Relation,
        memory: Memory,
        count: int,
    ) -> None:
        self.noise = perception.noise
        self.matcher = perception.matcher(truth.graph)
        self.truth, self.asset, self.relation, self.memory = truth, asset, relation, memory
        self.key = f"{perception.seed}|{asset}|{relation.value}|{count}"
        self.where = memory.memory_id(asset) or asset
        self.kept: dict[str, Observation] = {}  # true id -> its observation, this look

    def run(self) -> list[Observation]:
        if self.relation is Relation.INSIDE_OF and "closed" in self.truth.states(self.asset):
            return []  # a camera does not see through a closed door
        out = []
        for true_id in visible(self.truth, self.asset, self.relation):
            obs = self.object(true_id)
            if obs is not None:
                self.kept[true_id] = obs
                out.append(obs)
        return out + self.hallucinations()

    def object(self, true_id: str) -> Observation | None:
        # Every object draws the same numbers in the same order whatever the knobs.
        rng = random.Random(f"{self.key}|{true_id}")
        u_miss, u_swap, u_related, u_pick, u_synonym, u_name = (rng.random() for _ in range(6))
        if self.memory.memory_id(true_id) is not None:
            return None
        noise, truth = self.noise, self.truth
        if u_miss < noise.miss:
            return None
        node = truth.graph.nodes[true_id]
        relation = truth.relation(true_id)
        if relation is Relation.ONTOP_OF and u_swap < noise.swap_on:
            relation = Relation.INSIDE_OF
        elif relation is Relation.INSIDE_OF and u_swap < noise.swap_inside:
            relation = Relation.ONTOP_OF
        related_to = self.reference(truth.parent(true_id))
        if u_related < noise.related:
            related_to = self.wrong_reference(true_id, related_to, u_pick)
        states = []
        for word in sorted(truth.states(true_id)):
            flip = rng.random() < noise.state and word in EXCLUSIVE_STATES
            states.append(EXCLUSIVE_STATES[word] if flip else word)
        category: str | None
        node_id: str | None
        name, category, node_id = node.category.replace("_", " "), node.category, true_id
        if u_synonym < noise.synonym:
            name = _other_name(node.category, u_name)
            category = self.matcher.match(name)
            node_id = true_id if category == node.category else None
        return Observation(
            name=name,
            category=category,
            relation=relation,
            related_to=related_to,
            states=tuple(states),
            properties=tuple(node.attributes),
            truth=true_id,
            affordances=tuple(node.affordances),
            id=node_id,
        )

    def reference(self, parent: str | None) -> str | None:
        """How this look names what an object rests on (see the module doc)."""
        if parent is None:
            return None
        if parent == self.asset:
            return self.where
        known = self.memory.memory_id(parent)
        if known is not None:
            return known
        seen = self.kept.get(parent)
        if seen is not None:
            return seen.id or seen.name
        return parent

    def wrong_reference(self, true_id: str, right: str | None, u: float) -> str | None:
        """Something else than `right` for related_to: the asset, another asset or object."""
        graph = self.truth.graph
        room = graph.room_of(self.asset) if self.asset in graph else None
        candidates = [self.where]
        if room is not None:
            candidates += [
                self.memory.memory_id(a) or a
                for a in graph.children(room)
                if graph.nodes[a].kind is NodeKind.ASSET
            ]
        candidates += [o.id or o.name for t, o in self.kept.items() if t != true_id]
        candidates = [c for c in dict.fromkeys(candidates) if c != right]
        return candidates[int(u * len(candidates))] if candidates else None

    def hallucinations(self) -> list[Observation]:
        rng = random.Random(f"{self.key}|hallucinate")
        out: list[Observation] = []
        while len(out) < MAX_HALLUCINATIONS and rng.random() < self.noise.hallucinate:
            pool = sorted(set(self.matcher.categories)) or list(synonyms().common)
            category = pool[int(rng.random() * len(pool))]
            out.append(
                Observation(
                    name=category.replace("_", " "),
                    category=category,
                    relation=self.relation,
                    related_to=self.where,
                )
            )
        return out


def _other_name(category: str, u: float) -> str:
    """Another name a perceiver may use: a synonym, a plural, or a broader word ("fruit")."""
    table = synonyms()
    words = normalise(category).split("_")
    plural = " ".join([*words[:-1], _plural(words[-1])]).capitalize()
    pool = [n.replace("_", " ") for n in table.names_for(category)] or [plural]
    broader = table.broader_of(category)
    pool.append(broader[0] if broader else "object")
    return pool[int(u * len(pool))]


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"
