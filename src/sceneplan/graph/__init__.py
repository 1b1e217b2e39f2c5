"""The 3D scene graph: typed nodes on networkx, file I/O, views, prompt text, tokens."""

from sceneplan.graph.io import from_dict, load, save, to_dict
from sceneplan.graph.model import Node, NodeKind, Relation, SceneGraph

__all__ = ["Node", "NodeKind", "Relation", "SceneGraph", "from_dict", "load", "save", "to_dict"]
