"""Files, HTTP bodies, JSON, YAML, TOML and s-expressions from users and servers, read within
written limits.

Every file sceneplan reads from a user goes through `read_bytes` / `read_text`:
a regular file only (a folder, a named pipe or a device such as /dev/zero is
refused before a byte is read, so nothing blocks or reads forever), at most
`MAX_FILE_BYTES`, and UTF-8 text. Every HTTP body goes through `BodyLimit`
(bytes and a deadline, counted while the body streams in). Every file
sceneplan writes for a user goes through `write_files`: a temporary file in
the same folder, then a rename, so a full disk leaves the old file whole and
no partial file behind.

Python's `json`, `tomllib` and PyYAML parse nested lists and mappings by
recursion, so a file of 100,000 nested brackets ends in a RecursionError, and
they refuse integers of more than 4,300 digits with a ValueError. These parse
the same way and turn both into a BadInputError naming the source and the
limit. The nesting limit is the interpreter's: about 1,000 levels
(`MAX_NESTING`); no sceneplan format needs more than ten. `read_json`,
`read_yaml` and `read_toml` read a user's file and word a syntax error (PATH:
not valid JSON (line, column: why)) once for every caller. `parse_sexp` is the
one reader of s-expressions (PDDL goals, ALFWorld's PDDL, BDDL). Like
`errors`, this module imports nothing of sceneplan but errors, so every layer
may use it.

>>> parse_json('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> parse_json("[" * 5000 + "]" * 5000, "deep.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sceneplan.errors.BadInputError: deep.json: nested too deeply (more than about 1,000 levels ...
"""

from __future__ import annotations

import json
import os
import re
import reprlib
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sceneplan.errors import BadInputError

MAX_NESTING = 1000  # about: json and PyYAML recurse once a level, within Python's recursion limit
MAX_FILE_BYTES = 1 << 30  # 1 GiB; the largest real input (a Matterport3D house) is about 3 MB
MAX_DIGITS = 4300  # Python's own limit for int(str), which json, yaml and tomllib keep
_CHUNK = 1 << 20
T = TypeVar("T")


_SHOWN = reprlib.Repr()  # keywords only from Python 3.12
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 3, 80, 80
_SHOWN.maxlist = _SHOWN.maxdict = 8


def shown(value: Any) -> str:
    """`repr(value)` for a message, cut short: a few levels, a few items, short strings.

    >>> shown("fridge"), shown([[[[[1]]]]])
    ("'fridge'", '[[[[...]]]]')
    """
    return _SHOWN.repr(value)


def read_bytes(path: str | Path, what: str = "", *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a user's regular file, at most `limit`; else one BadInputError naming
    `what` and `path`: the system's reason, a folder, not a regular file (a named pipe, a
    device, a socket: refused before reading, so /dev/zero or a pipe nobody writes cannot
    hang the reader), or a file larger than `limit`.

    >>> read_bytes("/dev/zero", "the graph")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sceneplan.errors.BadInputError: cannot read the graph /dev/zero: it is a device, not a ...
    """
    named = f"{what} {path}" if what else str(path)
    try:
        # O_NONBLOCK: opening a named pipe nobody writes to returns at once (refused below)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise BadInputError(f"cannot read {named}: {exc.strerror}") from None
    try:
        _check_kind(os.fstat(fd), named, limit)
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while chunk := os.read(fd, _CHUNK):
            size += len(chunk)
            if size > limit:  # a file that grows while it is read
                raise too_large(named, limit)
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise BadInputError(f"cannot read {named}: {exc.strerror}") from None
    finally:
        os.close(fd)


def check_file(path: str | Path, what: str = "", *, limit: int = MAX_FILE_BYTES) -> None:
    """For a library that opens the path itself: `read_bytes`'s refusals, nothing read."""
    named = f"{what} {path}" if what else str(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BadInputError(f"cannot read {named}: {exc.strerror}") from None
    _check_kind(info, named, limit)


def _check_kind(info: os.stat_result, named: str, limit: int) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise BadInputError(f"cannot read {named}: it is a directory, not a file")
    if not stat.S_ISREG(mode):
        kind = "a named pipe" if stat.S_ISFIFO(mode) else "a socket"
        kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else kind
        raise BadInputError(
            f"cannot read {named}: it is {kind}, not a regular file; "
            "save the input to a file and give that"
        )
    if info.st_size > limit:
        raise too_large(named, limit)


def read_text(path: str | Path, what: str = "", *, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a user's file (`read_bytes`); one BadInputError naming `what` and
    `path` when it cannot be read or is not UTF-8 text (the first byte that is not).

    >>> read_text(Path("missing.txt"), "the episode")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sceneplan.errors.BadInputError: cannot read the episode missing.txt: No such file or directory
    """
    raw = read_bytes(path, what, limit=limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        named = f"{what} {path}" if what else str(path)
        raise BadInputError(f"cannot read {named}: not UTF-8 text (byte {exc.start})") from None


def too_large(named: str, limit: int) -> BadInputError:
    """The error for a file or body over its limit of `limit` bytes."""
    return BadInputError(f"{named} is larger than {_size(limit)}, more than sceneplan reads")


def _size(n: int) -> str:
    return f"{n / (1 << 30):g} GiB" if n >= 1 << 30 else f"{n / (1 << 20):g} MiB"


class BodyLimit:
    """Bounds one HTTP body as it streams in: at most `limit` bytes, all within `seconds`.

    A server's read timeout bounds the wait for each chunk; a body that never
    ends, or trickles a byte at a time, needs a bound on the whole: `add(chunk)`
    raises BadInputError naming `what` once either is passed.
    """

    def __init__(self, what: str, limit: int, seconds: float) -> None:
        self.what, self.limit, self.seconds = what, limit, seconds
        self.size = 0
        self.deadline = time.monotonic() + seconds

    def add(self, chunk: bytes) -> bytes:
        """`chunk`, counted; BadInputError past the byte or time limit."""
        self.size += len(chunk)
        if self.size > self.limit:
            raise BadInputError(
                f"{self.what} sent a body of more than {_size(self.limit)} and still going; "
                "sceneplan stopped reading (is the address the right server?)"
            )
        if time.monotonic() > self.deadline:
            raise BadInputError(
                f"{self.what} was still sending its body after {self.seconds:g} s "
                f"({self.size:,} bytes); sceneplan stopped reading"
            )
        return chunk


def read_body(stream: Any, what: str, limit: int, seconds: float) -> bytes:
    """All of a file-like HTTP body, bounded by a `BodyLimit`.

    Read with `read1`, which returns what has arrived: `read(n)` waits for n bytes,
    forever for a body that trickles.
    """
    bound = BodyLimit(what, limit, seconds)
    chunks = []
    while chunk := stream.read1(min(_CHUNK, limit + 1)):
        chunks.append(bound.add(chunk))
    return b"".join(chunks)


def too_deep(source: str, kind: str = "JSON", limit: int = MAX_NESTING) -> BadInputError:
    """The error for input nested beyond the limit."""
    return BadInputError(
        f"{source}: nested too deeply (more than about {limit:,} levels of {kind} "
        "lists or objects); sceneplan's formats need fewer than ten"
    )


def too_many_digits(exc: ValueError, source: str) -> BadInputError | None:
    """The error for a number of more than `MAX_DIGITS` digits, if `exc` is Python's refusal
    of one (json, yaml and tomllib raise it as a plain ValueError); else None.

    >>> str(too_many_digits(ValueError("Exceeds the limit (4300 digits) for integer"), "x"))
    'x: a number of more than 4,300 digits; no sceneplan value needs that many'
    """
    if re.search(r"limit \(\d+ digits\)", str(exc)) is None:
        return None
    return BadInputError(
        f"{source}: a number of more than {MAX_DIGITS:,} digits; no sceneplan value needs that many"
    )


def parse_int(text: str, source: str) -> int:
    """`int(text)` of a string of digits; more than `MAX_DIGITS` of them is a BadInputError."""
    if len(text) > MAX_DIGITS:
        raise BadInputError(
            f"{source}: a number of {len(text):,} digits (more than {MAX_DIGITS:,}); "
            "no sceneplan value needs that many"
        )
    return int(text)


def parse_json(text: str | bytes, source: str) -> Any:
    """`json.loads`; nesting or a number beyond the limits raises BadInputError (json's own
    errors, ValueErrors, pass)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise too_deep(source) from None
    except ValueError as exc:
        raise too_many_digits(exc, source) or exc from None


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """`tomllib.loads`; nesting or a number beyond the limits raises BadInputError
    (tomllib's own TOMLDecodeError passes)."""
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError:
        raise too_deep(source, "TOML") from None
    except ValueError as exc:
        raise too_many_digits(exc, source) or exc from None


def parse_yaml(text: str, source: str) -> Any:
    """`yaml.safe_load`; nesting or a number beyond the limits raises BadInputError (yaml's
    errors pass).

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
    except ValueError as exc:
        raise too_many_digits(exc, source) or exc from None


def read_json(path: str | Path, what: str = "") -> Any:
    """The JSON of a user's file (`read_text`, `parse_json`); a syntax error is one
    BadInputError: `PATH: not valid JSON (line L, column C: why)`."""
    return _read_parsed(path, what, parse_json, json.JSONDecodeError, "JSON")


def read_yaml(path: str | Path, what: str = "") -> Any:
    """The YAML of a user's file (`read_text`, `parse_yaml`); a syntax error is one
    BadInputError: `PATH: not valid YAML (why, where)`."""
    import yaml

    return _read_parsed(path, what, parse_yaml, yaml.YAMLError, "YAML")


def read_toml(path: str | Path, what: str = "") -> dict[str, Any]:
    """The TOML of a user's file (`read_text`, `parse_toml`); a syntax error is one
    BadInputError: `PATH: not valid TOML (why, where)`."""
    import tomllib

    return _read_parsed(path, what, parse_toml, tomllib.TOMLDecodeError, "TOML")


def _read_parsed(
    path: str | Path, what: str, parse: Callable[[str, str], T], error: type[Exception], kind: str
) -> T:
    text = read_text(path, what)
    try:
        return parse(text, str(path))
    except error as exc:
        raise syntax_error(kind, str(path), exc) from None


def syntax_error(kind: str, source: str, exc: Exception) -> BadInputError:
    """The error for text that is not valid `kind` (JSON, YAML, TOML): where and why.

    >>> import json
    >>> try:
    ...     json.loads('{"a": ]}')
    ... except ValueError as exc:
    ...     print(syntax_error("JSON", "x.json", exc))
    x.json: not valid JSON (line 1, column 7: Expecting value)
    """
    if isinstance(exc, json.JSONDecodeError):
        return BadInputError(
            f"{source}: not valid {kind} (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        )
    return BadInputError(f"{source}: not valid {kind} ({exc})")


# a token or a list of Sexp; list[Any], since readers index lists after checking their shape
Sexp = str | list[Any]
SEXP_NESTING = 100  # levels of brackets; what reads an s-expression recurses once a level
_SEXP_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def parse_sexp(text: str, source: str = "the text", *, limit: int = SEXP_NESTING) -> list[Sexp]:
    """One parenthesized s-expression (PDDL, BDDL) as nested lists of tokens; `;` starts a
    comment that runs to the end of its line.

    Anything else is one BadInputError naming `source` and the place: no
    expression, a `)` that closes nothing, a `(` never closed, text after the
    expression, or more than `limit` levels of brackets (read without recursion,
    so no depth can overflow the stack; the limit is for what reads the lists).

    >>> parse_sexp("(and (p a) b) ; done")
    ['and', ['p', 'a'], 'b']
    >>> parse_sexp("(full coffee_mug)) (", "the goal")
    Traceback (most recent call last):
    ...
    sceneplan.errors.BadInputError: the goal: the ')' at line 1, column 18 closes nothing
    """
    text = re.sub(r";[^\n]*", "", text)
    stack: list[list[Sexp]] = [[]]
    for match in _SEXP_TOKEN.finditer(text):
        token, at = match.group(), match.start()
        if token == ")":
            if len(stack) == 1:
                raise _sexp_error(source, text, at, "the ')' at", " closes nothing")
            done = stack.pop()
            stack[-1].append(done)
        elif len(stack) == 1 and stack[0]:
            raise _sexp_error(source, text, at, "text after the expression, at")
        elif token == "(":
            stack.append([])
            if len(stack) > limit + 1:
                raise too_deep(source, "s-expression", limit)
        elif len(stack) == 1:
            raise _sexp_error(source, text, at, "expected '(' at", f", not {shown(token)}")
        else:
            stack[-1].append(token)
    if len(stack) > 1:
        raise BadInputError(f"{source}: {len(stack) - 1} '(' never closed; close each with ')'")
    if not stack[0]:
        raise BadInputError(f"{source}: empty; expected one (...) expression")
    top = stack[0][0]
    assert isinstance(top, list)
    return top


def _sexp_error(source: str, text: str, at: int, what: str, why: str = "") -> BadInputError:
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return BadInputError(f"{source}: {what} line {line}, column {column}{why}")


def show_sexp(x: Sexp) -> str:
    """Nested lists of tokens as s-expression text (the inverse of `parse_sexp`)."""
    return x if isinstance(x, str) else "(" + " ".join(show_sexp(p) for p in x) + ")"


def write_text(path: str | Path, text: str, what: str = "") -> None:
    """`write_files` of one file."""
    write_files({Path(path): text}, what)


def write_files(files: dict[Path, str], what: str = "") -> None:
    """Write each text to its path (UTF-8), with missing folders made.

    Each goes to a temporary file beside its path first; only when all are
    written are they renamed over their paths, so a refused write (a full disk,
    a file size limit) leaves every old file as it was and no partial file. (A
    rename that fails, which takes a folder where a file should go, leaves the
    files renamed before it.)
    A new file gets the permissions the umask gives; a replaced one keeps its own.
    A failure is one BadInputError naming the file and the system's reason.
    """
    written: list[tuple[str, Path]] = []
    try:
        for path, text in files.items():
            named = f"{what} {path}" if what else str(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
                written.append((temporary, path))
                with os.fdopen(fd, "wb") as file:
                    file.write(text.encode("utf-8"))
                os.chmod(temporary, _mode_for(path))
            except OSError as exc:
                raise BadInputError(f"cannot write {named}: {exc.strerror}") from None
        while written:
            temporary, path = written[0]
            try:
                os.replace(temporary, path)
            except OSError as exc:
                named = f"{what} {path}" if what else str(path)
                raise BadInputError(f"cannot write {named}: {exc.strerror}") from None
            written.pop(0)
    finally:
        for temporary, _ in written:
            Path(temporary).unlink(missing_ok=True)


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
