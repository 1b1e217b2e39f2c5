"""Partial observability: actions checked against memory, executed in the true world.

`PartialWorld` holds the two worlds of a LookPlanGraph run (§4, Alg. 1):
the *true world* (a `WorldState` on the task's graph) and the robot's
`Memory`. `execute(action)`:

1. checks the action against memory (is it plausible given what the robot
   knows?); a failure here is feedback, and nothing moves;
2. translates memory's ids to the true world's and checks it there; when
   the true world refuses it because memory had something wrong (an object
   moved, a state changed, a perceived object that is not there), memory is
   corrected, and the feedback names the node and what memory believed;
3. otherwise runs it in both worlds.

A look (`look_on`, `look_inside`) runs like any action and then asks for
perception: the caller passes the observations to `look(...)`, which
associates them with the true nodes and reconciles memory with them
(`reconcile`): the new ones are added, a known object seen elsewhere is
moved there in memory, one memory put there but not seen is dropped.
Perception lives above the world (`sceneplan.perception`); the world only
says what a look can see (`visible`).

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.world.memory import Memory
>>> graph = load_environment("coffee")
>>> world = PartialWorld(WorldState(graph), Memory.static(graph))
>>> world.execute("goto(bobs_room)").ok
True
>>> world.execute("pickup(coffee_mug)").failure.message
"pickup(coffee_mug): there is no node called 'coffee_mug' in the scene graph"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.domain import Cause
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.reconcile import Changes, Sighting, forget, reconcile, restate, visible
from sceneplan.world.simulator import Checked, Failure, Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

# The actions that look, and the relation each looks for.
LOOKS: dict[str, Relation] = {"look_on": Relation.ONTOP_OF, "look_inside": Relation.INSIDE_OF}


@dataclass
class Outcome(Checked):
    """What one action did: run (`ok`), refused by memory or by the true world, with why.

    `executed` is the action in the true world's ids (None when memory refused
    it). `look` is the (asset, relation) perception must now observe, for a
    look that ran. `change` is what memory gained, lost or had wrong.
    """

    action: Action
    executed: Action | None = None
    failure: Failure | None = None
    refused_by: str | None = None  # "memory" or "world"
    look: tuple[str, Relation] | None = None
    change: Changes = field(default_factory=Changes)
    success = "ok"


class PartialWorld:
    """The true world and the robot's memory of it, kept apart."""

    def __init__(self, truth: WorldState, memory: Memory, vocabulary: Vocabulary = SAYPLAN):
        self.truth = truth
        self.memory = memory
        self.vocabulary = vocabulary
        self.true_simulator = Simulator(truth.graph, vocabulary)
        self._memory_simulator: Simulator | None = None

    @property
    def memory_simulator(self) -> Simulator:
        """A simulator over the memory graph as it is now (memory grows as the robot looks)."""
        graph = self.memory.graph
        if self._memory_simulator is None or self._memory_simulator.graph is not graph:
            self._memory_simulator = Simulator(graph, self.vocabulary)
        return self._memory_simulator

    # -- acting -------------------------------------------------------------------------

    def check(self, action: Action | str) -> Failure | None:
        """Why memory says `action` cannot run now, or None. Changes nothing."""
        return self.memory_simulator.check(self.memory.state, _parsed(action))

    def execute(self, action: Action | str, index: int | None = None) -> Outcome:
        """Check `action` on memory, then run it in the true world (see the module doc)."""
        action = _parsed(action)
        failure = self.check(action)
        if failure is not None:
            return Outcome(action, failure=_at(failure, index), refused_by="memory")
        change = Changes()
        missing = [a for a in action.args if self.memory.true_id(a) not in self.truth.graph]
        if missing:
            node = missing[0]
            where = _where(self.memory.state, node)
            change += forget(self.memory, node)
            facts = {"node": node, "where": where}
            failure = Failure(Cause("not_in_world"), action, facts, index)
            return Outcome(action, failure=failure, refused_by="world", change=change)
        executed = Action(action.name, tuple(self.memory.true_id(a) for a in action.args))
        true_failure = self.true_simulator.check(self.truth, executed)
        if true_failure is not None:
            failure = self._explain(action, true_failure, change)
            return Outcome(action, executed, _at(failure, index), refused_by="world", change=change)
        self.true_simulator.apply(self.truth, executed)
        self.memory_simulator.apply(self.memory.state, action)
        relation = LOOKS.get(action.name)
        look = (executed.args[0], relation) if relation is not None else None
        return Outcome(action, executed, look=look, change=change)

    def _explain(self, action: Action, true_failure: Failure, change: Changes) -> Failure:
        """The true world refused what memory allowed: correct memory and say what it had wrong."""
        memory, truth = self.memory, self.truth
        involved = list(dict.fromkeys([*action.args, *memory.state.held]))
        for node in involved:
            if node not in memory.graph:
                continue
            true_id = memory.true_id(node)
            if memory.graph.nodes[node].kind is NodeKind.OBJECT and _place(
                memory.state, node, memory
            ) != _place(truth, true_id):
                where = _where(memory.state, node)
                change += forget(memory, node)
                return Failure(Cause("stale_memory"), action, {"node": node, "where": where})
            believed, found = memory.state.states(node), truth.states(true_id)
            if believed != found:
                change += restate(memory, node, found)
                facts = {
                    "node": node,
                    "found": ", ".join(sorted(found - believed)) or "changed",
                    "believed": ", ".join(sorted(believed - found)) or "as it was",
                }
                return Failure(Cause("state_changed"), action, facts)
        return Failure(true_failure.cause, action, true_failure.facts)

    # -- looking ------------------------------------------------------------------------

    def look(self, asset: str, relation: Relation, observations: Sequence[Observation]) -> Changes:
        """Add what a look at `asset` (a true id) found to memory, and correct what it believed.

        Observations without a true node are associated with an unclaimed
        visible true node of the same category, where there is one. A known
        object seen here is moved where it truly rests; one memory had here
        but the look did not see is forgotten (`reconcile`).
        """
        memory, truth = self.memory, self.truth
        where = memory.memory_id(asset) or asset
        seen = []
        for true_id in visible(truth, asset, relation):
            known = memory.memory_id(true_id)
            if known is not None:
                parent = memory.memory_id(truth.parent(true_id) or "") or where
                seen.append(Sighting(known, parent, truth.relation(true_id)))
        return reconcile(
            memory,
            new=associate(truth, memory, asset, relation, observations),
            at=(where, relation),
            seen=seen,
            looked=[(where, relation)],
        )


def associate(
    truth: WorldState,
    memory: Memory,
    asset: str,
    relation: Relation,
    observations: Sequence[Observation],
) -> list[Observation]:
    """The observations of a look, each linked to the true node it stands for where known.

    One without a true node (a real camera's) is linked to an unclaimed
    visible true object of its category that memory does not hold yet, in
    the order the look sees them; one that matches none (a hallucination, an
    unmatched name) stays unlinked.
    """
    seen = list(visible(truth, asset, relation))
    claimed = {o.truth for o in observations if o.truth is not None}
    out = []
    for obs in observations:
        if obs.truth is None and obs.category is not None:
            match = next(
                (
                    t
                    for t in seen
                    if t not in claimed
                    and memory.memory_id(t) is None
                    and truth.graph.nodes[t].category == obs.category
                ),
                None,
            )
            if match is not None:
                claimed.add(match)
                obs = replace(obs, truth=match)
        out.append(obs)
    return out


def _place(state: WorldState, node: str, memory: Memory | None = None) -> tuple[str | None, str]:
    """Where an object rests, in true ids: (parent, relation)."""
    parent = state.parent(node)
    if memory is not None and parent is not None:
        parent = memory.true_id(parent)
    relation = state.relation(node)
    return parent, relation.value if relation else ""


def _where(state: WorldState, node: str) -> str:
    """'on kitchen_bench', 'inside fridge', 'in the agent's hand'."""
    if node not in state.graph:
        return "where memory had it"
    relation, parent = state.relation(node), state.parent(node)
    if relation is Relation.HELD:
        return "in the agent's hand"
    word = "inside" if relation is Relation.INSIDE_OF else "on"
    return f"{word} {parent}" if parent else "where memory had it"


def _parsed(action: Action | str) -> Action:
    return parse_action(action) if isinstance(action, str) else action


def _at(failure: Failure, index: int | None) -> Failure:
    return Failure(failure.cause, failure.action, failure.facts, index)


@dataclass
class Tally:
    """Hits out of chances, as counts that add up."""

    hits: int = 0
    chances: int = 0

    def count(self, hit: bool) -> None:
        """One more chance, and a hit if `hit`."""
        self.hits += hit
        self.chances += 1

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one's."""
        self.hits += other.hits
        self.chances += other.chances

    @property
    def rate(self) -> float | None:
        """Hits per chance; None where there was none."""
        return self.hits / self.chances if self.chances else None


@dataclass
class LookScore:
    """How well looks found what was there (LookPlanGraph Table 4), as tallies that add up.

    `nodes` (node presence): true objects reported, of the true objects there
    to be found. `on` / `inside`: true objects resting that way reported with
    the right relation and the right support, of the true objects resting
    that way.
    """

    nodes: Tally = field(default_factory=Tally)
    on: Tally = field(default_factory=Tally)
    inside: Tally = field(default_factory=Tally)

    @property
    def expected(self) -> int:
        """The true objects there were to be found."""
        return self.nodes.chances

    def add(self, other: LookScore) -> None:
        """Add another score's tallies to this one's."""
        self.nodes.add(other.nodes)
        self.on.add(other.on)
        self.inside.add(other.inside)

    def rates(self) -> dict[str, float | None]:
        """The rates of nodes found (`np`) and of on / inside relations right (None where
        none was expected)."""
        return {"np": self.nodes.rate, "on": self.on.rate, "inside": self.inside.rate}


def expected_at(truth: WorldState, memory: Memory, asset: str, relation: Relation) -> list[dict]:
    """What a look should find: the visible true objects memory lacks, with where they rest."""
    out = []
    for node in visible(truth, asset, relation):
        if memory.memory_id(node) is None:
            rel = truth.relation(node)
            out.append(
                {
                    "id": node,
                    "relation": rel.value if rel else None,
                    "related_to": truth.parent(node),
                }
            )
    return out


def score_look(
    observations: Sequence[Observation],
    expected: Sequence[dict],
    resolve: Callable[[str], str] | None = None,
) -> LookScore:
    """Score one look's (associated) observations against what it could find (`expected_at`).

    An observation's support is right when it names the true parent: by the
    name or id of another observation of the look that stands for it, or by
    an id `resolve` maps to the true one (memory's ids; default: as written).
    """
    truth_of_name = {
        key: o.truth for o in observations if o.truth is not None for key in (o.name, o.id) if key
    }
    reported = {o.truth: o for o in observations if o.truth is not None}
    score = LookScore()
    for item in expected:
        obs = reported.get(item["id"])
        score.nodes.count(obs is not None)
        support = None
        if obs is not None and obs.related_to is not None:
            named = obs.related_to
            support = truth_of_name.get(named) or (resolve(named) if resolve else named)
        right = (
            obs is not None
            and obs.relation is not None
            and obs.relation.value == item["relation"]
            and support == item["related_to"]
        )
        if item["relation"] == Relation.ONTOP_OF.value:
            score.on.count(right)
        elif item["relation"] == Relation.INSIDE_OF.value:
            score.inside.count(right)
    return score
