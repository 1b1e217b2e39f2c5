"""Fixtures of the viewer tests: a real headless Chromium driven by Playwright.

The browser is Debian's Chromium (`apt-get install chromium`; `.ci/run` installs
it), started by Playwright's Python package with `executable_path`: no browser
is downloaded. Where no Chromium is installed, the browser tests are skipped
and say why. Screenshots go to `test-artifacts/viewer/` (git-ignored).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The helpers beside this file (viewer_runs, viewer_synthetic), as pytest's importlib mode
# puts only tests/ on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent))

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "viewer"

# Flags for a headless Chromium on a machine with no network but the loopback
# (machines/python.md): no sandbox as root, no GPU, no background requests.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's Chromium, or another found on PATH."""
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """Chromium under Playwright, started at the first page a test opens.

    Playwright's sync API keeps an event loop running in this thread while it
    is started, so a test first does what needs asyncio (a planner run), then
    opens pages; the browser stops when the test ends.
    """

    def __init__(self, executable: str, playwright_api):
        self.executable = executable
        self.api = playwright_api
        self.playwright = None
        self.chromium = None

    def get(self):
        if self.chromium is None:
            self.playwright = self.api.sync_playwright().start()
            self.chromium = self.playwright.chromium.launch(
                executable_path=self.executable, headless=True, args=CHROMIUM_FLAGS
            )
        return self.chromium

    def stop(self) -> None:
        if self.chromium is not None:
            self.chromium.close()
        if self.playwright is not None:
            self.playwright.stop()


@pytest.fixture
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None:
        pytest.skip("no Chromium installed (apt-get install chromium): browser tests skipped")
    playwright_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
    )
    started = Browser(executable, playwright_api)
    yield started
    started.stop()


class Page:
    """One browser tab on a viewer page, failing the test on any script error or request."""

    def __init__(self, browser, path: Path, name: str, fragment: str = ""):
        self.name = name
        self.context = browser.get().new_context(viewport={"width": 1400, "height": 850})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on(
            "console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None
        )
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url + fragment)
        self.page.wait_for_selector("body[data-ready='1']", timeout=60_000)

    def screenshot(self, suffix: str = "") -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.name}{suffix}.png"
        self.page.screenshot(path=str(path))
        return path

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()

    def check_clean(self) -> None:
        assert self.errors == [], f"script errors on the page: {self.errors}"
        assert self.requests == [self.url], f"the page requested more than itself: {self.requests}"


@pytest.fixture
def open_page(browser, request):
    """`open_page(path, "#step=3")`: the viewer page at `path` in a new tab (at a link's
    fragment), checked clean at the end: no script error, no request but the page."""
    opened: list[Page] = []

    def _open(path: Path, fragment: str = "") -> Page:
        page = Page(browser, path, request.node.name, fragment)
        opened.append(page)
        return page

    yield _open
    try:
        for page in opened:
            page.check_clean()
    finally:
        for page in opened:
            page.context.close()
