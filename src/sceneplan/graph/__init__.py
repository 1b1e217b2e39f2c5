"""The 3D scene graph: typed nodes on networkx, file I/O, views, prompt text, tokens."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sceneplan.graph.io import from_dict, load, save, to_dict
    from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph
    from sceneplan.graph.serialize import (
        ViewPart,
        view_parts,
        view_to_dict,
        view_to_text,
        visible_links,
    )
    from sceneplan.graph.tokens import TokenReport, TokenRow, count_tokens, token_report
    from sceneplan.graph.views import GraphView, collapse, full_view

# Each public name and the module it comes from, imported on first use (PEP 562):
# importing the package alone loads none of them.
_EXPORTS = {
    "from_dict": "sceneplan.graph.io",
    "load": "sceneplan.graph.io",
    "save": "sceneplan.graph.io",
    "to_dict": "sceneplan.graph.io",
    "Node": "sceneplan.graph.model",
    "NodeKind": "sceneplan.graph.model",
    "Relation": "sceneplan.graph.model",
    "SceneGraph": "sceneplan.graph.model",
    "ViewPart": "sceneplan.graph.serialize",
    "view_parts": "sceneplan.graph.serialize",
    "view_to_dict": "sceneplan.graph.serialize",
    "view_to_text": "sceneplan.graph.serialize",
    "visible_links": "sceneplan.graph.serialize",
    "TokenReport": "sceneplan.graph.tokens",
    "TokenRow": "sceneplan.graph.tokens",
    "count_tokens": "sceneplan.graph.tokens",
    "token_report": "sceneplan.graph.tokens",
    "GraphView": "sceneplan.graph.views",
    "collapse": "sceneplan.graph.views",
    "full_view": "sceneplan.graph.views",
}

__all__ = [
    "GraphView",
    "Node",
    "NodeKind",
    "Relation",
    "SceneGraph",
    "TokenReport",
    "TokenRow",
    "ViewPart",
    "collapse",
    "count_tokens",
    "from_dict",
    "full_view",
    "load",
    "save",
    "to_dict",
    "token_report",
    "view_parts",
    "view_to_dict",
    "view_to_text",
    "visible_links",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
