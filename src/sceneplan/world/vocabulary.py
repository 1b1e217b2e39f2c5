"""A vocabulary: one set of actions over the one domain, with what a run in it is like.

A `Vocabulary` is what a planner plans with and what the simulator, the
solver, the PDDL export, the executor's belief and eval take: its actions
(the schemas of `world.domain`), the reach its actions share, its form for an
agent with two hands, the moves the path planner expands, the action that ends
a plan, and how its environment runs an episode (whether reaching the goal ends
it, its own step cap, its `Voice`: how it answers a model acting in it, and
whether a model writes its goals in PDDL). Code outside `world/` asks the
object, never its name; the name is for the command line, stored episodes and
prompt file names. The vocabularies themselves are in `world.vocabularies`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import Node, NodeKind, SceneGraph
from sceneplan.graph.views import GraphView
from sceneplan.world import rules
from sceneplan.world.actions import Action
from sceneplan.world.domain import ActionSchema, Param, Reach
from sceneplan.world.primitives import get_effect
from sceneplan.world.state import WorldState
from sceneplan.world.substances import split_word, supplied


class Voice:
    """How an environment answers a model that acts in it turn by turn (the ReAct loop):
    sceneplan's own words here; an environment with words of its own (ALFWorld's text
    game, `world.alfworld_text`) overrides them."""

    # whether it says only what the environment prints: no word of the repairs that
    # precondition verification made before an action
    environment_only: bool = False

    def intro(self, state: WorldState) -> str | None:
        """What the environment says before the first action (None: nothing)."""
        return None

    def succeeded(
        self, before: WorldState, action: Action, after: WorldState, schema: ActionSchema
    ) -> str:
        """What it says of an action that ran."""
        return f"{action} succeeded"

    def failed(self, action: Action, reason: str) -> str:
        """What it says of an action that could not run, and why."""
        return f"{action} failed: {reason}"

    def said(self, lines: list[str]) -> str:
        """The observation of a turn whose steps said `lines` (PV's steps, then the action):
        the action's own line."""
        return lines[-1]

    def robot(self, state: WorldState) -> str:
        """Where the robot is, what it holds and which asset it has accessed, in words:
        `at bobs_room; holding nothing; accessed asset: none` (`holding nothing (two
        hands)` for an agent with two)."""
        hands = " (two hands)" if state.hands == 2 else ""
        return (
            f"at {state.agent_at}; holding {state.held_text()}{hands}; "
            f"accessed asset: {state.accessed or 'none'}"
        )

    def scene_text(self, view: GraphView) -> str | None:
        """The scene graph's view as prompt text in the environment's own terms; None: in
        sceneplan's (`planners.dialogue.graph_text`)."""
        return None


PLAIN = Voice()


@dataclass(frozen=True, slots=True)
class Giver:
    """An action that gives a state word to one of its parameters (`target`), with the
    nodes of its other parameters that need an affordance (`helpers`: the sink basin of
    ALFWorld's `clean(o, r)`, the tap of `rinse(o, s)`; none for `wipe(x)`)."""

    vocabulary: str
    action: str
    target: Param
    helpers: tuple[Param, ...]


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """A set of actions and the run they make: see the module's docstring. Compared by
    identity (each is made once, in `world.vocabularies`)."""

    name: str
    # the actions, in prompt order (`done` last); `world.vocabularies.register_action`
    # adds to them
    actions: dict[str, ActionSchema]
    # "the agent can touch parameter p", the precondition the actions share (SayPlan's
    # `on_accessed`, LookPlanGraph's `in_room`): what an extension's action takes
    reach: Reach | None = None
    # the form for an agent with two hands (`WorldState.hands`), whose actions name what
    # they put down; None: this one serves both (SayPlan's and ALFWorld's do)
    two_hands: Vocabulary | None = None
    # the name its prompt files go under (`react_world_<prompts>.md`): its own by default;
    # a two-handed form's, that of the vocabulary it is the form of
    prompts: str = ""
    # the environment ends an episode the moment the task's goal holds (ALFWorld's games):
    # no `done()` is offered, and saying it stops the run without a step
    ends_when_goal_holds: bool = False
    # the cap on a ReAct loop's steps its environment sets (None: the planner's own)
    max_steps: int | None = None
    # a model writes its goals in PDDL over the environment's own predicates (ALFWorld's),
    # not in sceneplan's goal language
    pddl_goals: bool = False
    voice: Voice = PLAIN
    # whether a scene graph is one of this vocabulary's own environment (an ALFWorld room),
    # where planners that can use any vocabulary use this one
    native_to: Callable[[SceneGraph], bool] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.prompts:
            object.__setattr__(self, "prompts", self.name)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Vocabulary({self.name!r})"

    def in_graph(self, graph: SceneGraph) -> Vocabulary:
        """The vocabulary a run in `graph` uses: the two-handed form where the graph's agent
        has two hands, else this one."""
        return self.two_hands if graph.hands == 2 and self.two_hands is not None else self

    def is_native(self, graph: SceneGraph) -> bool:
        """Whether `graph` is one of this vocabulary's own environment (`native_to`)."""
        return self.native_to is not None and self.native_to(graph)

    # -- what its actions say ---------------------------------------------------------

    @property
    def end_schema(self) -> ActionSchema:
        """The action that ends a plan (`done`): its parameterless plan ender. An
        UnsupportedError when it has none."""
        for schema in self.actions.values():
            if not schema.params and schema.ends_plan:
                return schema
        raise UnsupportedError(f"the vocabulary {self.name} has no action that ends a plan")

    @property
    def pose_moves(self) -> frozenset[str]:
        """The actions the path planner expands: those that go to one place that may be a
        pose (SayPlan's goto; none in a room-level vocabulary, whose go_to takes rooms only)."""
        return frozenset(
            name
            for name, schema in self.actions.items()
            if len(schema.params) == 1 and NodeKind.POSE in schema.params[0].kinds
        )

    @property
    def reaches_by_access(self) -> bool:
        """Whether its plans access an asset before acting on what is at it (SayPlan's,
        ALFWorld's go_to); LookPlanGraph's reach anything in the agent's room."""
        return any(schema.accesses for schema in self.actions.values())

    def places_at_accessed(self, action: Action) -> bool:
        """Whether the action puts the held object on whatever asset is accessed (SayPlan's
        release)."""
        schema = self.actions.get(action.name)
        return schema is not None and schema.places_at_accessed

    def givers(self, word: str) -> list[Giver]:
        """The actions whose effects set `word` on a node: read from the effects' own
        `words`, so an extension's action counts as well."""
        out = []
        for schema in self.actions.values():
            params = {p.name: p for p in schema.params}
            for eff in schema.effects:
                if word in get_effect(eff.op).words(eff.args) and eff.args[0] in params:
                    target = params[eff.args[0]]
                    helpers = tuple(
                        p for p in schema.params if p is not target and p.affordance is not None
                    )
                    out.append(Giver(self.name, schema.name, target, helpers))
        return out

    @property
    def runs_appliances(self) -> bool:
        """Whether an action lets appliances act (switching one on, putting something in or
        on one)."""
        return any(
            get_effect(e.op).runs_appliances
            for schema in self.actions.values()
            for e in schema.effects
        )

    def gives(self, helper: Node, obj: Node, word: str) -> bool:
        """Whether node `helper` can give `obj` the state word: as the helper of an action
        that sets the word on obj (a sink basin cleans what is held at it), or as an
        appliance whose function gives the word to obj's category."""
        if helper.id == obj.id:
            return False
        moved = split_word(word)
        if moved is not None:  # a substance: from a node that holds or gives it at the start
            relation, substance = moved
            return substance in supplied(helper.state) and any(
                relation in relations and _fits(obj, target) and _fits(helper, other)
                for target, other, relations in self._substance_uses("flow")
            )
        if self.runs_appliances and rules.appliance_gives(helper.category, word, obj.category):
            return True
        return any(
            _fits(obj, g.target) and any(_fits(helper, h) for h in g.helpers)
            for g in self.givers(word)
        )

    def takes_away(self, helper: Node, obj: Node, word: str) -> bool:
        """Whether node `helper` is a tool that can take the substance word off `obj` (a rag
        wipes dust off a table); False for any other word."""
        moved = split_word(word)
        return (
            moved is not None
            and helper.id != obj.id
            and any(
                moved[0] in relations and _fits(obj, target) and _fits(helper, tool)
                for target, tool, relations in self._substance_uses("removal")
            )
        )

    def _substance_uses(self, face: str) -> list[tuple[Param, Param, tuple[str, ...]]]:
        """(target, other, relations) of each use of a substance effect's `flow` or
        `removal` face in the actions: the params the effect's arguments name."""
        out = []
        for schema in self.actions.values():
            params = {p.name: p for p in schema.params}
            for eff in schema.effects:
                use = getattr(get_effect(eff.op), face)
                if use is None:
                    continue
                first, second, relations = use
                target, other = eff.args[first], eff.args[second]
                if target in params and other in params:
                    out.append((params[target], params[other], relations))
        return out


def _fits(node: Node, param: Param) -> bool:
    return node.kind in param.kinds and (
        param.affordance is None or param.affordance in node.affordances
    )
