"""The planner interface, the per-run context planners work through, and the registry.

Every planner implements `_run(run)`; the public `aplan`/`plan` set up the
run, time it, turn errors into a recorded Episode status, and check the
outcome (goal or answer) the same way for all planners. Planners take a
resolved task (or an instruction) and a scene graph: finding a packaged task
or an environment by name is `sceneplan.runs`'s job, above this layer.

Planners are found by name in `PLANNERS` (`sceneplan.plugins.Registry`): the
built-in ones, then those installed packages add through the
`sceneplan.planners` entry-point group (docs/extending.md).
"""

from __future__ import annotations

import asyncio
import functools
import time
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Concatenate,
    Generic,
    ParamSpec,
    Self,
    TypeVar,
)

from pydantic import BaseModel

from sceneplan.errors import (
    BadInputError,
    LLMError,
    LLMReplyError,
    SceneplanError,
    UnsupportedError,
)
from sceneplan.graph.model import SceneGraph
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, LLMCall, SimCall, Status
from sceneplan.planners.options import PlannerOptions
from sceneplan.planners.outcome import finish_episode
from sceneplan.planners.progress import OnEvent, PlanEvent
from sceneplan.planners.supports import Supports, kind_of
from sceneplan.plugins import GROUPS, Registry
from sceneplan.world.simulator import PlanLike, Simulator, Verification
from sceneplan.world.state import WorldState
from sceneplan.world.task import Task
from sceneplan.world.vocabularies import SAYPLAN, native_vocabulary
from sceneplan.world.vocabulary import Vocabulary

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient
    from sceneplan.llm.usage import Usage
    from sceneplan.perception import Perception

T = TypeVar("T", bound=BaseModel)
S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")


def blocking(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], R]:
    """The blocking face of an async method: the same arguments, run in `asyncio.run`."""

    @functools.wraps(method)
    def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return asyncio.run(method(self, *args, **kwargs))

    run.__name__ = run.__qualname__ = method.__name__.removeprefix("a")
    run.__doc__ = f"Blocking `{method.__name__}`.\n\n{method.__doc__}"
    return run


@dataclass(frozen=True)
class Reply(Generic[T]):
    """What `Run.ask` got: the call it recorded in the Episode, and the validated reply.

    `parsed` is None when the reply stayed unusable (it did not parse or
    validate even after the client's re-ask: `ok` is False and the call
    carries the error), or when no schema was asked for (read `text`).
    Planners note what they read from it in `call.command`.
    """

    call: LLMCall
    parsed: T | None = None

    @property
    def text(self) -> str:
        """The model's raw reply ('' when there was none)."""
        return self.call.reply

    @property
    def ok(self) -> bool:
        """Whether the reply was usable."""
        return self.call.error is None


@dataclass
class Run:
    """What one planner run works with, and the Episode it fills in."""

    episode: Episode
    graph: SceneGraph
    task: Task | None
    llm: LLMClient | None
    simulator: Simulator
    navigator: Navigator
    final_state: WorldState | None = None
    prior: SceneGraph | None = None  # the world as last mapped, before the task's world_script
    on_event: OnEvent | None = None  # the planner's: called with each PlanEvent of the run

    def emit(self, event: PlanEvent) -> None:
        """Report `event` to the run's `on_event` callback, if it has one."""
        if self.on_event is not None:
            self.on_event(event)

    @property
    def instruction(self) -> str:
        """The instruction being planned for (the task's, or the one given)."""
        return self.episode.instruction

    async def ask(
        self, stage: str, messages: list[dict[str, str]], schema: type[T] | None = None
    ) -> Reply[T]:
        """Ask the model (for a reply of `schema`); record the call and return it with the reply.

        A reply that does not parse or validate even after the client's re-ask
        is recorded with its error and comes back with `parsed` None, so the
        planner can turn it into feedback. Transport errors (server down,
        timeouts) propagate.
        """
        if self.llm is None:
            raise BadInputError(f"planner '{self.episode.planner}' needs an LLM (--llm MODEL)")
        try:
            response = await self.llm.acomplete(messages, schema=schema)
        except LLMReplyError as exc:
            call = _llm_call(stage, messages, exc.raw_reply or "", exc.usage, error=str(exc))
            self.episode.llm_calls.append(call)
            calls = self.episode.llm_calls
            if len(calls) >= UNUSABLE_CALLS and all(c.error for c in calls):
                raise LLMReplyError(
                    f"none of the model's replies could be used ({len(calls)} calls, each "
                    f"asked again once); the last: {exc}",
                    raw_reply=exc.raw_reply,
                    problems=exc.problems,
                ) from None
            return Reply(call)
        parsed = response.parsed
        dumped = parsed.model_dump(mode="json") if parsed is not None else None
        call = _llm_call(
            stage,
            messages,
            response.text,
            response.usage,
            parsed=dumped,
            cached=response.usage.cached,
        )
        self.episode.llm_calls.append(call)
        return Reply(call, parsed)

    def verify(self, plan: PlanLike, state: WorldState | None = None) -> Verification:
        """Verify a plan in the simulator and record the call and its feedback."""
        result = self.simulator.verify_plan(plan, state)
        failure = result.failure
        self.episode.sim_calls.append(
            SimCall(
                op="verify",
                target=" > ".join(str(a) for a in result.plan),
                ok=result.ok,
                feedback=result.feedback,
                cause=failure.cause.value if failure else None,
            )
        )
        return result

    def record_sim(
        self, op: str, target: str, ok: bool, feedback: str = "", cause: str | None = None
    ) -> None:
        """Record a view operation (expand/contract) or a single simulator step."""
        self.episode.sim_calls.append(SimCall(op, target, ok, feedback, cause))


def _llm_call(
    stage: str, messages: list[dict[str, str]], reply: str, usage: Usage | None, **fields: Any
) -> LLMCall:
    """The record of one call: its reply and what it took (`usage`: tokens, latency, cost,
    None when the model has no price, and structured mode; none known: zeros)."""
    return LLMCall(
        stage=stage,
        messages=messages,
        reply=reply,
        input_tokens=usage.input_tokens if usage else 0,
        output_tokens=usage.output_tokens if usage else 0,
        latency_s=usage.latency_s if usage else 0.0,
        cost_usd=usage.cost_usd if usage else 0.0,
        structured_mode=usage.structured_mode if usage else None,
        **fields,
    )


# A run whose first calls all came back unusable (each after its re-ask) ends as an error
# here, instead of spending its whole budget on a model or server that cannot answer.
UNUSABLE_CALLS = 3


class Planner(ABC):
    """A task planner. Subclasses set `name` and `vocabulary`, declare `Options` and
    implement `_run` (docs/architecture.md, "where to add a planner").

    `Planner(options, on_event=...)` or `Planner(max_steps=3, ...)`: options
    are validated against `Options` (a BadInputError names the bad one);
    `on_event` is called with each PlanEvent as the run goes on. A planner
    that observes the world partially looks through `perception`: a
    Perception object (a VLM with the user's camera, say), or a spec string,
    which sets the `perception` option. A subclass
    that defines `__init__` calls `super().__init__(...)`.
    """

    name: ClassVar[str]
    needs_llm: ClassVar[bool] = True
    # its runs spend their time computing, not waiting: `eval` runs them in processes
    cpu_bound: ClassVar[bool] = False
    # the action vocabulary it plans with, fully observing (an option may choose another:
    # `PlannerOptions.vocabulary`; on memory, LookPlanGraph's, which looks)
    vocabulary: ClassVar[Vocabulary] = SAYPLAN
    # in a scene with a vocabulary of its own (an ALFWorld room: `Vocabulary.native_to`) it
    # plans with that one, the scene's own actions
    scene_actions: ClassVar[bool] = False
    Options: ClassVar[type[PlannerOptions]] = PlannerOptions
    # the tasks it runs (kinds, vocabularies): `aplan` refuses others before `_run`, and
    # `eval` leaves them out before any run
    supports: ClassVar[Supports] = Supports()
    # the planner's algorithm on the robot's memory, for options that plan there
    # (`observing.PartialOptions`: observe=partial): a subclass whose `_run` is that
    # algorithm, assigned below it (`SayPlan.on_memory = SayPlanOnMemory`); None: `_run` is
    # the only one
    on_memory: ClassVar[type[Planner] | None] = None
    options: PlannerOptions

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "alfworld_actions" in vars(cls):  # the former name of `scene_actions`
            warnings.warn(
                f"planner class {cls.__qualname__} sets alfworld_actions, whose name is now "
                "scene_actions (plan with the scene's own actions): set scene_actions instead",
                DeprecationWarning,
                stacklevel=3,  # the class statement (under ABCMeta.__new__)
            )
            cls.scene_actions = bool(vars(cls)["alfworld_actions"])

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """A planner of this class, or of its `on_memory` class when the options (`__init__`'s
        arguments) plan on memory: `sayplan[observe=partial]` is SayPlan's algorithm on
        memory, under the same name. The options that choose are read here, once: `__init__`
        keeps them."""
        if cls.on_memory is None:
            return super().__new__(cls)
        kwargs.pop("on_event", None)  # a hook, not an option
        options = cls._read_options(*args, **kwargs)
        chosen = cls.on_memory if options.partial else cls
        if not issubclass(chosen, cls):  # a subclass that did not name its own
            raise UnsupportedError(
                f"planner '{cls.name}' has no algorithm on memory of its own: its on_memory "
                f"is {chosen.__name__}, not a subclass of {cls.__name__}"
            )
        planner = super().__new__(chosen)
        planner.options = options
        return planner

    def __init__(
        self,
        options: PlannerOptions | Mapping[str, Any] | None = None,
        *,
        on_event: OnEvent | None = None,
        perception: Perception | str | None = None,
        **values: Any,
    ) -> None:
        if "options" not in vars(self):  # else `__new__` read them to choose the class
            self.options = self._read_options(options, perception=perception, **values)
        self.on_event = on_event
        self.perception = None if isinstance(perception, str) else perception

    @classmethod
    def _read_options(
        cls,
        options: PlannerOptions | Mapping[str, Any] | None = None,
        *,
        perception: Perception | str | None = None,
        **values: Any,
    ) -> PlannerOptions:
        """The options `__init__`'s arguments give, validated against `Options` (a
        BadInputError names the bad one); a `perception` spec string is an option."""
        given = options.model_dump() if isinstance(options, BaseModel) else dict(options or {})
        if isinstance(perception, str):
            values["perception"] = perception
        return cls.Options.build(cls.name, {**given, **values})

    async def aplan(
        self,
        target: Task | str,
        graph: SceneGraph,
        llm: LLMClient | None = None,
        *,
        prior: SceneGraph | None = None,
    ) -> Episode:
        """Plan for a task or an instruction in `graph`; always returns an Episode.

        `graph` is the world at the start: for a task, its environment with the
        task's `initial` facts and `world_script` applied; `prior` is the world
        before the world script, where a partially observing run's memory
        starts (default: `graph`). `sceneplan.runs.resolve` makes both from
        names (an instruction that is exactly a packaged task's becomes that
        task); `sceneplan.runs.plan`/`aplan` resolve and plan in one call.
        Errors a user can cause (server down, unusable replies, bad input) end
        the run with Status.ERROR and the message, keeping everything recorded.
        """
        if not isinstance(graph, SceneGraph):
            raise BadInputError(
                f"planner '{self.name}' plans in a SceneGraph, not {graph!r}; to name an "
                "environment, use sceneplan.runs.plan(planner, instruction, env, llm)"
            )
        if self.needs_llm and llm is None:
            raise BadInputError(f"planner '{self.name}' needs an LLM: pass --llm PROVIDER:MODEL")
        task = target if isinstance(target, Task) else None
        episode = Episode(
            planner=self.name,
            model=llm.model if llm is not None else "none",
            environment=graph.name or (task.environment if task else "graph"),
            instruction=task.instruction if task else str(target),
            task_id=task.id if task else None,
            family=task.family.value if task else None,
            goal=task.goal if task else None,
            options=self.options.changed(),
        )
        vocabulary = self.vocabulary_for(graph)
        run = Run(
            episode,
            graph,
            task,
            llm,
            Simulator(graph, vocabulary),
            Navigator(graph, vocabulary),
            prior=prior,
            on_event=self.on_event,
        )
        started = time.perf_counter()
        try:
            refused = self.refusal(task, episode.instruction, graph)
            if refused is not None:
                raise UnsupportedError(f"cannot run '{episode.instruction}': {refused}")
            await self._run(run)
        except (LLMError, SceneplanError) as exc:
            episode.status, episode.error = Status.ERROR, str(exc)
        finally:
            episode.wall_time_s = time.perf_counter() - started
        finish_episode(episode, task, graph, run.final_state, run.simulator.vocabulary)
        return episode

    plan = blocking(aplan)

    @property
    def actions(self) -> Vocabulary:
        """The action vocabulary these options plan with, before the world adapts it: the
        declared `vocabulary`, or the one an option chooses (`PlannerOptions.vocabulary`)."""
        return self.options.vocabulary(self.vocabulary)

    def vocabulary_for(self, graph: SceneGraph) -> Vocabulary:
        """The action vocabulary of a run in `graph`, resolved once: `actions`, or for a
        planner declared with `scene_actions` the scene's own (ALFWorld's in an ALFWorld
        room), in its two-handed form where the graph's agent has two hands."""
        native = native_vocabulary(graph) if self.scene_actions else None
        return (native or self.actions).in_graph(graph)

    def refusal(
        self, task: Task | None, instruction: str, graph: SceneGraph | None = None
    ) -> str | None:
        """Why this planner cannot run `task` (or a bare `instruction`) in `graph`, by what it
        `supports`; None when it can. Without a graph, the vocabulary is not checked. The
        reason holds for every task of its kind, and names the planners that run that kind."""
        kind = kind_of(task, instruction)
        checked = graph is not None and self.supports.vocabularies is not None
        vocabulary = self.vocabulary_for(graph) if checked and graph is not None else None
        reason = self.supports.refusal(self.name, kind, vocabulary)
        if reason is not None and kind not in self.supports.tasks:
            others = [n for n in PLANNERS.builtins if kind in PLANNERS.load(n).supports.tasks]
            reason += f"; planners that do: {', '.join(others)}"
        return reason

    @abstractmethod
    async def _run(self, run: Run) -> None:
        """Fill in `run.episode` (plans, search, answer) and set `run.final_state`."""


# -- the registry ---------------------------------------------------------------------

# The built-in planners, imported only when asked for; plugins add more (docs/extending.md).
PLANNERS: Registry[type[Planner]] = Registry(
    "planner",
    GROUPS["planners"],
    {
        "llm_as_planner": "sceneplan.planners.baselines:LLMAsPlanner",
        "llm_plus_p": "sceneplan.planners.baselines:LLMPlusP",
        "lookplangraph": "sceneplan.planners.lookplangraph:LookPlanGraph",
        "oracle": "sceneplan.planners.oracle:Oracle",
        "react": "sceneplan.planners.react:React",
        "react_pv": "sceneplan.planners.react:ReactPV",
        "sayplan": "sceneplan.planners.sayplan:SayPlan",
        "sayplan_lite": "sceneplan.planners.sayplan_lite:SayPlanLite",
        "sclplan": "sceneplan.planners.sclplan:SCLPlan",
    },
    base=Planner,
    named=True,
)


def planner_names() -> list[str]:
    """Every planner: the built-in ones, then those installed packages add, each sorted."""
    return PLANNERS.names()


def planner_class(name: str) -> type[Planner]:
    """The class of a planner by name; an unknown name gets the closest and every name."""
    return PLANNERS.load(name)


def get_planner(
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    on_event: OnEvent | None = None,
    **values: Any,
) -> Planner:
    """A planner by name, with its options validated (`options` and keywords, text or typed).

    >>> get_planner("sclplan", timeout="5").options.timeout
    5.0
    """
    return planner_class(name)(options, on_event=on_event, **values)
