"""`sceneplan pddl`: export the domain and a problem as PDDL files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sceneplan.cli.common import console
from sceneplan.cli.paths import ForceOpt, check_output_files
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError
from sceneplan.graph.model import SceneGraph
from sceneplan.runs import resolve
from sceneplan.textinput import write_files

# Written above the goal of a problem exported without --goal or --task.
NO_GOAL_COMMENT = (
    "No goal was given (--goal or --task): the goal (and) is true in every state,",
    "so this problem only checks that a plan is executable.",
)


# The scene, task and goal of the commands that plan to a goal (`pddl`, `solve`): see planning_start
SceneArg = Annotated[str, typer.Argument(help="A packaged environment name or a graph file.")]
GoalOpt = Annotated[str | None, typer.Option("--goal", help="A goal formula.")]
GoalTaskOpt = Annotated[
    str | None, typer.Option("--task", help="Use this task's goal and start state.")
]


def planning_start(
    env: str, task_id: str | None, goal: str | None, required: bool
) -> tuple[SceneGraph, str | None]:
    """The graph to plan in and the goal text, from `--task` or `--goal` (at most one).

    With a task, the graph is the task's start state (`sceneplan.runs.resolve`:
    its `initial` facts applied); with a bare goal, the environment as stored.
    """
    if task_id and goal:
        raise BadInputError("give --task or --goal, not both")
    if task_id:
        task = get_task(task_id)
        if task.goal is None:
            raise BadInputError(f"task '{task_id}' is a search task: it has no goal to plan for")
        return resolve(task, env).graph, task.goal
    if required and not goal:
        raise BadInputError("give a goal: --goal 'closed(fridge)' or --task TASK_ID")
    return load_environment(env), goal


def pddl(
    env: SceneArg,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Folder for domain.pddl and problem.pddl (created if missing; "
            "files of those names in it are replaced only with --force).",
        ),
    ],
    task: GoalTaskOpt = None,
    goal: GoalOpt = None,
    focus: Annotated[
        bool,
        typer.Option(
            "--focus",
            help="Write the focused problem the solver plans on: the nodes the goal needs, "
            "with a direct move between any two of its places.",
        ),
    ] = False,
    force: ForceOpt = False,
) -> None:
    """Write the scene's domain and a problem (the scene, its state, a goal) as PDDL.

    Without --goal or --task the problem's goal is the empty (and), true in
    every state: a problem for checking that a plan is executable. The file
    says so in a comment above the goal, and so does the command.

    With --focus (a goal is needed) the problem is the one `sceneplan solve`
    plans on first: only the nodes the goal needs, and a move from any of its
    places to any other (a plan's moves are then expanded to the poses
    between them, as `sceneplan solve` does).
    """
    # imported here: `solve` and `plan` import this module for `planning_start` alone
    from sceneplan.symbolic.pddl import FILE_NAMES as PDDL_FILES
    from sceneplan.symbolic.pddl import export_pddl, focused_problem

    check_output_files(out, PDDL_FILES, "the PDDL folder", force=force)
    graph, goal_text = planning_start(env, task, goal, required=focus)
    if focus:
        assert goal_text is not None
        files = focused_problem(graph, goal_text)
    else:
        comment = NO_GOAL_COMMENT if goal_text is None else ()
        files = export_pddl(graph, goal_text, goal_comment=comment)
    domain_path, problem_path = out / PDDL_FILES[0], out / PDDL_FILES[1]
    write_files({domain_path: files.domain, problem_path: files.problem}, "the PDDL file")
    console().print(f"wrote {domain_path} and {problem_path}" + (" (focused)" if focus else ""))
    if goal_text is None:
        console().print(
            "note: no --goal or --task, so the problem's goal is (and), true in every state: "
            "it checks only that a plan is executable"
        )


def register(app: typer.Typer) -> None:
    app.command("pddl")(pddl)
