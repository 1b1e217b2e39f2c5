"""Grounding the world domain into a propositional task, straight from the action schemas.

Facts: `("at", place)`, `("accessed", asset)`, `("holding", o)`,
`("handempty",)`, `("ontop_of", o, y)`, `("inside_of", o, y)` (direct
parents) and `("state", word, x)`. What the simulator computes by walking the
containment tree (an object's asset, whether it is accessible, what an
appliance contains) is compiled through *chains*: the possible paths of
parent links from an object up to its asset or the hand: its current path,
one per asset it may be released at, and, through each object that takes
things (a receptacle), that object's own chains (never through itself); in
any state exactly one chain of each object holds. A ground action is one
variant per chain (or per accessed asset, source place) it depends on, so the
STRIPS planner sees plain conjunctions.

What each precondition test and effect means here is the `ground` face of
its primitive (`world.rules`); the Grounder below offers those faces what
they need (the `world.primitives.Grounding` protocol).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from itertools import product
from typing import cast

from sceneplan.errors import UnreachableError, UnsupportedError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.symbolic.scope import Scope
from sceneplan.symbolic.task import CondEffect, Fact, FactTable, GroundAction
from sceneplan.world.actions import Action
from sceneplan.world.domain import ActionSchema
from sceneplan.world.primitives import (
    EFFECTS,
    HAND_FREE,
    HANDEMPTY,
    TESTS,
    Alternative,
    Binding,
    Chain,
    opposite_facts,
)
from sceneplan.world.rules import APPLIANCE_FUNCTIONS, APPLIANCE_TARGETS
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState, holds_inside

K = NodeKind

# What one grounding may hold, counted in the links of its containment paths (chains) and
# the facts named by its ground actions: a count, not bytes, so that the verdict does not
# depend on the machine; about 100 bytes each (measured: 1.6 million in 151 MB), so some
# 1 GB. Past it, grounding stops with GroundingLimitError instead of taking the machine's
# memory. The whole Office is 0.13 million.
MAX_GROUNDING_SIZE = 10_000_000


class GroundingLimitError(UnsupportedError):
    """A problem whose grounding would pass the solver's memory budget."""


def exclusive_key(fact: Fact) -> tuple | None:
    """Facts with the same key never hold together: an object's place (`holding`,
    `ontop_of`, `inside_of`: in any state exactly one chain of the object holds), and
    a state word with its opposite (open/closed: setting one deletes the other)."""
    if fact[0] in ("holding", "ontop_of", "inside_of"):
        return ("place", fact[1])
    if fact[0] == "state" and fact[1] in EXCLUSIVE_STATES:
        return ("word", fact[2], *sorted((fact[1], EXCLUSIVE_STATES[fact[1]])))
    return None


class Exclusion:
    """Which conditions never hold, over facts numbered as in `facts` (a task's, or a
    `FactTable`'s list while it grows): one wanting a fact and its absence, or two facts
    of one exclusive key (`exclusive_key`). Keys are worked out once per fact."""

    def __init__(self, facts: list[Fact]) -> None:
        self.facts = facts
        self.keys: dict[int, tuple | None] = {}

    def key(self, fact: int) -> tuple | None:
        """The exclusive key of fact number `fact`."""
        if fact not in self.keys:
            self.keys[fact] = exclusive_key(self.facts[fact])
        return self.keys[fact]

    def contradicts(self, pos: frozenset[int] | set[int], neg: frozenset[int] | set[int]) -> bool:
        """Whether no state has every fact of `pos` and none of `neg`."""
        if not pos.isdisjoint(neg):
            return True
        seen: set[tuple] = set()
        for fact in pos:
            key = self.key(fact)
            if key is not None:
                if key in seen:
                    return True
                seen.add(key)
        return False


class Grounder:
    """Ground actions and chains for one world state and scope."""

    def __init__(
        self, state: WorldState, scope: Scope, travel: Callable[[str, str], int] | None = None
    ):
        """`travel(a, b)` is what a macro move from a to b costs (1 without it)."""
        self.travel = travel if scope.macro_moves else None
        self.state = state
        self.graph = state.graph
        self.scope = scope
        self.assets = sorted(scope.assets)
        self.places = list(scope.places)
        self.place_set = set(scope.places)
        self.facts = FactTable()
        self._chain_cache: dict[tuple[str, frozenset[str], int | None], tuple[Chain, ...]] = {}
        self.size = 0  # chain links and ground-action facts made so far (`MAX_GROUNDING_SIZE`)
        self.max_size = MAX_GROUNDING_SIZE

    @property
    def objects(self) -> frozenset[str]:
        """The objects in scope."""
        return self.scope.objects

    # -- structure ------------------------------------------------------------------

    def affords(self, node_id: str, affordance: str) -> bool:
        """Whether the node has the affordance."""
        return affordance in self.graph.nodes[node_id].affordances

    def is_container(self, node_id: str) -> bool:
        """Whether things can go inside the node."""
        return holds_inside(self.graph.nodes[node_id])

    def placements(self, o: str) -> list[tuple[str, Relation]]:
        """Where the object may rest: where it is now and, if it can be picked up, release
        spots: assets, and objects in scope that things can be put on or in (receptacles;
        for a receptacle itself, those the scope lets it stack on, `Scope.stacking`)."""
        out: list[tuple[str, Relation]] = []
        if not self.state.holds(o):  # then it rests on or in something
            out.append(cast(tuple[str, Relation], (self.state.parent(o), self.state.relation(o))))
        if self.affords(o, "pickup"):
            stacks = self.affords(o, "release")
            for a in (*self.assets, *self.receptacles):
                if a == o or not self.affords(a, "release"):
                    continue
                if stacks and a in self.scope.objects and not self.scope.may_stack(o, a):
                    continue
                relations = [Relation.ONTOP_OF]
                if self.is_container(a):
                    relations.append(Relation.INSIDE_OF)
                out.extend((a, r) for r in relations if (a, r) not in out)
        return out

    @cached_property
    def receptacles(self) -> list[str]:
        """Objects in scope that other objects may be put on or in."""
        return sorted(o for o in self.scope.objects if self.affords(o, "release"))

    def chains(
        self, o: str, avoid: frozenset[str] = frozenset(), depth: int | None = -1
    ) -> tuple[Chain, ...]:
        """Chains of `o` that pass through none of `avoid` (an object cannot be below
        itself: placing a receptacle in what it holds is excluded) and through at most
        `depth` objects it does not rest on now (-1: the scope's `stack_depth`)."""
        if depth == -1:
            depth = self.scope.stack_depth
        found = self._chain_cache.get((o, avoid, depth))
        if found is None:
            # what `o` rests in or on now, outermost first: each one's chains are made
            # before those of what it holds, so nesting depth costs no recursion depth
            line, current = [], self.state.parent(o)
            while (
                current is not None
                and self.graph.nodes[current].kind is K.OBJECT
                and current not in avoid
                and (current, avoid, depth) not in self._chain_cache
                and current not in line
            ):
                line.append(current)
                current = self.state.parent(current)
            for holder in reversed(line):
                self._chain_cache[(holder, avoid, depth)] = self._chains(holder, avoid, depth)
            found = self._chain_cache[(o, avoid, depth)] = self._chains(o, avoid, depth)
        return found

    def _chains(self, o: str, avoid: frozenset[str], depth: int | None) -> tuple[Chain, ...]:
        """The chains of `o` (see `chains`), from those of each place it may rest on.

        Through the place `o` rests on now, the chains are that place's own for the
        same `avoid`, less those through `o`, so the places an object is nested in share
        their chains (asked for with `avoid` grown by each place, N objects nested in one
        another made N^3 chains: N = 100 took 617 MB, N = 300 was killed at 23.5 GB).
        Through any other place, `avoid` grows by `o`, which keeps the search finite."""
        out: list[Chain] = []
        if self.affords(o, "pickup") or self.state.holds(o):
            out.append(Chain((("holding", o),), None, (), ()))
        current = (self.state.parent(o), self.state.relation(o))
        for parent, relation in self.placements(o):
            if parent in avoid:
                continue
            link = (relation.value, o, parent)
            entered = (parent,) if relation is Relation.INSIDE_OF else ()
            if self.graph.nodes[parent].kind is K.ASSET:
                out.append(Chain((link,), parent, (parent,), entered))
                continue
            if (parent, relation) == current:
                above = self.chains(parent, avoid, depth)
            elif depth == 0:
                continue
            else:
                above = self.chains(parent, avoid | {o}, None if depth is None else depth - 1)
            out.extend(
                Chain((link, *c.links), c.asset, (parent, *c.parents), entered + c.entered)
                for c in above
                if o not in c.parents
            )
        self._spend(sum(len(c.links) for c in out), o)
        return tuple(out)

    def _spend(self, size: int, node: str) -> None:
        """Count `size` more links or facts held; stop past the budget, naming the place."""
        self.size += size
        if self.size > self.max_size:
            nested = self._nesting(node)
            where = f"{node}, inside or on {nested} object(s)" if nested else node
            raise GroundingLimitError(
                f"this problem is too large to plan: grounding it passed the solver's "
                f"memory budget of {self.max_size:,} facts and containment links "
                f"(at {where}; docs/symbolic.md, 'Limits'). Nest fewer objects inside one "
                "another, or give a goal that needs fewer of them"
            )

    def _nesting(self, o: str) -> int:
        """How many objects `o` rests in or on now."""
        depth, current = 0, self.state.parent(o)
        while current is not None and self.graph.nodes[current].kind is K.OBJECT and depth < 10**6:
            depth, current = depth + 1, self.state.parent(current)
        return depth

    def contents_paths(self, o: str) -> list[tuple[str, tuple[Fact, ...]]]:
        """Objects that may be below `o`, each with the links that keep it there."""
        return list(self._below.get(o, ()))

    @cached_property
    def _below(self) -> dict[str, dict[tuple[str, tuple[Fact, ...]], None]]:
        """Object -> what may be below it (`contents_paths`), from one pass over the chains
        of the objects in scope, which every question shares (one pass per question took
        5.7 of the 8.4 s of grounding the whole Office)."""
        out: dict[str, dict[tuple[str, tuple[Fact, ...]], None]] = {}
        objects = self.scope.objects
        for d in sorted(objects):
            for chain in self.chains(d):
                for depth, parent in enumerate(chain.parents):
                    if parent in objects:
                        out.setdefault(parent, {})[(d, chain.links[: depth + 1])] = None
        return out

    def room_assets(self, room: str | None) -> list[str]:
        """The scope's assets in `room`."""
        return [a for a in self.assets if self.graph.room_of(a) == room]

    def move_sources(self, x: str) -> list[str]:
        """The places a move to `x` can start from (any, with macro moves; else its neighbours)."""
        if self.scope.macro_moves:
            return [p for p in self.places if p != x]
        return [p for p in self.graph.topology.neighbors(x) if p in self.place_set]

    def chains_for(self, b: Binding, o: str) -> Iterator[Chain]:
        """The support chains of object `o`: the one the binding fixed, or every one."""
        bound = b.get(("chain", o))
        return iter((bound,)) if bound is not None else iter(self.chains(o))

    # -- appliance effects ------------------------------------------------------------

    def appliance_effects(
        self, appliance: str, receivers: list[tuple[str, tuple[Fact, ...]]], condition: tuple
    ) -> list[tuple[tuple[Fact, ...], tuple[Fact, ...], list[Fact], list[Fact]]]:
        """Conditional effects of a running appliance on receivers (each with its own links)."""
        category = self.graph.nodes[appliance].category
        words = [w for w in APPLIANCE_FUNCTIONS.get(category, ()) if self.scope.effect_matters(w)]
        if not words:
            return []
        targets = APPLIANCE_TARGETS.get(category)
        pos, neg = condition
        out = []
        for d, links in receivers:
            if targets is not None and self.graph.nodes[d].category not in targets:
                continue
            add = [("state", w, d) for w in words]
            delete = [f for w in words for f in opposite_facts(w, d)]
            out.append((pos + links, neg, add, delete))
        return out

    # -- grounding ----------------------------------------------------------------------

    def arguments(self, schema: ActionSchema) -> Iterator[tuple[str, ...]]:
        """The argument tuples of the scope to ground the schema with."""
        pools = []
        for param in schema.params:
            pool: list[str] = []
            if param.kinds & {K.ROOM, K.POSE}:
                pool += [p for p in self.places if self.graph.nodes[p].kind in param.kinds]
            if K.ASSET in param.kinds:
                pool += self.assets
            if K.OBJECT in param.kinds:
                pool += sorted(self.scope.objects)
            if param.affordance is not None:
                pool = [x for x in pool if self.affords(x, param.affordance)]
            pools.append(pool)
        return product(*pools)

    def ground_schema(self, schema: ActionSchema, args: tuple[str, ...]) -> list[GroundAction]:
        """The variants of one action; none when it can never run in this scope."""
        names = schema.bind(args)
        variants: list[Alternative] = [({}, (), ())]
        for pre in schema.pre:
            test = TESTS[pre.test]
            values = [names.get(a, a) for a in pre.args]
            variants = [
                ({**b, **nb}, pos + npos, neg + nneg)
                for b, pos, neg in variants
                for nb, npos, nneg in test.ground(self, b, *values)
            ]
        action = Action(schema.name, args)
        destination = schema.destination
        moves_to = None if destination is None else names.get(destination, destination)
        out: list[GroundAction] = []
        for binding, pos, neg in variants:
            try:
                cost = self._cost(binding.get("at"), moves_to)
            except UnreachableError:
                continue  # no chain of links leads there: a move that can never run
            add: list[Fact] = []
            delete: list[Fact] = []
            conditional: list = []
            for effect in schema.effects:
                values = [names.get(a, a) for a in effect.args]
                ground = EFFECTS[effect.op].ground(self, binding, *values)
                if ground is None:
                    return []  # an action planners never need (done, look)
                e_add, e_del, e_cond = ground
                add += e_add
                delete += e_del
                conditional += e_cond
            f = self.facts
            self._spend(
                len(pos) + len(neg) + len(add) + len(delete) + sum(map(_size, conditional)),
                args[0] if args else schema.name,
            )
            out.append(
                GroundAction(
                    f"{action}#{len(out)}",
                    action,
                    f.many(pos),
                    f.many(neg),
                    f.many(add),
                    f.many(delete) - f.many(add),
                    tuple(
                        CondEffect(f.many(cp), f.many(cn), f.many(ca), f.many(cd))
                        for cp, cn, ca, cd in conditional
                    ),
                    cost,
                )
            )
        return out

    def _cost(self, source: str | None, target: str | None) -> int:
        """A macro move costs the steps it expands into; anything else one step."""
        if self.travel is None or source is None or target is None:
            return 1
        return max(1, self.travel(source, target))

    def initial_facts(self) -> set[Fact]:
        """The task's facts that hold in the grounder's world state."""
        s = self.state
        facts: set[Fact] = {("at", s.agent_at)}
        if s.accessed is not None:
            facts.add(("accessed", s.accessed))
        facts.update(("holding", o) for o in s.held)
        if not s.held:
            facts.add(HANDEMPTY)
        if s.hands == 2 and s.hand_free:
            facts.add(HAND_FREE)
        for o in self.scope.objects:
            relation = s.relation(o)
            if relation in (Relation.ONTOP_OF, Relation.INSIDE_OF):
                facts.add((relation.value, o, s.parent(o)))
        agent = (s.agent_id,) if self.graph.has_agent else ()
        for x in (*self.scope.objects, *self.assets, *agent):  # the agent's posture
            facts.update(("state", w, x) for w in s.states(x))
        return facts


def _size(effect: tuple) -> int:
    return sum(len(part) for part in effect)
