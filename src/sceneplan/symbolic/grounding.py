"""Grounding the world domain into a propositional task, straight from the action schemas.

Facts: `("at", place)`, `("accessed", asset)`, `("holding", o)`,
`("handempty",)`, `("ontop_of", o, y)`, `("inside_of", o, y)` (direct
parents) and `("state", word, x)`. What the simulator computes by walking the
containment tree (an object's asset, whether it is accessible, what an
appliance contains) is compiled through *chains*: the possible paths of
parent links from an object up to its asset or the hand. Objects are only
ever put on assets, so an object's chains are its current path and one per
place it may be released at; in any state exactly one chain of each object
holds. A ground action is one variant per chain (or per accessed asset,
source place) it depends on, so the STRIPS planner sees plain conjunctions.

The two tables below say what each precondition test and effect op of
`world.rules` means here; a schema using a name they lack cannot be grounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import product

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.symbolic.scope import Scope
from sceneplan.symbolic.task import CondEffect, Fact, FactTable, GroundAction
from sceneplan.world.actions import Action
from sceneplan.world.domain import ActionSchema
from sceneplan.world.rules import APPLIANCE_FUNCTIONS, APPLIANCE_TARGETS
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

K = NodeKind
HANDEMPTY: Fact = ("handempty",)


@dataclass(frozen=True)
class Chain:
    """A path of parent links from an object up to its asset, or to the hand (`asset` None)."""

    links: tuple[Fact, ...]
    asset: str | None
    parents: tuple[str, ...]
    entered: tuple[str, ...]  # parents the path enters through inside_of links

    def prefix_to(self, node: str) -> tuple[Fact, ...]:
        """The links up to and including the one into `node`."""
        return self.links[: self.parents.index(node) + 1]

    def enters(self, node: str) -> bool:
        return node in self.entered


# A binding holds the hidden choices of a variant: "at", "accessed", ("chain", o).
Binding = dict
Alternative = tuple[Binding, tuple[Fact, ...], tuple[Fact, ...]]


class Grounder:
    """Ground actions and chains for one world state and scope."""

    def __init__(self, state: WorldState, scope: Scope):
        self.state = state
        self.graph = state.graph
        self.scope = scope
        self.assets = sorted(scope.assets)
        self.places = list(scope.places)
        self.place_set = set(scope.places)
        self.facts = FactTable()
        self.chains = cache(self._chains)

    # -- structure ------------------------------------------------------------------

    def affords(self, node_id: str, affordance: str) -> bool:
        return affordance in self.graph.nodes[node_id].affordances

    def is_container(self, node_id: str) -> bool:
        return self.affords(node_id, "open")

    def placements(self, o: str) -> list[tuple[str, Relation]]:
        """Where the object may rest: where it is now and, if it can be picked up, release spots."""
        out = []
        if self.state.holding != o:
            out.append((self.state.parent(o), self.state.relation(o)))
        if self.affords(o, "pickup"):
            for a in self.assets:
                if not self.affords(a, "release"):
                    continue
                relations = [Relation.ONTOP_OF]
                if self.is_container(a):
                    relations.append(Relation.INSIDE_OF)
                out.extend((a, r) for r in relations if (a, r) not in out)
        return out

    def _chains(self, o: str) -> tuple[Chain, ...]:
        out: list[Chain] = []
        if self.affords(o, "pickup") or self.state.holding == o:
            out.append(Chain((("holding", o),), None, (), ()))
        for parent, relation in self.placements(o):
            link = (relation.value, o, parent)
            entered = (parent,) if relation is Relation.INSIDE_OF else ()
            if self.graph.nodes[parent].kind is K.ASSET:
                out.append(Chain((link,), parent, (parent,), entered))
            else:
                out.extend(
                    Chain((link, *c.links), c.asset, (parent, *c.parents), entered + c.entered)
                    for c in self.chains(parent)
                )
        return tuple(out)

    def contents_paths(self, o: str) -> list[tuple[str, tuple[Fact, ...]]]:
        """Objects now below `o`, each with the links that keep it there (none can be added)."""
        out = []
        for d in self.scope.objects:
            path, child, parent = [], d, self.state.parent(d)
            while parent is not None and self.graph.nodes[parent].kind is K.OBJECT:
                path.append((self.state.relation(child).value, child, parent))
                if parent == o:
                    out.append((d, tuple(path)))
                    break
                child, parent = parent, self.state.parent(parent)
        return out

    def room_assets(self, room: str | None) -> list[str]:
        return [a for a in self.assets if self.graph.room_of(a) == room]

    def move_sources(self, x: str) -> list[str]:
        if self.scope.macro_moves:
            return [p for p in self.places if p != x]
        return [p for p in self.graph.topology.neighbors(x) if p in self.place_set]

    def chains_for(self, b: Binding, o: str) -> Iterator[Chain]:
        bound = b.get(("chain", o))
        return iter((bound,)) if bound is not None else iter(self.chains(o))

    # -- appliance effects ------------------------------------------------------------

    def appliance_effects(
        self, appliance: str, receivers: list[tuple[str, tuple[Fact, ...]]], condition: tuple
    ) -> list[tuple[tuple[Fact, ...], tuple[Fact, ...], list[Fact], list[Fact]]]:
        """Conditional effects of a running appliance on receivers (each with its own links)."""
        category = self.graph.nodes[appliance].category
        word = APPLIANCE_FUNCTIONS.get(category)
        if word is None or not self.scope.effect_matters(word):
            return []
        targets = APPLIANCE_TARGETS.get(category)
        pos, neg = condition
        out = []
        for d, links in receivers:
            if targets is not None and self.graph.nodes[d].category not in targets:
                continue
            out.append((pos + links, neg, [("state", word, d)], _opposite(word, d)))
        return out

    # -- grounding ----------------------------------------------------------------------

    def arguments(self, schema: ActionSchema) -> Iterator[tuple[str, ...]]:
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
        for pre in schema.pre:
            if pre.test not in TESTS:
                raise UnsupportedError(
                    f"action {schema.signature}: precondition test '{pre.test}' cannot be "
                    "grounded (add it to symbolic.grounding.TESTS)"
                )
        names = {p.name: a for p, a in zip(schema.params, args, strict=True)}
        variants: list[Alternative] = [({}, (), ())]
        for pre in schema.pre:
            test = TESTS[pre.test]
            values = [names.get(a, a) for a in pre.args]
            variants = [
                ({**b, **nb}, pos + npos, neg + nneg)
                for b, pos, neg in variants
                for nb, npos, nneg in test(self, b, *values)
            ]
        action = Action(schema.name, args)
        out = []
        for binding, pos, neg in variants:
            add: list[Fact] = []
            delete: list[Fact] = []
            conditional: list = []
            for effect in schema.effects:
                if effect.op not in EFFECTS:
                    raise UnsupportedError(
                        f"action {schema.signature}: effect '{effect.op}' cannot be grounded "
                        "(add it to symbolic.grounding.EFFECTS)"
                    )
                op = EFFECTS[effect.op]
                if op is None:
                    return []
                values = [names.get(a, a) for a in effect.args]
                e_add, e_del, e_cond = op(self, binding, *values)
                add += e_add
                delete += e_del
                conditional += e_cond
            f = self.facts
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
                )
            )
        return out

    def initial_facts(self) -> set[Fact]:
        """The task's facts that hold in the grounder's world state."""
        s = self.state
        facts: set[Fact] = {("at", s.agent_at)}
        if s.accessed is not None:
            facts.add(("accessed", s.accessed))
        facts.add(("holding", s.holding) if s.holding else HANDEMPTY)
        for o in self.scope.objects:
            relation = s.relation(o)
            if relation in (Relation.ONTOP_OF, Relation.INSIDE_OF):
                facts.add((relation.value, o, s.parent(o)))
        for x in (*self.scope.objects, *self.assets):
            facts.update(("state", w, x) for w in s.states(x))
        return facts


def _opposite(word: str, x: str) -> list[Fact]:
    opposite = EXCLUSIVE_STATES.get(word)
    return [("state", opposite, x)] if opposite else []


def _bind(b: Binding, key, value, pos: tuple[Fact, ...] = ()) -> list[Alternative]:
    """One alternative that binds `key` to `value`, or none if it is bound to something else."""
    if key in b:
        return [({}, (), ())] if b[key] == value else []
    return [({key: value}, pos, ())]


# -- what each precondition test means in the ground task -------------------------------


def _adjacent(g: Grounder, b: Binding, x: str) -> list[Alternative]:
    return [alt for p in g.move_sources(x) for alt in _bind(b, "at", p, (("at", p),))]


def _in_room_of(g: Grounder, b: Binding, x: str) -> list[Alternative]:
    if g.graph.nodes[x].kind is not K.ASSET:
        raise UnsupportedError(f"in_room_of is grounded for assets only, not for {x}")
    room = g.graph.room_of(x)
    return _bind(b, "at", room, (("at", room),)) if room in g.place_set else []


def _chain_accessed(g: Grounder, b: Binding, o: str) -> list[Alternative]:
    out = []
    for chain in g.chains_for(b, o):
        if chain.asset is None:
            continue
        for nb, pos, _ in _bind(b, "accessed", chain.asset, (("accessed", chain.asset),)):
            out.append(({**nb, ("chain", o): chain}, chain.links + pos, ()))
    return out


def _something_accessed(g: Grounder, b: Binding, o: str) -> list[Alternative]:
    if "accessed" in b:
        return [({}, (), ())] if b["accessed"] is not None else []
    return [({"accessed": a}, (("accessed", a),), ()) for a in g.assets]


def _accessed_affords_release(g: Grounder, b: Binding) -> list[Alternative]:
    if "accessed" in b:
        a = b["accessed"]
        return [({}, (), ())] if a is None or g.affords(a, "release") else []
    nothing = ({"accessed": None}, (), tuple(("accessed", a) for a in g.assets))
    return [nothing] + [
        ({"accessed": a}, (("accessed", a),), ()) for a in g.assets if g.affords(a, "release")
    ]


def _reachable_accessed(g: Grounder, b: Binding, x: str) -> list[Alternative]:
    if g.graph.nodes[x].kind is K.ASSET:
        return _bind(b, "accessed", x, (("accessed", x),))
    return _chain_accessed(g, b, x)


def _accessible(g: Grounder, b: Binding, o: str) -> list[Alternative]:
    return [
        ({("chain", o): c}, c.links, tuple(("state", "closed", p) for p in c.entered))
        for c in g.chains_for(b, o)
    ]


def _has_state(g: Grounder, b: Binding, x: str, word: str) -> list[Alternative]:
    return [({}, (("state", word, x),), ())]


def _is_container(g: Grounder, b: Binding, x: str) -> list[Alternative]:
    return [({}, (), ())] if g.is_container(x) else []


def _closed_if_container(g: Grounder, b: Binding, x: str) -> list[Alternative]:
    return [({}, (), (("state", "open", x),) if g.is_container(x) else ())]


TESTS: dict[str, Callable[..., list[Alternative]]] = {
    "adjacent": _adjacent,
    "in_room_of": _in_room_of,
    "hand_empty": lambda g, b: [({}, (HANDEMPTY,), ())],
    "holding": lambda g, b, o: [({}, (("holding", o),), ())],
    "asset_accessed": _chain_accessed,
    "something_accessed": _something_accessed,
    "accessed_affords_release": _accessed_affords_release,
    "reachable_accessed": _reachable_accessed,
    "accessible": _accessible,
    "has_state": _has_state,
    "is_container": _is_container,
    "closed_if_container": _closed_if_container,
}

# -- what each effect op means: (add, delete, conditional effects) ------------------------

Effects = tuple[list[Fact], list[Fact], list]


def _move_agent(g: Grounder, b: Binding, x: str) -> Effects:
    source = b.get("at")
    sources = [source] if source is not None else [p for p in g.places if p != x]
    # an accessed asset is always in the agent's room, so only those can be accessed now
    accessed = g.room_assets(g.graph.room_of(source)) if source is not None else g.assets
    return [("at", x)], [("at", p) for p in sources] + [("accessed", a) for a in accessed], []


def _set_accessed(g: Grounder, b: Binding, a: str) -> Effects:
    others = [o for o in g.room_assets(g.graph.room_of(a)) if o != a]
    return [("accessed", a)], [("accessed", o) for o in others], []


def _grab(g: Grounder, b: Binding, o: str) -> Effects:
    chain = b.get(("chain", o))
    if chain is not None and chain.asset is not None:
        links = [chain.links[0]]
    else:
        links = [(r.value, o, p) for p, r in g.placements(o)]
    return [("holding", o)], [HANDEMPTY, *links], []


def _place_at_accessed(g: Grounder, b: Binding, o: str) -> Effects:
    a = b.get("accessed")
    if a is None:
        raise UnsupportedError("place_at_accessed needs something_accessed among the preconditions")
    add: list[Fact] = [HANDEMPTY]
    cond: list = []
    running: tuple[tuple[Fact, ...], tuple[Fact, ...]] = ((("state", "on", a),), ())
    if g.is_container(a):
        is_open = ("state", "open", a)
        cond += [
            ((is_open,), (), [("inside_of", o, a)], []),
            ((), (is_open,), [("ontop_of", o, a)], []),
        ]
        running = (running[0] + (is_open,), ())
    else:
        add.append(("ontop_of", o, a))
    receivers = [(o, ()), *g.contents_paths(o)]
    cond += g.appliance_effects(a, receivers, running)
    return add, [("holding", o)], cond


def _set_state(g: Grounder, b: Binding, x: str, word: str) -> Effects:
    return [("state", word, x)], _opposite(word, x), []


def _apply_appliance(g: Grounder, b: Binding, x: str) -> Effects:
    container = g.is_container(x)
    receivers: dict[tuple[str, tuple[Fact, ...]], None] = {}
    for d in sorted(g.scope.objects):
        for chain in g.chains(d):
            if x in chain.parents and (not container or chain.enters(x)):
                receivers[(d, chain.prefix_to(x))] = None
    return [], [], g.appliance_effects(x, list(receivers), ((), ()))


EFFECTS: dict[str, Callable[..., Effects] | None] = {
    "move_agent": _move_agent,
    "set_accessed": _set_accessed,
    "grab": _grab,
    "place_at_accessed": _place_at_accessed,
    "set_state": _set_state,
    "apply_appliance": _apply_appliance,
    "finish": None,  # `done` ends a plan; the planner never needs it
}
