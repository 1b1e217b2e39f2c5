"""Fixtures of the CLI tests: the scripted LLM server."""

from scripted_llm import scripted_llm  # noqa: F401  (the fixture)
