"""SCLPlan's tables beside its published numbers: `sceneplan report --table sclplan-1|2|3`.

- sclplan-1 (Table I): task success, tokens and environment steps per planner
  and model, and each one's change against ReAct with the same model, beside
  the paper's changes averaged over its 7 LLMs;
- sclplan-2 (Table II): repeatability, mean (std) over the runs of each task
  (`eval --runs 10`), averaged over tasks, beside the paper's rows; and the
  tokens per task of each phase (goal, ReAct, rooms) beside the paper's
  token column;
- sclplan-3 (Tables III-IV): the share of actions each component proposed,
  invalid ReAct predictions, PV corrections and global plans found, beside
  the paper's rows for ALFWorld (Table III) and its custom AI2Thor set (IV).

Measured rows come from `eval.metrics` (`sclplan`, `repeatability`).
"""

from __future__ import annotations

from typing import Any

from sceneplan.eval.metrics import PHASES, Row
from sceneplan.eval.tables import num, pct, published, table

ORDER = ("react", "react_pv", "sclplan")
_SHARES = ("react_actions", "pv_actions", "planner_actions")
_RATES = ("react_invalid", "pv_corrected", "global_plan_found")
_TOKENS = tuple(f"{phase}_tokens" for phase in PHASES)


def _base(planner: str) -> str:
    """`sclplan[timeout=5]` -> `sclplan`."""
    return planner.split("[", 1)[0]


def pooled(rows: list[Row]) -> list[Row]:
    """The `sclplan` metric rows of one planner and model over all their environments (an
    ALFWorld task is its own environment), each value weighted by its row's episodes."""
    groups: dict[tuple[str, str], list[Row]] = {}
    for x in rows:
        if _base(x["planner"]) in ORDER:
            groups.setdefault((x["planner"], x["model"]), []).append(x)
    out = []
    for (planner, model), group in groups.items():
        n = sum(x["n"] for x in group)
        envs = {x["environment"].split("-", 1)[0] for x in group}
        row: Row = {"planner": planner, "model": model, "n": n}
        row["environment"] = envs.pop() if len(envs) == 1 else "several"
        solvers = {name for x in group for name in (x.get("solver") or "").split(", ") if name}
        row["solver"] = ", ".join(sorted(solvers))
        for key in ("success", "tokens", "env_steps", *_TOKENS, *_SHARES, *_RATES):
            known = [(x[key], x["n"]) for x in group if x.get(key) is not None]
            weight = sum(w for _, w in known)
            row[key] = sum(v * w for v, w in known) / weight if weight else None
        out.append(row)
    return out


def solvers_note(rows: list[Row]) -> str:
    """Which symbolic planner produced each measured row (PV's and the global plan's)."""
    named = [f"{x['planner']} ({x['model']}): {x['solver']}" for x in rows if x.get("solver")]
    return "\n\nSymbolic planner of each row: " + "; ".join(named) + "." if named else ""


def table1(metrics: dict[str, list[Row]]) -> str:
    rows = pooled(metrics.get("sclplan", []))
    if not rows:
        return ""
    react = {x["model"]: x for x in rows if _base(x["planner"]) == "react"}

    def delta(x: Row, key: str, digits: int, scale: float = 1.0) -> str:
        base = react.get(x["model"])
        if base is None or base is x or x[key] is None or base[key] is None:
            return "-"
        return f"{scale * (x[key] - base[key]):+,.{digits}f}"

    body = [
        [
            *(x["planner"], x["model"], x["n"], pct(x["success"])),
            *(num(x["tokens"], 0), num(x["env_steps"], 1)),
            *(delta(x, "success", 1, 100), delta(x, "tokens", 0), delta(x, "env_steps", 1)),
        ]
        for x in sorted(rows, key=lambda x: (x["model"], ORDER.index(_base(x["planner"]))))
    ]
    for p in published()["sclplan_table1"]["rows"]:
        changes = [
            "-" if p[k] is None else f"{scale * p[k]:+,.{d}f}"
            for k, d, scale in (("success", 1, 100), ("tokens", 0, 1), ("env_steps", 1, 1))
        ]
        body.append([f"[paper] {p['method']}", "7 LLMs (mean)", "134", "-", "-", "-", *changes])
    return (
        "## ALFWorld: task success, tokens, steps (SCLPlan Table I)\n\n"
        + table(
            [
                *("Planner", "Model", "n", "Task success", "Tokens", "Env steps"),
                *("Δ success (pts)", "Δ tokens", "Δ env steps"),
            ],
            body,
        )
        + solvers_note(rows)
    )


def _spread(mean: float | None, std: float | None, digits: int) -> str:
    return f"{num(mean, digits)} (±{num(std, digits)})"


def table2(metrics: dict[str, list[Row]]) -> str:
    parts = [_repeatability(metrics), _phase_tokens(metrics)]
    return "\n\n".join(p for p in parts if p)


def _phase_tokens(metrics: dict[str, list[Row]]) -> str:
    """Tokens per task of each phase, beside the paper's tokens per task (Table II)."""
    rows = pooled(metrics.get("sclplan", []))
    if not rows:
        return ""
    body = [
        [
            *(x["planner"], x["model"], x["n"]),
            *(num(x[k], 0) for k in _TOKENS),
            num(x["tokens"], 0),
        ]
        for x in sorted(rows, key=lambda x: (x["model"], ORDER.index(_base(x["planner"]))))
    ]
    for p in published()["sclplan_table2"]["rows"]:
        body.append(_paper_row(p, "-", "-", "-", _pair(p["tokens"], 0)))
    return (
        "## Tokens per task by phase (SCLPlan Table II's token column)\n\n"
        "Mean tokens per task of each phase's LLM calls: SCLPlan's goal (Phase 1), the "
        "ReAct steps (Phase 3), and the choice of rooms when the scene graph is too large "
        "to show; the paper gives only the total.\n\n"
        + table(["Planner", "Model", "n", "Goal", "ReAct", "Rooms", "All"], body)
    )


def _pair(published: list[float], digits: int) -> str:
    """A published (mean, standard deviation) pair as `_spread` writes it."""
    mean, std = published
    return _spread(mean, std, digits)


def _paper_row(p: dict[str, Any], *cells: Any) -> list[Any]:
    """A row of SCLPlan Table II as published (10 ALFWorld tasks), then `cells`."""
    return [f"[paper] {p['planner']}", p["model"], 10, *cells]


def _repeatability(metrics: dict[str, list[Row]]) -> str:
    rows = metrics.get("repeatability", [])  # every planner run more than once
    body = [
        [
            *(x["planner"], x["model"], x["tasks"], x["runs"]),
            _spread(x["success_mean"], x["success_std"], 2),
            _spread(x["tokens_mean"], x["tokens_std"], 0),
            _spread(x["steps_mean"], x["steps_std"], 2),
        ]
        for x in rows
    ]
    if not body:
        return ""
    for p in published()["sclplan_table2"]["rows"]:
        body.append(
            _paper_row(
                p,
                10,  # runs of each task
                _pair(p["success"], 2),
                _pair(p["tokens"], 0),
                _pair(p["env_steps"], 2),
            )
        )
    return (
        "## Repeatability across runs (SCLPlan Table II)\n\n"
        "Mean (standard deviation) over the runs of each task, averaged over tasks; env steps "
        "are actions sent to the environment. The paper's rows are over 10 runs of each of 10 "
        "ALFWorld tasks.\n\n"
        + table(["Planner", "Model", "Tasks", "Runs", "Task success", "Tokens", "Env steps"], body)
    )


def table3(metrics: dict[str, list[Row]]) -> str:
    rows = pooled(metrics.get("sclplan", []))
    if not rows:
        return ""

    def line(label: str, model: Any, environment: str, n: Any, x: dict) -> list[str]:
        # without PV, the paper gives no invalid-prediction rate for plain ReAct ("-")
        plain = _base(label.split("] ")[-1]) == "react"
        return [
            *(label, str(model), environment, str(n), pct(x["success"])),
            *(num(x.get("tokens"), 0), num(x.get("env_steps"), 1)),
            "-" if plain else pct(x["react_invalid"]),
            *(pct(x[k]) for k in _RATES[1:]),
            *(pct(x[k]) for k in _SHARES),
        ]

    body = [line(x["planner"], x["model"], x["environment"], x["n"], x) for x in rows]
    for p in published()["sclplan_table3"]["rows"]:
        label = f"[paper {p['table']}] {p['planner']}"
        body.append(line(label, p["model"], p["dataset"], "-", p))
    return (
        "## ReAct, precondition verification and the global planner (SCLPlan Tables III-IV)"
        "\n\nPer planner and model, pooled over its environments (an ALFWorld task is one): "
        "invalid ReAct predictions per prediction, the share of those PV made executable, "
        "the runs whose global planner found a plan, and the shares of the executed actions "
        "by the component that proposed them.\n\n"
        + table(
            [
                *("Planner", "Model", "Environment", "n", "Task success", "Tokens", "Env steps"),
                *("Invalid ReAct", "Corrected by PV", "Global plan found"),
                *("ReAct actions", "PV actions", "GSP actions"),
            ],
            body,
        )
        + solvers_note(rows)
    )


TABLES = {"sclplan-1": table1, "sclplan-2": table2, "sclplan-3": table3}
