"""Start states that differ from a graph file: a task's `initial` facts.

>>> from sceneplan.datasets import load_environment
>>> graph = with_facts(load_environment("coffee"), ["held(coffee_mug)", "open(fridge)"])
>>> graph.node("coffee_mug").parent, graph.node("fridge").state
('agent', ('on', 'open'))
"""

from __future__ import annotations

from collections.abc import Iterable

from sceneplan.errors import GoalParseError
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.world.goals import Atom, check_goal, parse_goal
from sceneplan.world.state import WorldState

_PLACING = {"ontop_of": Relation.ONTOP_OF, "inside_of": Relation.INSIDE_OF}


def with_facts(graph: SceneGraph, facts: Iterable[str]) -> SceneGraph:
    """A copy of `graph` in which each fact holds.

    Facts are goal-language atoms: `held(x)`, `ontop_of(x, y)`, `inside_of(x, y)`,
    `agent_at(place)`, or a state word such as `open(fridge)`.
    """
    state = WorldState(graph)
    for text in facts:
        atom = parse_goal(text)
        check_goal(atom, graph, text)
        if not isinstance(atom, Atom):
            raise GoalParseError(
                f"initial fact {text!r}: must be a single predicate, e.g. held(mug)"
            )
        _apply(state, atom, text)
    return state.to_graph()


def _apply(state: WorldState, atom: Atom, text: str) -> None:
    name, args = atom.name, atom.args
    if name == "held":
        if state.holding is not None and state.holding != args[0]:
            raise GoalParseError(f"initial fact {text!r}: the agent already holds {state.holding}")
        state.move(args[0], state.agent_id, Relation.HELD)
        state.holding = args[0]
    elif name in _PLACING:
        if state.holding == args[0]:
            state.holding = None
        state.move(args[0], args[1], _PLACING[name])
    elif name == "agent_at":
        if state.node(args[0]).kind not in (NodeKind.ROOM, NodeKind.POSE):
            raise GoalParseError(f"initial fact {text!r}: the agent stands in a room or at a pose")
        state.move(state.agent_id, args[0], None)
    elif len(args) == 1 and name not in ("is", "handempty"):
        state.set_state(args[0], name)
    else:
        raise GoalParseError(
            f"initial fact {text!r}: use held, ontop_of, inside_of, agent_at or a state word"
        )
