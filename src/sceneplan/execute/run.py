"""Plan a task, then execute the plan on a robot: what `sceneplan execute` and eval run.

>>> import asyncio
>>> from sceneplan.datasets.tasks import get_task
>>> from sceneplan.planners import get_planner
>>> task = get_task("planning-simple-02")
>>> episode = asyncio.run(execute(get_planner("oracle"), task, faults="grasp:0.5", seed=3))
>>> episode.status.value, episode.execute.closed_loop
('success', True)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sceneplan.errors import BadInputError
from sceneplan.execute.executor import DEFAULT_SETTINGS, ExecutionSettings, Executor
from sceneplan.execute.faults import Faults
from sceneplan.execute.http import HttpRobot
from sceneplan.execute.replan import make_replanner
from sceneplan.execute.robot import Robot
from sceneplan.execute.sim import SimulatedRobot
from sceneplan.execute.trace import robot_record
from sceneplan.graph.model import SceneGraph
from sceneplan.planners.base import Planner
from sceneplan.planners.episode import Episode
from sceneplan.runs import Setup, resolve
from sceneplan.world.actions import parse_plan
from sceneplan.world.task import Task

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient


def get_robot(
    spec: str | Robot,
    graph: SceneGraph,
    faults: Faults | str | None = None,
    seed: int = 0,
    stream: str = "",
    known: SceneGraph | None = None,
) -> Robot:
    """A robot: `sim` (a SimulatedRobot in the true world `graph` with `faults`, drawing
    from `seed` and `stream`; `known` is the map the executor starts from), or a robot
    server's http(s) URL."""
    if isinstance(spec, Robot):
        return spec
    text = check_robot(spec)
    faults = faults if isinstance(faults, Faults) else Faults.parse(faults)
    if text == "sim":
        return SimulatedRobot(graph, faults, seed, stream=stream, known=known)
    if faults.any:
        raise BadInputError("--faults is for the simulated robot (--robot sim) only")
    return HttpRobot(text)


def check_robot(spec: str) -> str:
    """A robot spec as `get_robot` takes it (`sim` or an http(s) URL), or BadInputError.

    >>> check_robot(" sim ")
    'sim'
    """
    text = spec.strip()
    if text == "sim" or text.startswith(("http://", "https://")):
        return text
    raise BadInputError(
        f"unknown robot {spec!r}: give 'sim' or a robot server's URL, e.g. http://127.0.0.1:8765"
    )


async def execute(
    planner: Planner,
    target: Task | str,
    env: SceneGraph | str | Path | None = None,
    llm: LLMClient | None = None,
    *,
    robot: str | Robot = "sim",
    faults: Faults | str | None = None,
    seed: int = 0,
    settings: ExecutionSettings = DEFAULT_SETTINGS,
    **changes: Any,
) -> Episode:
    """Plan for `target` with `planner`, then run the plan on `robot`; the Episode of both.

    The executor runs as `settings` says, with the keyword `changes` made
    (`closed_loop=False`, `search="nearest"`...; one that names no setting is a TypeError).

    Where the task has a prior (a `world_script` moved things after the robot
    last mapped the building), the planner plans and the executor keeps its
    belief on that map, `believed(setup)`, and the robot acts in the true
    world; otherwise both start from the start graph. A plan that is not
    executable is not sent: the planner's Episode comes back as it is, with
    `execute.skipped` saying why.
    """
    chosen = replace(settings, **changes)
    setup = resolve(target, env)
    made = get_robot(robot, setup.graph, faults, seed, stream_of(setup), believed(setup))
    make_replanner(chosen.replan, planner, setup.target, llm)  # a bad choice stops here
    episode = await plan_on_memory(planner, setup, llm)
    return await run_plan(episode, setup, made, planner, llm, settings=chosen)


def believed(setup: Setup) -> SceneGraph:
    """The map the robot plans and keeps its belief on: the world as it last mapped it
    (the prior, before the task's world script) where there is one, else the start graph."""
    return setup.prior if setup.prior is not None else setup.graph


async def plan_on_memory(planner: Planner, setup: Setup, llm: LLMClient | None) -> Episode:
    """Plan as the robot can: a fully observing planner on what the robot remembers
    (`believed`); a partially observing one (it looks as it plans) with its memory on
    the prior and its looks in the true world, as `sceneplan plan` runs it."""
    if observes_partially(planner):
        return await planner.aplan(setup.target, setup.graph, llm, prior=setup.prior)
    return await planner.aplan(setup.target, believed(setup), llm)


def observes_partially(planner: Planner) -> bool:
    """Whether the planner plans on a memory it fills by looking (LookPlanGraph,
    `observe=partial`) rather than on a graph it is given whole."""
    return planner.options.partial


def stream_of(setup: Setup) -> str:
    """The simulated robot's stream of draws for a run: the task's id, or the instruction."""
    return setup.task.id if setup.task is not None else str(setup.target)


async def run_plan(
    episode: Episode,
    setup: Setup,
    robot: Robot,
    planner: Planner,
    llm: LLMClient | None = None,
    *,
    settings: ExecutionSettings = DEFAULT_SETTINGS,
) -> Episode:
    """Execute the plan of a planner's `episode` (made from `setup`) on `robot`, in `episode`:
    the executor's belief starts from `believed(setup)`, and it runs as `settings` say."""
    if not episode.executable:
        verdict = episode.sim_calls[-1].feedback if episode.plan and episode.sim_calls else ""
        why = verdict or episode.error or "it made none"
        episode.execute = robot_record(robot)
        episode.execute.skipped = (
            f"the planner's plan is not executable ({why}): nothing was sent to the robot"
        )
        return episode
    replanner = make_replanner(
        settings.replan, planner, setup.target, llm, timeout=settings.replan_timeout
    )
    plan = parse_plan(episode.full_plan or episode.plan)
    executor = Executor(
        robot,
        believed(setup),
        goal=setup.task.goal if setup.task is not None else None,
        replanner=replanner,
        vocabulary=planner.actions,
        closed_loop=settings.closed_loop,
        max_replans=settings.max_replans,
        search=settings.search,
        llm=llm,  # ranks the rooms of a search (a planner with an LLM passes one)
    )
    try:
        return await executor.run(plan, episode)
    finally:
        await robot.aclose()
