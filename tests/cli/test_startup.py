"""Start-up stays light: the CLI imports a topic only when one of its commands runs.

Structural checks (which modules a call imports), not timings: the timings are
in benchmarks/startup.py.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
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


# What rendering help with typer's rich module costs: Markdown (markdown_it) and tracebacks
# (pygments), for pages that hold neither.
HELP_RENDERING = ("typer.rich_utils", "rich.markdown", "markdown_it", "pygments", "rich.traceback")
# What looking up one task or verifying a plan has no use for.
NOT_FOR_LOOKUP = (*HEAVY, *HELP_RENDERING, "sceneplan.symbolic", "sceneplan.eval", "sceneplan.nav")


def test_root_help_imports_no_help_rendering_module():
    status, modules = modules_after("--help")
    assert status == 0
    assert [m for m in HELP_RENDERING if loaded(modules, m)] == []
    assert "rich._emoji_codes" not in modules  # rich's table of emoji, for a page with none
    assert {m for m in modules if m.startswith("sceneplan.")} == {
        "sceneplan.cli",
        "sceneplan.errors",
    }


def test_tasks_show_imports_only_the_task_layer():
    status, modules = modules_after("tasks", "show", "planning-simple-01")
    assert status == 0
    assert [m for m in NOT_FOR_LOOKUP if loaded(modules, m)] == []
    assert not loaded(modules, "sceneplan.datasets.registry")  # no environment is loaded


def test_verify_imports_no_help_rendering_pydantic_or_planning_layer():
    status, modules = modules_after("verify", "coffee", "goto(kitchen) > done")
    assert status == 0
    unwanted = (*HELP_RENDERING, "pydantic", "networkx", "sceneplan.symbolic", "sceneplan.eval")
    assert [m for m in unwanted if loaded(modules, m)] == []


def test_root_help_in_colour_is_typers_own():
    """The root help is printed without typer's help module; in a terminal (forced colour) it
    reads byte for byte as typer prints it with every topic loaded."""
    code = (
        "import importlib, json, typer\n"
        "from typer.testing import CliRunner\n"
        "from sceneplan.cli import TOPICS, app\n"
        "eager = typer.Typer(name='sceneplan', help=app.info.help, add_completion=False)\n"
        "eager.callback()(lambda: None)\n"
        "for topic in TOPICS:\n"
        "    importlib.import_module(f'sceneplan.cli.{topic}').register(eager)\n"
        "runner = CliRunner()\n"
        "out = [runner.invoke(a, ['--help'], prog_name='sceneplan').output for a in (app, eager)]\n"
        "print(json.dumps(out))\n"
    )
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "90"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    ours, typers = json.loads(done.stdout)
    assert "\x1b[" in ours and "Commands" in ours
    assert ours == typers


def test_tasks_show_loads_no_vocabulary_planner_or_networkx():
    """Showing a task reads it; it needs no action vocabulary (ALFWorld's included), no
    rules of the world, no scene graph, no planner and no graph library."""
    status, modules = modules_after("tasks", "show", "planning-simple-01")
    assert status == 0
    unwanted = (
        *HEAVY,
        "sceneplan.world.alfworld",
        "sceneplan.world.domain",
        "sceneplan.graph",
        "rich.table",
    )
    assert not [m for m in unwanted if loaded(modules, m)]
    assert "sceneplan.world.task" in modules  # what it does load: the check can fail


def test_solve_loads_the_solver_but_no_planner_layer_nor_networkx():
    status, modules = modules_after("solve", "office", "--task", "planning-simple-01")
    assert status == 0
    assert "sceneplan.symbolic.solver" in modules
    assert not [m for m in HEAVY if loaded(modules, m)]


@pytest.mark.parametrize(
    "argv",
    [("tasks", "show", "planning-simple-01"), ("solve", "office", "--task", "planning-simple-01")],
)
def test_naming_a_task_imports_no_pydantic_nor_the_pddl_writer(argv):
    """The task model is a plain class and a number option's default skips typer's pydantic
    adapter: pydantic's import and a model's build were most of these commands' own CPU."""
    status, modules = modules_after(*argv)
    assert status == 0 and "sceneplan.world.task" in modules
    assert [m for m in ("pydantic", "sceneplan.symbolic.pddl") if loaded(modules, m)] == []


def output_of(code: str) -> str:
    """The last line `code` prints in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip().splitlines()[-1]


LOOKUPS = {
    "get_vocabulary": (
        "from sceneplan.world import get_vocabulary\n"
        "print(sorted(get_vocabulary('alfworld').actions)[:2])",
        "['clean', 'close']",
    ),
    "VOCABULARIES": (
        "from sceneplan.world import VOCABULARIES\nprint(list(VOCABULARIES))",
        "['sayplan', 'lookplangraph', 'lookplangraph_two_hands', 'alfworld']",
    ),
    "goal predicates": (
        "from sceneplan.world.predicates import PREDICATES\nprint(list(PREDICATES)[-1])",
        "agent_near",
    ),
    "parse_goal": (
        "from sceneplan.datasets import load_environment\n"
        "from sceneplan.world import parse_goal\n"
        "print(parse_goal('agent_near(coffee_mug)', load_environment('coffee')))",
        "agent_near(coffee_mug)",
    ),
}


@pytest.mark.parametrize("lookup", list(LOOKUPS))
def test_every_lookup_finds_the_alfworld_vocabulary(lookup):
    """The ALFWorld vocabulary and goal predicate are in the tables from the first lookup
    of any kind, in a fresh interpreter, in the order the registry lists them."""
    code, expected = LOOKUPS[lookup]
    assert output_of(code) == expected


def test_importing_the_world_package_loads_no_vocabulary():
    code = (
        "import json, sys\nimport sceneplan.world.task\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sceneplan'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(json.loads(done.stdout))
    assert "sceneplan.world.task" in modules
    assert not {"sceneplan.world.alfworld", "sceneplan.world.domain"} & modules


def test_eval_loads_none_of_the_report(tmp_path):
    """Running an eval stores episodes; the metrics, their tables and plots are the report's."""
    out = str(tmp_path / "results.db")
    argv = ("eval", "-s", "office-planning", "-t", "planning-simple-01", "-p", "oracle")
    status, modules = modules_after(*argv, "--processes", "1", "--out", out)
    assert status == 0
    assert "sceneplan.eval.runner" in modules  # what it does load: the check can fail
    report = ("metrics", "compare", "report", "plots", "robustness", "tables")
    assert [m for m in report if loaded(modules, f"sceneplan.eval.{m}")] == []


def test_the_console_script_freezes_what_it_imported_while_it_runs(monkeypatch):
    """The imports' objects live until the process ends: `main` moves them out of the
    collector's view (full collections walked them again and again), and gives a
    longer-lived caller its objects back when it returns."""
    import gc

    import sceneplan.cli

    seen: list[int] = []
    monkeypatch.setattr(sceneplan.cli, "app", lambda: seen.append(gc.get_freeze_count()))
    sceneplan.cli.main()
    assert seen and seen[0] > 1000
    assert gc.get_freeze_count() == 0


def test_a_topic_loaded_under_the_console_script_is_frozen_too(monkeypatch):
    import gc

    import sceneplan.cli

    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    typer.main.get_command(app).get_command(None, "tasks")  # a new group: loads the topic
    assert calls == []  # not in a process the CLI does not own (this test's)
    monkeypatch.setattr(sceneplan.cli, "_frozen", True)
    typer.main.get_command(app).get_command(None, "tasks")
    assert calls == ["freeze"]
