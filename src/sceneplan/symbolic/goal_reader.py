"""A goal written in PDDL, read into the goal language (SCLPlan's LLM writes its goal in PDDL).

SCLPlan (003, Phase 1) has the model write the goal state in PDDL over the
domain's predicates. `read_goal` accepts such a goal as well as the goal
language (docs/goals.md): text that parses as a PDDL formula is translated
into the goal language, then checked against the graph by `parse_goal` as any
goal is.

- `and`, `or`, `not`, `imply`, `=` (as `is`), `exists` and `forall` over typed
  variables. A quantified variable takes its category from an
  `(objectType ?o MugType)` or `(receptacleType ?r DeskType)` constraint in
  the body (ALFWorld's way of naming a class), else from its PDDL type when
  that is a category of the scene, else it ranges over objects (or, typed
  `receptacle`, over assets).
- Atoms: ALFWorld's predicate names (`inReceptacle` is `at`, `isClean` is
  `clean`, `isHot` `hot`, `isCool` `cold`, `isToggled` `on`, `opened` `open`,
  `isSliced` `sliced`, `holds ?a ?o` is `held(o)`), and the goal language's
  own predicates and state words written the PDDL way: `(inside_of mug_1
  cabinet_2)`, `(clean mug_1)`. Names are case-insensitive, as in PDDL.

>>> pddl_to_goal("(and (inReceptacle mug_1 desk_1) (isClean mug_1))")
'(at(mug_1, desk_1) and clean(mug_1))'
>>> pddl_to_goal("(exists (?o - object ?r - receptacle) (and (objectType ?o MugType) "
...              "(receptacleType ?r DeskType) (inReceptacle ?o ?r)))")
'exists o in mug: exists r in desk: (at(o, r))'
"""

from __future__ import annotations

import re

from sceneplan.errors import BadInputError, GoalParseError
from sceneplan.graph.model import SceneGraph
from sceneplan.textinput import Sexp, parse_sexp, show_sexp
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.predicates import PREDICATES

__all__ = ["alfworld_predicates_text", "looks_like_pddl", "pddl_to_goal", "read_goal"]

# ALFWorld's PDDL predicates (alfred.pddl) as the goal language's: its name, the arguments
# kept, and what it means (for the prompt that asks for a PDDL goal).
_ALFWORLD: dict[str, tuple[str, tuple[int, ...], str, str]] = {
    "inreceptacle": ("at", (0, 1), "(inReceptacle ?o ?r)", "object ?o is in or on receptacle ?r"),
    "isclean": ("clean", (0,), "(isClean ?o)", "?o has been cleaned"),
    "ishot": ("hot", (0,), "(isHot ?o)", "?o has been heated"),
    "iscool": ("cold", (0,), "(isCool ?o)", "?o has been cooled"),
    "istoggled": ("on", (0,), "(isToggled ?o)", "?o (a lamp) is switched on"),
    "opened": ("open", (0,), "(opened ?r)", "receptacle ?r is open"),
    "issliced": ("sliced", (0,), "(isSliced ?o)", "?o has been sliced"),
    "holds": ("held", (1,), "(holds ?a ?o)", "agent ?a holds ?o"),
}
_TYPING = ("objecttype", "receptacletype")  # (objectType ?o MugType): ?o is a mug
_CONNECTIVES = {"and": " and ", "or": " or "}
_PDDL_START = re.compile(r"^\s*\(\s*[A-Za-z_=][\w-]*(\s|\))")


def alfworld_predicates_text() -> str:
    """ALFWorld's PDDL goal predicates `read_goal` accepts, one line each, for a prompt."""
    lines = [f"- {sig}: {doc}" for _, _, sig, doc in _ALFWORLD.values()]
    lines.append(
        "- (objectType ?o MugType), (receptacleType ?r DeskType): the class of a quantified "
        "variable (the category, capitalized, with Type)"
    )
    near = PREDICATES["agent_near"]
    lines.append(f"- (agent_near ?x): {near.doc}")
    return "\n".join(lines)


def looks_like_pddl(text: str) -> bool:
    """Whether `text` opens as a PDDL formula does: `(` and a name followed by a space."""
    return bool(_PDDL_START.match(text))


def read_goal(text: str, graph: SceneGraph) -> Formula:
    """A goal in PDDL or in the goal language, checked against `graph`.

    Text that opens as PDDL and translates is read as PDDL; otherwise (or when
    its translation does not parse) it is read as the goal language, whose
    error is the one reported.
    """
    if looks_like_pddl(text):
        try:
            return parse_goal(pddl_to_goal(text), graph)
        except GoalParseError as pddl_error:
            try:
                return parse_goal(text, graph)
            except GoalParseError:
                raise GoalParseError(f"PDDL goal {text!r}: {pddl_error}") from None
    return parse_goal(text, graph)


def pddl_to_goal(text: str) -> str:
    """A PDDL goal formula as goal-language text (not yet checked against a graph).

    >>> pddl_to_goal("(full coffee_mug)) (")
    Traceback (most recent call last):
    ...
    sceneplan.errors.GoalParseError: the goal: the ')' at line 1, column 18 closes nothing
    """
    try:
        sexp = parse_sexp(text, "the goal")
    except BadInputError as exc:
        raise GoalParseError(str(exc)) from None
    return _formula(sexp, {})


def _formula(x: Sexp, categories: dict[str, str]) -> str:
    if isinstance(x, str) or not x:
        raise GoalParseError(f"'{show_sexp(x)}' is not a PDDL formula: write (predicate arg ...)")
    head = str(x[0]).lower()
    rest = x[1:]
    if head in _CONNECTIVES:
        parts = [_formula(p, categories) for p in rest if not _is_typing(p)]
        if not parts:
            return "true" if head == "and" else "false"
        return parts[0] if len(parts) == 1 else "(" + _CONNECTIVES[head].join(parts) + ")"
    if head == "not":
        return f"not {_formula(_one(rest, 'not'), categories)}"
    if head == "imply":
        if len(rest) != 2:
            raise GoalParseError("(imply A B) takes two formulas")
        left, right = (_formula(p, categories) for p in rest)
        return f"({left} implies {right})"
    if head in ("exists", "forall"):
        return _quantified(head, rest, categories)
    return _atom(head, [_term(a) for a in rest])


def _quantified(head: str, rest: list[Sexp], categories: dict[str, str]) -> str:
    if len(rest) != 2 or isinstance(rest[0], str) or not all(isinstance(v, str) for v in rest[0]):
        raise GoalParseError(f"({head} (?v - type) BODY) takes a variable list and a body")
    variables = _typed([str(v) for v in rest[0]])
    body = rest[1]
    named = dict(categories) | _typing_in(body)
    text = _formula(body, named)
    for var, pddl_type in reversed(variables):
        name = var.lstrip("?")
        domain = named.get(var) or _domain_of(pddl_type)
        body_text = text if text.startswith(("(", "exists ", "forall ")) else f"({text})"
        text = f"{head} {name} in {domain}: {body_text}"
    return text


def _typed(items: list[str]) -> list[tuple[str, str]]:
    """`?a ?b - t ?c` as [(?a, t), (?b, t), (?c, object)]."""
    out, pending, i = [], list[str](), 0
    while i < len(items):
        if items[i] == "-" and i + 1 < len(items):
            out += [(v, items[i + 1]) for v in pending]
            pending, i = [], i + 2
        else:
            pending.append(items[i])
            i += 1
    return out + [(v, "object") for v in pending]


def _domain_of(pddl_type: str) -> str:
    t = pddl_type.lower()
    if t in ("object", "item", "thing"):
        return "kind:object"
    if t in ("receptacle", "asset"):
        return "kind:asset"
    return t


def _is_typing(x: Sexp) -> bool:
    return isinstance(x, list) and len(x) == 3 and str(x[0]).lower() in _TYPING


def _typing_in(body: Sexp) -> dict[str, str]:
    """The categories `(objectType ?o MugType)` constraints give variables, at the top of a
    conjunction (or the body itself)."""
    parts = (
        body[1:] if isinstance(body, list) and body and str(body[0]).lower() == "and" else [body]
    )
    out = {}
    for part in parts:
        if _is_typing(part):
            var, kind = str(part[1]), str(part[2])
            out[var] = re.sub(r"type$", "", kind, flags=re.IGNORECASE).lower()
    return out


def _one(rest: list[Sexp], head: str) -> Sexp:
    if len(rest) != 1:
        raise GoalParseError(f"({head} X) takes one formula")
    return rest[0]


def _term(x: Sexp) -> str:
    if not isinstance(x, str):
        raise GoalParseError(f"'{show_sexp(x)}' is not a name or a ?variable")
    return x.lstrip("?")


def _atom(head: str, args: list[str]) -> str:
    if head == "=":
        if len(args) != 2:
            raise GoalParseError("(= A B) takes two names")
        return f"is({args[0]}, {args[1]})"
    if head in _TYPING:
        raise GoalParseError(f"({head} ...) names a class only inside exists or forall")
    if head in _ALFWORLD:
        name, keep, _, _ = _ALFWORLD[head]
        if max(keep) >= len(args):
            raise GoalParseError(f"({head} ...) has too few arguments")
        args = [args[i] for i in keep]
        head = name
    elif head not in PREDICATES and len(args) != 1:
        raise GoalParseError(
            f"unknown predicate '{head}': use the domain's predicates "
            f"({', '.join(sorted(PREDICATES))}, ALFWorld's, or a state word of one node)"
        )
    return f"{head}({', '.join(args)})"
