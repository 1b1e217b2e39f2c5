"""Every environment variable sceneplan reads, named once.

Other modules refer to these constants, in code and in the messages that
tell a user what to set, so a name cannot be spelled two ways. Like
`errors`, this module imports nothing of sceneplan, so every layer may use it.

>>> MODEL, CONFIG
('SCENEPLAN_LLM', 'SCENEPLAN_CONFIG')
"""

from __future__ import annotations

# sceneplan's own
MODEL = "SCENEPLAN_LLM"  # the default model, PROVIDER:MODEL
CONFIG = "SCENEPLAN_CONFIG"  # the config file, instead of the default location
CACHE_DIR = "SCENEPLAN_CACHE_DIR"  # the folder of the LLM response cache

# the providers' usual ones
OPENAI_API_KEY = "OPENAI_API_KEY"
OPENAI_BASE_URL = "OPENAI_BASE_URL"
ANTHROPIC_API_KEY = "ANTHROPIC_API_KEY"
ANTHROPIC_BASE_URL = "ANTHROPIC_BASE_URL"
OLLAMA_HOST = "OLLAMA_HOST"
VLLM_API_KEY = "VLLM_API_KEY"
VLLM_BASE_URL = "VLLM_BASE_URL"

# where user files go by default (XDG base directories)
XDG_CONFIG_HOME = "XDG_CONFIG_HOME"
XDG_CACHE_HOME = "XDG_CACHE_HOME"

# Provider settings read from the environment: (provider, setting) -> variable.
PROVIDER_SETTINGS: dict[tuple[str, str], str] = {
    ("openai", "api_key"): OPENAI_API_KEY,
    ("openai", "base_url"): OPENAI_BASE_URL,
    ("anthropic", "api_key"): ANTHROPIC_API_KEY,
    ("anthropic", "base_url"): ANTHROPIC_BASE_URL,
    ("ollama", "base_url"): OLLAMA_HOST,
    ("vllm", "api_key"): VLLM_API_KEY,
    ("vllm", "base_url"): VLLM_BASE_URL,
}

# Everything that changes which model is used and how it is reached.
LLM: tuple[str, ...] = (MODEL, CONFIG, CACHE_DIR, *PROVIDER_SETTINGS.values())
ALL: tuple[str, ...] = (*LLM, XDG_CONFIG_HOME, XDG_CACHE_HOME)
