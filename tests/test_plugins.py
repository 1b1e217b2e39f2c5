"""Entry points for real: throwaway distributions on sys.path, found through importlib.metadata.

The `my-lab` distribution is built from the code blocks of docs/extending.md
(each Python block starts with a `# my_lab/FILE.py` comment; the TOML blocks
carry its entry points), so the guide is the code these tests install.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eval_helpers import REFERENCE_PLAN
from sceneplan import plugins
from sceneplan.cli import app
from sceneplan.datasets import list_environments, load_environment
from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph import to_dict
from sceneplan.importers import import_source, list_importers
from sceneplan.llm import LLMClient, load_settings
from sceneplan.llm.registry import PROVIDERS, provider_names, split_model
from sceneplan.planners import get_planner, planner_names
from sceneplan.symbolic.solver import SOLVERS
from scripted_llm import isolate_llm_env

DOCS = Path(__file__).resolve().parents[1] / "docs" / "extending.md"
runner = CliRunner()


def code_blocks(language: str) -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def install(root: Path, dist: str, files: dict[str, str], entry_points: dict) -> None:
    """Write a distribution's files and its `.dist-info` (METADATA, entry_points.txt) in root."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    info = root / f"{dist.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    lines = []
    for group, points in entry_points.items():
        lines += [f"[{group}]", *(f"{name} = {value}" for name, value in points.items()), ""]
    info.joinpath("entry_points.txt").write_text("\n".join(lines))


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    isolate_llm_env(monkeypatch, tmp_path)
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def on_path(monkeypatch, tmp_path):
    """A folder on sys.path for distributions; their modules and cached entry points go after."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    before = set(sys.modules)
    yield root
    for name in set(sys.modules) - before:
        if name.startswith(("my_lab", "my_broken")):
            del sys.modules[name]
    plugins.refresh()


@pytest.fixture
def my_lab(on_path, isolated):
    """The package of docs/extending.md, installed, with a lab graph (the coffee house)."""
    files = {"my_lab/__init__.py": ""}
    for block in code_blocks("python"):
        first = block.splitlines()[0]
        assert first.startswith("# my_lab/"), f"a Python block of the guide names its file: {first}"
        files[first.removeprefix("# ")] = block
    graph = to_dict(load_environment("coffee")) | {"name": "lab"}
    files["my_lab/lab.json"] = json.dumps(graph)
    entry_points: dict[str, dict[str, str]] = {}
    for block in code_blocks("toml"):
        declared = tomllib.loads(block).get("project", {}).get("entry-points", {})
        for group, points in declared.items():
            entry_points.setdefault(group, {}).update(points)
    install(on_path, "my-lab", files, entry_points)
    plugins.refresh()
    return entry_points


def test_the_guide_shows_every_group_and_each_example_file_is_an_entry_point(my_lab):
    assert set(my_lab) == {"sceneplan.planners", "sceneplan.providers", "sceneplan.environments"}
    targets = {value.split(":")[0] for points in my_lab.values() for value in points.values()}
    assert targets == {"my_lab.planner", "my_lab.provider", "my_lab.envs"}
    text = DOCS.read_text(encoding="utf-8")
    assert text.rstrip().endswith(
        "## Domain primitives, actions and goal predicates\n\nSee docs/domain.md."
    )


def test_the_planner_plugin_is_found_validated_and_listed(my_lab):
    assert "one_shot" in planner_names() and planner_names()[-1] == "one_shot"
    assert get_planner("one_shot", attempts="3").options.attempts == 3
    with pytest.raises(BadInputError, match="option 'attempts' should be greater than or equal"):
        get_planner("one_shot", attempts=0)
    with pytest.raises(BadInputError) as unknown:
        get_planner("two_shot")
    assert str(unknown.value).startswith("unknown planner 'two_shot' (did you mean 'one_shot'? ")
    assert str(unknown.value).endswith(", sclplan, one_shot)")
    listed = runner.invoke(app, ["planners"])
    assert listed.exit_code == 0, listed.output
    assert "one_shot  (plugin from my-lab; needs an LLM)  One shot: the whole" in listed.stdout
    assert "attempts  int   2        plans asked for" in listed.stdout


def test_sceneplan_plan_runs_the_plugin_planner_in_the_plugin_environment(
    my_lab,
    scripted_llm,
):
    wrong = [s for s in REFERENCE_PLAN if s != "open(wardrobe1)"]
    scripted_llm.enqueue_json({"plan": wrong})
    scripted_llm.enqueue_json({"plan": REFERENCE_PLAN})
    args = ["plan", "-p", "one_shot", "--env", "lab", "--llm", scripted_llm.model]
    result = runner.invoke(app, [*args, "-o", "attempts=2", "Put the mug on Tom's bed."])
    assert result.exit_code == 0, result.output
    assert "one_shot · " in result.stdout and "executable yes" in result.stdout
    first, second = (r["messages"][0]["content"] for r in scripted_llm.requests)
    assert "Feedback on your last plan: none yet" in first
    assert "coffee_mug is inside wardrobe1, which is closed" in second
    bad = runner.invoke(app, [*args, "-o", "attempts=0", "Go."])
    assert bad.exit_code == 2 and "planner 'one_shot': option 'attempts'" in bad.stderr


def test_the_provider_plugin_is_a_model_name_with_its_own_settings(
    my_lab,
    scripted_llm,
    tmp_path,
):
    # plugins follow the built-in providers, sorted (sceneplan's own `simulated` is one)
    assert provider_names()[-2:] == ["lab", "simulated"] and split_model("lab:m") == ("lab", "m")
    with pytest.raises(BadInputError, match=r"^unknown LLM provider 'lan' \(did you mean 'lab'\?"):
        split_model("lan:m")
    config = tmp_path / "config.toml"
    url = scripted_llm.base_url
    config.write_text(f'[llm]\ntimeout = 2.0\n[llm.providers.lab]\nbase_url = "{url}"\n')
    scripted_llm.enqueue_text("ok")
    with LLMClient("lab:scripted-model", settings=load_settings(config)) as llm:
        assert llm.provider.base_url == scripted_llm.base_url
        assert llm.complete("Say ok.").text == "ok"
    assert scripted_llm.requests[0]["model"] == "scripted-model"
    for _ in range(3):  # llm check asks in each structured mode
        scripted_llm.enqueue_json({"answer": "ok"})
    env = {"SCENEPLAN_CONFIG": str(config)}
    result = runner.invoke(app, ["llm", "check", "lab:scripted-model"], env=env)
    assert result.exit_code == 0, result.output
    assert "ok planning will use json_schema replies" in result.stdout


def test_the_environment_plugin_loads_by_name(my_lab):
    assert list_environments()[-1] == "lab" and "coffee" in list_environments()
    graph = load_environment("lab")
    assert graph.name == "lab" and "coffee_mug" in graph
    assert load_environment("lab") is not graph  # a new graph each time
    with pytest.raises(BadInputError, match=r"unknown environment 'labb' \(did you mean 'lab'\?"):
        load_environment("labb")
    stats = runner.invoke(app, ["graph", "stats", "lab", "--json"])
    assert stats.exit_code == 0, stats.output


BROKEN = {
    "my_broken/__init__.py": "",
    "my_broken/needs_torch.py": "import torch_that_is_not_installed\n",
    "my_broken/things.py": (
        "from sceneplan.planners import Planner\n"
        "NOT_A_PLANNER = 42\n"
        "class Misnamed(Planner):\n"
        "    name = 'other'\n"
        "    async def _run(self, run):\n"
        "        pass\n"
        "def not_a_graph():\n"
        "    return {'nodes': []}\n"
        "def crashing():\n"
        "    raise RuntimeError('the lab server is down')\n"
    ),
}
BROKEN_POINTS = {
    "sceneplan.planners": {
        "needs_torch": "my_broken.needs_torch:Planner",
        "forty_two": "my_broken.things:NOT_A_PLANNER",
        "misnamed": "my_broken.things:Misnamed",
    },
    "sceneplan.providers": {"torchy": "my_broken.needs_torch:Provider"},
    "sceneplan.environments": {
        "dict_env": "my_broken.things:not_a_graph",
        "crash_env": "my_broken.things:crashing",
    },
}


@pytest.fixture
def broken(on_path, isolated):
    install(on_path, "my-broken", BROKEN, BROKEN_POINTS)
    plugins.refresh()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("needs_torch", "entry point 'needs_torch' (my_broken.needs_torch:Planner, from "
         "my-broken) could not be loaded: ModuleNotFoundError: No module named "
         "'torch_that_is_not_installed'"),
        ("forty_two", "entry point 'forty_two' is 42, not a subclass of sceneplan.planners."),
        ("misnamed", "names Misnamed, whose name is 'other'; the entry point and the class's"),
    ],
)  # fmt: skip
def test_a_broken_planner_plugin_is_one_clear_error(broken, name, message):
    with pytest.raises(BackendUnavailableError) as caught:
        get_planner(name)
    assert message in str(caught.value)
    result = runner.invoke(app, ["plan", "-p", name, "--env", "coffee", "--llm", "ollama:x", "Go."])
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_sceneplan_planners_lists_the_others_and_reports_the_broken(broken):
    result = runner.invoke(app, ["planners"])
    assert result.exit_code == 2
    assert "sayplan  (built-in; needs an LLM)" in result.stdout
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 3
    assert all(line.startswith("error: the sceneplan.planners entry point") for line in errors)


def test_broken_provider_and_environment_plugins(broken, scripted_llm):
    with pytest.raises(BackendUnavailableError, match=r"point 'torchy' .* could not be loaded"):
        LLMClient("torchy:m", settings=scripted_llm.settings())
    with pytest.raises(BackendUnavailableError, match="'dict_env' returned dict, not a SceneGraph"):
        load_environment("dict_env")
    with pytest.raises(BackendUnavailableError, match="'crash_env' failed: RuntimeError: the lab"):
        load_environment("crash_env")
    result = runner.invoke(app, ["graph", "stats", "dict_env"])
    assert result.exit_code == 2 and "not a SceneGraph" in result.stderr


EXTRAS = {
    "my_extras/__init__.py": "",
    "my_extras/lab_format.py": (
        "from sceneplan.graph.io import from_dict\n"
        "def read(path):\n"
        "    names = open(path).read().split()\n"
        "    nodes = [{'id': name, 'kind': 'room'} for name in names]\n"
        "    return from_dict({'format': 'sceneplan-graph', 'version': 1, 'nodes': nodes}, "
        "str(path))\n"
    ),
    "my_extras/greedy.py": (
        "from sceneplan.symbolic.gbfs import gbfs\n"
        "class Greedy:\n"
        "    name = 'greedy'\n"
        "    searched = 0\n"
        "    def search(self, task, timeout):\n"
        "        Greedy.searched += 1\n"
        "        return gbfs(task, timeout)\n"
    ),
}
EXTRA_POINTS = {
    "sceneplan.importers": {"lab-rooms": "my_extras.lab_format:read"},
    "sceneplan.solvers": {"greedy": "my_extras.greedy:Greedy"},
}


@pytest.fixture
def extras(on_path, isolated):
    install(on_path, "my-extras", EXTRAS, EXTRA_POINTS)
    plugins.refresh()


def test_an_importer_plugin_returning_a_graph_is_found_by_name(extras, tmp_path):
    rooms = tmp_path / "rooms.txt"
    rooms.write_text("lab\nkitchen\n", encoding="utf-8")
    assert list_importers()[-1] == "lab-rooms"
    imported = import_source("lab-rooms", rooms)
    assert {node.id for node in imported.graph} == {"lab", "kitchen"}
    assert imported.report.counts()["mapped"] == 2
    with pytest.raises(BadInputError, match=r"^unknown importer 'lab-room' \(did you mean 'lab-"):
        import_source("lab-room", rooms)


def test_a_solver_plugin_plans_by_name(extras):
    goal = ["solve", "coffee", "--goal", "full(coffee_mug)", "--planner"]
    result = runner.invoke(app, [*goal, "greedy"])
    assert result.exit_code == 0, result.output
    assert sys.modules["my_extras.greedy"].Greedy.searched >= 1
    assert SOLVERS.names()[-1] == "greedy"
    assert get_planner("oracle", planner="greedy").options.planner == "greedy"
    bad = runner.invoke(app, [*goal, "gredy"])
    assert bad.exit_code == 2
    assert "unknown symbolic planner 'gredy' (did you mean 'greedy'? known: gbfs," in bad.stderr


def test_without_plugins_nothing_extra_is_listed(isolated):
    plugins.refresh()
    assert "one_shot" not in planner_names() and "lab" not in list_environments()
    assert "lab" not in provider_names() and "lab-rooms" not in list_importers()
    assert SOLVERS.names() == ["gbfs", "wastar", "astar", "bfsf"]


def test_a_builtin_whose_package_is_missing_names_the_package_to_install(monkeypatch, isolated):
    monkeypatch.setitem(PROVIDERS.builtins, "ghost", "no_such_sdk_module:GhostProvider")
    monkeypatch.setitem(PROVIDERS.needs, "ghost", "ghost-sdk")
    with pytest.raises(BackendUnavailableError) as caught:
        LLMClient("ghost:m", settings=load_settings(None))
    assert str(caught.value) == (
        "the LLM provider 'ghost' needs the 'ghost-sdk' package (No module named "
        "'no_such_sdk_module'); install it with: pip install ghost-sdk"
    )
