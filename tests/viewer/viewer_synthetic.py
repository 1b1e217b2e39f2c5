"""The benchmarks' synthetic building (benchmarks/synthetic.py), as a SceneGraph for tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from sceneplan.graph import SceneGraph, from_dict

_SOURCE = Path(__file__).resolve().parents[2] / "benchmarks" / "synthetic.py"


def synthetic_graph(rooms: int, items_per_room: int = 40) -> SceneGraph:
    spec = importlib.util.spec_from_file_location("_viewer_synthetic", _SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return from_dict(module.synthetic_building(rooms, items_per_room))
