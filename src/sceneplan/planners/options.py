"""Planner options: declared as a pydantic model per planner, validated once, written as specs.

Each planner declares its options as a nested `Options(PlannerOptions)` class:
every field has a default, a description and its checks (`ge=1`, `gt=0`, a
validator). Options are what can be written down (on the command line, in a
results store); runtime hooks such as `on_event` are constructor arguments.

A planner spec names a planner with options, as `sceneplan eval --planners`
takes it: `sclplan[planner=bfsf,timeout=5]`. Values are text there and are
converted by the field's type. Only options that differ from the defaults
name a configuration: `sclplan[planner=gbfs]` (the default) is `sclplan`.

>>> parse_spec("sclplan[planner=bfsf, timeout=5]")
('sclplan', {'planner': 'bfsf', 'timeout': '5'})
>>> split_specs("sayplan,sclplan[planner=bfsf,timeout=5]")
['sayplan', 'sclplan[planner=bfsf,timeout=5]']
>>> planner_label("sclplan", {"timeout": 5.0, "planner": "bfsf"})
'sclplan[planner=bfsf,timeout=5]'
"""

from __future__ import annotations

import enum
import itertools
import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo

from sceneplan.errors import BadInputError
from sceneplan.symbolic.solver import SOLVERS
from sceneplan.world.vocabulary import Vocabulary


class PlannerOptions(BaseModel):
    """The options of a planner; subclasses declare fields with defaults and descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @property
    def partial(self) -> bool:
        """Whether a run with these options plans on the robot's memory (none does by default)."""
        return False

    def vocabulary(self, declared: Vocabulary) -> Vocabulary:
        """The action vocabulary a run with these options plans with, before the world adapts
        it (`Planner.vocabulary_for`): the planner's `declared` one unless an option chooses."""
        return declared

    @classmethod
    def build(cls, planner: str, values: Mapping[str, Any]) -> Self:
        """Validate `values` (text is converted by the field's type).

        Every problem goes into one BadInputError that names the planner, the
        option, what is wrong with it and the planner's valid options.
        """
        try:
            return cls.model_validate(dict(values))
        except ValidationError as exc:
            problems = [_problem(err) for err in exc.errors()]
        names = ", ".join(cls.model_fields) or "none"
        raise BadInputError(
            f"planner '{planner}': {'; '.join(problems)}; options of {planner}: {names} "
            "(`sceneplan planners` describes them)"
        )

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults, JSON-ready: what names this setup."""
        values = self.model_dump(mode="json")
        fields = type(self).model_fields
        return {
            name: values[name]
            for name, info in fields.items()
            if info.is_required() or getattr(self, name) != _default(info)
        }

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """One row per option: name, type, default and description (for `sceneplan planners`)."""
        rows = []
        for name, info in cls.model_fields.items():
            default = None if info.is_required() else _default(info)
            rows.append(
                {
                    "name": name,
                    "type": type_name(info.annotation),
                    "default": _plain(default),
                    "required": info.is_required(),
                    "description": info.description or "",
                }
            )
        return rows


def _default(info: FieldInfo) -> Any:
    return info.get_default(call_default_factory=True)


def _known_backend(value: str) -> str:
    if value not in SOLVERS:
        raise ValueError(str(SOLVERS.unknown(value)))
    return value


SymbolicPlanner = Annotated[str, AfterValidator(_known_backend)]
"""The type of an option naming a symbolic back end of `symbolic.solve`."""
SYMBOLIC_PLANNERS = ", ".join(sorted(SOLVERS.builtins))


def _problem(err: Any) -> str:
    """One pydantic error as a phrase about the option it concerns."""
    loc = ".".join(str(p) for p in err["loc"]) or "options"
    if err["type"] == "extra_forbidden":
        return f"no option '{loc}'"
    if err["type"] == "missing":
        return f"option '{loc}' is required"
    message = err["msg"].removeprefix("Value error, ").removeprefix("Input ")
    return f"option '{loc}' {message} (got {err['input']!r})"


def type_name(annotation: Any) -> str:
    """A short name of an option's type: int, float, str, bool, a|b for literals and enums.

    >>> type_name(int), type_name(typing.Literal["a", "b"]), type_name(float | None)
    ('int', 'a|b', 'float|None')
    """
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "|".join(str(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return "|".join(type_name(a) for a in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "|".join(str(m.value) for m in annotation)
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", str(annotation))


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


# -- specs: planner[key=value,...] ----------------------------------------------------


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of planner specs; commas inside [...] stay with their spec."""
    depths = list(itertools.accumulate((char == "[") - (char == "]") for char in text))
    if min(depths, default=0) < 0:
        raise BadInputError(f"planner list '{text}': a ']' without its '['")
    if depths and depths[-1]:
        raise BadInputError(f"planner list '{text}': a '[' without its ']'")
    cuts = [
        i
        for i, (char, depth) in enumerate(zip(text, depths, strict=True))
        if char == "," and not depth
    ]
    specs = (text[start + 1 : end] for start, end in itertools.pairwise([-1, *cuts, len(text)]))
    return [s.strip() for s in specs if s.strip()]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`name[key=value,...]` as the name and the option texts (not yet validated)."""
    spec = spec.strip()
    name, bracket, rest = spec.partition("[")
    name = name.strip()
    if not name or (bracket and not rest.endswith("]")):
        raise BadInputError(
            f"planner spec '{spec}' must be NAME or NAME[KEY=VALUE,...], "
            "e.g. sclplan[planner=bfsf,timeout=5]"
        )
    return name, parse_assignments(rest[:-1].split(",") if bracket else [], where=spec)


def parse_assignments(items: list[str], *, where: str) -> dict[str, str]:
    """`KEY=VALUE` texts as a dict; a malformed or repeated key names `where` it was written."""
    out: dict[str, str] = {}
    for item in (i.strip() for i in items):
        if not item:
            continue
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BadInputError(f"{where}: option '{item}' must be written KEY=VALUE")
        if key in out:
            raise BadInputError(f"{where}: option '{key}' is given twice")
        out[key] = value.strip()
    return out


def planner_label(name: str, options: Mapping[str, Any]) -> str:
    """The planner's name, with its non-default options in brackets, sorted by key."""
    if not options:
        return name
    return f"{name}[{','.join(f'{k}={_text(v)}' for k, v in sorted(options.items()))}]"


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


# -- the graph view a search starts from ------------------------------------------------

Collapse = typing.Literal["auto", "rooms", "hierarchy"]
AUTO_BUDGET = 2000  # tokens: the target size of a first prompt, and above Home's rooms view


class ViewOptions(PlannerOptions):
    """How the scene graph is first shown: SayPlan's rooms, or the place hierarchy."""

    collapse: Collapse = Field(
        "auto",
        description="rooms: every room and pose (SayPlan's collapse); hierarchy: floor groups, "
        "floors and zones with a summary each, expanded level by level (docs/hierarchy.md); "
        "auto: rooms when that view fits collapse_budget tokens, else hierarchy",
    )
    collapse_budget: int = Field(
        AUTO_BUDGET, ge=1, description="tokens the rooms view may take for auto to choose it"
    )
