"""Plans both ways: sceneplan's actions as a PDDL plan (hidden parameters filled in by
running the plan in the simulator), and a planner's PDDL plan read back as actions."""

from __future__ import annotations

from collections.abc import Iterable

from sceneplan.graph.model import SceneGraph
from sceneplan.symbolic.pddl import write
from sceneplan.symbolic.pddl.domain import export_vocabulary
from sceneplan.symbolic.pddl.hidden import hidden_terms, hidden_value
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import Vocabulary


def plan_pddl(
    plan: str | Iterable[str | Action],
    graph: SceneGraph,
    state: WorldState | None = None,
    vocabulary: Vocabulary | None = None,
) -> str:
    """A plan as PDDL plan text, one `(name args)` per line; `done` ends it, as in the simulator.

    The hidden parameters (`HIDDEN`) are filled in from the state before each step,
    running the plan from `state` (the graph's, by default) in the simulator. A step
    the simulator refuses is still run where it can be (a focused problem's macro
    move); after one it cannot run, the hidden terms are what they were (a validator
    rejects the plan at that step anyway). A term that is not there (nothing is
    accessed, the agent is at a pose, not in a room) is written as a node of its
    type for which the binding precondition is false, so a validator rejects the
    step as the simulator does.
    """
    simulator = Simulator(graph, export_vocabulary(graph, vocabulary))
    schemas = simulator.schemas
    hidden = {name: hidden_terms(schema) for name, schema in schemas.items()}
    state = (state if state is not None else WorldState(graph)).copy()
    running, lines = True, []
    for action in parse_plan(plan):
        schema = schemas.get(action.name)
        extra = []
        if schema is not None and len(action.args) == len(schema.params):
            extra = [hidden_value(h, state, action.args) for h in hidden[action.name]]
        lines.append(write.plan_step(action.name, (*action.args, *extra)))
        if simulator.ends_plan(action):
            break
        if running:
            running = _advance(simulator, state, action)
    return "\n".join(lines) + ("\n" if lines else "")


def _advance(simulator: Simulator, state: WorldState, action: Action) -> bool:
    """Run one step in place, its preconditions unchecked where it fails only on them
    (a macro move); False when it cannot be run at all."""
    if simulator.check(state, action) is None:
        simulator.apply(state, action)
        return True
    if simulator.schemas.get(action.name) is None or not all(
        a in simulator.graph.nodes for a in action.args
    ):
        return False
    try:
        simulator.apply(state, action)
    except (AssertionError, KeyError, ValueError):
        return False
    return True


def plan_from_pddl(text: str, graph: SceneGraph, vocabulary: Vocabulary | None = None) -> list[str]:
    """A PDDL plan (a planner's output: `(name args)` lines, `;` comments) as sceneplan
    actions, without the hidden parameters."""
    schemas = export_vocabulary(graph, vocabulary).actions
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("("):
            continue
        name, *args = line.strip("()").split()
        schema = schemas.get(name)
        if schema is not None:
            args = args[: len(schema.params)]
        out.append(f"{name}({', '.join(args)})")
    return out
