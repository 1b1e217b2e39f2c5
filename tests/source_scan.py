"""The package's own source, line by line: what the tests that forbid a pattern in it read."""

from __future__ import annotations

import re
from pathlib import Path

import sceneplan

SRC = Path(sceneplan.__file__).parent


def lines_matching(pattern: re.Pattern[str], *, outside: frozenset[str] = frozenset()) -> list[str]:
    """'module path:line number' of every line of the package's modules that `pattern`
    finds, leaving out the top-level folders (or modules) named in `outside`."""
    return [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] not in outside
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
