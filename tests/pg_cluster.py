"""A throwaway PostgreSQL cluster on loopback, for the PostgreSQL store's tests.

`.ci/run` starts one for the whole test session and exports its URL as
SCENEPLAN_TEST_POSTGRES; without that variable, the `postgres_url` fixture
(tests/eval/conftest.py) starts one itself when the server's binaries are
installed. Run as a script: `python tests/pg_cluster.py start DIR` prints the
URL, `python tests/pg_cluster.py stop DIR` stops it.

`initdb` and `postgres` refuse to run as root: as root they run as the
`postgres` user, in a folder that user owns. Connections come over TCP on
127.0.0.1 only, with a password (so a wrong one is refused as on a real
server); no Unix socket is made.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

USER = "sceneplan"
PASSWORD = "throwaway-test-password"
ENV = "SCENEPLAN_TEST_POSTGRES"


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl (on PATH, or Debian's /usr/lib/postgresql/N/bin)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _as_server_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(folder: Path | None = None) -> tuple[str, Path]:
    """Start a cluster in `folder` (a new temporary one if None); returns (URL, folder).

    The URL names the database `postgres`; tests create their own databases in it.
    """
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL's initdb and pg_ctl are not installed")
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="sp-pg-"))
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    pwfile = folder / "pw"
    pwfile.write_text(PASSWORD + "\n", encoding="utf-8")
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        for path in (folder, pwfile):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        folder.chmod(0o700)
    subprocess.run(
        _as_server_user(
            [
                *(str(bin_dir / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={pwfile}"),
                *("--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "-E", "UTF8"),
                *("--no-sync", "--locale=C"),
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for attempt in range(5):
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories='' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=100"
        )
        done = subprocess.run(
            _as_server_user(
                [
                    *(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-t", "60"),
                    *("-l", str(folder / "log"), "start"),
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if done.returncode == 0:
            return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{port}/postgres", folder
        if attempt == 4:
            raise RuntimeError(f"the throwaway PostgreSQL did not start: {done.stderr!r}")
        time.sleep(0.2)
    raise AssertionError("unreachable")


@contextmanager
def new_database(server: str) -> Iterator[str]:
    """A new, empty database on `server` (dropped on leaving): its URL."""
    import psycopg

    name = f"sp_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def stop(folder: Path) -> None:
    """Stop the cluster started in `folder` and delete the folder."""
    bin_dir = binaries()
    pid_file = folder / "data" / "postmaster.pid"
    if bin_dir is not None and pid_file.exists():
        subprocess.run(
            _as_server_user(
                [str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "stop"]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    if pid_file.exists():  # pg_ctl could not stop it: end the server by its process id
        with suppress(OSError, ValueError, IndexError):
            os.kill(int(pid_file.read_text(encoding="utf-8").split()[0]), signal.SIGQUIT)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    command, where = sys.argv[1], Path(sys.argv[2])
    if command == "start":
        print(start(where)[0])
    elif command == "stop":
        stop(where)
    else:
        sys.exit(f"usage: {sys.argv[0]} start|stop FOLDER")
