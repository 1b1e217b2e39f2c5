"""What `plan` and `execute` run: the task `--task` (in `--tasks FILE`) names, or the instruction.

One rule for both commands: a task and an instruction together are accepted
only when the instruction is the task's own (white space aside).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sceneplan.datasets.tasks import Task
from sceneplan.errors import BadInputError
from sceneplan.runs import pick_task

# The argument and options that name a target, the same in both commands.
InstructionArg = Annotated[
    str | None, typer.Argument(help="What the robot should do; leave it out with --task.")
]
EnvOpt = Annotated[
    str | None,
    typer.Option("--env", "-e", help="Packaged environment or graph file (default: the task's)."),
]
TaskOpt = Annotated[
    str | None,
    typer.Option("--task", "-t", help="A task id (packaged, or of --tasks): its goal is checked."),
]
TasksOpt = Annotated[
    Path | None,
    typer.Option("--tasks", metavar="FILE", help="Your own task file (--task picks one)."),
]


def target(
    instruction: str | None,
    task_id: str | None,
    env: str | None,
    tasks: Path | None = None,
    *,
    goal_needed: bool = False,
) -> Task | str:
    """The task named by --task (in --tasks FILE when given), or the instruction (which may
    still match a packaged task). With `goal_needed`, a search task (no goal) is refused."""
    task = pick_task(task_id, tasks)
    if task is None:
        if not instruction:
            raise BadInputError("give an INSTRUCTION, or a task with --task ID (or --tasks FILE)")
        return instruction
    if goal_needed and task.goal is None:
        raise BadInputError(
            f"task '{task.id}' is a search task: it asks where something is, and has no goal "
            f"for a robot to reach; plan it with `sceneplan plan --task {task.id}`"
        )
    if instruction and " ".join(instruction.split()) != " ".join(task.instruction.split()):
        raise BadInputError(
            f"task {task.id} is '{task.instruction}', not the instruction given; "
            "give the instruction or --task, not both"
        )
    if env is not None and env != task.environment:
        raise BadInputError(
            f"task {task.id} is set in '{task.environment}', not '{env}'; leave out --env"
        )
    return task
