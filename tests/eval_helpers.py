"""What the eval tests share: the coffee task file, its reference plan, stable metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sceneplan.datasets.tasks import load_task_file

COFFEE_TASKS = Path(__file__).parent / "eval" / "data" / "coffee_tasks.yaml"
# The plan the scripted model gives for coffee-plan-01 (Put the coffee mug on Tom's bed).
REFERENCE_PLAN = next(
    t.reference_plan for t in load_task_file(COFFEE_TASKS) if t.id == "coffee-plan-01"
)
TIMING = {"wall_time_s", "llm_latency_s"}


def without_timings(metrics: dict[str, Any]) -> dict[str, Any]:
    """Metrics without the timings, which differ from run to run."""
    return {
        section: [{k: v for k, v in row.items() if k not in TIMING} for row in rows]
        for section, rows in metrics.items()
    }
