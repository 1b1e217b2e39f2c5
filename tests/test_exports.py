"""The packages' lazy exports: each name of a stub is its module's object, loaded on first use.

`graph`, `world`, `llm`, `datasets` and `eval` export through `lazy_loader.attach_stub`,
which reads the `__init__.pyi` beside the package (the names type checkers see).
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sceneplan"
LAZY = ["datasets", "eval", "graph", "llm", "world"]


def stub_names(part: str) -> dict[str, str]:
    """Each name the stub re-exports and the module it comes from."""
    tree = ast.parse((PACKAGE / part / "__init__.pyi").read_text(encoding="utf-8"))
    return {
        alias.name: f"sceneplan.{part}.{node.module}"
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_lazy_packages_are_the_ones_with_a_stub():
    assert sorted(p.parent.name for p in PACKAGE.glob("*/__init__.pyi")) == LAZY


@pytest.mark.parametrize("part", LAZY)
def test_each_exported_name_is_its_modules_object(part):
    package = importlib.import_module(f"sceneplan.{part}")
    names = stub_names(part)
    assert sorted(package.__all__) == sorted(names)
    for name, module in names.items():
        assert getattr(package, name) is getattr(importlib.import_module(module), name), name
    with pytest.raises(ImportError, match="cannot import name 'no_such_name'"):
        exec(f"from sceneplan.{part} import no_such_name", {})


def test_importing_a_package_loads_none_of_its_modules():
    code = (
        "import importlib, json, sys\n"
        f"for part in {LAZY!r}:\n"
        "    importlib.import_module('sceneplan.' + part)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sceneplan'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == sorted(["sceneplan", *(f"sceneplan.{p}" for p in LAZY)])
