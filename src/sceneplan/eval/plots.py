"""PNG plots of the metrics: success by family, error types, token progression during search.

matplotlib is the optional extra `sceneplan[plots]`, imported only here, and
used through its object API with the Agg canvas (no display, no global state).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from sceneplan.errors import BackendUnavailableError
from sceneplan.eval import robustness
from sceneplan.eval.metrics import ALL_PLANNING, PLANNING, SEARCH, Row
from sceneplan.planners.episode import ErrorType

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def require_matplotlib() -> None:
    """Raise BackendUnavailableError, naming the extra, unless matplotlib can be imported."""
    try:
        import matplotlib.figure  # noqa: F401  (what the plots use)
    except ImportError:
        raise BackendUnavailableError(
            "plots need matplotlib: pip install 'sceneplan[plots]'"
        ) from None


def write_plots(metrics: dict[str, list[Row]], folder: str | Path) -> list[Path]:
    """Write every plot that has data into `folder`; the paths written."""
    require_matplotlib()
    from matplotlib.figure import Figure

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in PLOTS.items():
        figure = Figure(figsize=(8, 4.5), layout="constrained")
        if draw(metrics, figure):
            path = folder / name
            figure.savefig(path, dpi=120)
            written.append(path)
    return written


def _success_by_family(metrics: dict[str, list[Row]], figure: Figure) -> bool:
    """Search found (Table 1) and planning correctness (Table 3) per family, pooled over
    environments; groups where the measure is unknown are left out."""
    pooled: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(dict)
    for section, wanted, value, count in (
        ("search", SEARCH, "found", "found_n"),
        ("planning", PLANNING, "correctness", "n"),
    ):
        for r in metrics[section]:
            if r["family"] in wanted and r[value] is not None:
                hits, n = pooled[(r["planner"], r["model"])].get(r["family"], [0.0, 0])
                pooled[(r["planner"], r["model"])][r["family"]] = [
                    hits + r[value] * r[count],
                    n + r[count],
                ]
    families = [f for f in (*SEARCH, *PLANNING) if any(f in v for v in pooled.values())]
    if not families:
        return False
    series = {
        f"{p} ({m})": [v[f][0] / v[f][1] if f in v else 0.0 for f in families]
        for (p, m), v in sorted(pooled.items())
    }
    _bars(figure, families, series, "found (search) / correctness (planning)", "Success by family")
    return True


def _error_types(metrics: dict[str, list[Row]], figure: Figure) -> bool:
    rows = [r for r in metrics["planning"] if r["family"] == ALL_PLANNING]
    if not rows:
        return False
    pooled: dict[str, list[float]] = defaultdict(lambda: [0.0] * (len(ErrorType) + 1))
    for r in rows:  # pool environments, weighting by episodes
        acc = pooled[f"{r['planner']} ({r['model']})"]
        for i, t in enumerate(ErrorType):
            acc[i] += r[t.value] * r["n"]
        acc[-1] += r["n"]
    series = {label: [v / acc[-1] for v in acc[:-1]] for label, acc in sorted(pooled.items())}
    _bars(figure, [t.value for t in ErrorType], series, "share of planning tasks", "Plan errors")
    return True


def _token_progression(metrics: dict[str, list[Row]], figure: Figure) -> bool:
    rows = metrics["token_progression"]
    if not rows:
        return False
    lines: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        lines[f"{r['planner']} ({r['model']}) {r['environment']}"].append(r)
    axes = figure.add_subplot()
    for label, turns in lines.items():
        xs = [t["turn"] for t in turns]
        (line,) = axes.plot(xs, [t["graph_tokens"] for t in turns], marker="o", label=label)
        axes.plot(xs, [t["prompt_tokens"] for t in turns], linestyle="--", color=line.get_color())
    axes.set_xlabel("search turn")
    axes.set_ylabel("tokens (solid: graph, dashed: whole prompt)")
    axes.set_title("Token progression during semantic search")
    axes.legend(fontsize="small")
    return True


def _bars(
    figure: Figure, groups: list[str], series: dict[str, list[float]], ylabel: str, title: str
) -> None:
    axes = figure.add_subplot()
    axes.set_title(title)
    width = 0.8 / max(len(series), 1)
    for i, (label, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        axes.bar(xs, values, width=width, label=label)
    axes.set_xticks(range(len(groups)), [g.replace("_", " ") for g in groups])
    axes.set_ylabel(ylabel)
    axes.set_ylim(0, 1)
    axes.legend(fontsize="small")


# The files `write_plots` may write, by name (the CLI checks them before it writes).
PLOTS = {
    "success_by_family.png": _success_by_family,
    "error_types.png": _error_types,
    "token_progression.png": _token_progression,
    "robustness.png": lambda metrics, figure: robustness.draw(
        metrics.get("robustness", []), figure
    ),
}
