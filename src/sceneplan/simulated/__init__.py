"""A seeded stand-in chat model that errs like the papers' models (`--llm simulated:NAME`).

It is not a model's reasoning: it knows the task's formal goal and the scene, forms the
correct reply in the planner's own schema, and makes the errors of a profile calibrated
from the papers' error tables, so the loops around a model (replanning, precondition
verification, LookPlanGraph's corrections) can be measured without one (docs/llm.md).
It is the provider `simulated`, registered through the `sceneplan.providers` entry point
as a plugin would be; nothing below this package imports it.
"""

from sceneplan.simulated.profiles import KINDS, PRESETS, Kind, Profile, parse_profile
from sceneplan.simulated.provider import SimulatedProvider
from sceneplan.simulated.session import Session, current, record, simulating

__all__ = [
    "KINDS",
    "PRESETS",
    "Kind",
    "Profile",
    "Session",
    "SimulatedProvider",
    "current",
    "parse_profile",
    "record",
    "simulating",
]
