"""Environments and task suites: the packaged ones and importers."""

from sceneplan.datasets.registry import list_environments, load_environment

__all__ = ["list_environments", "load_environment"]
