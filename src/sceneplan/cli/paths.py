"""Output paths checked before a command does any work, so a bad one costs nothing.

Commands that write files call these first; the error is a BadInputError,
which the CLI prints as one line with exit status 2. Missing parent folders
are not created here (a failed run should leave nothing behind) but by the
writer, when the command's help says it creates them.
"""

from __future__ import annotations

import os
from pathlib import Path

from sceneplan.errors import BadInputError


def check_output_file(path: Path, what: str) -> None:
    """Raise BadInputError unless `path` can be written as a file (parents created if missing)."""
    if path.is_dir():
        raise BadInputError(f"{what} {path} is a folder; give a file name, e.g. {path / 'x.json'}")
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInputError(f"cannot write {what} {path}: permission denied")
    _check_creatable(path.parent, what, path)


def check_output_folder(path: Path, what: str) -> None:
    """Raise BadInputError unless `path` is, or can be created as, a writable folder."""
    if path.exists() and not path.is_dir():
        raise BadInputError(
            f"{what} {path} is an existing file, not a folder; give a folder (created if missing)"
        )
    _check_creatable(path, what, path)


def _check_creatable(folder: Path, what: str, target: Path) -> None:
    """The nearest existing ancestor of `folder` must be a folder we may write in."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise BadInputError(f"cannot write {what} {target}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadInputError(f"cannot write {what} {target}: {existing} is not writable")
