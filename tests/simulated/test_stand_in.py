"""The simulated stand-in model (`--llm simulated:...`) through the real client path.

Error rate 0: every method solves its tasks; at 0.2 (fixed seed) SayPlan's replanning
makes more plans executable than LLM-As-Planner's one open-loop plan, and precondition
verification solves more than ReAct alone when the model skips preconditions; malformed
replies are repaired or re-asked by the client; the same seed gives the same episodes.
A subset of tasks keeps these fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets.tasks import get_task, load_suite
from sceneplan.errors import BadInputError
from sceneplan.eval.store import Store
from sceneplan.graph.tokens import count_tokens
from sceneplan.llm import Ledger, LLMClient
from sceneplan.llm.config import load_settings
from sceneplan.planners import Episode, Status, get_planner
from sceneplan.runs import resolve
from sceneplan.simulated import KINDS, PRESETS, Kind, parse_profile, record, simulating
from sceneplan.world.primitives import ErrorType

PLANNING = ["planning-simple-04", "planning-simple-12", "planning-long-03", "planning-long-13"]
SEARCH = ["office-simple-01", "office-complex-05"]
METHODS = [
    "sayplan",
    "sayplan_lite",
    "llm_as_planner",
    "llm_plus_p",
    "lookplangraph",
    "react",
    "react_pv",
    "sclplan",
]


def run(
    planner: str, task_id: str, model: str, ledger: Ledger | None = None, **options: int
) -> Episode:
    """One episode with the stand-in, bound to its task as `eval` binds it."""
    task = get_task(task_id)
    setup = resolve(task)
    settings = load_settings(cache=False)
    with (
        LLMClient(model, settings=settings, ledger=ledger) as llm,
        simulating(task, setup.graph) as session,
    ):
        episode = get_planner(planner, **options).plan(task, setup.graph, llm)
    record(session, episode)
    return episode


@pytest.mark.parametrize("planner", METHODS)
@pytest.mark.slow
def test_without_errors_every_method_solves_its_tasks(planner):
    for task_id in PLANNING:
        episode = run(planner, task_id, "simulated:p=0")
        assert episode.status is Status.SUCCESS, (task_id, episode.error, episode.failure)
        assert episode.simulated_errors == []


@pytest.mark.parametrize("planner", ["sayplan", "sayplan_lite", "llm_as_planner", "llm_plus_p"])
def test_without_errors_every_search_method_finds_the_answer(planner):
    for task_id in SEARCH:
        episode = run(planner, task_id, "simulated:p=0")
        assert episode.status is Status.SUCCESS, (task_id, episode.answer)


def executable(planner: str, model: str, tasks: list[str]) -> int:
    return sum(bool(run(planner, t, model).executable) for t in tasks)


@pytest.mark.slow
def test_replanning_recovers_from_errors_that_an_open_loop_plan_keeps():
    tasks = [t.id for t in load_suite("office-planning")][::5]
    model = "simulated:p=0.2,seed=1"
    assert executable("sayplan", model, tasks) > executable("llm_as_planner", model, tasks)


@pytest.mark.slow
def test_precondition_verification_recovers_from_skipped_preconditions():
    """A model that skips a precondition keeps skipping it: ReAct's loop cannot make it
    take the step; precondition verification takes it for it."""
    only = ",".join(f"{k.value}=0" for k in Kind if k is not Kind.MISSING_ACTION)
    model = f"simulated:p=0.2,seed=1,{only}"
    tasks = [t.id for t in load_suite("office-planning") if "simple" in t.id][::3]
    solved = {
        planner: sum(run(planner, t, model, max_steps=24).status is Status.SUCCESS for t in tasks)
        for planner in ("react", "react_pv")
    }
    assert solved["react_pv"] == len(tasks) > solved["react"]


@pytest.mark.slow
def test_the_same_seed_gives_the_same_episode_and_another_seed_another():
    def replies(seed: int) -> list[list[str]]:
        return [
            [c.reply for c in run("sayplan", t, f"simulated:p=0.5,seed={seed}").llm_calls]
            for t in PLANNING
        ]

    assert replies(7) == replies(7)
    assert replies(7) != replies(8)


def test_injected_errors_are_recorded_with_the_metrics_error_type():
    episode = run("llm_as_planner", "planning-long-13", "simulated:p=1,seed=2,malformed=0")
    [error] = episode.simulated_errors[-1:]
    assert error["kind"] in {k.value for k in Kind}
    expected = KINDS[Kind(error["kind"])].error_type
    assert error["error_type"] == (expected.value if expected else None)
    assert {t.value for t in ErrorType} >= {
        info.error_type.value for info in KINDS.values() if info.error_type
    }


@pytest.mark.slow
def test_malformed_replies_are_repaired_or_re_asked_by_the_client():
    weights = ",".join(f"{k.value}=0" for k in Kind if k is not Kind.MALFORMED)
    model = f"simulated:p=0.6,seed=4,{weights}"
    ledger = Ledger()
    episodes = [run("sayplan", t, model, ledger) for t in PLANNING]
    injected = [e for ep in episodes for e in ep.simulated_errors]
    assert {e["kind"] for e in injected} == {"malformed"}
    forms = {e["detail"] for e in injected}
    assert len(forms) >= 3, forms
    # a code fence is repaired in place; every other malformed reply cost a re-ask
    reasks = sum(r.reasks for r in ledger.records)
    assert reasks == sum(e["detail"] != "code_fence" for e in injected) - sum(
        bool(r.error) for r in ledger.records
    )
    assert reasks > 0
    assert all(ep.status is not Status.ERROR or "none of the model" in ep.error for ep in episodes)


def test_tokens_are_the_prompts_real_counts():
    task = get_task("planning-simple-04")
    setup = resolve(task)
    settings = load_settings(cache=False)
    with LLMClient("simulated:p=0", settings=settings) as llm, simulating(task, setup.graph):
        episode = get_planner("sayplan").plan(task, setup.graph, llm)
    call = episode.llm_calls[0]
    assert call.input_tokens == sum(count_tokens(m["content"]) for m in call.messages)
    assert call.output_tokens == count_tokens(call.reply)


def test_a_bad_profile_name_is_one_clear_error():
    with pytest.raises(BadInputError, match="unknown simulated model 'gpt5'"):
        parse_profile("gpt5")
    with pytest.raises(BadInputError, match="p must be between 0 and 1"):
        parse_profile("p=2")
    with pytest.raises(BadInputError, match="unknown option 'temp'"):
        parse_profile("p=0.1,temp=1")


def test_eval_with_the_stand_in_stores_its_errors(tmp_path):
    out = tmp_path / "r.db"
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-04", "-p", "llm_as_planner"]
    result = CliRunner().invoke(
        app, [*args, "--llm", "simulated:p=1", "--seed", "3", "--out", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    with Store(out) as store:
        [rec] = store.records()
    assert rec.episode.model == "simulated:p=1,seed=3"
    assert rec.episode.simulated_errors
    bad = CliRunner().invoke(app, [*args, "--llm", "simulated:gpt5", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown simulated model 'gpt5'" in bad.output
    json.dumps(rec.episode.simulated_errors)  # stored as JSON


@pytest.mark.slow
def test_the_report_compares_methods_across_error_rates(tmp_path):
    out, plots = tmp_path / "r.db", tmp_path / "plots"
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(
        app,
        [
            "eval", "-s", "office-planning", "-t", "planning-simple-04,planning-long-13",
            "-p", "sayplan,sayplan[max_replans=0]", "--llm", "simulated:p=0,simulated:p=0.3",
            "--seed", "1", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    report = CliRunner().invoke(app, ["report", str(out), "--plots", str(plots)])
    assert report.exit_code == 0, report.output
    assert "## Robustness to model errors" in report.output
    assert "| sayplan[max_replans=0] | 0.3 | 2 |" in report.output
    assert "| iterative replanning | 0 | +0% | +0% |" in report.output
    assert (plots / "robustness.png").stat().st_size > 0


def test_every_preset_parses_and_is_documented_with_its_source():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "llm.md").read_text(encoding="utf-8")
    for name, preset in PRESETS.items():
        profile = parse_profile(f"{name},seed=5")
        assert (profile.rate, profile.seed, profile.spec()) == (preset.rate, 5, f"{name},seed=5")
        assert preset.source and 0 <= preset.rate <= 1
        assert f"| `{name}` | {preset.rate:g} |" in docs


def test_llm_check_accepts_the_stand_in():
    result = CliRunner().invoke(app, ["llm", "check", "simulated:p=0"])
    assert result.exit_code == 0, result.output
    assert "ok planning will use json_schema replies" in result.output
