"""Plan a task, then execute the plan on a robot: what `sceneplan execute` and eval run.

>>> import asyncio
>>> from sceneplan.datasets.tasks import get_task
>>> from sceneplan.planners import get_planner
>>> task = get_task("planning-simple-02")
>>> episode = asyncio.run(execute(get_planner("oracle"), task, faults="grasp:0.5", seed=3))
>>> episode.status.value, episode.extra["execute"]["closed_loop"]
('success', True)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sceneplan.errors import BadInputError
from sceneplan.execute.executor import MAX_REPLANS, Executor
from sceneplan.execute.faults import Faults
from sceneplan.execute.http import HttpRobot
from sceneplan.execute.replan import TIMEOUT_S, make_replanner
from sceneplan.execute.robot import Robot
from sceneplan.execute.sim import SimulatedRobot
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
) -> Robot:
    """A robot: `sim` (a SimulatedRobot in `graph` with `faults`, drawing from `seed` and
    `stream`), or a robot server's http(s) URL."""
    if isinstance(spec, Robot):
        return spec
    text = check_robot(spec)
    faults = faults if isinstance(faults, Faults) else Faults.parse(faults)
    if text == "sim":
        return SimulatedRobot(graph, faults, seed, stream=stream)
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
    closed_loop: bool = True,
    replan: str = "auto",
    max_replans: int = MAX_REPLANS,
    replan_timeout: float = TIMEOUT_S,
) -> Episode:
    """Plan for `target` with `planner`, then run the plan on `robot`; the Episode of both.

    The planner plans on the start graph (as for `sceneplan plan`); its plan,
    when executable, goes to the robot, which starts in the same world. A plan
    that is not executable is not sent: the planner's Episode comes back as
    it is, with `extra["execute"]["skipped"]` saying why.
    """
    setup = resolve(target, env)
    made = get_robot(robot, setup.graph, faults, seed, stream_of(setup))
    make_replanner(replan, planner, setup.target, llm)  # a bad choice stops here
    episode = await planner.aplan(setup.target, setup.graph, llm, prior=setup.prior)
    return await run_plan(
        episode,
        setup,
        made,
        planner,
        llm,
        closed_loop=closed_loop,
        replan=replan,
        max_replans=max_replans,
        replan_timeout=replan_timeout,
    )


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
    closed_loop: bool = True,
    replan: str = "auto",
    max_replans: int = MAX_REPLANS,
    replan_timeout: float = TIMEOUT_S,
) -> Episode:
    """Execute the plan of a planner's `episode` (made from `setup`) on `robot`, in `episode`."""
    if not episode.executable:
        episode.extra["execute"] = {
            **robot.describe(),
            "skipped": "the planner's plan is not executable: nothing was sent to the robot",
        }
        return episode
    replanner = make_replanner(replan, planner, setup.target, llm, timeout=replan_timeout)
    plan = parse_plan(episode.full_plan or episode.plan)
    executor = Executor(
        robot,
        setup.graph,
        goal=setup.task.goal if setup.task is not None else None,
        replanner=replanner,
        vocabulary=planner.vocabulary,
        closed_loop=closed_loop,
        max_replans=max_replans,
    )
    try:
        return await executor.run(plan, episode)
    finally:
        await robot.aclose()
