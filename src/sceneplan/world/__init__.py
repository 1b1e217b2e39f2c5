"""The one world domain: state, action schemas, the simulator and goals."""

from sceneplan.world.actions import Action, parse_action, parse_plan
from sceneplan.world.domain import LOOKPLANGRAPH, SAYPLAN, VOCABULARIES, ActionSchema
from sceneplan.world.goals import Formula, parse_goal
from sceneplan.world.primitives import Cause
from sceneplan.world.simulator import Failure, Simulator, Verification
from sceneplan.world.state import WorldState
from sceneplan.world.task import Family, Task

__all__ = [
    "LOOKPLANGRAPH",
    "SAYPLAN",
    "VOCABULARIES",
    "Action",
    "ActionSchema",
    "Cause",
    "Failure",
    "Family",
    "Formula",
    "Simulator",
    "Task",
    "Verification",
    "WorldState",
    "parse_action",
    "parse_goal",
    "parse_plan",
]
