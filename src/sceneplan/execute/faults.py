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

from dataclasses import asdict, dataclass, fields

from sceneplan.errors import BadInputError

KINDS = ("moved", "grasp", "stuck", "blocked")


@dataclass(frozen=True)
class Faults:
    """The probability of each fault kind."""

    moved: float = 0.0
    grasp: float = 0.0
    stuck: float = 0.0
    blocked: float = 0.0

    @classmethod
    def parse(cls, spec: str | None) -> Faults:
        """`kind:p,...` (kinds: moved, grasp, stuck, blocked); '' or 'none' is no fault."""
        text = (spec or "").strip()
        if text.lower() in ("", "none"):
            return cls()
        values: dict[str, float] = {}
        for part in text.split(","):
            kind, sep, number = (p.strip() for p in part.strip().partition(":"))
            if kind not in KINDS:
                raise BadInputError(
                    f"unknown fault '{kind}' in --faults {spec!r}; the faults are "
                    + ", ".join(KINDS)
                    + " (e.g. moved:0.3,grasp:0.1)"
                )
            try:
                p = float(number) if sep else float("nan")
            except ValueError:
                p = float("nan")
            if not 0.0 <= p <= 1.0:
                raise BadInputError(
                    f"fault '{kind}' in --faults {spec!r} needs a probability from 0 to 1, "
                    f"e.g. {kind}:0.1"
                )
            if kind in values:
                raise BadInputError(f"fault '{kind}' is given twice in --faults {spec!r}")
            values[kind] = p
        return cls(**values)

    def __str__(self) -> str:
        parts = [
            f"{f.name}:{getattr(self, f.name):g}" for f in fields(self) if getattr(self, f.name)
        ]
        return ",".join(parts) or "none"

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @property
    def any(self) -> bool:
        return any(asdict(self).values())
