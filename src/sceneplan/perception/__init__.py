"""Perception for partial observability: what a look on top of or inside an asset sees.

`get_perception(spec)` makes one from a spec string (the `perception` option
of partially observing planners, docs/perception.md):

- `simulated` or `simulated:perfect`: the true world's objects, exactly;
- `simulated:gpt4o-like`: with the noise calibrated to LookPlanGraph Table 4;
- `simulated:KNOB=VALUE,...`, optionally after a preset
  (`simulated:gpt4o-like,seed=3`, `simulated:miss=0.3,swap=0.1,seed=7`); the
  parts may be separated by `;` instead of `,`, which is how they are written
  inside an eval planner spec, whose options are separated by commas
  (`lookplangraph[perception=simulated:gpt4o-like;seed=3,max_steps=40]`);
- `vlm`: a vision-language model on camera images (`VLMPerception`), which
  needs `llm` (an LLMClient) and `camera` (a `Camera` callback).

>>> get_perception("simulated:gpt4o-like,seed=3").name
'simulated:gpt4o-like,seed=3'
>>> get_perception("simulated:miss=0.3,swap=0.1,seed=7").noise.swap_inside
0.1
>>> get_perception("simulated:gpt4o-like;seed=3").seed
3
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from sceneplan.errors import BadInputError
from sceneplan.perception.base import LOOK_RELATIONS, Perception
from sceneplan.perception.names import NameMatcher, match_category, normalise
from sceneplan.perception.simulated import PRESETS, Noise, SimulatedPerception
from sceneplan.probabilities import is_probability

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient
    from sceneplan.perception.vlm import Camera

__all__ = [
    "LOOK_RELATIONS",
    "PRESETS",
    "NameMatcher",
    "Noise",
    "Perception",
    "SimulatedPerception",
    "get_perception",
    "match_category",
    "normalise",
]

KINDS = ("simulated", "vlm")


def _allowed() -> str:
    knobs = ", ".join([*Noise.names(), "swap", "seed"])
    return (
        f"use simulated, simulated:PRESET (presets: {', '.join(PRESETS)}), "
        f"simulated:[PRESET,]KEY=VALUE,... (keys: {knobs}; noise values 0 to 1; "
        "';' may separate the parts, as inside an eval planner spec) or vlm"
    )


def get_perception(
    spec: str, *, llm: LLMClient | None = None, camera: Camera | None = None
) -> Perception:
    """The perception a spec names (module doc); a bad spec is one BadInputError."""
    text = str(spec).strip()
    kind, _, rest = text.partition(":")
    if kind == "simulated":
        return _simulated(text, rest)
    if kind == "vlm":
        if rest:
            raise BadInputError(
                f"bad perception '{text}': vlm takes no options in a spec; build "
                "sceneplan.perception.vlm.VLMPerception(llm, camera, ...) for options"
            )
        missing = [what for what, value in (("llm", llm), ("camera", camera)) if value is None]
        if missing:
            raise BadInputError(
                f"perception 'vlm' needs {' and '.join(missing)}: pass llm= (an LLMClient on a "
                "model with image input, e.g. openai:gpt-4o) and camera= (a callback "
                "(asset, relation, true_state) -> CameraImage) to get_perception, or build "
                "VLMPerception(llm, camera); see docs/perception.md"
            )
        from sceneplan.perception.vlm import VLMPerception  # only when asked for

        return VLMPerception(llm, camera)  # type: ignore[arg-type]
    raise BadInputError(f"unknown perception '{text}': {_allowed()}")


def _simulated(text: str, rest: str) -> SimulatedPerception:
    noise, seed = PRESETS["perfect"], 0
    changes: dict[str, Any] = {}
    parts = [p.strip() for p in re.split(r"[,;]", rest)] if rest.strip() else []
    for i, part in enumerate(parts):
        key, eq, value = (s.strip() for s in part.partition("="))
        if not eq:
            if i == 0 and part in PRESETS:
                noise = PRESETS[part]
                continue
            where = (
                "a preset, which must come first"
                if part in PRESETS
                else "not a preset or KEY=VALUE"
            )
            raise BadInputError(f"bad perception '{text}': '{part}' is {where}; {_allowed()}")
        if key == "seed":
            try:
                seed = int(value)
            except ValueError:
                seed = -1
            if seed < 0:
                raise BadInputError(
                    f"bad perception '{text}': seed must be a whole number >= 0, got '{value}'"
                ) from None
            continue
        if key not in (*Noise.names(), "swap"):
            raise BadInputError(f"bad perception '{text}': unknown key '{key}'; {_allowed()}")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not is_probability(number):
            raise BadInputError(
                f"bad perception '{text}': {key} must be a number from 0 to 1, got '{value}'"
            )
        changes[key] = number
    return SimulatedPerception(noise.with_(**changes), seed=seed)
