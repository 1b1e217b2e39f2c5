"""The task index (`datasets/tasks/index.json`): current, used, and never trusted when stale."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
import yaml

from sceneplan.datasets import tasks as tasks_module
from sceneplan.datasets.packaged_index import INDEX_FILE
from sceneplan.datasets.tasks import (
    build_index,
    get_task,
    index_text,
    list_suites,
    load_suite,
    packaged_tasks,
    task_index,
)
from sceneplan.textinput import parse_yaml

ROOT = Path(__file__).resolve().parents[2]
FOLDER = resources.files("sceneplan.datasets") / "tasks"


def clear_caches() -> None:
    for cached in (tasks_module.task_index, tasks_module._packaged_file, packaged_tasks):
        cached.cache_clear()


@pytest.fixture
def fresh_caches():
    clear_caches()
    yield
    clear_caches()


@pytest.mark.slow
def test_the_shipped_index_is_what_the_command_writes():
    shipped = (FOLDER / INDEX_FILE).read_text(encoding="utf-8")
    assert shipped == index_text(build_index())
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/build_task_index.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_index_names_every_packaged_task_once():
    index = task_index()
    assert index is not None
    ids = [i for entry in index for i in entry["ids"]]
    assert ids == [t.id for t in packaged_tasks()]
    assert sorted({s for entry in index for s in entry["suites"]}) == list_suites()


def test_a_lookup_reads_only_the_file_that_holds_the_task(fresh_caches):
    assert [t.id for t in load_suite("office-search")][:1] == ["office-simple-01"]
    assert tasks_module._packaged_file.cache_info().currsize == 1


def test_a_task_by_id_is_read_from_its_own_lines(fresh_caches, monkeypatch):
    monkeypatch.setattr(tasks_module, "_packaged_file", None)  # no whole file is read
    task = get_task("behavior-1k-clean_a_led_screen")
    assert task.environment == "behavior-clean_a_led_screen"
    monkeypatch.undo()
    assert task == next(t for t in load_suite("behavior-1k") if t.id == task.id)


@pytest.mark.slow
def test_every_indexed_span_holds_its_task():
    index = task_index()
    assert index is not None and all("spans" in entry for entry in index)
    for entry in index:
        data = (FOLDER / entry["file"]).read_bytes()
        tasks = tasks_module._packaged_file(entry["file"])
        for span, task in zip(entry["spans"], tasks, strict=True):
            assert tasks_module._task_at(data, span, entry["file"]) == task


def test_spans_that_do_not_read_as_the_file_does_are_not_indexed(tmp_path, monkeypatch):
    # an anchor defined in one task and used in the next: that task's own lines do not read
    text = (
        "- &first\n  id: a\n  suite: s\n  family: simple_planning\n  environment: office\n"
        "  instruction: Close it.\n  goal: closed(cabinet5)\n"
        "- {<<: *first, id: b}\n"
    )
    assert len(tasks_module.item_spans(text.encode())) == 2
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(tasks_module, "_FOLDER", tmp_path)
    clear_caches()
    try:
        (entry,) = build_index()["files"]
        assert entry["ids"] == ["a", "b"] and "spans" not in entry
    finally:
        clear_caches()


def test_the_c_loader_reads_the_suites_as_the_python_loader_does(monkeypatch):
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML built without libyaml")
    for name in ("office_planning.yaml", "virtualhome_grasif.yaml"):
        text = (FOLDER / name).read_text(encoding="utf-8")
        expected = yaml.safe_load(text)
        with monkeypatch.context() as patched:  # valid text never reaches the Python loader
            patched.setattr(yaml, "safe_load", None)
            assert parse_yaml(text, name) == expected


def test_bad_yaml_keeps_the_python_loaders_message(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("- id: a\n  suite: [unclosed\n", encoding="utf-8")
    with pytest.raises(tasks_module.BadInputError) as caught:
        tasks_module.load_task_file(path)
    try:
        yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        expected = f"{path}: not valid YAML ({exc})"
    assert str(caught.value) == expected


@pytest.mark.slow
def test_a_stale_index_is_ignored_and_every_file_read(tmp_path, monkeypatch, fresh_caches):
    folder = tmp_path / "tasks"
    shutil.copytree(Path(str(FOLDER)), folder)
    monkeypatch.setattr(tasks_module, "_FOLDER", folder)
    extra = next(t for t in load_suite("office-planning") if t.id == "planning-simple-01")
    extra = replace(extra, id="planning-added-01")
    with (folder / "office_planning.yaml").open("a", encoding="utf-8") as out:
        out.write(yaml.safe_dump([extra.to_dict(defaults=False)]))
    clear_caches()
    assert task_index() is None  # the file changed size since the index was written
    assert get_task("planning-added-01").suite == "office-planning"
    (folder / INDEX_FILE).write_text(index_text(build_index()), encoding="utf-8")
    clear_caches()
    assert task_index() is not None
    assert get_task("planning-added-01").id == "planning-added-01"
    (folder / "office_new.yaml").write_text("[]\n", encoding="utf-8")  # a file not indexed
    clear_caches()
    assert task_index() is None
