"""Goal predicates over substances: `filled(bucket, water)`, `covered(table, stain)`, ...

Each is the substance state word of `world.substances` (`filled(x, m)` holds when x has
the word `filled_m`), with all the faces of a goal predicate (`world.predicates`). The
substance is a literal word, BEHAVIOR's synset lemma (`liquid_soap` for
`liquid_soap.n.01`). Registered on the goal predicates' first lookup
(`world.domain.EXTENSIONS`).
"""

from __future__ import annotations

from sceneplan.graph.model import NodeKind
from sceneplan.world.predicates import GoalPredicate, register_predicate
from sceneplan.world.primitives import pddl_word
from sceneplan.world.substances import (
    CONTAINS,
    COVERED,
    FILLED,
    INSOURCE,
    SATURATED,
    substance_word,
)

K = NodeKind


class _Substance(GoalPredicate):
    """x is in this relation to the substance (a state word of x)."""

    params, arg_kinds, establishable = ("x", "substance"), ("node", "word"), True
    relation: str

    def holds(self, state, x, substance):
        return substance_word(self.relation, substance) in state.states(x)

    def establish(self, state, x, substance):
        state.set_state(x, substance_word(self.relation, substance))
        return None

    def pddl(self, t, x, substance):
        word = substance_word(self.relation, substance[0])
        t.need_word(word)
        return f"({pddl_word(word)} {x[0]})"

    def compile(self, c, x, substance):
        word = substance_word(self.relation, substance)
        if x in c.g.objects or x in c.g.assets:
            return c.prop(("state", word, x))
        return c.const(self.holds(c.g.state, x, substance))

    def achievable(self, graph, x, substance):
        """Only what some node holds or gives at the start can go anywhere."""
        words = {substance_word(r, substance) for r in (FILLED, CONTAINS, INSOURCE)}
        return any(words & set(n.state) for n in graph)


@register_predicate
class Filled(_Substance):
    name, relation = "filled", FILLED
    doc = "x is filled with the substance (fill it from a source, or pour into it)"


@register_predicate
class Contains(_Substance):
    """Some of it: x contains the substance, or is filled with it."""

    name, relation = "contains", CONTAINS
    doc = "x holds some of the substance (filled with it, or some poured in)"

    def holds(self, state, x, substance):
        words = state.states(x)
        return bool({substance_word(r, substance) for r in (FILLED, CONTAINS)} & words)

    def pddl(self, t, x, substance):
        parts = []
        for relation in (FILLED, CONTAINS):
            word = substance_word(relation, substance[0])
            t.need_word(word)
            parts.append(f"({pddl_word(word)} {x[0]})")
        return f"(or {' '.join(parts)})"

    def compile(self, c, x, substance):
        if x in c.g.objects or x in c.g.assets:
            return c.any_of(
                c.prop(("state", substance_word(r, substance), x)) for r in (FILLED, CONTAINS)
            )
        return c.const(self.holds(c.g.state, x, substance))


@register_predicate
class Covered(_Substance):
    name, relation = "covered", COVERED
    doc = "x is covered with the substance (sprinkle puts it on, scrub takes it off)"

    def achievable(self, graph, x, substance):
        return True  # scrubbing takes any covering off; `not covered(...)` is the usual goal


@register_predicate
class Saturated(_Substance):
    name, relation = "saturated", SATURATED
    doc = "x (a cloth) is soaked with the substance"


@register_predicate
class Insource(_Substance):
    name, relation, static = "insource", INSOURCE, True
    doc = "x gives the substance (a sink water, a shaker salt); no action changes it"
