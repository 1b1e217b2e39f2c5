"""The one PDDL writer: expression trees (`world.pddl_expr`), actions, the domain and the
problem as text. Nothing else in sceneplan prints PDDL.

>>> from sceneplan.world.pddl_expr import Exists, Not, Or, atom
>>> expression(Or(atom("is_open", "?x"), Not(atom("can_open", "?x"))))
'(or (is_open ?x) (not (can_open ?x)))'
>>> expression(Exists({"?g": "robot"}, atom("is_sitting", "?g")))
'(exists (?g - robot) (is_sitting ?g))'
"""

from __future__ import annotations

from collections.abc import Iterable

from sceneplan.world.pddl_expr import (
    And,
    Atom,
    Exists,
    Expr,
    Forall,
    Imply,
    Not,
    Or,
    Params,
    Predicate,
    When,
)

# The supertypes of a domain's types: each group of names and the type they belong to.
TypeTree = Iterable[tuple[Iterable[str], str]]


def expression(e: Expr) -> str:
    """A condition or effect as PDDL text, one space between parts."""
    if isinstance(e, Atom):
        return "(" + " ".join((e.predicate, *e.args)) + ")"
    if isinstance(e, And | Or):
        head = "and" if isinstance(e, And) else "or"
        return "(" + " ".join((head, *(expression(p) for p in e.parts))) + ")"
    if isinstance(e, Not):
        return f"(not {expression(e.body)})"
    if isinstance(e, Imply):
        return f"(imply {expression(e.left)} {expression(e.right)})"
    if isinstance(e, When):
        return f"(when {expression(e.condition)} {expression(e.effect)})"
    head = "forall" if isinstance(e, Forall) else "exists"
    assert isinstance(e, Forall | Exists)
    return f"({head} ({parameters(e.params)}) {expression(e.body)})"


def parameters(params: Params) -> str:
    """Typed variables, `?d - nest ?y - nest`."""
    return " ".join(f"{var} - {type_}" for var, type_ in params)


def declaration(p: Predicate) -> str:
    """A predicate's declaration, `(alfworld_fits ?o - object ?r - object)`."""
    return f"({p.name} {parameters(p.params)})" if p.params else f"({p.name})"


def type_hierarchy(tree: TypeTree) -> str:
    """The `:types` list, `room pose - place surface device - asset ...`."""
    return " ".join(f"{' '.join(names)} - {parent}" for names, parent in tree)


def action(name: str, params: Params, precondition: Expr, effect: Expr) -> str:
    """One `(:action ...)` block of a domain."""
    return (
        f"  (:action {name}\n"
        f"    :parameters ({parameters(params)})\n"
        f"    :precondition {expression(precondition)}\n"
        f"    :effect {expression(effect)})"
    )


def domain(name: str, types: TypeTree, predicates: Iterable[Predicate], actions: list[str]) -> str:
    """A whole domain file: requirements, types, predicates and the actions' text."""
    declared = "\n    ".join(declaration(p) for p in predicates)
    return (
        f"(define (domain {name})\n"
        "  (:requirements :adl :equality)\n"
        f"  (:types {type_hierarchy(types)})\n"
        f"  (:predicates\n    {declared})\n" + "\n".join(actions) + ")\n"
    )


def problem(
    name: str,
    domain_name: str,
    objects: dict[str, list[str]],
    init: Iterable[Atom],
    goal: Expr,
    goal_comment: Iterable[str] = (),
) -> str:
    """A whole problem file: the objects by type, the initial facts and the goal, with
    `goal_comment`'s lines as `;` comments above the goal."""
    typed = "\n    ".join(f"{' '.join(ids)} - {type_}" for type_, ids in objects.items())
    facts = "\n    ".join(expression(f) for f in init)
    comment = "".join(f"  ; {line}\n" for line in goal_comment)
    return (
        f"(define (problem {name})\n"
        f"  (:domain {domain_name})\n"
        f"  (:objects\n    {typed})\n"
        f"  (:init\n    {facts})\n"
        f"{comment}"
        f"  (:goal {expression(goal)}))\n"
    )


def plan_step(name: str, args: Iterable[str]) -> str:
    """One step of a PDDL plan, `(name arg ...)`."""
    return expression(Atom(name, tuple(args)))
