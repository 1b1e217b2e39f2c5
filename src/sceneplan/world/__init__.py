"""The one world domain: state, action schemas, the simulator and goals."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sceneplan.world.actions import Action, parse_action, parse_plan
    from sceneplan.world.domain import LOOKPLANGRAPH, SAYPLAN, VOCABULARIES, ActionSchema
    from sceneplan.world.goals import Formula, parse_goal
    from sceneplan.world.primitives import Cause
    from sceneplan.world.simulator import Failure, Simulator, Verification
    from sceneplan.world.state import WorldState
    from sceneplan.world.task import Family, Task

# Each public name and the module it comes from, imported on first use (PEP 562):
# importing the package alone loads none of them.
_EXPORTS = {
    "Action": "sceneplan.world.actions",
    "parse_action": "sceneplan.world.actions",
    "parse_plan": "sceneplan.world.actions",
    "LOOKPLANGRAPH": "sceneplan.world.domain",
    "SAYPLAN": "sceneplan.world.domain",
    "VOCABULARIES": "sceneplan.world.domain",
    "ActionSchema": "sceneplan.world.domain",
    "Formula": "sceneplan.world.goals",
    "parse_goal": "sceneplan.world.goals",
    "Cause": "sceneplan.world.primitives",
    "Failure": "sceneplan.world.simulator",
    "Simulator": "sceneplan.world.simulator",
    "Verification": "sceneplan.world.simulator",
    "WorldState": "sceneplan.world.state",
    "Family": "sceneplan.world.task",
    "Task": "sceneplan.world.task",
}

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


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
