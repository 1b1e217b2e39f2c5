"""PDDL as expression trees: the faces build them, `SceneTypes` folds them, one writer
prints them (world/pddl_expr.py, symbolic/pddl/)."""

from __future__ import annotations

import dataclasses

import pytest

from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.pddl import (
    SceneTypes,
    export_pddl,
    translate_goal,
)
from sceneplan.symbolic.pddl.domain import action_tree
from sceneplan.symbolic.pddl.write import expression
from sceneplan.textinput import parse_sexp, show_sexp
from sceneplan.world import VOCABULARIES, parse_goal
from sceneplan.world.domain import THINGS, ActionSchema, Param
from sceneplan.world.pddl_expr import (
    FALSE,
    TRUE,
    And,
    Exists,
    Forall,
    Imply,
    Not,
    Or,
    When,
    atom,
)
from sceneplan.world.primitives import EFFECTS, TESTS
from scenes import kitchen

# one parameter that may be an asset or an object, and one that is only ever a place
SCHEMA = ActionSchema(
    "probe",
    (Param("x", THINGS), Param("p", frozenset({NodeKind.ROOM, NodeKind.POSE}))),
    (),
    (),
    "A schema for the simplifier's tests.",
)


def test_the_writer_prints_each_node_of_the_tree():
    tree = And(
        Or(atom("is_open", "?x"), Not(atom("can_open", "?x"))),
        Imply(atom("handempty"), TRUE),
        Forall({"?d": "item", "?c": "nest"}, When(atom("below", "?d", "?c"), FALSE)),
        Exists({"?g": "robot"}, atom("is_sitting", "?g")),
    )
    text = expression(tree)
    assert text == (
        "(and (or (is_open ?x) (not (can_open ?x))) (imply (handempty) (and)) "
        "(forall (?d - item ?c - nest) (when (below ?d ?c) (or))) "
        "(exists (?g - robot) (is_sitting ?g)))"
    )
    assert show_sexp(parse_sexp(text)) == text  # one space between parts, as PDDL tools read


def test_trees_are_frozen_and_equal_by_value():
    one = Forall({"?d": "item"}, atom("shut", "?d"))
    assert one == Forall([("?d", "item")], atom("shut", "?d"))
    assert one != Exists({"?d": "item"}, atom("shut", "?d"))
    assert len({one, Forall({"?d": "item"}, atom("shut", "?d"))}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.body = TRUE  # type: ignore[misc]


def test_every_face_of_every_vocabulary_is_a_tree():
    for vocabulary in VOCABULARIES.values():
        for schema in vocabulary.actions.values():
            precondition, effect = action_tree(schema, ("water",))
            for part in (*precondition.parts, *effect.parts):
                assert not isinstance(part, str), (schema.name, part)
                assert expression(part).startswith("("), (schema.name, part)
    assert TESTS and EFFECTS


def test_the_simplifier_drops_quantifiers_over_empty_types_and_folds_two_hands():
    scene = SceneTypes(empty=frozenset({"nest"}), object_affordances=frozenset(), two_handed=False)
    precondition = And(
        Forall({"?h": "nest"}, atom("below", "?x", "?h")),  # over nothing: true
        Exists({"?h": "nest"}, atom("holding", "?h")),  # over nothing: false
        atom("agent_at", "?p"),
    )
    assert scene.simplify(SCHEMA, precondition, TRUE)[0] == FALSE
    held = Or(atom("handempty"), And(atom("two_handed"), atom("hand_free")))
    assert scene.simplify(SCHEMA, held, TRUE)[0] == atom("handempty")
    two = dataclasses.replace(scene, two_handed=True)
    assert two.simplify(SCHEMA, held, TRUE)[0] == Or(atom("handempty"), atom("hand_free"))


def test_the_simplifier_drops_effects_that_ask_an_object_fluent_of_a_place():
    scene = SceneTypes(empty=frozenset(), object_affordances=frozenset())
    effect = And(
        When(atom("below", "?p", "?x"), atom("located", "?x", "?p")),  # ?p is no object
        When(atom("below", "?x", "?p"), atom("shut", "?x")),
        Forall({"?d": "nest"}, When(atom("below", "?d", "?x"), atom("shut", "?d"))),
        Forall({"?d": "nest"}, When(TRUE, And())),  # does nothing
    )
    _, simplified = scene.simplify(SCHEMA, TRUE, effect)
    assert expression(simplified) == (
        "(and (when (below ?x ?p) (shut ?x)) (forall (?d - nest) (when (below ?d ?x) (shut ?d))))"
    )


def test_an_effect_face_that_returns_several_effects_is_spliced_into_the_action():
    schema = VOCABULARIES["sayplan"].actions["open"]
    _, effect = action_tree(schema)
    assert atom("is_open", "?x") in effect.parts  # set_state's, not an And inside the And
    assert not any(isinstance(part, And) for part in effect.parts)


def test_the_goal_tree_folds_duplicates_and_sorts_by_text():
    graph = kitchen()
    goal = parse_goal(
        "closed(fridge) and (open(cabinet) or closed(fridge)) and closed(fridge)", graph
    )
    tree = translate_goal(goal, graph).tree
    assert expression(tree) == "(and (is_closed fridge) (or (is_closed fridge) (is_open cabinet)))"


def test_the_no_goal_comment_is_written_above_the_goal():
    files = export_pddl(kitchen(), goal_comment=("no goal", "only executability"))
    assert files.problem.endswith("  ; no goal\n  ; only executability\n  (:goal (and)))\n")
    assert "; no goal" not in export_pddl(kitchen()).problem
