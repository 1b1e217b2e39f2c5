"""The public names of `sceneplan.eval`, for type checkers and for `lazy_loader.attach_stub`,
which makes each one import its module on first use (see __init__.py)."""

from .metrics import compute as compute
from .report import render as render
from .runner import Job as Job
from .runner import Totals as Totals
from .runner import evaluate as evaluate
from .runner import load_tasks as load_tasks
from .runner import run_eval as run_eval
from .store import Key as Key
from .store import Record as Record
from .store import Store as Store
