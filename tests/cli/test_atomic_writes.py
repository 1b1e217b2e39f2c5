"""Output files are written through a temporary file and a rename: a full disk loses nothing."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.textinput import write_files

runner = CliRunner()
VH = Path(__file__).resolve().parents[1] / "importers" / "data" / "kitchen.vh.json"


def _script() -> list[str]:
    script = Path(sys.executable).with_name("sceneplan")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sceneplan.cli"]


def _import(out: Path, *extra: str, file_limit: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:  # `ulimit -f`: writes past it fail with EFBIG (Python ignores SIGXFSZ)
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run(
        [*_script(), "graph", "import", "--from", "virtualhome", str(VH), str(out), *extra],
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_refused_write_with_force_keeps_the_old_out_whole(tmp_path):
    out = tmp_path / "kitchen.json"
    out.write_text("the previous graph")
    done = _import(out, "--force", file_limit=500)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "File too large" in done.stderr
    assert "Traceback" not in done.stderr
    assert out.read_text() == "the previous graph"
    assert [p.name for p in tmp_path.iterdir()] == ["kitchen.json"]  # no partial file left


def test_a_refused_write_leaves_nothing_that_blocks_the_rerun(tmp_path):
    out = tmp_path / "kitchen.json"
    assert _import(out, file_limit=500).returncode == 2
    assert list(tmp_path.iterdir()) == []
    done = _import(out)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 500


def test_a_missing_output_folder_is_refused_before_importing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def never(*args, **kwargs):
        raise AssertionError("imported before the output was checked")

    monkeypatch.setattr("sceneplan.importers.import_source", never)
    result = runner.invoke(app, ["graph", "import", "--from", "virtualhome", str(VH), "no/k.json"])
    assert result.exit_code == 2
    assert "the folder no does not exist (create it first)" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["graph", "import", "--from", "virtualhome", str(VH), ""],
        ["pddl", "coffee", "--out", ""],
        ["view", "coffee", "-o", ""],
        ["plan", "--task", "planning-simple-02", "-p", "oracle", "--trace", ""],
    ],
)
def test_an_empty_output_path_is_named_as_empty(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "an empty path; give a file or folder name" in result.output
    assert list(tmp_path.iterdir()) == []


def test_write_files_is_all_or_none(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "sub" / "b.txt"
    first.write_text("old a")
    (tmp_path / "sub").mkdir()
    second.mkdir()  # a folder where the second file should go: its rename fails
    with pytest.raises(BadInputError, match="cannot write"):
        write_files({first: "new a", second: "new b"})
    assert first.read_text() == "old a" or first.read_text() == "new a"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "b.txt", "sub"]
