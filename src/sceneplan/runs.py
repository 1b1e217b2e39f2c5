"""From names to what planners take: a task (or instruction) and the scene graph it starts in.

Planners work on a resolved `Task` (or a bare instruction) and a `SceneGraph`;
they know nothing of packaged suites or environment names. This module, above
both `planners` and `datasets`, does the resolving for the CLI, the benchmark
runner and library users:

- an instruction that is exactly a packaged task's becomes that task, so its
  goal or answer set is checked;
- an environment name (packaged, or from a plugin) or a graph file becomes
  the graph; without one, a task's own environment is used;
- a task's `initial` facts are applied to the graph, then its `world_script`
  (what moved after the robot last mapped the building): the graph is the
  true world, and `prior` the world as the robot last mapped it.

>>> setup = resolve("Find me a bottle of wine.", "home")
>>> setup.task.id, setup.graph.name
('home-simple-02', 'home')

To plan in one call, `plan(get_planner("sayplan"), "Find me a bottle of wine.",
"home", llm)` (or the planner's name, with options as keywords).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sceneplan.datasets.registry import load_environment
from sceneplan.datasets.tasks import find_task, get_task, load_task_file
from sceneplan.errors import BadInputError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.setup import with_facts
from sceneplan.world.task import Task

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient
    from sceneplan.planners.base import Planner
    from sceneplan.planners.episode import Episode

__all__ = ["Setup", "aplan", "pick_task", "plan", "resolve"]


@dataclass(frozen=True)
class Setup:
    """What a planner is given: the task (or the instruction) and the graph it starts in.

    `prior` is the world before the task's `world_script` (None without one):
    where a partially observing robot's memory starts from.
    """

    target: Task | str
    graph: SceneGraph
    prior: SceneGraph | None = None

    @property
    def task(self) -> Task | None:
        return self.target if isinstance(self.target, Task) else None


def resolve(target: Task | str, env: SceneGraph | str | Path | None = None) -> Setup:
    """The task and the start graph for a task or an instruction, and an environment.

    `env` is a graph, a packaged or plugin environment name, or a graph file;
    it may be left out for a task (its own environment is used). The graph
    returned is a new one when the task has `initial` facts; `env` is never
    changed.
    """
    name = str(env) if isinstance(env, str | Path) else (env.name if env is not None else None)
    task = target if isinstance(target, Task) else find_task(target, name)
    if env is None:
        if task is None:
            raise BadInputError("an instruction needs an environment (--env NAME_OR_FILE)")
        env = task.environment
    if isinstance(env, SceneGraph):
        graph = env
    else:
        graph = load_environment(env)
        graph.name = graph.name or str(env)
    if task is not None and task.initial:
        graph = with_facts(graph, task.initial)
    prior = None
    if task is not None and task.world_script:
        prior, graph = graph, with_facts(graph, task.world_script)
    return Setup(task if task is not None else target, graph, prior)


def pick_task(task_id: str | None, tasks_file: str | Path | None = None) -> Task | None:
    """The task `--task ID` names: in the user's task file `tasks_file` when one is given
    (its only task when it holds one and no id is given), else a packaged one; None when
    neither is given."""
    if tasks_file is None:
        return get_task(task_id) if task_id is not None else None
    tasks = load_task_file(tasks_file)
    if task_id is None:
        if len(tasks) == 1:
            return tasks[0]
        raise BadInputError(
            f"{tasks_file} holds {len(tasks)} tasks; pick one with --task ID (ids: "
            + ", ".join(t.id for t in tasks[:8])
            + (", ..." if len(tasks) > 8 else "")
            + ")"
        )
    for task in tasks:
        if task.id == task_id:
            return task
    raise BadInputError(
        f"no task '{task_id}' in {tasks_file}; its ids: "
        + ", ".join(t.id for t in tasks[:8])
        + (", ..." if len(tasks) > 8 else "")
    )


async def aplan(
    planner: Planner | str,
    target: Task | str,
    env: SceneGraph | str | Path | None = None,
    llm: LLMClient | None = None,
    **options: Any,
) -> Episode:
    """Resolve `target` and `env`, then plan: `Planner.aplan` for names.

    `planner` is a Planner, or a planner's name with its `options` as keywords.
    """
    if isinstance(planner, str):
        from sceneplan.planners.base import get_planner  # resolving alone needs no planner

        planner = get_planner(planner, options)
    elif options:
        raise BadInputError("give options to get_planner(), or the planner's name here")
    setup = resolve(target, env)
    return await planner.aplan(setup.target, setup.graph, llm, prior=setup.prior)


def plan(
    planner: Planner | str,
    target: Task | str,
    env: SceneGraph | str | Path | None = None,
    llm: LLMClient | None = None,
    **options: Any,
) -> Episode:
    """Blocking `aplan`."""
    import asyncio  # only a run needs the event loop, not resolving

    return asyncio.run(aplan(planner, target, env, llm, **options))
