"""One small interface over chat models, with structured replies, accounting, cache and replay.

Models are named `provider:model` (`openai:gpt-4o`, `ollama:qwen2.5:7b`,
`anthropic:claude-sonnet-4-5`, `vllm:MODEL`, `openai-compatible:URL/MODEL`,
`replay:PATH`); see docs/llm.md. Providers are imported only when used.
"""

from sceneplan.llm.client import LLMClient, Response
from sceneplan.llm.config import LLMSettings, load_settings
from sceneplan.llm.messages import Message
from sceneplan.llm.registry import PROVIDER_NAMES
from sceneplan.llm.usage import CallRecord, Ledger, Usage

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
