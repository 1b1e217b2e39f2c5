"""Instructions for BEHAVIOR activities, written from the goal by templates.

bddl has no natural-language instructions. Each goal clause becomes an
imperative (`ontop` -> "put X on Y", `inside` -> "put X in Y", `open` ->
"open X", `not open` -> "close X", `toggled_on` -> "turn on X"); each
quantified variable is named with every instance it ranges over, so the
instruction names every object the goal names:

>>> from sceneplan.textinput import parse_sexp
>>> goal = parse_sexp("(forall (?c - candle.n.01) (inside ?c box.n.01_1))")
>>> instruction("putting candles away", goal,
...             {"candle.n.01_1": "candle_1", "candle.n.01_2": "candle_2", "box.n.01_1": "box_1"},
...             lambda synset: ["candle.n.01_1", "candle.n.01_2"])
'Putting candles away: put each candle (candle 1 and candle 2) in box 1.'
"""

from __future__ import annotations

from collections.abc import Callable

from sceneplan.importers.behavior.convert import RELATIONS, lemma
from sceneplan.textinput import Sexp

__all__ = ["display", "instruction"]


def display(node_id: str) -> str:
    """How an instruction names a node: `wicker_basket_2` -> `wicker basket 2`."""
    return node_id.replace("_", " ")


def instruction(
    activity: str, goal: Sexp, ids: dict[str, str], members: Callable[[str], list[str]]
) -> str:
    """`Activity: clause, clause and clause.`"""
    words = _Words(ids, members)
    clauses = words.clauses(goal, {})
    body = _join(clauses, "and")
    title = activity[:1].upper() + activity[1:]
    return f"{title}: {body}."


def _join(parts: list[str], word: str) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


# The words that ask for a goal atom, by its predicate and number of arguments ({0}, {1}:
# the arguments' names); another atom is asked for as "make X <predicate>".
_MAKE = {
    ("ontop", 2): "put {0} on {1}",
    ("inside", 2): "put {0} in {1}",
    ("nextto", 2): "put {0} next to {1}",
    ("overlaid", 2): "spread {0} over {1}",
    ("draped", 2): "drape {0} over {1}",
    ("open", 1): "open {0}",
    ("toggled_on", 1): "turn on {0}",
}
# The words that ask for a goal atom's negation (what sits on top is taken off, first).
_UNDO = {
    ("inside", 2): "take {0} out of {1}",
    ("nextto", 2): "move {0} away from {1}",
    ("open", 1): "close {0}",
    ("toggled_on", 1): "turn off {0}",
}


class _Words:
    def __init__(self, ids: dict[str, str], members: Callable[[str], list[str]]):
        self.ids = ids
        self.members = members

    def name(self, arg: str, env: dict[str, str]) -> str:
        if arg in env:
            return env[arg]
        return display(self.ids.get(arg, self.ids.get(arg.lstrip("?"), arg)))

    def listing(self, synset: str, joiner: str) -> str:
        names = [display(self.ids[i]) for i in self.members(synset) if i in self.ids]
        return _join(names, joiner)

    def kind(self, synset: str) -> str:
        return lemma(synset).replace("_", " ")

    def clauses(self, e: Sexp, env: dict[str, str]) -> list[str]:
        head = e[0]
        if head == "and":
            return [c for sub in e[1:] for c in self.clauses(sub, env)]
        if head == "or":
            return ["either " + _join([_join(self.clauses(s, env), "and") for s in e[1:]], "or")]
        if head == "imply":
            return [
                f"if {_join(self.states(e[1], env), 'and')}, "
                + _join(self.clauses(e[2], env), "and")
            ]
        if head == "forall":
            var, synset = e[1][0], e[1][2]
            return self.clauses(e[2], {**env, var: self.quantified("each", synset, "and")})
        if head == "exists":
            var, synset = e[1][0], e[1][2]
            return self.clauses(e[2], {**env, var: self.quantified("a", synset, "or")})
        if head == "forn":
            n, (var, _, synset) = e[1][0], list(e[2])
            return self.clauses(e[3], {**env, var: self.quantified(f"{n} of the", synset, "and")})
        if head in ("forpairs", "fornpairs"):
            rest = e[2:] if head == "fornpairs" else e[1:]
            first = f"{e[1][0]} of the" if head == "fornpairs" else "each"
            (va, _, sa), (vb, _, sb) = list(rest[0]), list(rest[1])
            env = {
                **env,
                va: self.quantified(first, sa, "and"),
                vb: self.quantified("a different", sb, "and", own=True),
            }
            return self.clauses(rest[2], env)
        if head == "not":
            return [self.negative(e[1], env)]
        return [self.positive(e, env)]

    def quantified(self, word: str, synset: str, joiner: str, own: bool = False) -> str:
        names = self.listing(synset, joiner)
        if len([i for i in self.members(synset) if i in self.ids]) == 1:
            return names
        kind = self.kind(synset)
        plural = word.endswith(" the")
        noun = kind + ("s" if plural else "")
        return f"{word} {noun} ({'one each of ' if own else ''}{names})"

    def positive(self, e: Sexp, env: dict[str, str]) -> str:
        head, args = e[0], [self.name(a, env) for a in e[1:]]
        if (words := _MAKE.get((head, len(args)))) is not None:
            return words.format(*args)
        if len(args) == 1:
            return f"make {args[0]} {head.replace('_', ' ')}"
        return f"make {args[0]} {head.replace('_', ' ')} {' '.join(args[1:])}"

    def negative(self, e: Sexp, env: dict[str, str]) -> str:
        if e[0] in ("and", "or", "forall", "exists", "not", "imply", "forn"):
            return "make sure it is not so that " + _join(self.states(e, env), "and")
        head, args = e[0], [self.name(a, env) for a in e[1:]]
        if RELATIONS.get(head) == "ontop_of" and len(args) == 2:  # ontop, overlaid, draped
            return f"take {args[0]} off {args[1]}"
        if (words := _UNDO.get((head, len(args)))) is not None:
            return words.format(*args)
        if head == "covered" and len(args) == 2 and isinstance(e[2], str):
            return f"clean the {lemma(e[2].lstrip('?')).replace('_', ' ')} off {args[0]}"
        return f"make sure {args[0]} is not {head.replace('_', ' ')} {' '.join(args[1:])}".strip()

    def states(self, e: Sexp, env: dict[str, str]) -> list[str]:
        """Declarative phrases ("candle 1 is in box 1"), for conditions."""
        head = e[0]
        if head == "and":
            return [s for sub in e[1:] for s in self.states(sub, env)]
        if head == "not":
            return ["not " + _join(self.states(e[1], env), "and")]
        if head in ("or", "forall", "exists", "forn", "forpairs", "fornpairs", "imply"):
            return self.clauses(e, env)
        args = [self.name(a, env) for a in e[1:]]
        words = {
            "ontop": "is on",
            "inside": "is in",
            "nextto": "is next to",
            "overlaid": "is spread over",
            "draped": "is draped over",
            "covered": "is covered in",
            "open": "is open",
            "toggled_on": "is on",
        }
        verb = words.get(head, f"is {head.replace('_', ' ')}")
        return [f"{args[0]} {verb}" + (f" {args[1]}" if len(args) > 1 else "")]
