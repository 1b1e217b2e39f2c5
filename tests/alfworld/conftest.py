"""Fixtures of the ALFWorld tests: the data folder when present."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "alfworld"


@pytest.fixture
def data_dir() -> Path:
    """The ALFWorld data folder (../shared/data/alfworld); the test is skipped without it."""
    if not (DATA / "manifest.json").is_file():
        pytest.skip(f"the ALFWorld data folder is not at {DATA}")
    return DATA
