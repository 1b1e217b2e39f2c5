"""Ground goals compiled into a task's goal facts and goal-phase actions.

Each goal literal becomes a formula over task facts: `inside_of(o, c)` is one
fact, `in_room(o, r)` a disjunction over the chains of `o` that end in room r.
Literals about nodes outside the scope keep the value they have now (nothing
in the plan can touch them). The conjunction of plain facts at the top is the
task's goal; every disjunction gets an auxiliary fact, made true by one
goal-phase action per disjunct. Goal-phase actions end the plan: they delete
`("playing",)`, which every regular action needs, so what they establish
cannot be undone afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.goal_ground import FALSE, GNode, conjoin, disjoin
from sceneplan.symbolic.grounding import Grounder
from sceneplan.symbolic.task import Fact
from sceneplan.world.goals import Atom

K = NodeKind
PLAYING: Fact = ("playing",)
_STATIC = frozenset({K.BUILDING, K.FLOOR, K.ROOM, K.POSE, K.ASSET})


def _lit(fact: Fact, positive: bool = True) -> GNode:
    return ("fact", fact, positive)


def _all(facts) -> GNode:
    return conjoin([_lit(f) for f in facts])


def negate(node: GNode) -> GNode:
    kind = node[0]
    if kind == "const":
        return ("const", not node[1])
    if kind == "fact":
        return ("fact", node[1], not node[2])
    parts = [negate(p) for p in node[1]]
    return disjoin(parts) if kind == "and" else conjoin(parts)


class AtomCompiler:
    """Goal-language atoms as formulas over the facts of a grounder's task."""

    def __init__(self, grounder: Grounder):
        self.g = grounder
        self.graph = grounder.graph

    def kind(self, node_id: str) -> NodeKind:
        return self.graph.nodes[node_id].kind

    def in_scope(self, node_id: str) -> bool:
        return node_id in self.g.scope.objects

    def compile(self, atom: Atom) -> GNode:
        movable = [a for a in atom.args if self.kind(a) is K.OBJECT]
        if any(not self.in_scope(a) for a in movable[:1]):
            return ("const", atom.holds(self.g.state))
        method = getattr(self, f"atom_{atom.name}", None)
        if method is not None:
            return method(*atom.args)
        (x,) = atom.args
        if x in self.g.scope.objects or x in self.g.scope.assets:
            return _lit(("state", atom.name, x))
        return ("const", atom.holds(self.g.state))

    def _chains_through(self, x: str, test) -> GNode:
        return disjoin([test(c) for c in self.g.chains(x)])

    def _relation(self, name: str, x: str, y: str) -> GNode:
        if self.kind(x) is not K.OBJECT:
            return FALSE
        possible = any(p == y and r.value == name for p, r in self.g.placements(x))
        return _lit((name, x, y)) if possible else FALSE

    def atom_ontop_of(self, x, y):
        return self._relation("ontop_of", x, y)

    def atom_inside_of(self, x, y):
        return self._relation("inside_of", x, y)

    def atom_at(self, x, y):
        return disjoin([self._relation("ontop_of", x, y), self._relation("inside_of", x, y)])

    def atom_held(self, x):
        return _lit(("holding", x)) if self.kind(x) is K.OBJECT else FALSE

    def atom_handempty(self):
        return _lit(("handempty",))

    def atom_agent_at(self, x):
        return _lit(("at", x)) if x in self.g.place_set else FALSE

    def _agent_within(self, y: str) -> GNode:
        return disjoin(
            [_lit(("at", p)) for p in self.g.places if p == y or y in self.graph.ancestors(p)]
        )

    def atom_in_room(self, x, r):
        kind = self.kind(x)
        if kind is K.AGENT:
            return self.atom_agent_at(r) if self.kind(r) is K.ROOM else FALSE
        if kind is not K.OBJECT:
            return ("const", self.g.state.room_of(x) == r)

        def test(chain):
            if chain.asset is None:
                return conjoin([_all(chain.links), self.atom_agent_at(r)])
            return _all(chain.links) if self.graph.room_of(chain.asset) == r else FALSE

        return self._chains_through(x, test) if self.kind(r) is K.ROOM else FALSE

    def atom_within(self, x, y):
        kind, target = self.kind(x), self.kind(y)
        if kind is K.AGENT:
            return self._agent_within(y) if target in _STATIC else FALSE
        if kind is not K.OBJECT:
            return ("const", Atom("within", (x, y)).holds(self.g.state))

        def test(chain):
            if y in chain.parents:
                return _all(chain.prefix_to(y))
            if chain.asset is None:
                if target is K.AGENT:
                    return _all(chain.links)
                return (
                    conjoin([_all(chain.links), self._agent_within(y)])
                    if target in _STATIC
                    else FALSE
                )
            return _all(chain.links) if y in self.graph.ancestors(chain.asset) else FALSE

        return self._chains_through(x, test)


@dataclass
class CompiledGoal:
    """Top-level goal facts and the goal-phase actions for the disjunctive rest."""

    goal: set[Fact] = field(default_factory=set)
    goal_neg: set[Fact] = field(default_factory=set)
    actions: list[tuple[str, list[Fact], list[Fact], Fact]] = field(default_factory=list)
    constant: bool | None = None  # the goal is decided without planning

    @property
    def needs_phase(self) -> bool:
        return bool(self.actions)


def compile_goal(ground: GNode, grounder: Grounder) -> CompiledGoal:
    """Turn a ground goal (see goal_ground) into goal facts and goal-phase actions."""
    atoms = AtomCompiler(grounder)
    formula = _facts(ground, atoms)
    out = CompiledGoal()
    if formula[0] == "const":
        out.constant = formula[1]
        return out
    aux: dict[GNode, Fact] = {}
    parts = formula[1] if formula[0] == "and" else (formula,)
    for part in parts:
        if part[0] == "fact":
            (out.goal if part[2] else out.goal_neg).add(part[1])
        else:
            out.goal.add(_aux(part, aux, out))
    return out


def _facts(node: GNode, atoms: AtomCompiler) -> GNode:
    kind = node[0]
    if kind == "lit":
        compiled = atoms.compile(node[1])
        return compiled if node[2] else negate(compiled)
    if kind in ("and", "or"):
        parts = [_facts(p, atoms) for p in node[1]]
        return conjoin(parts) if kind == "and" else disjoin(parts)
    return node


def _aux(node: GNode, aux: dict[GNode, Fact], out: CompiledGoal) -> Fact:
    """The auxiliary fact of a disjunction (or of a conjunction inside one)."""
    if node in aux:
        return aux[node]
    fact = aux[node] = ("goal", len(aux))
    disjuncts = node[1] if node[0] == "or" else (node,)
    for disjunct in disjuncts:
        parts = disjunct[1] if disjunct[0] == "and" else (disjunct,)
        pos, neg = [], []
        for part in parts:
            if part[0] == "fact":
                (pos if part[2] else neg).append(part[1])
            else:
                pos.append(_aux(part, aux, out))
        out.actions.append((f"goal{len(out.actions)}", pos, neg, fact))
    return fact
