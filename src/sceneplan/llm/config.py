"""LLM settings from arguments, environment variables and the config file.

Precedence, highest first: keyword arguments to `load_settings`, environment
variables, the `[llm]` table of the config file, defaults. The config file is
the one `envvars.CONFIG` names, else `sceneplan/config.toml` in the XDG config
folder (by default `~/.config/sceneplan/config.toml`); it is optional. The
variables are named in `sceneplan.envvars`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sceneplan import envvars
from sceneplan.errors import BadInputError, ModelNotConfiguredError
from sceneplan.llm.registry import PROVIDERS, provider_names
from sceneplan.plugins import unknown_name
from sceneplan.textinput import read_toml

MAX_SECONDS = 86_400.0  # a day: the longest timeout or wait a setting may ask for
MAX_RETRIES = 100
MAX_CONCURRENCY = 1024

# The model used when only an API key is configured.
DEFAULT_MODELS: dict[str, str] = {
    "openai": "openai:gpt-4o",
    "anthropic": "anthropic:claude-sonnet-4-5",
}

NOT_CONFIGURED_HELP = f"""no LLM configured. Configure one of:
  - an API key: export {envvars.OPENAI_API_KEY}=... (uses openai:gpt-4o) or \
export {envvars.ANTHROPIC_API_KEY}=... (uses anthropic:claude-sonnet-4-5)
  - a local Ollama server: `ollama serve`, `ollama pull qwen2.5:7b`, then \
export {envvars.MODEL}=ollama:qwen2.5:7b ({envvars.OLLAMA_HOST} if it is not on localhost:11434)
  - a model on the command line: --llm PROVIDER:MODEL (`sceneplan llm check` takes it as MODEL)
  - or `model = "PROVIDER:MODEL"` under [llm] in {{config}}
Providers: {{providers}}. See docs/llm.md."""


class ProviderSettings(BaseModel):
    """Connection settings of one provider."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key: str | None = None
    concurrency: int | None = Field(default=None, ge=1, le=MAX_CONCURRENCY)


class Price(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class LLMSettings(BaseModel):
    """Everything the LLM layer can be configured with (the `[llm]` table of the config file)."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    # Bounded so that a run ends: a finite timeout, retries and waits a person would choose.
    timeout: float = Field(
        default=120.0, gt=0, le=MAX_SECONDS, allow_inf_nan=False, description="seconds per attempt"
    )
    max_retries: int = Field(
        default=3, ge=0, le=MAX_RETRIES, description="extra attempts on 429/5xx/network"
    )
    backoff_base: float = Field(
        default=1.0, ge=0, le=MAX_SECONDS, allow_inf_nan=False, description="first retry delay, s"
    )
    backoff_max: float = Field(
        default=30.0, ge=0, le=MAX_SECONDS, allow_inf_nan=False, description="longest delay, s"
    )
    retry_after_max: float | None = Field(
        default=None,
        ge=0,
        le=MAX_SECONDS,
        allow_inf_nan=False,
        description="longest wait granted to a Retry-After; default: backoff_max",
    )
    concurrency: int = Field(
        default=4, ge=1, le=MAX_CONCURRENCY, description="requests in flight per provider"
    )
    cache: bool = Field(default=True, description="cache replies to temperature-0 requests")
    cache_dir: Path | None = None
    transcript: Path | None = Field(default=None, description="JSONL file every call is added to")
    providers: dict[str, ProviderSettings] = Field(default_factory=dict)
    prices: dict[str, Price] = Field(default_factory=dict)

    @field_validator("providers")
    @classmethod
    def _known_providers(cls, value: dict[str, ProviderSettings]) -> dict[str, ProviderSettings]:
        for name in value:
            if name not in PROVIDERS:
                raise ValueError(str(unknown_name(PROVIDERS.kind, name, PROVIDERS.names())))
        return value

    def provider(self, name: str) -> ProviderSettings:
        """The settings of provider `name` (empty if none were given)."""
        return self.providers.get(name, ProviderSettings())

    @property
    def cache_path(self) -> Path:
        """The SQLite file of the response cache."""
        return (self.cache_dir or _user_dir(envvars.XDG_CACHE_HOME, ".cache")) / "llm-cache.sqlite3"

    def default_model(self) -> str:
        """The configured model, else the default of a provider whose API key is set."""
        if self.model:
            return self.model
        for provider, model in DEFAULT_MODELS.items():
            if self.provider(provider).api_key:
                return model
        raise ModelNotConfiguredError(
            NOT_CONFIGURED_HELP.format(config=config_path(), providers=", ".join(provider_names()))
        )


def config_path() -> Path:
    """Where the config file is looked for."""
    explicit = os.environ.get(envvars.CONFIG)
    if explicit:
        return Path(explicit).expanduser()
    return _user_dir(envvars.XDG_CONFIG_HOME, ".config") / "config.toml"


def load_settings(config_file: str | Path | None = None, **overrides: Any) -> LLMSettings:
    """Settings from the config file, then the environment, then `overrides` (None ignored).

    `config_file` replaces the default location; a file named explicitly
    (argument or `envvars.CONFIG`) must exist.
    """
    explicit = config_file is not None or bool(os.environ.get(envvars.CONFIG))
    path = Path(config_file).expanduser() if config_file is not None else config_path()
    data = _read_llm_table(path, required=explicit)
    source = str(path) if path.is_file() else "settings"

    providers = data.setdefault("providers", {})
    for (provider, field), env in envvars.PROVIDER_SETTINGS.items():
        if os.environ.get(env):
            providers.setdefault(provider, {})[field] = os.environ[env]
    if os.environ.get(envvars.MODEL):
        data["model"] = os.environ[envvars.MODEL]
    if os.environ.get(envvars.CACHE_DIR):
        data["cache_dir"] = os.environ[envvars.CACHE_DIR]
    data.update({k: v for k, v in overrides.items() if v is not None})

    try:
        return LLMSettings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in ('llm', *err['loc']))}: {err['msg']}"
            for err in exc.errors()
        )
        raise BadInputError(f"{source}: invalid LLM settings: {problems}") from None


def _read_llm_table(path: Path, *, required: bool) -> dict[str, Any]:
    try:
        present = path.exists() or path.is_symlink()
    except OSError as exc:  # a folder on the way that cannot be read (an unreadable HOME)
        raise BadInputError(f"cannot read the config file {path}: {exc.strerror}") from None
    if not present:
        if required:
            raise BadInputError(f"config file {path} does not exist")
        return {}
    document = read_toml(path, "the config file")
    table = document.get("llm", {})
    if not isinstance(table, dict):
        raise BadInputError(f"{path}: [llm] must be a table")
    return table


def _user_dir(xdg_env: str, fallback: str) -> Path:
    base = os.environ.get(xdg_env) or Path.home() / fallback
    return Path(base).expanduser() / "sceneplan"
