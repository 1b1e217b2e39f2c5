"""Provider names: the built-in ones, mapped to the classes that serve them, then plugins.

Built-in providers are imported only when asked for; a package adds one
through the `sceneplan.providers` entry-point group (docs/extending.md). A
built-in name always wins over a plugin of the same name. `client.py` turns
a name into a provider; this module only knows the names.
"""

from __future__ import annotations

from sceneplan.errors import BadInputError
from sceneplan.plugins import GROUPS, plugin_names

# name -> (module, class, the pip package it needs)
BUILTIN: dict[str, tuple[str, str, str]] = {
    "openai": ("sceneplan.llm.openai_provider", "OpenAIProvider", "openai"),
    "ollama": ("sceneplan.llm.openai_provider", "OllamaProvider", "openai"),
    "vllm": ("sceneplan.llm.openai_provider", "VLLMProvider", "openai"),
    "openai-compatible": ("sceneplan.llm.openai_provider", "OpenAICompatibleProvider", "openai"),
    "anthropic": ("sceneplan.llm.anthropic_provider", "AnthropicProvider", "anthropic"),
    "replay": ("sceneplan.llm.replay", "ReplayProvider", "sceneplan"),
}

PROVIDER_NAMES: tuple[str, ...] = tuple(BUILTIN)
"""The built-in providers; `provider_names()` adds the installed plugins."""

GROUP = GROUPS["providers"]


def provider_names() -> list[str]:
    """Every provider: the built-in ones, then those installed packages add.

    >>> provider_names()[:2]
    ['openai', 'ollama']
    """
    return [*PROVIDER_NAMES, *(n for n in plugin_names(GROUP) if n not in BUILTIN)]


def split_model(spec: str) -> tuple[str, str]:
    """Split `provider:model` at the first colon.

    >>> split_model("ollama:qwen2.5:7b")
    ('ollama', 'qwen2.5:7b')
    """
    provider, sep, model = spec.partition(":")
    names = provider_names()
    if not sep or not model:
        raise BadInputError(
            f"model '{spec}' must be written PROVIDER:MODEL (e.g. openai:gpt-4o, "
            f"ollama:qwen2.5:7b); providers: {', '.join(names)}"
        )
    if provider not in names:
        raise BadInputError(
            f"unknown LLM provider '{provider}' in '{spec}'; providers: {', '.join(names)}"
        )
    return provider, model
