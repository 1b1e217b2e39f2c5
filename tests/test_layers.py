"""Lower layers never import higher ones (docs/architecture.md), and no module imports itself.

Imports are read with `ast` from the source: module-level ones, those under
`if TYPE_CHECKING:`, those of a package's `__init__.pyi` stub (its lazy exports) and those
inside functions (a type-only or deferred cycle is still a cycle in the design). `ALLOWED`
below is the table of docs/architecture.md.
"""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sceneplan"

# Modules every layer may import: they import nothing else of sceneplan.
ALWAYS = {"errors", "plugins", "envvars", "textinput", "sqlite_migrations", "probabilities"}

# What `runs` may import: everything below it.
BELOW_RUNS = {"graph", "world", "nav", "symbolic", "llm", "datasets", "planners", "perception"}

# What each part may import, besides itself and ALWAYS.
ALLOWED = {
    "graph": set(),
    "world": {"graph"},
    "nav": {"graph", "world"},
    "llm": set(),
    "datasets": {"graph", "world"},
    "importers": {"graph", "world"},
    "symbolic": {"graph", "world", "nav"},
    "perception": {"graph", "world", "llm"},
    "planners": {"graph", "world", "nav", "symbolic", "llm", "perception"},
    "runs": BELOW_RUNS,
    "simulated": BELOW_RUNS | {"runs"},
    "eval": BELOW_RUNS | {"runs", "execute", "simulated"},
    "execute": {"graph", "world", "nav", "symbolic", "llm", "datasets", "planners", "runs"},
    "viewer": {"graph", "world", "nav", "datasets", "planners", "runs", "eval"},
    "agents": {
        "graph",
        "world",
        "nav",
        "symbolic",
        "datasets",
        "planners",
        "runs",
        "eval",
        "execute",
    },
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node of the module, except the bodies of functions."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))


def imports(path: Path, name: str | None = None, *, everywhere: bool = True) -> set[str]:
    """The sceneplan modules a file (module `name`) imports; `from pkg import sub` is `pkg.sub`.

    Without `everywhere`, only module-level imports (type-only ones included).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    this = (name or module_name(path)).split(".")
    package = this if path.stem == "__init__" else this[:-1]
    out = set()
    for node in ast.walk(tree) if everywhere else module_level(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "sceneplan"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            if base.split(".")[0] != "sceneplan":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in MODULES else base)
    return out


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def sources(folder: Path) -> list[Path]:
    """The modules under `folder` and the stubs that list packages' lazy exports."""
    return sorted([*folder.rglob("*.py"), *folder.rglob("*.pyi")])


def part_of(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


@pytest.mark.parametrize("part", sorted(ALLOWED))
@pytest.mark.slow
def test_no_upward_imports(part):
    single = PACKAGE / f"{part}.py"
    files = [single] if single.exists() else sources(PACKAGE / part)
    assert files
    allowed = ALLOWED[part] | {part} | ALWAYS
    for path in files:
        bad = {part_of(m) for m in imports(path)} - allowed
        assert not bad, f"{path.relative_to(PACKAGE)} imports sceneplan.{', '.join(sorted(bad))}"


def test_always_allowed_modules_import_nothing_else_of_sceneplan():
    for name in ALWAYS:
        found = {part_of(m) for m in imports(PACKAGE / f"{name}.py")} - ALWAYS
        assert not found, f"sceneplan.{name} imports sceneplan.{', '.join(sorted(found))}"


def import_graph() -> dict[str, set[str]]:
    """Module -> the sceneplan modules it imports anywhere: at module level (type-only ones
    included) and inside functions (a deferred import is still a cycle in the design)."""
    graph: dict[str, set[str]] = {}
    for path in sources(PACKAGE):
        name = module_name(path)
        graph.setdefault(name, set()).update(m for m in imports(path) if m in MODULES and m != name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node], path[len(path) :] = 1, [node]
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


@pytest.mark.slow
def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_type_only_cycles(tmp_path):
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
    source += "    from sceneplan.runs import Setup\n"
    source += "def f():\n    from sceneplan.eval import store\n"
    source += "from . import base\nfrom ..world import state\n"
    path = tmp_path / "mod.py"
    path.write_text(source)
    name = "sceneplan.planners.mod"
    module_level_only = {"sceneplan.runs", "sceneplan.planners.base", "sceneplan.world.state"}
    assert imports(path, name, everywhere=False) == module_level_only
    assert imports(path, name) == module_level_only | {"sceneplan.eval.store"}


@pytest.mark.slow
def test_environment_variables_are_named_in_envvars_only():
    """No string (message, docstring) outside envvars spells a variable's name.

    Messages format the constants in; docstrings may name them as `envvars.NAME`.
    """
    from sceneplan import envvars

    spelled = re.compile(r"(?<!envvars\.)\b(" + "|".join(envvars.ALL) + r")\b")
    for path in PACKAGE.rglob("*.py"):
        if path.name == "envvars.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
        named = sorted({m for t in texts if isinstance(t, str) for m in spelled.findall(t)})
        assert not named, f"{path.relative_to(PACKAGE)} spells {named}: use sceneplan.envvars"
