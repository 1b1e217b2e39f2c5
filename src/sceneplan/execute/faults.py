"""Fault specs for the simulated robot: `moved:0.3,grasp:0.1`.

Each kind is a probability (docs/execute.md says exactly when each is drawn):

- `moved`: each object of a room, on the robot's first arrival there, has
  been moved to another surface of that room;
- `grasp`: a pick of an object that is there fails (the object stays);
- `stuck`: a container, the first time the robot opens it, is stuck shut
  for the rest of the run;
- `blocked`: a room, the first time the robot tries to enter it, has its
  door blocked for the rest of the run.

>>> Faults.parse("moved:0.3, grasp:0.1")
Faults(moved=0.3, grasp=0.1, stuck=0.0, blocked=0.0)
>>> str(Faults.parse("none")), str(Faults(grasp=0.25))
('none', 'grasp:0.25')
"""

from __future__ import annotations

from dataclasses import dataclass

from sceneplan.probabilities import Probabilities


@dataclass(frozen=True)
class Faults(Probabilities):
    """The probability of each fault kind; `parse` reads `kind:p,...`, `str` writes it."""

    NOUN = "fault"
    SOURCE = "--faults"

    moved: float = 0.0
    grasp: float = 0.0
    stuck: float = 0.0
    blocked: float = 0.0


KINDS = Faults.names()
"""The fault kinds, in order: moved, grasp, stuck, blocked."""
