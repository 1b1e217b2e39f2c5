"""What the stand-in model gets wrong: the kinds of error, and the profiles that say how often.

Every kind of error the stand-in injects is one row of `KINDS`, which names the
metrics' error type it shows up as (`world.primitives.ErrorType`, SayPlan Table 3's
taxonomy, read by `eval.metrics`), or None for a reply the client has to repair or re-ask
(a malformed reply) and for an SCLPlan goal that names the wrong object.

A profile is a per-reply error rate and the weights the kind of each error is drawn with:
with probability `rate`, a reply carries one error, of a kind drawn among those that apply
to it (a plan can miss a pose only if it has poses) in proportion to `weights`. Presets
are calibrated from the papers' published rates (docs/llm.md lists each with its table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sceneplan.errors import BadInputError
from sceneplan.world.primitives import ErrorType


class Kind(StrEnum):
    """A mistake the stand-in makes in one reply."""

    HALLUCINATED_NODE = "hallucinated_node"  # a node id that is not in the scene (a near name)
    WRONG_ACTION = "wrong_action"  # another action of the vocabulary on the same nodes
    MISSING_ACTION = "missing_action"  # a precondition step (open, access) left out
    MISSING_POSE = "missing_pose"  # a pose skipped in a plan that walks pose by pose
    EARLY_STOP = "early_stop"  # search switches to planning, or a loop says done, too soon
    WRONG_GOAL = "wrong_goal"  # a goal formula that names the wrong object
    MALFORMED = "malformed"  # not the JSON asked for (prose, a field missing, fences, thinking)


@dataclass(frozen=True)
class KindInfo:
    """One row of the error table: the kind, the metrics' type it counts as, and what it is."""

    kind: Kind
    error_type: ErrorType | None
    description: str


KINDS: dict[Kind, KindInfo] = {
    info.kind: info
    for info in (
        KindInfo(
            Kind.HALLUCINATED_NODE, ErrorType.HALLUCINATED_NODE, "a near name not in the scene"
        ),
        KindInfo(Kind.WRONG_ACTION, ErrorType.WRONG_ACTION, "another action on the same nodes"),
        KindInfo(Kind.MISSING_ACTION, ErrorType.MISSING_ACTION, "a precondition step skipped"),
        KindInfo(Kind.MISSING_POSE, ErrorType.MISSING_POSE, "a pose skipped on the way"),
        KindInfo(Kind.EARLY_STOP, ErrorType.INCOMPLETE_SEARCH, "planning or done too early"),
        KindInfo(Kind.WRONG_GOAL, None, "a goal about the wrong object"),
        KindInfo(Kind.MALFORMED, None, "a reply that is not the JSON asked for"),
    )
}

MALFORMED_FORMS = ("not_json", "missing_field", "code_fence", "thinking")
"""How a malformed reply is malformed (drawn uniformly)."""


@dataclass(frozen=True)
class Profile:
    """How often the stand-in errs, and which errors it makes."""

    name: str
    rate: float  # the probability that a reply carries an error
    weights: dict[Kind, float] = field(default_factory=lambda: dict.fromkeys(Kind, 1.0))
    source: str = ""
    seed: int = 0

    def spec(self) -> str:
        """The model name that gives this profile back: `simulated:SPEC`."""
        return self.name if self.seed == 0 else f"{self.name},seed={self.seed}"


# SayPlan Table 3 (right): the share of tasks whose plan (GPT-4) had each type of error.
# LLM+P's row is the model's manipulation errors with a path planner: missing action 26.7 %,
# wrong action 10 %, incomplete search 3.3 %, hallucinated nodes 10 %; LLM-As-Planner's adds
# missing poses (60 %) where the model writes the poses itself. The rate is the LLM+P row's
# sum (one error in half of the replies); malformed replies are rare with structured output.
_GPT4 = {
    Kind.MISSING_ACTION: 0.267,
    Kind.WRONG_ACTION: 0.10,
    Kind.EARLY_STOP: 0.033,
    Kind.HALLUCINATED_NODE: 0.10,
    Kind.MISSING_POSE: 0.60,
    Kind.WRONG_GOAL: 0.05,
    Kind.MALFORMED: 0.02,
}


# SCLPlan Table III (ALFWorld validation): the share of ReAct's next actions that could not
# run (GPT-4o 0.233, GPT-4o-mini 0.262) and the share of those that precondition
# verification repaired (0.699, 0.531): a skipped precondition; the rest are split between
# hallucinated nodes and wrong actions. Its global plan was found for 94 % / 97 % of tasks
# from the goal the model wrote: a wrong goal now and then.
def _sclplan(repaired: float) -> dict[Kind, float]:
    rest = (1 - repaired) / 2
    return {
        Kind.MISSING_ACTION: repaired,
        Kind.HALLUCINATED_NODE: rest,
        Kind.WRONG_ACTION: rest,
        Kind.WRONG_GOAL: 0.05,
        Kind.EARLY_STOP: 0.02,
        Kind.MALFORMED: 0.02,
    }


# LookPlanGraph §7.2 (its Table 3): 70B-class and smaller models fail on hallucinated
# function calls and node names; no rate per error is published, so the rate and mix here
# are a choice that follows that account, not a measurement.
_SMALL = {
    Kind.HALLUCINATED_NODE: 0.35,
    Kind.WRONG_ACTION: 0.25,
    Kind.MISSING_ACTION: 0.15,
    Kind.MISSING_POSE: 0.30,
    Kind.EARLY_STOP: 0.03,
    Kind.WRONG_GOAL: 0.10,
    Kind.MALFORMED: 0.15,
}

# `p=RATE`: every kind alike, but an early stop a tenth as often (in Table 3 incomplete
# search is a tenth as frequent as the other errors; a loop cut short repairs nothing).
_UNIFORM = {**dict.fromkeys(Kind, 1.0), Kind.EARLY_STOP: 0.1}

PRESETS: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("perfect", 0.0, source="no errors: every reply is the correct one"),
        Profile("sayplan-gpt4", 0.5, _GPT4, "SayPlan (CoRL 2023) Table 3, right: GPT-4"),
        Profile("sclplan-gpt4o", 0.233, _sclplan(0.699), "SCLPlan Table III: GPT-4o"),
        Profile("sclplan-gpt4o-mini", 0.262, _sclplan(0.531), "SCLPlan Table III: GPT-4o-mini"),
        Profile("small-model", 0.6, _SMALL, "LookPlanGraph §7.2: a choice after its account"),
    )
}


def parse_profile(spec: str) -> Profile:
    """The profile a model name after `simulated:` names: a preset, or `p=RATE`, with
    `,seed=N` and `,KIND=WEIGHT` options.

    >>> parse_profile("p=0.2,seed=3").rate, parse_profile("p=0.2,seed=3").seed
    (0.2, 3)
    >>> parse_profile("sayplan-gpt4").rate
    0.5
    """
    head, *options = [part.strip() for part in spec.split(",")]
    if head.startswith("p="):
        rate = _number(spec, head[2:], "p")
        if not 0 <= rate <= 1:
            raise BadInputError(f"simulated:{spec}: p must be between 0 and 1, not {rate:g}")
        profile = Profile(head, rate, _UNIFORM, "each applicable kind alike, an early stop rarer")
    elif head in PRESETS:
        profile = PRESETS[head]
    else:
        raise BadInputError(
            f"unknown simulated model '{head}'; use simulated:p=RATE (0 to 1) or a preset: "
            f"{', '.join(PRESETS)} (docs/llm.md)"
        )
    seed, weights = 0, dict(profile.weights)
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise BadInputError(f"simulated:{spec}: '{option}' must be KEY=VALUE")
        if key == "seed":
            seed = int(_number(spec, value, key))
        elif key in Kind.__members__.values():
            weights[Kind(key)] = _number(spec, value, key)
        else:
            raise BadInputError(
                f"simulated:{spec}: unknown option '{key}'; options: seed, "
                f"{', '.join(k.value for k in Kind)}"
            )
    return Profile(profile.name, profile.rate, weights, profile.source, seed)


def _number(spec: str, text: str, key: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise BadInputError(f"simulated:{spec}: {key} must be a number, not '{text}'") from None
