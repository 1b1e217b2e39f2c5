"""A frozen set of named probabilities: the robot's fault rates, a perception's noise knobs.

A subclass is a frozen dataclass whose fields are all probabilities, each 0 by
default, and sets `NOUN`, what one field is called in messages. This base
holds what every such set does the same way: each value is checked when the
set is made (a number, not a bool, from 0 to 1; nan is refused), the names are
the fields', `any` says whether one is not 0, and the text form lists the ones
that are not 0 as `name:value` (`parse` reads it back).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Weather(Probabilities):
...     NOUN = "weather"
...     rain: float = 0.0
...     snow: float = 0.0
>>> Weather.parse("snow:0.25"), str(Weather(rain=0.5)), str(Weather()), Weather().any
(Weather(rain=0.0, snow=0.25), 'rain:0.5', 'none', False)
>>> Weather(rain=1.5)
Traceback (most recent call last):
  ...
sceneplan.errors.BadInputError: weather rain must be between 0 and 1, got 1.5
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Self

from sceneplan.errors import BadInputError


def is_probability(value: Any) -> bool:
    """Whether `value` is a number (not a bool) from 0 to 1; nan is not."""
    return _is_number(value) and 0.0 <= value <= 1.0  # False for nan


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Probabilities:
    """Named probabilities, each from 0 to 1 (module doc); subclasses declare the fields."""

    NOUN: ClassVar[str] = "probability"
    """What one field is called in messages: `fault`, `noise knob`."""
    SOURCE: ClassVar[str] = ""
    """Where a text `parse` reads comes from, for its messages (`--faults`), if anywhere."""

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not is_probability(value):
                must = "be between 0 and 1" if _is_number(value) else "be a number"
                raise BadInputError(f"{self.NOUN} {name} must {must}, got {value!r}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The fields' names, in order."""
        return tuple(f.name for f in fields(cls))

    @property
    def any(self) -> bool:
        """Whether any probability is not 0."""
        return any(asdict(self).values())

    def to_dict(self) -> dict[str, float]:
        """Each name with its probability, in order."""
        return asdict(self)

    def pairs(self, sep: str = ":") -> list[str]:
        """`name:value` for each probability that is not 0, in order (`sep` between them)."""
        return [f"{name}{sep}{value:g}" for name, value in asdict(self).items() if value]

    def __str__(self) -> str:
        """The text form `parse` reads: `name:value,...`, or `none` when all are 0."""
        return ",".join(self.pairs()) or "none"

    @classmethod
    def parse(cls, spec: str | None) -> Self:
        """`name:p,...` (each name at most once, p from 0 to 1); '', None or 'none' is all 0."""
        text = (spec or "").strip()
        if text.lower() in ("", "none"):
            return cls()
        names, noun = cls.names(), cls.NOUN
        where = f"{cls.SOURCE} {spec!r}".strip()
        values: dict[str, float] = {}
        for part in text.split(","):
            name, sep, number = (p.strip() for p in part.strip().partition(":"))
            if name not in names:
                example = ",".join(f"{n}:{p}" for n, p in zip(names, ("0.3", "0.1"), strict=False))
                raise BadInputError(
                    f"unknown {noun} '{name}' in {where}; the {noun}s are "
                    f"{', '.join(names)} (e.g. {example})"
                )
            try:
                p = float(number) if sep else float("nan")
            except ValueError:
                p = float("nan")
            if not is_probability(p):
                raise BadInputError(
                    f"{noun} '{name}' in {where} needs a probability from 0 to 1, e.g. {name}:0.1"
                )
            if name in values:
                raise BadInputError(f"{noun} '{name}' is given twice in {where}")
            values[name] = p
        return cls(**values)
