"""Environments and task suites: the packaged ones and importers."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sceneplan.datasets.registry import list_environments, load_environment

# Each public name and the module it comes from, imported on first use (PEP 562):
# importing the package alone loads none of them.
_EXPORTS = {
    "list_environments": "sceneplan.datasets.registry",
    "load_environment": "sceneplan.datasets.registry",
}

__all__ = ["list_environments", "load_environment"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
