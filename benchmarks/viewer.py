"""Viewer benchmark: page size and time to first paint in headless Chromium.

Run `python benchmarks/viewer.py [--quick] [--runs N]` (needs Debian's
Chromium at /usr/bin/chromium and the `playwright` package of the dev extra).
For office, home and a synthetic building of 10,000 rooms (40 assets and
objects per room, as in benchmarks/core.py), it writes the page with
`sceneplan.viewer`, then loads it from a file in a fresh headless tab and
reads, from the browser's own clock:

- first paint: the `first-contentful-paint` entry (the header and frame, which
  the browser paints while it still reads the data);
- map painted: the viewer's `viewer-ready` mark, two frames after the data is
  parsed and the first map drawn: by then the map is on the screen;
- open a floor: with every floor closed, a click on the last floor in the side
  list until the next frame (the page draws that floor's rooms in view);
- SVG elements: what the map holds after that click.

Each figure is the median of `--runs` loads (default 3). Target: the map painted
in under 2 s at 10,000 rooms, whatever the number of nodes, because only
what is in view is drawn (floors start closed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from synthetic import synthetic_building  # run as a script: benchmarks/ is sys.path[0]

from sceneplan.datasets import load_environment
from sceneplan.graph import SceneGraph, from_dict
from sceneplan.viewer import Shown, render_page

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAINTED = "() => performance.getEntriesByName('first-contentful-paint').length > 0"
TIMINGS = """() => ({
  paint: performance.getEntriesByName("first-contentful-paint")[0].startTime,
  ready: performance.getEntriesByName("viewer-ready")[0].startTime,
  nodes: document.querySelectorAll("#map *").length,
})"""


def cases(quick: bool) -> list[tuple[str, SceneGraph]]:
    rooms = 1_000 if quick else 10_000
    return [
        ("office", load_environment("office")),
        ("home", load_environment("home")),
        (f"synthetic {rooms:,} rooms", from_dict(synthetic_building(rooms, 40))),
    ]


def measure(browser, path: Path, runs: int) -> dict[str, float]:
    paint, ready, floor, drawn = [], [], [], []
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1400, "height": 850})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
        page.wait_for_function(PAINTED)  # the paint entry may come a frame after the mark
        found = page.evaluate(TIMINGS)
        paint.append(found["paint"])
        ready.append(found["ready"])
        page.click("#close-all")
        row = page.locator("#tree .row.floor").last
        start = time.perf_counter()
        row.click()  # the click returns once the page has handled it and redrawn the map
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
        floor.append((time.perf_counter() - start) * 1000)
        drawn.append(page.evaluate(TIMINGS)["nodes"])
        context.close()
        if errors:
            sys.exit(f"script errors on {path.name}: {errors}")
    return {
        "paint": statistics.median(paint),
        "ready": statistics.median(ready),
        "floor": statistics.median(floor),
        "drawn": statistics.median(drawn),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 rooms instead of 10,000")
    parser.add_argument("--runs", type=int, default=3, help="page loads per building")
    args = parser.parse_args()
    if not Path(CHROMIUM).is_file():
        sys.exit(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        pages = []
        for name, graph in cases(args.quick):
            start = time.perf_counter()
            html = render_page(Shown(graph))
            built = time.perf_counter() - start
            path = Path(folder) / f"{name.split()[0]}.html"
            path.write_text(html, encoding="utf-8")
            pages.append((name, graph, path, built, len(html.encode("utf-8"))))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for name, graph, path, built, size in pages:
                found = measure(browser, path, args.runs)
                rooms = sum(1 for n in graph if n.kind.value == "room")
                rows.append((name, len(graph), rooms, size, built, found))
            browser.close()
    print(f"Viewer pages in headless Chromium (median of {args.runs} loads; times in ms)\n")
    head = (
        "building",
        "nodes",
        "rooms",
        "HTML MB",
        "build ms",
        "first paint",
        "map painted",
        "open floor",
        "SVG elements",
    )
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for name, nodes, rooms, size, built, f in rows:
        cells = (
            name,
            f"{nodes:,}",
            f"{rooms:,}",
            f"{size / 1e6:.2f}",
            f"{built * 1000:.0f}",
            f"{f['paint']:.0f}",
            f"{f['ready']:.0f}",
            f"{f['floor']:.0f}",
            f"{f['drawn']:.0f}",
        )
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
