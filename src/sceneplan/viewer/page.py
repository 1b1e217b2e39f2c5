"""One self-contained HTML page: the template, its style and script, and the data inline.

The page loads nothing from anywhere: no CDN, no fonts, no requests. The data
is JSON in a `<script type="application/json">` element, with `</` written
`<\\/` so no string in it can end the element.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.viewer.episode_data import episode_data
from sceneplan.viewer.graph_data import graph_data
from sceneplan.viewer.sources import Shown

FORMAT_VERSION = 1
_STATIC = resources.files("sceneplan.viewer") / "static"
# The page's script, in this order: later parts use what earlier ones define.
SCRIPTS = ("data.js", "map.js", "side.js", "details.js", "runs.js", "start.js")


def page_data(shown: Shown, title: str | None = None) -> dict[str, Any]:
    """The JSON the page reads: the graph, and the run when there is one."""
    episode = shown.episode
    if title is None:
        name = shown.graph.name or "scene graph"
        title = (
            f"{name}: {episode.planner} on {episode.task_id or 'an instruction'}"
            if episode
            else name
        )
    return {
        "format": "sceneplan-view",
        "version": FORMAT_VERSION,
        "title": title,
        "note": shown.note,
        "graph": graph_data(shown.graph),
        "episode": _episode_data(shown) if episode else None,
    }


def _episode_data(shown: Shown) -> dict[str, Any]:
    """The run's part of the page; a trace whose fields have the wrong types is bad input."""
    assert shown.episode is not None
    try:
        return episode_data(shown.episode, shown.graph, shown.prior)
    except (TypeError, AttributeError, KeyError, ValueError) as exc:
        raise BadInputError(
            f"a malformed sceneplan episode ({type(exc).__name__}: {exc}); expected what "
            "`sceneplan plan --trace FILE` writes"
        ) from None


def render_page(shown: Shown, title: str | None = None) -> str:
    """The whole page as text."""
    data = page_data(shown, title)
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    template = (_STATIC / "page.html").read_text(encoding="utf-8")
    css = (_STATIC / "viewer.css").read_text(encoding="utf-8")
    script = "\n".join((_STATIC / "js" / name).read_text(encoding="utf-8") for name in SCRIPTS)
    head, _, rest = template.partition("__DATA__")
    head = head.replace("__TITLE__", _escape(data["title"])).replace("__CSS__", css)
    return head + payload + rest.replace("__JS__", script)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
