"""Judge the exported PDDL against the simulator: same verdict on a plan, same final state.

The independent judge is unified-planning's SequentialPlanValidator on the
exported domain and problem. A plan's goal is the simulator's final state
written as literals (every placement, hand, place, access and state-word fact,
true or false), so a VALID verdict means the two final states agree. Shared by
the differential tests and the extension tests (tests/world/test_extension.py).
"""

from __future__ import annotations

import itertools
import random
import warnings
from contextlib import contextmanager, nullcontext
from functools import cached_property

import unified_planning.shortcuts as ups
from unified_planning.engines.plan_validator import SequentialPlanValidator
from unified_planning.engines.results import ValidationResultStatus
from unified_planning.io import PDDLReader

from sceneplan.graph import SceneGraph
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.pddl import export_pddl, plan_pddl, state_facts
from sceneplan.symbolic.pddl.write import expression as pddl_text
from sceneplan.world import Action, Simulator
from sceneplan.world.substances import split_word
from sceneplan.world.vocabularies import get_vocabulary

ups.get_environment().credits_stream = None
WORDS = (
    *("open", "closed", "on", "off", "hot", "cold", "clean", "dirty", "full", "empty"),
    *("plugged_in", "plugged_out", "cooked", "raw"),
    *("sitting", "lying", "frozen"),
)


@contextmanager
def lenient_names():
    """Let an object share a type's name in unified-planning while the block runs.

    PDDL keeps types and objects apart, and so do grounders; unified-planning
    refuses the same name for both unless its environment says otherwise (and
    its reader works in the global environment only). ALFWorld's one room is
    the node `room`, and `room` is also a type of the exported domain.
    """
    environment = ups.get_environment()
    before = environment.error_used_name
    environment.error_used_name = False
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Name .* already defined", UserWarning)
            yield
    finally:
        environment.error_used_name = before


class Judge:
    """One scene and vocabulary, its simulator, and its exported problem parsed once."""

    def __init__(self, graph: SceneGraph, vocabulary: str = "sayplan", lenient: bool = False):
        """`lenient`: node ids may be type names (see `lenient_names`)."""
        self.graph = graph
        self.vocabulary = get_vocabulary(vocabulary)
        self.names = lenient_names if lenient else nullcontext
        self.sim = Simulator(graph, self.vocabulary)
        self.used: set[str] = set()  # actions judged, by name

    @cached_property
    def problem(self):
        files = export_pddl(self.graph, vocabulary=self.vocabulary)
        with self.names():
            return PDDLReader().parse_problem_string(files.domain, files.problem)

    def universe(self) -> set[str]:
        """Every dynamic fact the goal of a comparison talks about."""
        graph = self.graph
        things = [n.id for n in graph if n.kind in (NodeKind.ASSET, NodeKind.OBJECT)]
        items = [n.id for n in graph if n.kind is NodeKind.OBJECT]
        places = [n.id for n in graph if n.kind in (NodeKind.ROOM, NodeKind.POSE)]
        out = {"(handempty)"}
        out |= {f"(agent_at {p})" for p in places}
        out |= {f"(accessed {a.id})" for a in graph.of_kind(NodeKind.ASSET)}
        out |= {f"(holding {o})" for o in items}
        words = [w for w in WORDS if self.problem.has_fluent(f"is_{w}")]  # the domain's own
        # and the substance words of the problem (`filled_water`, `covered_dust`, ...)
        words += [
            f.name[3:]
            for f in self.problem.fluents
            if f.name.startswith("is_") and split_word(f.name[3:]) is not None
        ]
        agents = [n.id for n in graph if n.kind is NodeKind.AGENT]  # its posture
        out |= {f"(is_{w} {x})" for w in words for x in things + agents}
        for o in items:
            for y in things:
                out |= {f"({p} {o} {y})" for p in ("ontop_of", "inside_of", "below", "enclosed")}
        return out

    def run(self, plan):
        """The simulator's verification of a plan; the actions it reached count as used."""
        result = self.sim.verify_plan(plan)
        self.used.update(a.name for a in result.plan[: result.executed + 1])
        return result

    def judge(self, plan):
        """(simulator verification, UP validation result) for one plan."""
        problem = self.problem
        result = self.run(plan)

        def expression(fact: str):
            name, *args = fact.strip("()").split()
            return problem.fluent(name)(*(problem.object(a) for a in args))

        facts = {pddl_text(f) for f in state_facts(result.final_state)}
        universe = self.universe()
        goal = problem.clone()
        goal.clear_goals()
        parts = [expression(f) for f in sorted(facts)]
        parts += [ups.Not(expression(f)) for f in sorted(universe - facts)]
        goal.add_goal(ups.And(*parts))
        with self.names():
            up_plan = PDDLReader().parse_plan_string(
                goal, plan_pddl(result.plan, self.graph, vocabulary=self.vocabulary)
            )
            return result, SequentialPlanValidator().validate(goal, up_plan)

    def assert_agree(self, plan) -> None:
        result, verdict = self.judge(plan)
        if result.ok:
            assert verdict.status is ValidationResultStatus.VALID, (
                f"simulator: executable; validator: {verdict.reason} {verdict.inapplicable_action}"
            )
        else:
            assert verdict.status is ValidationResultStatus.INVALID, (
                f"simulator: {result.feedback}; validator: valid"
            )
            # unified-planning writes `stand_up`, no (), and the hidden parameters
            failed = str(verdict.inapplicable_action).replace("(", " ").strip(")")
            name, *args = failed.replace(",", " ").split()
            expected = result.failure.action
            assert (name, tuple(args[: len(expected.args)])) == (expected.name, expected.args)

    def random_walk(self, seed: int, length: int = 9) -> list[Action]:
        """Mostly executable steps (so deep states occur), ending with one arbitrary action."""
        rng = random.Random(seed)
        candidates = [
            Action(s.name, args)
            for s in self.sim.schemas.values()
            if s.params
            for args in itertools.product(
                *([n.id for n in self.graph if n.kind in p.kinds] for p in s.params)
            )
        ]
        state, plan = self.sim.initial_state(), []
        moves = ("goto", "go_to")
        for _ in range(length):
            valid = [a for a in candidates if self.sim.check(state, a) is None]
            useful = [a for a in valid if a.name not in moves] or valid
            action = rng.choice(useful if rng.random() < 0.7 else valid)
            state, _ = self.sim.step(state, action)
            plan.append(action)
        plan.append(rng.choice(candidates))
        return plan
