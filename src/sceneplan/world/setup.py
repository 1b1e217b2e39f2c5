"""Start states that differ from a graph file: a task's `initial` facts.

>>> from sceneplan.datasets import load_environment
>>> graph = with_facts(load_environment("coffee"), ["held(coffee_mug)", "open(fridge)"])
>>> graph.node("coffee_mug").parent, graph.node("fridge").state
('agent', ('on', 'open'))
"""

from __future__ import annotations

from collections.abc import Iterable

from sceneplan.errors import GoalParseError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.goals import Atom, check_goal, parse_goal
from sceneplan.world.predicates import PREDICATES
from sceneplan.world.state import WorldState


def with_facts(graph: SceneGraph, facts: Iterable[str]) -> SceneGraph:
    """A copy of `graph` in which each fact holds.

    Facts are goal-language atoms whose predicate can be established (its
    `establish` face): `held(x)`, `ontop_of(x, y)`, `inside_of(x, y)`,
    `agent_at(place)`, or a state word such as `open(fridge)`.
    """
    state = WorldState(graph)
    for text in facts:
        atom = parse_goal(text)
        check_goal(atom, graph, text, new_words=True)  # a fact may bring a new state word
        if not isinstance(atom, Atom):
            raise GoalParseError(
                f"initial fact {text!r}: must be a single predicate, e.g. held(mug)"
            )
        _apply(state, atom, text)
    return state.to_graph()


def _apply(state: WorldState, atom: Atom, text: str) -> None:
    predicate = atom.predicate
    if not predicate.establishable:
        usable = [n for n, p in PREDICATES.items() if p.establishable]
        raise GoalParseError(f"initial fact {text!r}: use {', '.join(usable)} or a state word")
    problem = predicate.establish(state, *atom.args)
    if problem is not None:
        raise GoalParseError(f"initial fact {text!r}: {problem}")
