"""One small interface over chat models, with structured replies, accounting, cache and replay.

Models are named `provider:model` (`openai:gpt-4o`, `ollama:qwen2.5:7b`,
`anthropic:claude-sonnet-4-5`, `vllm:MODEL`, `openai-compatible:URL/MODEL`,
`replay:PATH`); see docs/llm.md. Providers are imported only when used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sceneplan.llm.client import LLMClient, Response
    from sceneplan.llm.config import LLMSettings, load_settings
    from sceneplan.llm.messages import Message
    from sceneplan.llm.registry import PROVIDER_NAMES
    from sceneplan.llm.usage import CallRecord, Ledger, Usage

# Each public name and the module it comes from, imported on first use (PEP 562):
# importing the package alone loads none of them.
_EXPORTS = {
    "LLMClient": "sceneplan.llm.client",
    "Response": "sceneplan.llm.client",
    "LLMSettings": "sceneplan.llm.config",
    "load_settings": "sceneplan.llm.config",
    "Message": "sceneplan.llm.messages",
    "PROVIDER_NAMES": "sceneplan.llm.registry",
    "CallRecord": "sceneplan.llm.usage",
    "Ledger": "sceneplan.llm.usage",
    "Usage": "sceneplan.llm.usage",
}

__all__ = [
    "PROVIDER_NAMES",
    "CallRecord",
    "LLMClient",
    "LLMSettings",
    "Ledger",
    "Message",
    "Response",
    "Usage",
    "load_settings",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
