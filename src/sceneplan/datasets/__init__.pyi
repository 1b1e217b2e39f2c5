"""The public names of `sceneplan.datasets`, for type checkers and for `lazy_loader.attach_stub`,
which makes each one import its module on first use (see __init__.py)."""

from .registry import list_environments as list_environments
from .registry import load_environment as load_environment
