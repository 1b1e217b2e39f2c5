"""`sceneplan tasks`: list and show the task suites."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sceneplan.datasets.tasks import get_task, list_suites, load_suite, packaged_tasks

console = Console(highlight=False, soft_wrap=True)
tasks_app = typer.Typer(help="List and show task suites.", no_args_is_help=True)


@tasks_app.command("list")
def list_tasks(
    suite: Annotated[
        str | None, typer.Argument(help="A suite name or a task file; all suites if omitted.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the tasks of a suite (id, family, instruction)."""
    tasks = load_suite(suite) if suite else list(packaged_tasks())
    if as_json:
        print(
            json.dumps([t.model_dump(mode="json", exclude_defaults=True) for t in tasks], indent=2)
        )
        return
    table = Table(title=suite or f"all suites ({', '.join(list_suites())})")
    for column in ("id", "family", "env", "instruction"):
        table.add_column(column, overflow="fold")
    for task in tasks:
        table.add_row(task.id, task.family.value, task.environment, task.instruction)
    console.print(table)


@tasks_app.command("show")
def show_task(
    task_id: Annotated[str, typer.Argument(help="A task id, e.g. planning-simple-01.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one task: instruction, answer or goal, reference plan."""
    task = get_task(task_id)
    data = task.model_dump(mode="json", exclude_defaults=True)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    for key, value in data.items():
        if isinstance(value, list):
            value = " > ".join(value) if key == "reference_plan" else ", ".join(value)
        console.print(f"[bold]{key}:[/] ", end="")
        console.print(str(value), markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(tasks_app, name="tasks")
