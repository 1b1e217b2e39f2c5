"""What several planners share: the actions a prompt lists, and the step cap of the loops.

The SayPlan family, LookPlanGraph and the ReAct loop (react, react_pv, SCLPlan)
list the scene's actions in their prompts the same way, from the simulator's
schemas; LookPlanGraph and the ReAct loop cap their steps at the same number,
except in ALFWorld, where the ReAct loop has SCLPlan's own cap (`ALFWORLD.max_steps`).
"""

from __future__ import annotations

from sceneplan.errors import UnsupportedError
from sceneplan.world.actions import Action
from sceneplan.world.simulator import Simulator

# Twice the longest room-level oracle plan of the Office planning tasks (36 actions,
# planning-long-12), so that no task is out of reach: the cap of LookPlanGraph's moves
# and of ReAct's steps (where the vocabulary sets none of its own: `Vocabulary.max_steps`).
MAX_STEPS = 72


def actions_text(
    simulator: Simulator, skip: frozenset[str] = frozenset(), *, conditions: bool = False
) -> str:
    """The actions the scene can use (`Simulator.offered_actions`) for a prompt, one per
    line, from the simulator's schemas (with `conditions`, what each needs)."""
    offered = set(simulator.offered_actions()) - skip
    lines = simulator.describe_actions(conditions)
    return "\n".join(
        f"- {line}" for name, line in zip(simulator.schemas, lines, strict=True) if name in offered
    )


def action_doing(simulator: Simulator, op: str, *args: str) -> Action:
    """The action of the simulator's vocabulary that has the effect `op` over `args` (node
    ids for its parameters, literal words as the effect's own), with those nodes: what a
    planner asks for when it means a deed, not a name (`observe(a, inside_of)` is
    LookPlanGraph's look_inside(a); `set_posture(standing)` its stand_up()).

    >>> from sceneplan.datasets import load_environment
    >>> from sceneplan.world import LOOKPLANGRAPH
    >>> simulator = Simulator(load_environment("coffee"), LOOKPLANGRAPH)
    >>> str(action_doing(simulator, "set_state", "fridge", "open"))
    'open(fridge)'
    """
    for schema in simulator.schemas.values():
        params = {p.name for p in schema.params}
        for effect in schema.effects:
            if effect.op != op or len(effect.args) != len(args):
                continue
            bound = {e: a for e, a in zip(effect.args, args, strict=True) if e in params}
            words = all(e == a for e, a in zip(effect.args, args, strict=True) if e not in params)
            if words and len(bound) == len(params):
                return Action(schema.name, tuple(bound[p.name] for p in schema.params))
    raise UnsupportedError(
        f"the vocabulary {simulator.vocabulary} has no action doing {op}({', '.join(args)})"
    )
