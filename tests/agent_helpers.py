"""What the tests of `sceneplan mcp` (tests/agents) share: the command, a free port."""

from __future__ import annotations

import shutil
import socket
import sys
from pathlib import Path


def command() -> list[str]:
    """`sceneplan` as installed beside this Python (the tests' virtualenv)."""
    found = shutil.which("sceneplan", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "sceneplan.cli"]


def stdio(*args: str):
    """The mcp SDK's parameters for starting `sceneplan ARGS...` as a stdio server."""
    from mcp import StdioServerParameters

    first, *rest = command()
    return StdioServerParameters(command=first, args=[*rest, *args])


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
