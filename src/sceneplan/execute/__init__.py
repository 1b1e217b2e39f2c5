"""Executing plans on a robot: the skill interface, a simulated robot with faults, an HTTP
robot, and the closed-loop executor that corrects its scene graph and replans.

See docs/execute.md. `execute(planner, task, robot="sim", faults="moved:0.3")` plans
and executes in one call.
"""

from sceneplan.execute.belief import Belief
from sceneplan.execute.executor import MAX_REPLANS, ExecutionSettings, Executor
from sceneplan.execute.faults import Faults
from sceneplan.execute.http import HttpRobot
from sceneplan.execute.replan import PlannerReplanner, Replanner, SymbolicReplanner
from sceneplan.execute.robot import Robot, skill_for
from sceneplan.execute.run import execute, get_robot, run_plan
from sceneplan.execute.sim import SimulatedRobot
from sceneplan.execute.skills import (
    Reason,
    RobotReplyError,
    RobotUnavailableError,
    Seen,
    Skill,
    SkillCall,
    SkillResult,
)

__all__ = [
    "MAX_REPLANS",
    "Belief",
    "ExecutionSettings",
    "Executor",
    "Faults",
    "HttpRobot",
    "PlannerReplanner",
    "Reason",
    "Replanner",
    "Robot",
    "RobotReplyError",
    "RobotUnavailableError",
    "Seen",
    "SimulatedRobot",
    "Skill",
    "SkillCall",
    "SkillResult",
    "SymbolicReplanner",
    "execute",
    "get_robot",
    "run_plan",
    "skill_for",
]
