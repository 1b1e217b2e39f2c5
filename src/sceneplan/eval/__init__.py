"""The benchmark: run planners on task suites into a results store, then metrics and reports.

`runner.run_eval` fills a `store.Store` (SQLite or PostgreSQL, resumable); `metrics.compute`
reads only the stored Episodes; `report.render` and `plots.write_plots` show
them next to the papers' published numbers. See docs/eval.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sceneplan.eval.metrics import compute
    from sceneplan.eval.report import render
    from sceneplan.eval.runner import Job, Totals, evaluate, load_tasks, run_eval
    from sceneplan.eval.store import Key, Record, Store

# Each public name and the module it comes from, imported on first use (PEP 562):
# importing the package alone loads none of them.
_EXPORTS = {
    "compute": "sceneplan.eval.metrics",
    "render": "sceneplan.eval.report",
    "Job": "sceneplan.eval.runner",
    "Totals": "sceneplan.eval.runner",
    "evaluate": "sceneplan.eval.runner",
    "load_tasks": "sceneplan.eval.runner",
    "run_eval": "sceneplan.eval.runner",
    "Key": "sceneplan.eval.store",
    "Record": "sceneplan.eval.store",
    "Store": "sceneplan.eval.store",
}

__all__ = [
    "Job",
    "Key",
    "Record",
    "Store",
    "Totals",
    "compute",
    "evaluate",
    "load_tasks",
    "render",
    "run_eval",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
