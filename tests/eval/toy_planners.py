"""Tiny planners for the eval tests, importable by name (`toy_planners`) in a subprocess too.

They do what a real planner does through the base class (ask the model,
verify a plan, answer a search) with fixed or scripted behaviour, so the
runner, store, metrics and reports can be tested fast and exactly.
"""

from __future__ import annotations

import asyncio
import os
import signal

from pydantic import BaseModel

from sceneplan.planners.base import Planner, Run
from sceneplan.planners.episode import SearchTurn


class Answer(BaseModel):
    answer: list[str]


class AskingPlanner(Planner):
    """Asks the model once for an answer (search) or a plan (planning), then uses it."""

    name = "toy_asking"

    async def _run(self, run: Run) -> None:
        reply = await run.ask("plan", [{"role": "user", "content": run.instruction}], Answer)
        words = reply.parsed.answer if reply.parsed is not None else []
        if run.task is not None and run.task.is_search:
            run.episode.answer = words
            run.episode.explored = list(run.task.answer_rooms)
            return
        _execute(run, words)


class ReferencePlanner(Planner):
    """No LLM: answers from the task's answer set, plans its reference plan.

    With SCENEPLAN_TOY_DELAY set, sleeps that many seconds per task (for kill tests).
    """

    name = "toy_reference"
    needs_llm = False
    running = 0  # runs in progress now, and the most seen at once
    peak = 0

    async def _run(self, run: Run) -> None:
        ReferencePlanner.running += 1
        ReferencePlanner.peak = max(ReferencePlanner.peak, ReferencePlanner.running)
        try:
            await asyncio.sleep(float(os.environ.get("SCENEPLAN_TOY_DELAY", "0")))
        finally:
            ReferencePlanner.running -= 1
        task = run.task
        assert task is not None
        if task.is_search:
            rooms = [*task.answer_rooms, *task.must_explore]
            run.episode.answer = sorted(task.answers)[: task.needed]
            run.episode.explored = rooms
            for turn, room in enumerate(rooms, start=1):
                run.episode.search.append(
                    SearchTurn(turn, "expand", room, True, "", graph_tokens=100 * turn)
                )
            return
        _execute(run, list(task.reference_plan))


class BrokenPlanner(Planner):
    """Raises a plain bug (not a SceneplanError) on tasks whose id ends in '02'."""

    name = "toy_broken"
    needs_llm = False

    async def _run(self, run: Run) -> None:
        if run.episode.task_id and run.episode.task_id.endswith("02"):
            raise RuntimeError("planner bug")
        _execute(run, ["done"])


class InterruptingPlanner(ReferencePlanner):
    """Like ReferencePlanner, but the user presses Ctrl-C (SIGINT) after `budget` tasks."""

    name = "toy_interrupting"
    budget = 3

    async def _run(self, run: Run) -> None:
        InterruptingPlanner.budget -= 1
        if InterruptingPlanner.budget == -1:
            signal.raise_signal(signal.SIGINT)  # once, as a user would
        if InterruptingPlanner.budget < 0:
            await asyncio.sleep(10)  # cancelled by asyncio.run's Ctrl-C handling
        await super()._run(run)


def _execute(run: Run, plan: list[str]) -> None:
    run.episode.plan = plan
    full = run.navigator.expand_plan(plan)
    run.episode.full_plan = [str(a) for a in full]
    result = run.verify(full)
    run.episode.executable = result.ok
    run.episode.failure = result.failure.to_dict() if result.failure else None
    run.final_state = result.final_state


TOYS = {
    "toy_asking": "AskingPlanner",
    "toy_reference": "ReferencePlanner",
    "toy_broken": "BrokenPlanner",
    "toy_interrupting": "InterruptingPlanner",
}
