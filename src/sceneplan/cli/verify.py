"""`sceneplan verify`: check a plan in the scene-graph simulator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError
from sceneplan.nav import Navigator
from sceneplan.world import Simulator, parse_plan

console = Console(highlight=False, soft_wrap=True)


def read_plan_argument(plan: str) -> str | list:
    """A plan given on the command line: a path to a file (JSON list or text) or the plan."""
    path = Path(plan)
    if "(" in plan or not path.is_file():
        return plan
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{path}: not a valid JSON list of actions ({exc.msg})") from None
    return text


def verify(
    env: Annotated[str, typer.Argument(help="A packaged environment name or a graph file.")],
    plan: Annotated[str, typer.Argument(help="A plan file, or actions separated by '>' or ','.")],
    vocabulary: Annotated[str, typer.Option(help="Action vocabulary.")] = "sayplan",
    expand: Annotated[bool, typer.Option(help="Insert poses between rooms first.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Verify a plan: executable or not, the failing step and why, and the pose-level plan."""
    graph = load_environment(env)
    simulator = Simulator(graph, vocabulary)
    actions = parse_plan(read_plan_argument(plan))
    if expand and vocabulary == "sayplan":
        actions = Navigator(graph).expand_plan(actions)
    result = simulator.verify_plan(actions)
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console.print(Text.assemble(("plan: ", "bold"), " > ".join(str(a) for a in actions)))
        if result.ok:
            console.print(f"[bold green]executable[/] ({result.executed} steps)")
        else:
            console.print("[bold red]not executable[/]")
            console.print(Text.assemble(("feedback: ", "bold"), result.feedback))
    if not result.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
