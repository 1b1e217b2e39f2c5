"""The benchmark: run planners on task suites into a results store, then metrics and reports.

`runner.run_eval` fills a `store.Store` (SQLite, resumable); `metrics.compute`
reads only the stored Episodes; `report.render` and `plots.write_plots` show
them next to the papers' published numbers. See docs/eval.md.
"""

from sceneplan.eval.metrics import compute
from sceneplan.eval.report import render
from sceneplan.eval.runner import Job, Totals, evaluate, load_tasks, run_eval
from sceneplan.eval.store import Key, Record, Store

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
