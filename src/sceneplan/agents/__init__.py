"""LLM agents as clients: the scene graph, the simulator and the planner as MCP tools.

`session.AgentSession` holds one agent's work on one scene (its view, the plans
it verified, every call, as an Episode); `server.build_server` serves it over
the Model Context Protocol with the `mcp` extra (`sceneplan mcp`,
docs/agents.md). Importing this package imports neither.
"""
