"""The benchmark: run planners on task suites into a results store, then metrics and reports.

`runner.run_eval` fills a `store.Store` (SQLite or PostgreSQL, resumable); `metrics.compute`
reads only the stored Episodes; `report.render` and `plots.write_plots` show
them next to the papers' published numbers. See docs/eval.md.
"""

import lazy_loader

# Each public name is imported from its module on first use (PEP 562), as the stub
# __init__.pyi beside this file lists them: importing the package alone loads none of them.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
