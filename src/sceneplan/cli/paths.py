"""Output paths checked before a command does any work, so a bad one costs nothing.

One rule for every command that writes a file (docs/outputs in README.md):
a file that exists is not replaced unless the command is given `--force`
(`check_output_file`, `check_output_files`); results stores are the
exception, being added to by design (`check_writable_file`). Whether a path
can be written is tried, not guessed from permission bits (which say yes to
root everywhere, /proc included): an existing file is opened for writing
without changing it, and a file is created and removed in the nearest
existing folder.

The errors are BadInputErrors, which the CLI prints as one line with exit
status 2. Missing parent folders are not created here (a failed run should
leave nothing behind) but by the writer, when the command's help says it
creates them.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from sceneplan.errors import BadInputError

FORCE_HELP = "Replace output files that already exist (without it, an existing file is refused)."
# --force, the same in every command that writes files
ForceOpt = Annotated[bool, typer.Option("--force", help=FORCE_HELP)]


def check_output_file(path: Path, what: str, *, force: bool) -> None:
    """Raise BadInputError unless `path` can be written, and replaced only with `force`."""
    check_writable_file(path, what)
    if path.exists() and not force:
        raise BadInputError(
            f"{what} {path} already exists; give another name, or --force to replace it"
        )


def check_output_files(folder: Path, names: Iterable[str], what: str, *, force: bool) -> None:
    """`check_output_folder`, and none of the files `names` in it exists unless `force`."""
    check_output_folder(folder, what)
    existing = [name for name in names if (folder / name).exists()]
    if existing and not force:
        raise BadInputError(
            f"{what} {folder} already holds {', '.join(existing)}; give another folder, "
            "or --force to replace them"
        )


def check_writable_file(path: Path, what: str) -> None:
    """Raise BadInputError unless `path` can be written as a file (parents created if missing)."""
    if not str(path).strip():
        raise BadInputError(f"{what} is an empty path; give a file name")
    if path.is_dir():
        raise BadInputError(f"{what} {path} is a folder; give a file name, e.g. {path / 'x.json'}")
    if path.exists():
        try:
            with path.open("r+b"):  # opened for writing, nothing written
                pass
        except OSError as exc:
            raise BadInputError(f"cannot write {what} {path}: {_reason(exc)}") from None
        return
    _check_creatable(path.parent, what, path)


def check_output_folder(path: Path, what: str) -> None:
    """Raise BadInputError unless `path` is, or can be created as, a writable folder."""
    if not str(path).strip():
        raise BadInputError(f"{what} is an empty path; give a folder")
    if path.exists() and not path.is_dir():
        raise BadInputError(
            f"{what} {path} is an existing file, not a folder; give a folder (created if missing)"
        )
    _check_creatable(path, what, path)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (the same path, a link to it, or the same inode)."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_creatable(folder: Path, what: str, target: Path) -> None:
    """The nearest existing ancestor of `folder` must be a folder a file can be created in."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise BadInputError(f"cannot write {what} {target}: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise BadInputError(
            f"cannot write {what} {target}: {existing} is not writable ({_reason(exc)})"
        ) from None


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()
