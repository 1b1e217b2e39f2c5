"""What several planners share: the actions a prompt lists, and the step cap of the loops.

The SayPlan family, LookPlanGraph and the ReAct loop (react, react_pv, SCLPlan)
list the scene's actions in their prompts the same way, from the simulator's
schemas; LookPlanGraph and the ReAct loop cap their steps at the same number.
"""

from __future__ import annotations

from sceneplan.world.simulator import Simulator

# Twice the longest room-level oracle plan of the Office planning tasks (36 actions,
# planning-long-12), so that no task is out of reach: the cap of LookPlanGraph's moves
# and of ReAct's steps.
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
