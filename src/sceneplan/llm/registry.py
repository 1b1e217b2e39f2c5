"""The LLM providers by name: the built-in ones, imported when asked for, then plugins.

A package adds one through the `sceneplan.providers` entry-point group
(docs/extending.md); a built-in name always wins over a plugin of the same
name. `client.py` turns a model name into a provider of its class.
"""

from __future__ import annotations

from sceneplan.errors import BadInputError
from sceneplan.plugins import GROUPS, Registry

PROVIDERS: Registry[type] = Registry(
    "LLM provider",
    GROUPS["providers"],
    {
        "openai": "sceneplan.llm.openai_provider:OpenAIProvider",
        "ollama": "sceneplan.llm.openai_provider:OllamaProvider",
        "vllm": "sceneplan.llm.openai_provider:VLLMProvider",
        "openai-compatible": "sceneplan.llm.openai_provider:OpenAICompatibleProvider",
        "anthropic": "sceneplan.llm.anthropic_provider:AnthropicProvider",
        "replay": "sceneplan.llm.replay:ReplayProvider",
    },
    base="sceneplan.llm.base:Provider",  # llm.base imports this module (through config)
    named=True,
    needs={
        "openai": "openai",
        "ollama": "openai",
        "vllm": "openai",
        "openai-compatible": "openai",
        "anthropic": "anthropic",
    },
)

PROVIDER_NAMES: tuple[str, ...] = tuple(PROVIDERS.builtins)
"""The built-in providers; `provider_names()` adds the installed plugins."""


def provider_names() -> list[str]:
    """Every provider: the built-in ones, then those installed packages add.

    >>> provider_names()[:2]
    ['openai', 'ollama']
    """
    return PROVIDERS.names()


def split_model(spec: str) -> tuple[str, str]:
    """Split `provider:model` at the first colon.

    >>> split_model("ollama:qwen2.5:7b")
    ('ollama', 'qwen2.5:7b')
    """
    provider, sep, model = spec.partition(":")
    if not sep or not model:
        raise BadInputError(
            f"model '{spec}' must be written PROVIDER:MODEL (e.g. openai:gpt-4o, "
            f"ollama:qwen2.5:7b); providers: {', '.join(provider_names())}"
        )
    return PROVIDERS.check(provider), model
