"""Reports: Markdown in the shape of the papers' tables, with their numbers; CSV, JSON, plots."""

from __future__ import annotations

import csv
import importlib
import io
import json
import sys

import pytest

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.eval.compare import compare, render_compare
from sceneplan.eval.metrics import compute
from sceneplan.eval.plots import write_plots
from sceneplan.eval.report import published, render
from sceneplan.eval.runner import evaluate, load_tasks
from sceneplan.eval.store import Record, Store
from sceneplan.planners.base import PLANNERS


@pytest.fixture(scope="module")
def records(tmp_path_factory, request) -> list[Record]:
    """The reference toy planner on Home search and the coffee suite, two runs each."""
    here = request.path.parent
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(here))
        mp.setitem(PLANNERS.builtins, "toy_reference", "toy_planners:ReferencePlanner")
        tasks = load_tasks(["home-search", str(here / "data" / "coffee_tasks.yaml")])
        with Store(tmp_path_factory.mktemp("report") / "r.db") as store:
            evaluate(tasks, ["toy_reference"], [], store, runs=2)
            return store.records()


def lines_of(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


def test_markdown_puts_published_numbers_next_to_measured_ones(records):
    text = render(compute(records), "md", title="r.db")
    assert text.startswith("# sceneplan results: r.db")
    assert "| toy_reference | none | 68 | 34 | 2 | 68 | 0 | 0 |" in text
    assert "## Semantic search success (SayPlan Table 1)" in text
    assert lines_of(text, "| home | Simple search") == [
        "| home | Simple search | 100.0% of 30 | 100.0% of 30 | 100.0% | 0.0% | 86.7% |"
    ]
    assert lines_of(text, "| home | Complex search") == [
        "| home | Complex search | 100.0% of 30 | 100.0% of 30 | 100.0% | 0.0% | 73.3% |"
    ]
    assert "| LLM-As-Planner [paper] | GPT-4 | office | 93.3% | 80.0% | - | 66.7% | 13.3% | - | " \
        "20.0% | 60.0% | 0.17% | 0.03% | 10.0% | - |" in text  # fmt: skip
    assert lines_of(text, "| coffee-mini |") == [
        # the reference plan itself: the goal graph scores it 1.00; the formula counts the
        # nodes it changes that the goal formula does not name as wrong
        "| coffee-mini | toy_reference | none | 4 | 1.00 | 1.00 | 9.00 | - | 1.00 | 0.50 "
        "| goal graph |"
    ]
    assert (
        "| SayPlan Office [paper] | SayPlan Lite | Llama3.3-70b | - | 0.16 | 0.39 | 4.04 | 19.83 "
        "| - | - | goal graph |" in text
    )
    # env steps are actions sent to the environment: the toy only verifies plans
    assert "| toy_reference | none | 34 | 2 | 1.00 (±0.00) | 0 (±0) | 0.00 (±0.00) |" in text
    assert "## Token progression during search (SayPlan Fig. 3)" in text
    assert "Table 1: semantic search success rate. SayPlan" in text


def test_published_rows_follow_the_planner_they_correspond_to(records):
    renamed = []
    for record in records:
        episode = type(record.episode).from_dict(record.episode.to_dict())
        episode.planner = "sayplan"
        renamed.append(Record(record.suite, record.run, episode))
    text = render(compute(renamed), "md")
    table3 = text.split("## Causal planning (SayPlan Table 3)")[1].split("##")[0]
    assert [line.split(" | ")[0] for line in lines_of(table3, "| ")[1:]] == [
        "| sayplan",
        "| SayPlan [paper]",
        "| LLM+P [paper]",
        "| LLM-As-Planner [paper]",
    ]


def test_csv_is_long_format(records):
    rows = list(csv.DictReader(io.StringIO(render(compute(records), "csv"))))
    home = [r for r in rows if r["section"] == "search" and r["environment"] == "home"]
    assert {(r["family"], r["metric"], r["value"]) for r in home} >= {
        ("simple_search", "answered", "1.0"),
        ("simple_search", "found", "1.0"),
        ("complex_search", "n", "30"),
    }
    assert {r["section"] for r in rows} >= {"overview", "lookplangraph", "repeatability_tasks"}


def test_json_has_metrics_and_sources(records):
    data = json.loads(render(compute(records), "json"))
    assert data["metrics"]["lookplangraph"][0]["apl"] == 9.0
    table1 = data["published"]["sayplan_table1"]
    assert table1["values"]["office"]["simple_search"]["SayPlan (GPT-4)"] == 0.867
    assert "Rana et al." in table1["source"]["paper"]


def test_compare_shows_the_difference(records):
    worse = []
    for record in records:
        episode = type(record.episode).from_dict(record.episode.to_dict())
        if episode.task_id == "coffee-search-01":
            episode.answer_correct = False
        worse.append(Record(record.suite, record.run, episode))
    rows = compare(compute(records), compute(worse))
    changed = [r for r in rows if r["delta"]]
    assert [(r["section"], r["environment"], r["family"], r["metric"]) for r in changed] == [
        ("search", "coffee", "simple_search", "answered")
    ]
    assert changed[0]["delta"] == -1.0
    text = render_compare(rows, "md", ("a.db", "b.db"))
    assert "A = a.db, B = b.db" in text
    assert (
        "| toy_reference / none / coffee / simple_search | answered | 1.0000 | 0.0000 | -1.0000 |"
        in text
    )
    table = list(csv.DictReader(io.StringIO(render_compare(rows, "csv", ("a", "b")))))
    assert {"a", "b", "delta"} <= set(table[0])
    assert json.loads(render_compare(rows, "json", ("a", "b")))["rows"] == json.loads(
        json.dumps(rows)
    )


@pytest.mark.slow
def test_plots_are_written(records, tmp_path):
    paths = write_plots(compute(records), tmp_path / "plots")
    assert [p.name for p in paths] == [
        "success_by_family.png",
        "error_types.png",
        "token_progression.png",
    ]
    for path in paths:
        assert path.read_bytes().startswith(b"\x89PNG") and path.stat().st_size > 1000


def test_plots_without_data_write_nothing(tmp_path):
    assert write_plots(compute([]), tmp_path) == []


def test_missing_matplotlib_names_the_extra(records, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(BackendUnavailableError, match=r"pip install 'sceneplan\[plots\]'"):
        write_plots(compute(records), tmp_path)


def test_unknown_format():
    with pytest.raises(BadInputError, match="unknown report format 'html'"):
        render(compute([]), "html")
    with pytest.raises(BadInputError, match="unknown report format 'html'"):
        render_compare([], "html", ("a", "b"))


def test_published_file_is_complete():
    data = published()
    assert set(data) == {
        "sayplan_table1",
        "sayplan_table2",
        "sayplan_table3",
        "lookplangraph_table1",
        "lookplangraph_table2",
        "lookplangraph_table3",
        "lookplangraph_table4",
        "sclplan_table1",
        "sclplan_table2",
        "sclplan_table3",
    }
    for entry in data.values():
        assert entry["source"]["paper"] and entry["source"]["table"]
    assert importlib.resources.files("sceneplan.eval").joinpath("published.yaml").is_file()


def test_compare_pairs_a_planner_run_with_one_model_in_each_store(records):
    other = []
    for record in records:
        episode = type(record.episode).from_dict(record.episode.to_dict())
        episode.model = "ollama:qwen2.5:7b"
        other.append(Record(record.suite, record.run, episode))
    rows = compare(compute(records), compute(other))
    assert {r["model"] for r in rows} == {"none -> ollama:qwen2.5:7b"}
    assert all(r["delta"] == 0 for r in rows if r["metric"] in ("answered", "sr", "apa"))


def test_report_table_sayplan_2_prints_graph_tokens_beside_the_paper(tmp_path):
    from typer.testing import CliRunner

    from sceneplan.cli import app
    from sceneplan.datasets import load_environment
    from sceneplan.graph.tokens import token_report

    result = CliRunner().invoke(app, ["report", "--table", "sayplan-2"])
    assert result.exit_code == 0, result.output
    office = token_report(load_environment("office"))
    ratio = 100 * (1 - office.collapsed.tokens / office.full.tokens)
    row = f"| office | {office.full.tokens:,} | {office.collapsed.tokens:,} | {ratio:.1f}% |"
    assert row in result.stdout
    assert "| office [paper] | 6,731 | 878 | 86.9% |" in result.stdout
    assert "| home [paper] | 6,598 | 1,817 | 72.5% |" in result.stdout
    assert "## Scene graph tokens, full vs collapsed (SayPlan Table 2)" in result.stdout


def test_an_unknown_table_lists_every_table_faults_included():
    with pytest.raises(BadInputError, match=r"sayplan-2, sayplan-3, .*sclplan-3, faults"):
        render(compute([]), table_name="nope")


def test_the_sclplan_tables_have_one_renderer_and_no_import_cycle():
    """report renders SCLPlan's tables with sclplan_tables' functions; sclplan_tables imports
    only the shared pieces (eval.tables), never report back."""
    import ast
    from importlib import resources

    from sceneplan.eval import report, sclplan_tables

    source = (resources.files("sceneplan.eval") / "sclplan_tables.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            imported |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
    assert not any(name.startswith("sceneplan.eval.report") for name in imported)
    assert "sceneplan.eval.tables" in imported  # not the package (its __init__ names report)
    assert report.TABLES["sclplan-3"] is sclplan_tables.table3
    assert report.TABLES["sclplan-2"] is sclplan_tables.table2


def test_stale_text_is_gone():
    """Item 13 of issue 29: the help lists every table, the sources name the papers' titles,
    and DATA.md's GraSIF figures are the suites' own."""
    from importlib import resources

    from typer.testing import CliRunner

    from sceneplan.cli import app
    from sceneplan.datasets.stats import load_suite, suite_stats

    result = CliRunner().invoke(app, ["report", "--help"], env={"COLUMNS": "200"})
    helptext = " ".join(result.output.replace("│", " ").split())
    assert "sclplan-1, -2 or -3" in helptext and "sayplan-2" in helptext
    titles = {e["source"]["paper"] for k, e in published().items() if k.startswith("sclplan")}
    assert titles == {
        "SCLPlan: Constrained Natural Language Action Planning for Resilient Embodied Systems "
        "(../shared/papers, 003)"
    }
    data = (resources.files("sceneplan.datasets") / "DATA.md").read_text(encoding="utf-8")
    office = suite_stats(load_suite("office-grasif"))
    assert f"| sceneplan `office-grasif` | 25 | 37 | 200 | {office['actions']:.2f} |" in data
    assert f"| `virtualhome-grasif` | {len(load_suite('virtualhome-grasif'))} (98) |" in data
