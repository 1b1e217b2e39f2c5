"""`sceneplan tasks`: list and show the task suites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sceneplan.cli.common import console
from sceneplan.datasets.tasks import (
    check_task_file,
    get_task,
    list_suites,
    load_suite,
    packaged_tasks,
    task_problems,
)
from sceneplan.errors import BadInputError

tasks_app = typer.Typer(help="List and show task suites.", no_args_is_help=True)


@tasks_app.command("list")
def list_tasks(
    suite: Annotated[
        str | None, typer.Argument(help="A suite name or a task file; all suites if omitted.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the tasks of a suite (id, family, instruction)."""
    from rich.table import Table  # only the table needs it (not `tasks show`)

    tasks = load_suite(suite) if suite else list(packaged_tasks())
    if as_json:
        print(json.dumps([t.to_dict(defaults=False) for t in tasks], indent=2))
        return
    table = Table(title=suite or f"all suites ({', '.join(list_suites())})")
    for column in ("id", "family", "env", "instruction"):
        table.add_column(column, overflow="fold")
    for task in tasks:
        table.add_row(task.id, task.family.value, task.environment, task.instruction)
    console().print(table)


@tasks_app.command("show")
def show_task(
    task_id: Annotated[str, typer.Argument(help="A task id, e.g. planning-simple-01.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one task: instruction, answer or goal, reference plan."""
    task = get_task(task_id)
    data = task.to_dict(defaults=False)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    for key, value in data.items():
        if isinstance(value, list):
            value = " > ".join(value) if key == "reference_plan" else ", ".join(value)
        console().print(f"[bold]{key}:[/] ", end="")
        console().print(str(value), markup=False)


@tasks_app.command("check")
def check_tasks(
    source: Annotated[str, typer.Argument(help="A task file (or a packaged suite name).")],
) -> None:
    """Check a task file: every field, and each task against its environment.

    Lists every problem at once (exit 2): fields that do not validate, an
    environment that does not load, goals and initial facts that do not parse
    or name unknown nodes, reference plans naming unknown nodes, search answers
    and rooms the graph does not hold.
    """
    if Path(source).is_file():
        tasks, problems = check_task_file(source)
    else:
        tasks = load_suite(source)  # a packaged suite, or a message naming the suites
        graphs: dict = {}
        problems = [p for task in tasks for p in task_problems(task, graphs)]
    if problems:
        raise BadInputError(
            f"{source}: {len(problems)} problem(s)\n" + "\n".join(f"  - {p}" for p in problems)
        )
    console().print(f"{source}: {len(tasks)} task(s), no problems", markup=False)


@tasks_app.command("stats")
def suite_stats_command(
    suites: Annotated[
        list[str] | None,
        typer.Argument(help="Suite names or task files; all packaged suites if omitted."),
    ] = None,
) -> None:
    """Per suite: tasks, and rooms, nodes and reference-plan actions per task (LookPlanGraph
    Table 1), beside the paper's figures."""
    from sceneplan.datasets.stats import suite_stats
    from sceneplan.eval.report import datasets_table

    rows = [{"suite": s, **suite_stats(load_suite(s))} for s in suites or list_suites()]
    print(datasets_table(rows))


def register(app: typer.Typer) -> None:
    app.add_typer(tasks_app, name="tasks")
