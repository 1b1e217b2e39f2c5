"""The planner interface, the per-run context planners work through, and the registry.

Every planner implements `_run(run)`; the public `aplan`/`plan` resolve the
task and environment, time the run, turn errors into a recorded Episode
status, and check the outcome (goal or answer) the same way for all planners.
"""

from __future__ import annotations

import asyncio
import importlib
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sceneplan.datasets.registry import load_environment
from sceneplan.datasets.tasks import Task, find_task
from sceneplan.errors import BadInputError, LLMError, LLMReplyError, SceneplanError
from sceneplan.graph.model import SceneGraph
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, LLMCall, SimCall, Status
from sceneplan.planners.outcome import finish_episode
from sceneplan.world.setup import with_facts
from sceneplan.world.simulator import PlanLike, Simulator, Verification
from sceneplan.world.state import WorldState

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sceneplan.llm import LLMClient, Response


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

    @property
    def instruction(self) -> str:
        return self.episode.instruction

    async def ask(
        self, stage: str, messages: list[dict[str, str]], schema: type[BaseModel] | None = None
    ) -> Response | None:
        """Ask the model and record the call; None when its reply stayed unusable.

        A reply that does not parse or validate even after the client's re-ask
        is recorded with its error and returns None, so the planner can turn it
        into feedback. Transport errors (server down, timeouts) propagate.
        """
        if self.llm is None:
            raise BadInputError(f"planner '{self.episode.planner}' needs an LLM (--llm MODEL)")
        try:
            response = await self.llm.acomplete(messages, schema=schema)
        except LLMReplyError as exc:
            usage = exc.usage
            self.episode.llm_calls.append(
                LLMCall(
                    stage=stage,
                    messages=messages,
                    reply=exc.raw_reply or "",
                    error=str(exc),
                    input_tokens=usage.input_tokens if usage else 0,
                    output_tokens=usage.output_tokens if usage else 0,
                    latency_s=usage.latency_s if usage else 0.0,
                    cost_usd=(usage.cost_usd or 0.0) if usage else 0.0,
                )
            )
            return None
        usage = response.usage
        parsed = response.parsed.model_dump(mode="json") if response.parsed is not None else None
        self.episode.llm_calls.append(
            LLMCall(
                stage=stage,
                messages=messages,
                reply=response.text,
                parsed=parsed,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                latency_s=usage.latency_s,
                cost_usd=usage.cost_usd or 0.0,
                cached=usage.cached,
            )
        )
        return response

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


class Planner(ABC):
    """A task planner. Subclasses set `name` and implement `_run`."""

    name: ClassVar[str]
    needs_llm: ClassVar[bool] = True
    vocabulary: ClassVar[str] = "sayplan"

    def plan(
        self, target: Task | str, env: SceneGraph | str | None = None, llm: LLMClient | None = None
    ) -> Episode:
        """Blocking `aplan`."""
        return asyncio.run(self.aplan(target, env, llm))

    async def aplan(
        self, target: Task | str, env: SceneGraph | str | None = None, llm: LLMClient | None = None
    ) -> Episode:
        """Plan for a task or an instruction in an environment; always returns an Episode.

        An instruction that is exactly a packaged task's is checked as that task.
        Errors a user can cause (server down, unusable replies, bad input) end
        the run with Status.ERROR and the message, keeping everything recorded.
        """
        if self.needs_llm and llm is None:
            raise BadInputError(f"planner '{self.name}' needs an LLM: pass --llm PROVIDER:MODEL")
        task = target if isinstance(target, Task) else None
        env_name = env if isinstance(env, str) else (env.name if env is not None else None)
        if task is None:
            task = find_task(str(target), env_name)
        if env is None:
            if task is None:
                raise BadInputError("an instruction needs an environment (--env NAME_OR_FILE)")
            env = task.environment
        graph = load_environment(env) if isinstance(env, str) else env
        if task is not None and task.initial:
            graph = with_facts(graph, task.initial)
        episode = Episode(
            planner=self.name,
            model=llm.model if llm is not None else "none",
            environment=graph.name or str(env),
            instruction=task.instruction if task else str(target),
            task_id=task.id if task else None,
            family=task.family.value if task else None,
            goal=task.goal if task else None,
        )
        run = Run(episode, graph, task, llm, Simulator(graph, self.vocabulary), Navigator(graph))
        started = time.perf_counter()
        try:
            await self._run(run)
        except (LLMError, SceneplanError) as exc:
            episode.status, episode.error = Status.ERROR, str(exc)
        finally:
            episode.wall_time_s = time.perf_counter() - started
        finish_episode(run)
        return episode

    @abstractmethod
    async def _run(self, run: Run) -> None:
        """Fill in `run.episode` (plans, search, answer) and set `run.final_state`."""


# name -> (module, class); imported only when asked for.
PLANNERS: dict[str, tuple[str, str]] = {}


def register_planner(name: str, module: str, cls: str) -> None:
    """Make a planner available by name."""
    PLANNERS[name] = (module, cls)


def get_planner(name: str, **options: Any) -> Planner:
    """A planner instance by name; unknown names list the known ones."""
    try:
        module, cls = PLANNERS[name]
    except KeyError:
        raise BadInputError(
            f"unknown planner '{name}'; choose one of: {', '.join(sorted(PLANNERS))}"
        ) from None
    return getattr(importlib.import_module(module), cls)(**options)
