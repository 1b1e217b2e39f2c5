"""Extension points: planners, LLM providers, environments and importers from other packages.

A package extends sceneplan by declaring entry points in its own
`pyproject.toml`, e.g.

    [project.entry-points."sceneplan.planners"]
    my_planner = "my_package.planner:MyPlanner"

Each registry of sceneplan (planners, providers, environments) asks this
module for the entry points of its group, lazily, when a name is not one of
its built-in entries. See docs/extending.md. Like `errors`, this module
imports nothing else of sceneplan, so every layer may use it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from sceneplan.errors import BackendUnavailableError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUPS = {
    "planners": "sceneplan.planners",
    "providers": "sceneplan.providers",
    "environments": "sceneplan.environments",
    "importers": "sceneplan.importers",
}


@cache
def _group(group: str) -> dict[str, EntryPoint]:
    # imported on the first lookup of a name that is not built in: importlib.metadata (and
    # the email package it reads metadata with) cost a sixth of `solve --task`'s imports
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=group)}


def plugin_names(group: str) -> list[str]:
    """Names that installed packages register under an entry-point group, sorted."""
    return sorted(_group(group))


def find_plugin(group: str, name: str) -> EntryPoint | None:
    """The entry point called `name` in `group`, or None when no package declares it."""
    return _group(group).get(name)


def load_plugin(group: str, name: str) -> Any:
    """Import and return the object an entry point names.

    A plugin that fails to import raises BackendUnavailableError naming the
    entry point and the package that declared it, never a bare ImportError.
    """
    ep = find_plugin(group, name)
    if ep is None:
        raise KeyError(name)
    try:
        return ep.load()
    except Exception as exc:  # a third-party import can fail in any way
        dist = ep.dist.name if ep.dist is not None else "its package"
        raise BackendUnavailableError(
            f"the {group} entry point '{name}' ({ep.value}, from {dist}) could not be "
            f"loaded: {type(exc).__name__}: {exc}; reinstall or fix that package"
        ) from None


def load_plugin_class(group: str, name: str, base: type, base_name: str) -> type:
    """Load an entry point that must name a subclass of `base` (`base_name` in the message)."""
    found = load_plugin(group, name)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise BackendUnavailableError(
            f"the {group} entry point '{name}' is {found!r}, not a subclass of "
            f"{base_name} (see docs/extending.md)"
        )
    return found


def refresh() -> None:
    """Forget the cached entry points (after installing a package in the same process)."""
    _group.cache_clear()
