"""Every public function, class and method of the core packages has a docstring.

Counted as `inspect.getdoc` counts it: a method that overrides a documented one
inherits its docstring, so an override is documented by its base. A class whose
only docstring is the one `dataclasses` or `typing.NamedTuple` writes (its
signature) counts as undocumented.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

PACKAGES = ("sceneplan.world", "sceneplan.symbolic", "sceneplan.planners", "sceneplan.graph")


def _modules(package: str) -> list:
    root = importlib.import_module(package)
    names = [package] + [
        m.name
        for m in pkgutil.walk_packages(root.__path__, package + ".")
        if not any(part.startswith("_") for part in m.name.split("."))
    ]
    return [importlib.import_module(name) for name in names]


def _documented(obj: object, name: str) -> bool:
    doc = inspect.getdoc(obj)
    if not doc or not doc.strip():
        return False
    # the docstring dataclasses / NamedTuple write for a class that has none
    return not (inspect.isclass(obj) and doc.startswith(f"{name}("))


def _members(cls: type):
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(raw, property):
            yield name, raw
        elif inspect.isfunction(raw) or isinstance(raw, (staticmethod, classmethod)):
            yield name, getattr(cls, name)


def undocumented(package: str) -> list[str]:
    """`module.name` (or `module.Class.name`) of every public definition without a docstring."""
    missing = []
    for module in _modules(package):
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            where = f"{module.__name__}.{name}"
            if not _documented(obj, name):
                missing.append(where)
            if inspect.isclass(obj):
                missing += [f"{where}.{m}" for m, o in _members(obj) if not _documented(o, m)]
    return missing


@pytest.mark.parametrize("package", PACKAGES)
def test_public_definitions_have_docstrings(package):
    missing = undocumented(package)
    assert not missing, f"{len(missing)} without a docstring:\n" + "\n".join(missing)
