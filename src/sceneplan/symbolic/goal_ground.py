"""Goal formulas made ground: quantifiers expanded, static atoms decided, negation pushed in.

The result is a small tree of tuples in negation normal form:
`("lit", Atom, positive)`, `("and", parts)`, `("or", parts)`, `("const", bool)`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.domain import SAYPLAN
from sceneplan.world.goals import And, Atom, Const, Formula, Implies, Not, Or, Quantified
from sceneplan.world.rules import APPLIANCE_FUNCTIONS
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

GNode = tuple
TRUE: GNode = ("const", True)
FALSE: GNode = ("const", False)
STATIC_ATOMS = frozenset({"attr", "is"})
_PLACEMENT_ATOMS = frozenset({"ontop_of", "inside_of", "at", "within", "in_room", "held"})


def ground_goal(formula: Formula, graph: SceneGraph) -> GNode:
    """The goal over node ids only, in negation normal form, simplified."""
    return _ground(formula, graph, {}, True)


def _ground(f: Formula, graph: SceneGraph, env: dict[str, str], positive: bool) -> GNode:
    if isinstance(f, Const):
        return ("const", f.value == positive)
    if isinstance(f, Not):
        return _ground(f.body, graph, env, not positive)
    if isinstance(f, Implies):
        return _ground(Or((Not(f.left), f.right)), graph, env, positive)
    if isinstance(f, And | Or):
        conjunctive = isinstance(f, And) == positive
        parts = [_ground(p, graph, env, positive) for p in f.parts]
        return conjoin(parts) if conjunctive else disjoin(parts)
    if isinstance(f, Quantified):
        conjunctive = f.universal == positive
        parts = [_ground(f.body, graph, {**env, f.var: x}, positive) for x in f.domain(graph)]
        return conjoin(parts) if conjunctive else disjoin(parts)
    assert isinstance(f, Atom)
    atom = Atom(f.name, tuple(env.get(a, a) for a in f.args))
    if atom.name in STATIC_ATOMS or _about_fixed_node(atom, graph):
        # nothing any action does can change these: the graph decides them
        return ("const", atom.holds(WorldState(graph)) == positive)
    return ("lit", atom, positive)


def _about_fixed_node(atom: Atom, graph: SceneGraph) -> bool:
    """A placement atom about an asset, room or other node that never moves."""
    if atom.name not in _PLACEMENT_ATOMS:
        return False
    return graph.nodes[atom.args[0]].kind not in (NodeKind.OBJECT, NodeKind.AGENT)


def conjoin(parts: list[GNode]) -> GNode:
    flat: list[GNode] = []
    for part in parts:
        if part == FALSE:
            return FALSE
        if part[0] == "and":
            flat.extend(part[1])
        elif part != TRUE:
            flat.append(part)
    flat = list(dict.fromkeys(flat))
    return TRUE if not flat else flat[0] if len(flat) == 1 else ("and", tuple(flat))


def disjoin(parts: list[GNode]) -> GNode:
    flat: list[GNode] = []
    for part in parts:
        if part == TRUE:
            return TRUE
        if part[0] == "or":
            flat.extend(part[1])
        elif part != FALSE:
            flat.append(part)
    flat = list(dict.fromkeys(flat))
    return FALSE if not flat else flat[0] if len(flat) == 1 else ("or", tuple(flat))


def literals(node: GNode) -> Iterator[tuple[Atom, bool]]:
    """Every literal of a ground goal, with its polarity."""
    if node[0] == "lit":
        yield node[1], node[2]
    elif node[0] in ("and", "or"):
        for part in node[1]:
            yield from literals(part)


def wrong_literals(node: GNode, state: WorldState) -> list[tuple[Atom, bool]]:
    """Literals a plan may need to change: false ones it could make true, true ones to undo."""
    seen = dict.fromkeys(literals(node))
    return [
        (atom, positive)
        for atom, positive in seen
        if atom.holds(state) != positive and (not positive or _achievable(atom, state.graph))
    ]


def _switched_words() -> dict[str, str]:
    """State word -> the affordance of the action that sets it (from the SayPlan schemas)."""
    out = {}
    for schema in SAYPLAN.values():
        for effect in schema.effects:
            if effect.op == "set_state":
                param = next(p for p in schema.params if p.name == effect.args[0])
                out[effect.args[1]] = param.affordance
    return out


_SWITCHED = _switched_words()
_APPLIED = set(APPLIANCE_FUNCTIONS.values())
_APPLIED |= {EXCLUSIVE_STATES[w] for w in _APPLIED if w in EXCLUSIVE_STATES}


def _achievable(atom: Atom, graph: SceneGraph) -> bool:
    """False for a literal no action can make true: a placement objects never reach, or a
    state word no action or appliance sets on that node."""
    node = graph.nodes[atom.args[0]] if atom.args else None
    if atom.name in _SWITCHED and node is not None:
        affordance = _SWITCHED[atom.name]
        switchable = affordance is None or affordance in node.affordances
        return switchable or (atom.name in _APPLIED and node.kind is NodeKind.OBJECT)
    if atom.name not in ("ontop_of", "inside_of", "at"):
        return True
    target = graph.nodes[atom.args[1]]
    if target.kind is not NodeKind.ASSET or "release" not in target.affordances:
        return False
    return atom.name != "inside_of" or "open" in target.affordances
