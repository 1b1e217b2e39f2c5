"""`sceneplan report --table lookplangraph-2|3|4`: LookPlanGraph's tables beside the paper's."""

from __future__ import annotations

import pytest

from sceneplan.errors import BadInputError
from sceneplan.eval.metrics import augmentation, compute
from sceneplan.eval.report import render
from sceneplan.eval.store import Record
from sceneplan.planners.episode import Episode, Status, WorldStep
from sceneplan.planners.records import EvalFacts, ObserveStart


def episode(planner: str, model: str, right: int, changed: int, perception: str = "") -> Episode:
    ep = Episode(planner, model, "office", "do it", task_id="grasif-office-01", goal="true")
    ep.status = Status.SUCCESS if right == changed else Status.FAILED
    ep.goal_reached = right == changed
    ep.plan = ["go_to(kitchen)", "done()"]
    nodes = [f"n{i}" for i in range(changed)]
    ep.final_changes = {"moved": {}, "state": {n: ["open"] for n in nodes}}
    ep.eval = EvalFacts(right=nodes[:right], important=nodes, observed=nodes * 2)
    ep.observe = ObserveStart(perception=perception) if perception else None
    return ep


def look(observed: list[dict], expected: list[dict]) -> WorldStep:
    return WorldStep(1, "look_on(bench)", "look_on(bench)", True, observations=observed,
                     expected=expected)  # fmt: skip


def obs(truth: str, relation: str | None, related_to: str | None) -> dict:
    return {"name": truth, "truth": truth, "relation": relation, "related_to": related_to}


def test_table3_pivots_plan_accuracy_per_model_beside_the_paper():
    records = [
        Record("office-grasif", 1, episode("lookplangraph", "openai:gpt-4o", 1, 2)),
        Record("office-grasif", 1, episode("lookplangraph", "ollama:llama3.3", 1, 4)),
        Record("office-grasif", 1, episode("sayplan_lite", "openai:gpt-4o", 2, 2)),
    ]
    text = render(compute(records), "md", table_name="lookplangraph-3")
    assert "## Plan accuracy per model (LookPlanGraph Table 3, suite office-grasif)" in text
    assert "| Planner | ollama:llama3.3 | openai:gpt-4o | GPT-4o [paper] |" in text
    assert "| lookplangraph | 0.25 | 0.50 | - | - | - |" in text
    assert "| sayplan_lite | - | 1.00 | - | - | - |" in text
    assert "| LookPlanGraph [paper] | - | - | 0.63 | 0.34 | 0.15 |" in text
    assert "Causal planning" not in text  # only the table asked for


def test_table2_shows_sr_apa_apl_nrr_beside_the_paper():
    records = [Record("office-grasif", 1, episode("lookplangraph", "m", 1, 2))]
    text = render(compute(records), "md", table_name="lookplangraph-2")
    assert "| office-grasif | lookplangraph | m | 1 | 0.00 | 0.50 | 1.00 | 2.00 |" in text
    assert "| SayPlan Office [paper] | LookPlanGraph | Llama3.3-70b | - | 0.12 | 0.34 |" in text


def test_table4_scores_the_looks_node_presence_and_relations():
    expected = [
        {"id": "a", "relation": "ontop_of", "related_to": "bench"},
        {"id": "b", "relation": "ontop_of", "related_to": "bench"},
        {"id": "c", "relation": "inside_of", "related_to": "bowl"},
        {"id": "bowl", "relation": "ontop_of", "related_to": "bench"},
    ]
    seen = [
        obs("a", "ontop_of", "bench"),  # right
        obs("b", "inside_of", "bench"),  # found, wrong relation
        obs("bowl", "ontop_of", "bench"),  # right
        obs("c", "inside_of", "bowl"),  # right (support named by the observation's name)
        {"name": "ghost", "truth": None, "relation": "ontop_of", "related_to": "bench"},
    ]
    ep = episode("lookplangraph", "m", 1, 1, perception="simulated:gpt4o-like")
    ep.steps = [look(seen, expected), look([], [{"id": "d", "relation": "ontop_of",
                                                   "related_to": "bench"}])]  # fmt: skip
    (row,) = augmentation([Record("office-grasif", 1, ep)])
    assert (row["looks"], row["expected"]) == (2, 5)
    assert row["np_per_look"] == pytest.approx(4 / 5)
    # the paper's NP: the final graph's new nodes (a, b, bowl, c and the ghost) over the
    # ground truth's (a, b, c, bowl, d)
    assert (row["nodes_final"], row["nodes_truth"], row["np"]) == (5, 5, 1.0)
    assert row["on"] == pytest.approx(2 / 4) and row["inside"] == pytest.approx(1.0)
    assert row["perception"] == "simulated:gpt4o-like"
    text = render(compute([Record("office-grasif", 1, ep)]), "md", table_name="lookplangraph-4")
    assert "| lookplangraph | m | simulated:gpt4o-like | 2 | 1.00 | 0.50 | 1.00 | 0.80 |" in text
    assert "| LookPlanGraph (gpt-4o) [paper] | - | - | - | 0.66 | 0.30 | 0.36 | - |" in text


def test_table4_node_presence_counts_a_node_seen_twice_once():
    item = {"id": "a", "relation": "ontop_of", "related_to": "bench"}
    ep = episode("lookplangraph", "m", 1, 1, perception="simulated:perfect")
    ep.steps = [look([obs("a", "ontop_of", "bench")], [item]), look([], [item])]
    (row,) = augmentation([Record("office-grasif", 1, ep)])
    assert row["np_per_look"] == pytest.approx(1 / 2)  # the second look missed it
    assert row["np"] == 1.0  # the final graph holds it: the paper's figure


def test_a_table_without_results_says_so_and_unknown_tables_are_refused():
    assert "holds no results for table lookplangraph-4" in render(
        compute([]), "md", table_name="lookplangraph-4"
    )
    with pytest.raises(BadInputError, match=r"^unknown table 'table9' \(known: sayplan-1, "):
        render(compute([]), "md", table_name="table9")
    with pytest.raises(BadInputError, match=r"\(did you mean 'sclplan-1'\? known: sayplan-1"):
        render(compute([]), "md", table_name="sclplan1")
    with pytest.raises(BadInputError, match="--table prints a Markdown table"):
        render(compute([]), "csv", table_name="lookplangraph-2")


def test_table1_gives_the_stored_suites_statistics_beside_the_paper(tmp_path):
    from typer.testing import CliRunner

    from sceneplan.cli import app
    from sceneplan.eval.store import Store

    with Store(tmp_path / "r.db") as store:
        store.put("office-grasif", 1, episode("lookplangraph", "m", 1, 1))
    result = CliRunner().invoke(
        app, ["report", str(tmp_path / "r.db"), "--table", "lookplangraph-1"]
    )
    assert result.exit_code == 0, result.output
    assert "| office-grasif | 25 | 37.00 | 200.00 | 6.40 |" in result.output
    assert "| SayPlan Office [paper] | 25 | 37.00 | 202.60 | 2.10 |" in result.output
    stats = CliRunner().invoke(app, ["tasks", "stats", "office-grasif", "office-dynamic"])
    assert stats.exit_code == 0 and "| office-dynamic | 12 | 37.00 | 200.00 |" in stats.output
