"""Start-up stays light: the CLI imports a topic only when one of its commands runs.

Structural checks (which modules a call imports), not timings: the timings are
in benchmarks/startup.py.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from sceneplan.cli import COMMANDS, TOPICS, app

runner = CliRunner()

HEAVY = (
    "networkx",
    "httpx",
    "openai",
    "anthropic",
    "asyncio",
    "sceneplan.llm",
    "sceneplan.planners",
)


def modules_after(*argv: str) -> tuple[int, set[str]]:
    """Exit status and imported modules of `sceneplan ARGV...` run in a fresh interpreter."""
    code = (
        "import json, sys\n"
        "from sceneplan.cli import main\n"
        f"sys.argv = ['sceneplan', *{list(argv)!r}]\n"
        "try:\n"
        "    main()\n"
        "    status = 0\n"
        "except SystemExit as exc:\n"
        "    status = exc.code or 0\n"
        "print('\\nMODULES', json.dumps([status, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    status, modules = json.loads(done.stdout.rsplit("\nMODULES ", 1)[1])
    return status, set(modules)


def loaded(modules: set[str], prefix: str) -> bool:
    return prefix in modules or any(m.startswith(prefix + ".") for m in modules)


def test_importing_the_cli_loads_no_topic_and_no_heavy_layer():
    code = "import json, sys; import sceneplan.cli; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(json.loads(done.stdout))
    assert not [m for m in HEAVY if loaded(modules, m)]
    assert not [m for m in modules if m.startswith("sceneplan.cli.")]
    assert not loaded(modules, "sceneplan.graph") and not loaded(modules, "rich")


def test_root_help_loads_no_topic():
    status, modules = modules_after("--help")
    assert status == 0
    assert not [m for m in HEAVY if loaded(modules, m)]
    assert not [m for m in modules if m.startswith("sceneplan.cli.")]


def test_verify_loads_its_topic_only_and_no_llm_layer():
    status, modules = modules_after("verify", "coffee", "goto(kitchen) > done")
    assert status == 0
    assert {m for m in modules if m.startswith("sceneplan.cli.")} == {"sceneplan.cli.verify"}
    assert not [m for m in ("httpx", "openai", "anthropic", "sceneplan.llm") if loaded(modules, m)]


def test_an_error_in_a_lazily_loaded_command_is_one_line():
    result = runner.invoke(app, ["verify", "no_such_env", "done"])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")


def eager_app() -> typer.Typer:
    """The root app with every topic registered up front, as before start-up was lazy."""
    eager = typer.Typer(
        name="sceneplan", help=app.info.help, no_args_is_help=True, add_completion=False
    )
    eager.callback()(lambda: None)
    for topic in TOPICS:
        importlib.import_module(f"sceneplan.cli.{topic}").register(eager)
    return eager


def test_the_command_table_is_what_the_topics_register():
    commands = typer.main.get_group(eager_app()).commands
    assert list(COMMANDS) == list(commands)
    for name, command in commands.items():
        first_paragraph = inspect.cleandoc(command.help or "").split("\n\n")[0]
        assert COMMANDS[name][1] == " ".join(first_paragraph.split()), name
        module = command.callback.__module__ if command.callback else ""
        assert module.startswith("sceneplan.cli.") or name in {"graph", "tasks", "llm", "store"}


@pytest.mark.parametrize("columns", ["200", "60"])
def test_root_help_reads_as_it_did_with_every_topic_loaded(columns):
    env = {"COLUMNS": columns}
    lazy = runner.invoke(app, ["--help"], env=env)
    eager = runner.invoke(eager_app(), ["--help"], env=env)
    assert lazy.exit_code == eager.exit_code == 0
    assert lazy.output == eager.output


def test_the_root_group_still_shows_every_command_to_introspection():
    group = typer.main.get_command(app)
    assert set(COMMANDS) <= set(group.commands)
    assert group.get_command(None, "no_such_command") is None
