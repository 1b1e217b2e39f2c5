"""`report --table sclplan-1|2|3`: measured rows pooled over ALFWorld's per-task worlds,
beside the paper's numbers."""

from sceneplan.eval.report import render


def row(planner, env, n, success, tokens, steps, react, pv, gsp):
    return {
        "planner": planner,
        "model": "m",
        "environment": env,
        "n": n,
        "success": success,
        "tokens": tokens,
        "env_steps": steps,
        "react_actions": react,
        "pv_actions": pv,
        "planner_actions": gsp,
        "react_invalid": 0.5 if planner != "sclplan" else 0.0,
        "pv_corrected": None if planner == "react" else 1.0,
        "global_plan_found": 1.0 if planner == "sclplan" else None,
    }


METRICS = {
    "overview": [],
    "sclplan": [
        row("react", "alfworld-pick-01", 1, 0.0, 3000, 20, 1.0, 0.0, 0.0),
        row("react", "alfworld-pick-02", 1, 1.0, 1000, 10, 1.0, 0.0, 0.0),
        row("sclplan", "alfworld-pick-01", 1, 1.0, 500, 4, 0.0, 0.0, 1.0),
        row("sclplan", "alfworld-pick-02", 1, 1.0, 700, 6, 0.0, 0.0, 1.0),
    ],
    "repeatability": [
        {
            "planner": "sclplan",
            "model": "m",
            "tasks": 2,
            "runs": 10,
            **{"success_mean": 1.0, "success_std": 0.0, "tokens_mean": 600.0},
            **{"tokens_std": 100.0, "steps_mean": 5.0, "steps_std": 1.0},
        }
    ],
}


def test_table1_pools_the_tasks_and_shows_changes_against_react_beside_the_paper():
    text = render(METRICS, table_name="sclplan-1")
    assert "| react | m | 2 | 50.0% | 2,000 | 15.0 | - | - | - |" in text
    assert "| sclplan | m | 2 | 100.0% | 600 | 5.0 | +50.0 | -1,400 | -10.0 |" in text
    assert (
        "| [paper] ReAct + PV + GSP | 7 LLMs (mean) | 134 | - | - | - | +60.0 | -19,700 | -18.6 |"
        in text
    )


def test_table2_and_table3_show_measured_rows_and_the_papers():
    two = render(METRICS, table_name="sclplan-2")
    assert "| sclplan | m | 2 | 10 | 1.00 (±0.00) | 600 (±100) | 5.00 (±1.00) |" in two
    assert "| [paper] sclplan | GPT-4o | 10 | 10 | 1.00 (±0.00) | 3,800 (±4,000) |" in two
    three = render(METRICS, table_name="sclplan-3")
    assert (
        "| sclplan | m | alfworld | 2 | 100.0% | 600 | 5.0 | 0.0% | 100.0% | 100.0% | 0.0% "
        "| 0.0% | 100.0% |" in three
    )
    # plain ReAct has no invalid-prediction rate, as in the paper
    assert "| react | m | alfworld | 2 | 50.0% | 2,000 | 15.0 | - | - | - | 100.0% |" in three
    assert "| [paper III] sclplan | GPT-4o-mini | ALFWorld | - | 99.3% |" in three
