"""`sceneplan verify`: check a plan in the scene-graph simulator."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sceneplan.errors import BadInputError
from sceneplan.textinput import parse_json, read_text

if TYPE_CHECKING:
    from sceneplan.world import Action


# A plan argument shaped like a file name (a folder separator, or an extension
# such as `.txt`) cannot be a plan: no action name has those characters.
_PATH_LIKE = re.compile(r"[/\\]|\.\w+$")

EXAMPLE_PLAN = "goto(kitchen) > access(fridge) > done"


def read_plan_argument(plan: str) -> str | list:
    """A plan given on the command line: `@FILE`, a path to a file (JSON list or text), or
    the plan itself.

    `@FILE` always names a file. Without `@`, an existing file is read; an argument
    shaped like a path (with `/` or an extension) that names no file is reported as
    "no such file" rather than parsed as a plan.
    """
    if plan.startswith("@"):
        return _read_plan_file(Path(plan[1:]))
    path = Path(plan)
    if "(" in plan or ">" in plan:
        return plan
    if _is_file(path):
        return _read_plan_file(path)
    if _PATH_LIKE.search(plan.strip()):
        if _is_dir(path):
            raise BadInputError(f"{plan} is a folder, not a plan file")
        raise BadInputError(
            f"no such file: {plan} (a plan is a file or actions like '{EXAMPLE_PLAN}')"
        )
    return plan


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # e.g. a long plan is too long a file name
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _read_plan_file(path: Path) -> str | list:
    text = read_text(path, "plan file")
    if text.lstrip().startswith("{"):
        raise BadInputError(
            f"{path}: a JSON object, not a plan; a plan file is a JSON list of actions "
            "or one action per line"
        )
    if text.lstrip().startswith("["):
        try:
            return parse_json(text, str(path))
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{path}: not a valid JSON list of actions ({exc.msg})") from None
    return text


def parse_plan_argument(plan: str) -> list[Action]:
    """The actions of a plan argument (see `read_plan_argument`); an empty plan is an error."""
    from sceneplan.world import parse_plan

    actions = parse_plan(read_plan_argument(plan))
    if not actions:
        raise BadInputError(
            f"the plan is empty: give actions separated by '>', e.g. '{EXAMPLE_PLAN}'"
        )
    return actions


def verify(
    env: Annotated[str, typer.Argument(help="A packaged environment name or a graph file.")],
    plan: Annotated[
        str,
        typer.Argument(help="Actions separated by '>' or ',', or a plan file (@FILE or a path)."),
    ],
    vocabulary: Annotated[str, typer.Option(help="Action vocabulary.")] = "sayplan",
    expand: Annotated[bool, typer.Option(help="Insert poses between rooms first.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Verify a plan: executable or not, the failing step and why, and the pose-level plan.

    Steps after done() are not run; a warning names them (the exit status is that of
    the steps up to done()). Exit status 1 when a step fails, with what the scene says
    about its nodes (fixed, in a room the robot cannot reach, in no room).
    """
    # Here rather than at the top: `verify --help` and the other commands need none of it.
    from sceneplan.datasets import load_environment
    from sceneplan.nav import Navigator
    from sceneplan.world import Simulator, get_vocabulary

    graph = load_environment(env)
    actions_of = get_vocabulary(vocabulary)
    simulator = Simulator(graph, actions_of)
    actions = parse_plan_argument(plan)
    navigator = Navigator(graph, actions_of)
    if expand and navigator.moves:  # a vocabulary that moves through the poses
        actions = navigator.expand_plan(actions)
    result = simulator.verify_plan(actions)
    if result.ignored:
        count = len(result.ignored)
        ignored = " > ".join(str(a) for a in result.ignored)
        warning = typer.style("warning: ", fg="yellow", bold=True)
        typer.echo(
            f"{warning}{count} step{'s' if count > 1 else ''} after done() not run: {ignored}",
            err=True,
        )
    why = [] if result.ok else _why(graph, result, simulator.vocabulary)
    if as_json:
        print(json.dumps(result.to_dict() | ({"why": why} if why else {}), indent=2))
    else:
        # click's styles (typer's own), not rich's: rich costs start-up, and click drops
        # the colours when the output is not a terminal, as rich does.
        typer.echo(typer.style("plan: ", bold=True) + " > ".join(str(a) for a in actions))
        if result.ok:
            executable = typer.style("executable", fg="green", bold=True)
            typer.echo(f"{executable} ({result.executed} steps)")
        else:
            typer.echo(typer.style("not executable", fg="red", bold=True))
            typer.echo(typer.style("feedback: ", bold=True) + result.feedback)
            for reason in why:
                typer.echo(typer.style("why: ", bold=True) + reason)
    if not result.ok:
        raise typer.Exit(1)


def _why(graph, result, vocabulary) -> list[str]:
    """What the scene says about the failing step's nodes (`world.why`)."""
    from sceneplan.world.why import why_step_fails

    failure = result.failure
    return why_step_fails(graph, failure.action, vocabulary) if failure is not None else []


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
