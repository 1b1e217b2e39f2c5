"""One small interface over chat models, with structured replies, accounting, cache and replay.

Models are named `provider:model` (`openai:gpt-4o`, `ollama:qwen2.5:7b`,
`anthropic:claude-sonnet-4-5`, `vllm:MODEL`, `openai-compatible:URL/MODEL`,
`replay:PATH`); see docs/llm.md. Providers are imported only when used.
"""

import lazy_loader

# Each public name is imported from its module on first use (PEP 562), as the stub
# __init__.pyi beside this file lists them: importing the package alone loads none of them.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
