"""Fixtures of the importer tests: the scripted LLM server (test_spark_suites)."""

from scripted_llm import scripted_llm  # noqa: F401  (the fixture)
