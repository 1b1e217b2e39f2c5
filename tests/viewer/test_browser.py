"""The viewer in a real headless Chromium: click a room, step through a search, find the failing
plan step, compare memory with the true world, and open a floor of a 10,000-room building.

Each test writes the page with `sceneplan view` (or the library for a run made
here), opens it from a file, acts as a person would, checks what the page
shows, and saves a screenshot under test-artifacts/viewer/.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner
from viewer_runs import (
    FAILING_FEEDBACK,
    failing_sayplan_episode,
    lookplangraph_episode,
    partial_run,
)
from viewer_synthetic import synthetic_graph

from sceneplan.cli import app
from sceneplan.viewer import Shown, render_page

pytestmark = pytest.mark.slow  # a real Chromium

runner = CliRunner()


def view(*args: str) -> None:
    result = runner.invoke(app, ["view", *args])
    assert result.exit_code == 0, result.output


def test_click_a_room_then_open_it_and_click_an_asset(open_page, tmp_path):
    out = tmp_path / "office.html"
    view("office", "-o", str(out))
    page = open_page(out)
    p = page.page
    assert p.locator("#map g.room").count() == 37  # one floor: open from the start
    assert p.locator("#map .asset").count() == 0  # contents only on demand

    p.click("#map g.room[data-id='kitchen'] rect")
    assert page.text("#detail-id") == "kitchen"
    assert page.text("[data-field='kind']") == "room"
    assert "floor0" in page.text("[data-field='parents']")
    assert "fridge" in page.text("#detail-children")

    p.click("#toggle-room")
    assert p.locator("#map g.room.open[data-id='kitchen']").count() == 1
    fridge = p.locator("#map .asset[data-node]").filter(has=p.locator("title", has_text="fridge"))
    assert fridge.count() == 1
    page.screenshot("-room-open")
    fridge.click()
    assert page.text("#detail-id") == "fridge"
    assert page.text("[data-field='kind']") == "asset"
    assert "closed" in page.text("[data-field='state']")
    assert "open" in page.text("[data-field='affordances']")
    page.screenshot()


def test_step_through_a_search(open_page, tmp_path, scripted_llm):
    episode = failing_sayplan_episode(scripted_llm)
    trace = tmp_path / "run.json"
    trace.write_text(json.dumps(episode.to_dict()))
    out = tmp_path / "run.html"
    view("--episode", str(trace), "-o", str(out))
    page = open_page(out)
    p = page.page
    assert "on" in p.get_attribute("#tab-search", "class")  # a run with a search opens on it
    # turn 1: the model saw the collapsed graph and chose to expand the kitchen
    assert page.text("#turn-label") == "turn 1 / 5"
    assert page.text("#turn-tokens").startswith(f"{episode.search[0].graph_tokens} ")
    assert "none" in page.text("#turn-open")
    assert p.locator("#map g.room.open").count() == 0
    assert p.locator("#map g.room.turn[data-id='kitchen']").count() == 1  # its choice, marked
    assert page.text("#turn-command") == "expand kitchen"
    assert "look where the things the task needs" in page.text("#turn-thought")
    assert page.text("#turn-reasoning") == "scripted"
    assert page.text("#turn-open-after") == "kitchen"

    p.click("#search-next")  # turn 2: shown the kitchen's contents, it contracts it
    assert page.text("#turn-label") == "turn 2 / 5"
    assert page.text("#turn-tokens").startswith(f"{episode.search[1].graph_tokens} ")
    assert episode.search[1].graph_tokens > episode.search[0].graph_tokens
    assert p.locator("#map g.room.open[data-id='kitchen']").count() == 1
    assert p.locator("#map .asset").count() == 2  # the fridge and the coffee machine
    assert page.text("#turn-command") == "contract kitchen"

    p.keyboard.press("ArrowRight")  # turn 3: the kitchen is closed again; memory keeps it
    assert p.locator("#map g.room.open").count() == 0
    assert "kitchen" in page.text("#turn-memory")
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowRight")
    assert page.text("#turn-label") == "turn 5 / 5"
    opened = {e.get_attribute("data-id") for e in p.locator("#map g.room.open").all()}
    assert opened == {"bobs_room", "kitchen"}
    assert page.text("#turn-command") == "plan"
    assert "switched to planning" in page.text("#turn-feedback")
    page.screenshot()

    p.click("#turn-list [data-turn='3']")
    assert page.text("#turn-command") == "expand bobs_room"


def test_select_the_failing_plan_step(open_page, tmp_path, scripted_llm):
    episode = failing_sayplan_episode(scripted_llm)
    assert episode.failure is not None and episode.failure["message"] == FAILING_FEEDBACK
    trace = tmp_path / "run.json"
    trace.write_text(json.dumps(episode.to_dict()))
    out = tmp_path / "failing.html"
    view("--episode", str(trace), "-o", str(out))
    page = open_page(out)
    p = page.page
    p.click("#tabbtn-plan")
    assert "fails at step 3" in page.text("#plan-verdict")
    failing = p.locator("#step-list .step.failing")
    assert failing.count() == 1
    assert failing.get_attribute("data-step") == "2"
    assert failing.inner_text().startswith("3. ✗ pickup(coffee_mug)")
    later = p.locator("#step-list .step[data-result='not run']").count()
    assert later == len(episode.full_plan) - 3

    failing.click()
    assert page.text("#step-result") == f"failed: {FAILING_FEEDBACK}"
    assert p.locator("#map .failmark").count() == 1  # ringed where the robot stands
    assert p.locator("#map circle.robot title").text_content() == "robot at bobs_room"

    p.click("#step-list .step[data-step='1']")
    assert page.text("#step-result") == "ok"
    p.click("#goto-failing")
    assert p.locator("#step-list .step.cur").get_attribute("data-step") == "2"
    page.screenshot()


def test_walk_a_path_room_to_room(open_page, tmp_path):
    trace = tmp_path / "oracle.json"
    result = runner.invoke(
        app, ["plan", "--task", "planning-simple-02", "-p", "oracle", "--trace", str(trace)]
    )
    assert result.exit_code == 0, result.output
    out = tmp_path / "oracle.html"
    view("--episode", str(trace), "-o", str(out))
    page = open_page(out)
    p = page.page
    assert "on" in p.get_attribute("#tab-plan", "class")  # no search: the plan tab
    assert "every step runs" in page.text("#plan-verdict")
    steps = p.locator("#step-list .step")
    goto_kitchen = next(
        i for i in range(steps.count()) if "goto(kitchen)" in steps.nth(i).inner_text()
    )
    steps.nth(goto_kitchen).click()
    leg = p.locator("#map polyline.path.last").get_attribute("points").split()
    assert len(leg) >= 3  # the trip: from the start, through the poses, into the kitchen
    assert "kitchen" in page.text("#step-detail")
    assert p.locator("#map g.room.open[data-id='kitchen']").count() == 1  # where it acts next
    page.screenshot()

    linked = open_page(out, f"#step={goto_kitchen + 2}")  # a link to the step after
    assert linked.text("#step-label") == f"step {goto_kitchen + 2} / {steps.count()}"
    assert "kitchen_bench" in linked.text("#step-detail")  # access(kitchen_bench)
    assert linked.page.locator("#map .asset.target").count() == 1


def test_memory_against_the_true_world(open_page, tmp_path):
    truth, prior, episode = partial_run()
    out = tmp_path / "partial.html"
    out.write_text(render_page(Shown(truth, episode, prior)), encoding="utf-8")
    page = open_page(out)
    p = page.page
    p.click("#tabbtn-memory")
    p.click("#mstep-list [data-mstep='1']")  # open(wardrobe1): memory still has the mug there
    row = p.locator("#memory-table tr[data-status='differs']")
    assert row.count() == 1
    assert row.inner_text().split("\t") == [
        "coffee_mug",
        "inside wardrobe1",
        "on bed2, in toms_room",
    ]

    p.click("#mstep-list [data-mstep='2']")  # the stale pick_up: refused, memory drops the mug
    assert "memory has dropped it" in page.text("#mstep-feedback")
    assert "coffee_mug" in page.text("#mstep-detail")
    assert p.locator("#memory-table tr[data-status]").count() == 0
    page.screenshot("-stale")

    p.click("#mstep-list [data-mstep='4']")  # in Tom's room, before looking: memory knows nothing
    assert p.locator("#memory-table tr[data-status='unknown']").count() == 1
    p.click("#mstep-list [data-mstep='5']")  # look_on(bed2) finds it
    assert "coffee_mug" in page.text("#mstep-detail")
    assert p.locator("#memory-table tr[data-status='same']").count() == 1
    page.screenshot()


def test_lookplangraph_steps_show_the_models_moves_and_what_memory_refused(
    open_page, tmp_path, scripted_llm
):
    episode = lookplangraph_episode(scripted_llm)
    assert episode.task_id == "planning-simple-02" and len(episode.steps) == 7
    trace = tmp_path / "lpg.json"
    trace.write_text(json.dumps(episode.to_dict()))
    out = tmp_path / "lpg.html"
    view("--episode", str(trace), "-o", str(out))
    page = open_page(out, "#mstep=1")
    p = page.page
    assert page.text("#mstep-label") == "step 1 / 7"
    unknown = p.locator("#memory-table tr[data-status='unknown']")
    unknown_before = unknown.count()
    assert any(row.startswith("orange1\t") for row in unknown.all_inner_texts())  # not seen yet

    p.click("#mstep-next")  # the look, chosen after memory refused pick_up(orange1)
    assert page.text("#mstep-label") == "step 2 / 7"
    assert "memory refused first\npick_up(orange1)" in page.text("#mstep-detail")
    assert page.text("#mstep-thought") == "next: look_on(kitchen_bench)"
    assert "orange1" in page.text("#mstep-feedback")
    same = p.locator("#memory-table tr[data-status='same']").all_inner_texts()
    assert "orange1\ton kitchen_bench\ton kitchen_bench" in same
    assert unknown.count() < unknown_before  # what is on the bench is known now
    page.screenshot()


def test_a_ten_thousand_room_building_starts_with_floors_closed(open_page, tmp_path):
    graph = synthetic_graph(rooms=10_000, items_per_room=4)
    out = tmp_path / "large.html"
    out.write_text(render_page(Shown(graph)), encoding="utf-8")
    page = open_page(out)
    p = page.page
    assert p.locator("#map .floorband").count() > 0
    assert p.locator("#map g.room").count() == 0  # floors start closed
    assert p.locator("#tree .row.floor").count() == 100

    p.click("#tree .row.floor[data-floor='42']")
    drawn = p.locator("#map g.room").count()
    assert 0 < drawn <= 100  # only floor 42's rooms, and only those in view
    assert p.locator("#map *").count() < 2000
    page.screenshot("-floor")

    p.fill("#find", "lab9999")
    p.click("#found .row[data-node]")
    assert page.text("#detail-id") == "lab9999"
    assert p.locator("#map g.room.sel[data-id='lab9999']").count() == 1
    assert "floor99" in page.text("[data-field='parents']")
    page.screenshot()
