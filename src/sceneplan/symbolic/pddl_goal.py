"""Goal formulas of the goal language as PDDL goal text.

Quantifiers stay lifted: `forall p in plate: ...` becomes one typed `forall`
per node kind among the plates, guarded by the static predicate
`category_plate`; `kind:KIND` selectors are plain typed quantifiers. Derived
predicates (`in_room`, `within`, `at`) are spelled out over the fluents the
exported domain maintains (`below`, `holding`, `agent_at`, ...).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.goals import And, Atom, Const, Formula, Implies, Not, Or, Quantified

K = NodeKind

PDDL_TYPE: dict[NodeKind, str] = {
    K.BUILDING: "site",
    K.FLOOR: "storey",
    K.ROOM: "room",
    K.POSE: "pose",
    K.ASSET: "asset",
    K.OBJECT: "item",  # PDDL reserves `object` for the root type
    K.AGENT: "robot",
}
TRUE, FALSE = "(and)", "(or)"
STATIC_KINDS = frozenset({K.BUILDING, K.FLOOR, K.ROOM, K.POSE, K.ASSET})


@dataclass
class GoalText:
    """A translated goal and the problem-specific predicates it needs in the domain."""

    text: str
    words: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)


class _Translator:
    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self.counter = itertools.count()
        self.words: set[str] = set()
        self.categories: set[str] = set()
        self.attributes: set[str] = set()

    def fresh(self, stem: str) -> str:
        return f"?{stem}{next(self.counter)}"

    def formula(self, f: Formula, env: dict[str, tuple[str, NodeKind]]) -> str:
        if isinstance(f, Const):
            return TRUE if f.value else FALSE
        if isinstance(f, Not):
            return f"(not {self.formula(f.body, env)})"
        if isinstance(f, And):
            return "(and " + " ".join(self.formula(p, env) for p in f.parts) + ")"
        if isinstance(f, Or):
            return "(or " + " ".join(self.formula(p, env) for p in f.parts) + ")"
        if isinstance(f, Implies):
            return f"(imply {self.formula(f.left, env)} {self.formula(f.right, env)})"
        if isinstance(f, Quantified):
            return self.quantified(f, env)
        if isinstance(f, Atom) and f.name == "attr":
            x, word = f.args
            self.attributes.add(word)
            return f"({attr_predicate(word)} {env.get(x, (x, None))[0]})"
        if isinstance(f, Atom):
            terms = [env.get(a) or (a, self.graph.node(a).kind) for a in f.args]
            return self.atom(f.name, terms)
        raise UnsupportedError(f"goal part {f!r} has no PDDL translation")

    def quantified(self, q: Quantified, env: dict[str, tuple[str, NodeKind]]) -> str:
        members = q.domain(self.graph)
        kinds = sorted({self.graph.nodes[m].kind for m in members}, key=list(NodeKind).index)
        pieces = []
        for kind in kinds:
            var = self.fresh("g")
            body = self.formula(q.body, {**env, q.var: (var, kind)})
            head = f"({var} - {PDDL_TYPE[kind]})"
            if q.selector.startswith("kind:"):
                guarded = body
            else:
                self.categories.add(q.selector)
                guard = f"({category_predicate(q.selector)} {var})"
                guarded = f"(imply {guard} {body})" if q.universal else f"(and {guard} {body})"
            pieces.append(f"({'forall' if q.universal else 'exists'} {head} {guarded})")
        if not pieces:
            return TRUE if q.universal else FALSE
        return (
            pieces[0]
            if len(pieces) == 1
            else f"({'and' if q.universal else 'or'} {' '.join(pieces)})"
        )

    # -- atoms ---------------------------------------------------------------------

    def atom(self, name: str, terms: list[tuple[str, NodeKind]]) -> str:
        method = getattr(self, f"atom_{name}", None)
        if method is not None:
            return method(*terms)
        ((x, _kind),) = terms
        self.words.add(name)
        return f"({word_predicate(name)} {x})"

    def atom_ontop_of(self, x, y):
        return self._relation("ontop_of", x, y)

    def atom_inside_of(self, x, y):
        return self._relation("inside_of", x, y)

    def atom_at(self, x, y):
        return f"(or {self._relation('ontop_of', x, y)} {self._relation('inside_of', x, y)})"

    def _relation(self, fluent, x, y):
        if x[1] is not K.OBJECT or y[1] not in (K.ASSET, K.OBJECT):
            return FALSE
        return f"({fluent} {x[0]} {y[0]})"

    def atom_held(self, x):
        return f"(holding {x[0]})" if x[1] is K.OBJECT else FALSE

    def atom_handempty(self):
        return "(handempty)"

    def atom_agent_at(self, x):
        return f"(agent_at {x[0]})" if x[1] in (K.ROOM, K.POSE) else FALSE

    def atom_is(self, x, y):
        return f"(= {x[0]} {y[0]})"

    def _held_chain(self, x: str) -> str:
        h = self.fresh("h")
        return f"(or (holding {x}) (exists ({h} - item) (and (holding {h}) (below {x} {h}))))"

    def _agent_within(self, y: str) -> str:
        p = self.fresh("p")
        inside = f"(exists ({p} - place) (and (agent_at {p}) (static_within {p} {y})))"
        return f"(or (agent_at {y}) {inside})"

    def atom_in_room(self, x, r):
        if r[1] is not K.ROOM:
            return FALSE
        kind = x[1]
        if kind is K.OBJECT:
            a = self.fresh("a")
            return (
                f"(or (exists ({a} - asset) (and (below {x[0]} {a}) (asset_in_room {a} {r[0]}))) "
                f"(and {self._held_chain(x[0])} (agent_at {r[0]})))"
            )
        if kind is K.ASSET:
            return f"(asset_in_room {x[0]} {r[0]})"
        if kind is K.AGENT:
            return f"(agent_at {r[0]})"
        if kind is K.ROOM:
            return f"(= {x[0]} {r[0]})"
        return FALSE

    def atom_within(self, x, y):
        kind, target = x[1], y[1]
        if kind is K.OBJECT:
            if target in (K.OBJECT, K.ASSET):
                return f"(below {x[0]} {y[0]})"
            if target is K.AGENT:
                return self._held_chain(x[0])
            if target in STATIC_KINDS:
                a = self.fresh("a")
                on_asset = f"(and (below {x[0]} {a}) (static_within {a} {y[0]}))"
                return (
                    f"(or (exists ({a} - asset) {on_asset}) "
                    f"(and {self._held_chain(x[0])} {self._agent_within(y[0])}))"
                )
            return FALSE
        if kind is K.AGENT:
            return self._agent_within(y[0]) if target in STATIC_KINDS else FALSE
        if target in STATIC_KINDS and kind in STATIC_KINDS:
            return f"(static_within {x[0]} {y[0]})"
        return FALSE


def word_predicate(word: str) -> str:
    """State words are predicates `is_WORD` (an action may be called like a word: `open`)."""
    return f"is_{word}"


def category_predicate(category: str) -> str:
    return f"category_{category}"


def attr_predicate(word: str) -> str:
    return f"attr_{word}"


def translate_goal(goal: Formula, graph: SceneGraph) -> GoalText:
    """The PDDL text of a goal formula over this graph's nodes."""
    translator = _Translator(graph)
    text = translator.formula(goal, {})
    return GoalText(text, translator.words, translator.categories, translator.attributes)
