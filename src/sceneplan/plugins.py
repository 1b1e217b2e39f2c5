"""Named things found one way: built-ins imported when first asked for, then plugins.

A `Registry` holds one kind of thing (planners, LLM providers, importers,
symbolic back ends): its built-ins as `"module:attr"` paths, imported only
when their name is asked for, then what installed packages declare in the
kind's entry-point group, e.g. in a package's `pyproject.toml`

    [project.entry-points."sceneplan.planners"]
    my_planner = "my_package.planner:MyPlanner"

A built-in name always wins over a plugin of the same name. An unknown name
gets `unknown_name`'s one wording, with the closest name when there is one.
See docs/extending.md. Like `errors`, this module imports nothing else of
sceneplan, so every layer may use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sceneplan.errors import BackendUnavailableError, BadInputError, SceneplanError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUPS = {
    "planners": "sceneplan.planners",
    "providers": "sceneplan.providers",
    "environments": "sceneplan.environments",
    "importers": "sceneplan.importers",
    "solvers": "sceneplan.solvers",
}

T = TypeVar("T")


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
        raise BackendUnavailableError(
            f"the {group} entry point '{name}' ({ep.value}, from {_dist(ep)}) could not be "
            f"loaded: {type(exc).__name__}: {exc}; reinstall or fix that package"
        ) from None


def _dist(ep: EntryPoint) -> str:
    return ep.dist.name if ep.dist is not None else "its package"


def import_path(path: str) -> Any:
    """The object a `"module:attr"` path names, its module imported now.

    >>> import_path("fractions:Fraction")(1, 4)
    Fraction(1, 4)
    """
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def unknown_name(
    kind: str, name: str, names: Iterable[str], more: str = "", unlisted: Iterable[str] = ()
) -> BadInputError:
    """The error for a name of `kind` that is none of `names`: the closest one, then all.

    `more` adds what else may be given there (a file's path, say); a close
    match is also looked for among `unlisted`, names too many to list.

    >>> str(unknown_name("importer", "behaviour", ["behavior", "mp3d"]))
    "unknown importer 'behaviour' (did you mean 'behavior'? known: behavior, mp3d)"
    """
    import difflib  # only on this error path

    names = list(names)
    close = difflib.get_close_matches(name, names, n=1)
    close = close or difflib.get_close_matches(name, list(unlisted), n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    shown = name if len(name) <= 80 else name[:77] + "..."
    return BadInputError(f"unknown {kind} '{shown}' ({hint}known: {', '.join(names)}{more})")


class Registry(Generic[T]):
    """The names of one kind of thing, and what each name gives, imported when asked for.

    `builtins` maps a name to the `"module:attr"` path of its object; `group`
    is the entry-point group plugins add names through (None: built-ins only).
    A plugin's object must be a subclass of `base` (a class, or its
    `"module:attr"` path where importing it here would be a cycle), whose
    `name` is the entry point's with `named`; with no `base`, a callable. `needs`
    maps a built-in to the pip package its module needs, for the message
    when its import fails.

    >>> kinds = Registry("number kind", None, {"fraction": "fractions:Fraction"})
    >>> kinds.load("fraction").__name__
    'Fraction'
    >>> "fractoin" in kinds, str(kinds.unknown("fractoin"))
    (False, "unknown number kind 'fractoin' (did you mean 'fraction'? known: fraction)")
    """

    def __init__(
        self,
        kind: str,
        group: str | None,
        builtins: Mapping[str, str],
        *,
        base: type | str | None = None,
        named: bool = False,
        needs: Mapping[str, str] | None = None,
    ) -> None:
        self.kind, self.group, self.base, self.named = kind, group, base, named
        self.builtins: dict[str, str] = dict(builtins)
        self.needs: dict[str, str] = dict(needs or {})

    def register(self, name: str, path: str) -> None:
        """Make `path` (`"module:attr"`) available as a built-in called `name`."""
        self.builtins[name] = path

    def names(self) -> list[str]:
        """Every name: the built-ins in their order, then the plugins' (sorted)."""
        return [*self.builtins, *(n for n in self.plugins() if n not in self.builtins)]

    def plugins(self) -> list[str]:
        """The names installed packages declare in the group, sorted."""
        return plugin_names(self.group) if self.group is not None else []

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.builtins or name in self.plugins())

    def source(self, name: str) -> str:
        """Where `name` comes from: `built-in`, or `plugin from DIST`."""
        ep = None if name in self.builtins or self.group is None else find_plugin(self.group, name)
        return "built-in" if ep is None else f"plugin from {_dist(ep)}"

    def check(self, name: str) -> str:
        """`name`, when it is one of the registry's; else raises `unknown`'s error."""
        if name not in self:
            raise self.unknown(name)
        return name

    def unknown(self, name: str) -> BadInputError:
        """The error for `name`, not one of the registry's (`unknown_name`)."""
        return unknown_name(self.kind, name, self.names())

    def load(self, name: str) -> T:
        """The object called `name`, imported now (a built-in first, then a plugin)."""
        if name in self.builtins:
            return self._builtin(name)
        self.check(name)
        assert self.group is not None  # else `check` raised
        found = load_plugin(self.group, name)
        where = f"the {self.group} entry point '{name}'"
        base = None if self.base is None else self._base()
        if base is None:
            if not callable(found):
                raise BackendUnavailableError(f"{where} is {found!r}, not a function")
        elif not (isinstance(found, type) and issubclass(found, base)):
            raise BackendUnavailableError(
                f"{where} is {found!r}, not a subclass of {base.__module__}."
                f"{base.__qualname__} (see docs/extending.md)"
            )
        elif self.named and (declared := getattr(found, "name", None)) != name:
            raise BackendUnavailableError(
                f"{where} names {found.__name__}, whose name is '{declared}'; the entry "
                "point and the class's `name` must agree"
            )
        result: T = found
        return result

    def call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        """Call the function called `name` with the arguments. A plugin's failure other
        than a SceneplanError is a BackendUnavailableError naming its entry point."""
        function: Any = self.load(name)
        if name in self.builtins:
            return function(*args, **kwargs)
        try:
            return function(*args, **kwargs)
        except SceneplanError:
            raise  # already a clear message (a bad graph file names the file and the node)
        except Exception as exc:  # third-party code can fail in any way
            raise BackendUnavailableError(
                f"the {self.group} entry point '{name}' failed: {type(exc).__name__}: {exc}; "
                "fix or reinstall its package"
            ) from None

    def _base(self) -> type:
        if isinstance(self.base, str):
            found: type = import_path(self.base)
            return found
        assert self.base is not None
        return self.base

    def _builtin(self, name: str) -> T:
        try:
            found: T = import_path(self.builtins[name])
        except ImportError as exc:
            need = self.needs.get(name)
            if need is None:
                raise
            raise BackendUnavailableError(
                f"the {self.kind} '{name}' needs the '{need}' package ({exc}); "
                f"install it with: pip install {need}"
            ) from None
        return found


def refresh() -> None:
    """Forget the cached entry points (after installing a package in the same process)."""
    _group.cache_clear()
