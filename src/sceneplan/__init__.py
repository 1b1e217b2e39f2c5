"""sceneplan: LLM task planning over 3D scene graphs, verified before the robot moves."""

__version__ = "0.1.0"
