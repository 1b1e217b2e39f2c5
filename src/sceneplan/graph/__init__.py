"""The 3D scene graph: typed nodes on networkx, file I/O, views, prompt text, tokens."""

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
