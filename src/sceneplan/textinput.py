"""JSON and YAML a user or a server gave: parsed with the limits written down.

Python's `json` and PyYAML parse nested lists and mappings by recursion, so
a file of 100,000 nested brackets ends in a RecursionError. These parse the
same way and turn that into a BadInputError naming the source and the
limit. The limit is the interpreter's: about 1,000 levels of nesting
(`MAX_NESTING`); no sceneplan format needs more than ten. Like `errors`,
this module imports nothing of sceneplan but errors, so every layer may use it.

>>> parse_json('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> parse_json("[" * 5000 + "]" * 5000, "deep.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sceneplan.errors.BadInputError: deep.json: nested too deeply (more than about 1,000 levels ...
"""

from __future__ import annotations

import json
import reprlib
from pathlib import Path
from typing import Any

from sceneplan.errors import BadInputError

MAX_NESTING = 1000  # about: json and PyYAML recurse once a level, within Python's recursion limit


_SHOWN = reprlib.Repr()  # keywords only from Python 3.12
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 3, 80, 80
_SHOWN.maxlist = _SHOWN.maxdict = 8


def shown(value: Any) -> str:
    """`repr(value)` for a message, cut short: a few levels, a few items, short strings.

    >>> shown("fridge"), shown([[[[[1]]]]])
    ("'fridge'", '[[[[...]]]]')
    """
    return _SHOWN.repr(value)


def read_text(path: Path, what: str = "") -> str:
    """The UTF-8 text of a user's file; one BadInputError naming `what` and `path` when it
    cannot be read (the system's reason) or is not UTF-8 text (the first byte that is not).

    >>> read_text(Path("missing.txt"), "the episode")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sceneplan.errors.BadInputError: cannot read the episode missing.txt: No such file or directory
    """
    named = f"{what} {path}" if what else str(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"cannot read {named}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise BadInputError(f"cannot read {named}: not UTF-8 text (byte {exc.start})") from None


def too_deep(source: str, kind: str = "JSON") -> BadInputError:
    """The error for input nested beyond the limit."""
    return BadInputError(
        f"{source}: nested too deeply (more than about {MAX_NESTING:,} levels of {kind} "
        "lists or objects); sceneplan's formats need fewer than ten"
    )


def parse_json(text: str | bytes, source: str) -> Any:
    """`json.loads`; nesting beyond the limit raises BadInputError (json's own errors pass)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise too_deep(source) from None


def parse_yaml(text: str, source: str) -> Any:
    """`yaml.safe_load`; nesting beyond the limit raises BadInputError (yaml's errors pass).

    The text is read with libyaml's loader where PyYAML was built with it (the
    same data as SafeLoader's, about ten times faster); a YAML error is raised
    by the pure-Python loader, whose message says where, as it always has.
    """
    import yaml

    try:
        try:
            return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            return yaml.safe_load(text)
    except RecursionError:
        raise too_deep(source, "YAML") from None
