"""Provider names, mapped to the classes that serve them, imported only when asked for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from sceneplan.errors import BackendUnavailableError, BadInputError

if TYPE_CHECKING:
    from sceneplan.llm.base import Provider
    from sceneplan.llm.config import LLMSettings

# name -> (module, class, the pip package it needs)
_PROVIDERS: dict[str, tuple[str, str, str]] = {
    "openai": ("sceneplan.llm.openai_provider", "OpenAIProvider", "openai"),
    "ollama": ("sceneplan.llm.openai_provider", "OllamaProvider", "openai"),
    "vllm": ("sceneplan.llm.openai_provider", "VLLMProvider", "openai"),
    "openai-compatible": ("sceneplan.llm.openai_provider", "OpenAICompatibleProvider", "openai"),
    "anthropic": ("sceneplan.llm.anthropic_provider", "AnthropicProvider", "anthropic"),
    "replay": ("sceneplan.llm.replay", "ReplayProvider", "sceneplan"),
}

PROVIDER_NAMES: tuple[str, ...] = tuple(_PROVIDERS)


def split_model(spec: str) -> tuple[str, str]:
    """Split `provider:model` at the first colon.

    >>> split_model("ollama:qwen2.5:7b")
    ('ollama', 'qwen2.5:7b')
    """
    provider, sep, model = spec.partition(":")
    if not sep or not model:
        raise BadInputError(
            f"model '{spec}' must be written PROVIDER:MODEL (e.g. openai:gpt-4o, "
            f"ollama:qwen2.5:7b); providers: {', '.join(PROVIDER_NAMES)}"
        )
    if provider not in _PROVIDERS:
        raise BadInputError(
            f"unknown LLM provider '{provider}' in '{spec}'; providers: {', '.join(PROVIDER_NAMES)}"
        )
    return provider, model


def provider_class(name: str) -> type[Provider]:
    """The class serving provider `name`, imported now."""
    module_name, class_name, package = _PROVIDERS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BackendUnavailableError(
            f"the '{name}' LLM provider needs the '{package}' package ({exc}); "
            f"install it with: pip install {package}"
        ) from None
    return getattr(module, class_name)


def create_provider(spec: str, settings: LLMSettings) -> Provider:
    """A provider for model `spec` (`provider:model`), configured from `settings`."""
    name, model = split_model(spec)
    return provider_class(name).from_settings(model, settings)
