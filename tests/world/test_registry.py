"""The registries: every schema names registered primitives with every face; bad
extensions are refused with a message that names what is missing."""

from __future__ import annotations

import inspect
import re

import pytest

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.pddl import HIDDEN, expression
from sceneplan.world import VOCABULARIES, parse_goal
from sceneplan.world.domain import OBJECTS, ActionSchema, Eff, Param, Pre
from sceneplan.world.predicates import PREDICATES, GoalPredicate, register_predicate
from sceneplan.world.primitives import (
    EFFECTS,
    ERROR_TYPES,
    TESTS,
    Cause,
    Effect,
    Test,
    forget_primitive,
    primitive,
)


def used_primitives():
    for vocabulary, schemas in VOCABULARIES.items():
        for schema in schemas.actions.values():
            for pre in schema.pre:
                yield vocabulary, schema, TESTS[pre.test], pre.args
            for eff in schema.effects:
                yield vocabulary, schema, EFFECTS[eff.op], eff.args


@pytest.mark.parametrize(
    ("vocabulary", "schema", "prim", "args"),
    list(used_primitives()),
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_every_primitive_a_schema_names_says_what_it_is_about(vocabulary, schema, prim, args):
    """(That each has every face and the schema's arity is refused at import: the tests below.)

    A step's feedback quotes the text: it names every argument. The PDDL face takes
    the schema's terms, and only hidden parameters of the exported action (or the
    problem's substances) as keywords.
    """
    text = prim.text.format(**dict(zip(prim.params, args, strict=True)))
    for arg in args:
        assert re.search(rf"\b{re.escape(arg)}\b", text), (prim.name, text)
    terms = tuple(f"?{a}" if any(p.name == a for p in schema.params) else a for a in args)
    keywords = [
        p.name for p in inspect.signature(prim.pddl).parameters.values() if p.kind is p.KEYWORD_ONLY
    ]
    # hidden parameters, and the problem's substances (world/substances.py: a face that
    # moves "whatever substance" writes them out)
    assert set(keywords) <= {h.name for h in HIDDEN} | {"substances"}, keywords
    given = {k: ("water", "stain") if k == "substances" else f"?at_{k}" for k in keywords}
    pddl = expression(prim.pddl(*terms, **given))
    assert "{" not in pddl and pddl.count("(") == pddl.count(")"), pddl


# Worked by hand from DESIGN.md's predicates: what each primitive means in PDDL.
HAND_WORKED_PDDL = [
    (TESTS, "holding", ("?o",), "(holding ?o)"),
    (TESTS, "is_container", ("?r",), "(container ?r)"),
    (TESTS, "has_state", ("?x", "closed"), "(is_closed ?x)"),
    (TESTS, "opening_clear", ("?r",), "(or (is_open ?r) (not (can_open ?r)))"),
    (TESTS, "alfworld_in", ("?o", "?r"), "(or (ontop_of ?o ?r) (inside_of ?o ?r))"),
    (EFFECTS, "finish", (), "(finished)"),
    (
        EFFECTS,
        "alfworld_switch",
        ("?x",),
        "(and (when (is_on ?x) (and (not (is_on ?x)) (is_off ?x))) "
        "(when (not (is_on ?x)) (and (is_on ?x) (not (is_off ?x)))))",
    ),
]


@pytest.mark.parametrize(("table", "name", "terms", "pddl"), HAND_WORKED_PDDL)
def test_a_primitive_writes_the_pddl_worked_by_hand(table, name, terms, pddl):
    assert expression(table[name].pddl(*terms)) == pddl


def test_a_failed_precondition_has_the_cause_and_error_type_worked_by_hand():
    """SayPlan's error types (Tables 17-18): a goto that skips a pose misses a pose; a
    missing step before an action is a missing action; one the state rules out is wrong."""
    causes = {
        (vocabulary, schema.name, pre.test): (pre.cause.value, pre.cause.error_type)
        for vocabulary, schemas in VOCABULARIES.items()
        for schema in schemas.actions.values()
        for pre in schema.pre
    }
    assert causes["sayplan", "goto", "adjacent"] == ("not_adjacent", "missing_pose")
    assert causes["sayplan", "pickup", "hand_free"] == ("hand_full", "missing_action")
    assert causes["sayplan", "pickup", "accessible"] == ("container_closed", "missing_action")
    assert causes["sayplan", "open", "has_state"] == ("already_open", "wrong_action")
    assert causes["lookplangraph", "look_inside", "is_container"] == (
        "not_a_container",
        "wrong_action",
    )
    assert causes["alfworld", "take", "alfworld_in"] == ("alfworld_not_in", "wrong_action")
    assert {error for _, error in causes.values()} <= set(ERROR_TYPES)


def test_a_primitive_without_a_face_is_refused():
    with pytest.raises(UnsupportedError, match="lacks: pddl"):

        @primitive
        class NoPDDL(Test):
            name, params, text = "no_pddl", ("x",), "{x}"

            def check(self, state, x):
                return None

            def ground(self, g, b, x):
                return []

    with pytest.raises(UnsupportedError, match="lacks: text"):

        @primitive
        class NoText(Effect):
            name, params = "no_text", ("x",)

            def apply(self, state, x): ...
            def pddl(self, x): ...
            def ground(self, g, b, x): ...

    with pytest.raises(UnsupportedError, match="check must take 1 argument"):

        @primitive
        class WrongArity(Test):
            name, params, text = "wrong_arity_test", ("x",), "{x}"

            def check(self, state, x, y): ...
            def pddl(self, x): ...
            def ground(self, g, b, x): ...

    assert not {"no_pddl", "no_text", "wrong_arity_test"} & (set(TESTS) | set(EFFECTS))


def test_a_face_takes_exactly_the_keywords_its_primitive_declares():
    # the PDDL export passes a face the hidden terms its primitive declares, and the
    # simulator passes `held` to an effect that declares `on_held`: a face asking for
    # more, or for less, is refused when it is registered
    with pytest.raises(UnsupportedError, match=r"pddl takes the keyword\(s\) \['acc'\], but"):

        @primitive
        class Undeclared(Test):
            name, params, text = "undeclared_acc", ("x",), "{x}"

            def check(self, state, x): ...
            def pddl(self, x, *, acc): ...
            def ground(self, g, b, x): ...

    with pytest.raises(
        UnsupportedError, match=r"takes the keyword\(s\) \[\], but declares \['room'\]"
    ):

        @primitive
        class Unused(Test):
            name, params, text = "unused_room", ("x",), "{x}"
            pddl_keywords = frozenset({"room"})

            def check(self, state, x): ...
            def pddl(self, x): ...
            def ground(self, g, b, x): ...

    with pytest.raises(UnsupportedError, match=r"apply takes the keyword\(s\) \['held'\]"):

        @primitive
        class HeldUndeclared(Effect):
            name, params, text = "held_undeclared", ("x",), "{x}"

            def apply(self, state, x, *, held): ...
            def pddl(self, x): ...
            def ground(self, g, b, x): ...

    assert not {"undeclared_acc", "unused_room", "held_undeclared"} & (set(TESTS) | set(EFFECTS))
    assert [e.name for e in EFFECTS.values() if e.on_held] == ["place"]
    assert TESTS["adjacent"].pddl_keywords == {"here"}


def test_a_name_cannot_be_taken_twice():
    with pytest.raises(UnsupportedError, match="already registered"):

        @primitive
        class Impostor(Test):
            name, params, text = "holding", ("o",), "{o}"

            def check(self, state, o): ...
            def pddl(self, o): ...
            def ground(self, g, b, o): ...

    assert type(TESTS["holding"]).__name__ == "Holding"


@pytest.fixture
def asset_only_effect():
    """An effect whose PDDL and grounding faces are written for assets only."""

    @primitive
    class Anchor(Effect):
        name, params, text = "anchor", ("a",), "{a} is anchored"
        kinds = frozenset({NodeKind.ASSET})

        def apply(self, state, a): ...
        def pddl(self, a): ...
        def ground(self, g, b, a): ...

    yield
    forget_primitive("anchor")


def test_a_schema_is_checked_against_the_primitives_it_names(asset_only_effect):
    param = (Param("o", OBJECTS),)
    with pytest.raises(UnsupportedError, match="no precondition test 'shiny'"):
        ActionSchema("polish", param, (Pre("shiny", ("o",), Cause.NOT_HOLDING),), (), "")
    with pytest.raises(UnsupportedError, match="has_state takes 2 argument"):
        ActionSchema("polish", param, (Pre("has_state", ("o",), Cause.NOT_HOLDING),), (), "")
    with pytest.raises(UnsupportedError, match="no effect 'shine'"):
        ActionSchema("polish", param, (), (Eff("shine", ("o",)),), "")
    with pytest.raises(UnsupportedError, match="anchor is defined for asset only"):
        ActionSchema("polish", param, (), (Eff("anchor", ("o",)),), "")
    with pytest.raises(UnsupportedError, match="only right after set_state"):
        ActionSchema("polish", param, (), (Eff("apply_appliance", ("o",)),), "")
    with pytest.raises(UnsupportedError, match="not a registered Cause"):
        ActionSchema("polish", param, (Pre("holding", ("o",), "not_holding"),), (), "")


def test_causes_look_up_by_name_and_refuse_unknown_ones():
    assert Cause("not_adjacent") is Cause.NOT_ADJACENT
    assert Cause.NOT_ADJACENT.value == "not_adjacent" and Cause.NOT_ADJACENT == "not_adjacent"
    assert not Cause.UNKNOWN_NODE.repairable and Cause.HAND_FULL.repairable
    with pytest.raises(ValueError, match="'teleported' is not a registered cause"):
        Cause("teleported")
    with pytest.raises(UnsupportedError, match="error type 'oops'"):
        Cause.define("odd", "odd", "oops")


def test_every_goal_predicate_has_its_faces_and_parses_with_its_arity():
    for name, predicate in PREDICATES.items():
        assert predicate.doc
        args = ", ".join(f"a{i}" for i in range(predicate.arity))
        assert parse_goal(f"{name}({args})").children() == ()
    with pytest.raises(UnsupportedError, match="lacks: compile"):

        @register_predicate
        class Half(GoalPredicate):
            name, params, doc = "half", ("x",), "half a predicate"

            def holds(self, state, x): ...
            def pddl(self, t, x): ...

    assert "half" not in PREDICATES
