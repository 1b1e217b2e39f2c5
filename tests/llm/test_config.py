"""Model names, settings (arguments, environment, config file), the not-configured error."""

from __future__ import annotations

import pytest

from sceneplan.errors import BadInputError, ModelNotConfiguredError
from sceneplan.llm import LLMClient, load_settings
from sceneplan.llm.client import create_provider
from sceneplan.llm.openai_provider import OllamaProvider
from sceneplan.llm.registry import split_model


def test_no_model_configured_says_how_to_configure_one(tmp_path):
    with pytest.raises(ModelNotConfiguredError) as caught:
        LLMClient()
    message = str(caught.value)
    assert message.startswith("no LLM configured")
    for hint in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ollama serve", "SCENEPLAN_LLM", "--llm"):
        assert hint in message
    assert str(tmp_path / "config" / "sceneplan" / "config.toml") in message


def test_an_api_key_is_enough(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert load_settings().default_model() == "openai:gpt-4o"
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    assert load_settings().default_model() == "anthropic:claude-sonnet-4-5"


def test_missing_key_for_a_keyed_provider():
    settings = load_settings()
    with pytest.raises(ModelNotConfiguredError, match="export OPENAI_API_KEY"):
        create_provider("openai:gpt-4o", settings)
    with pytest.raises(ModelNotConfiguredError, match="export ANTHROPIC_API_KEY"):
        create_provider("anthropic:claude-sonnet-4-5", settings)


def test_config_file_then_environment_then_arguments(tmp_path, monkeypatch):
    config = tmp_path / "config" / "sceneplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        """
[llm]
model = "ollama:llama3.1:8b"
timeout = 30
concurrency = 8

[llm.providers.vllm]
base_url = "http://gpu-box:8000/v1"
concurrency = 16

[llm.prices."vllm:my-model"]
input = 1.0
output = 2.0
"""
    )
    settings = load_settings()
    assert settings.model == "ollama:llama3.1:8b" and settings.timeout == 30
    vllm = create_provider("vllm:my-model", settings)
    assert vllm.base_url == "http://gpu-box:8000/v1" and vllm.concurrency == 16
    assert settings.prices["vllm:my-model"].output == 2.0

    monkeypatch.setenv("SCENEPLAN_LLM", "ollama:qwen2.5:7b")
    monkeypatch.setenv("SCENEPLAN_CACHE_DIR", str(tmp_path / "elsewhere"))
    settings = load_settings()
    assert settings.model == "ollama:qwen2.5:7b"
    assert settings.cache_path == tmp_path / "elsewhere" / "llm-cache.sqlite3"

    settings = load_settings(model="vllm:my-model", timeout=5.0)
    assert (settings.model, settings.timeout) == ("vllm:my-model", 5.0)


def test_explicit_config_file(tmp_path, monkeypatch):
    path = tmp_path / "custom.toml"
    path.write_text('[llm]\nmodel = "vllm:m"\n')
    monkeypatch.setenv("SCENEPLAN_CONFIG", str(path))
    assert load_settings().model == "vllm:m"
    monkeypatch.setenv("SCENEPLAN_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(BadInputError, match=r"missing\.toml does not exist"):
        load_settings()


def test_bad_config_names_file_and_key(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[llm]\ntimeout = -1\ncolour = "red"\n[llm.providers.openia]\napi_key = "x"\n')
    with pytest.raises(BadInputError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: invalid LLM settings")
    for part in ("llm.timeout", "llm.colour", "openia"):
        assert part in message
    path.write_text("[llm\n")
    with pytest.raises(BadInputError, match=r"not valid TOML \(Expected ']'"):
        load_settings(path)


def test_provider_urls_and_keys(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:11434")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://proxy:9000/v1/")
    settings = load_settings()
    assert create_provider("ollama:qwen2.5:7b", settings).base_url == "http://0.0.0.0:11434/v1"
    openai = create_provider("openai:gpt-4o", settings)
    assert (openai.base_url, openai.api_key) == ("http://proxy:9000/v1", "sk-test")
    compatible = create_provider("openai-compatible:http://h:8080/v1/org/model-7b", settings)
    assert (compatible.base_url, compatible.model) == ("http://h:8080/v1", "org/model-7b")
    assert compatible.api_key != "sk-test"  # the OpenAI key is not sent to other servers
    assert create_provider("vllm:m", load_settings()).base_url == "http://localhost:8000/v1"
    assert OllamaProvider.normalize_base_url("localhost") == "http://localhost:11434/v1"


def test_anthropic_urls_and_key(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    claude = create_provider("anthropic:claude-sonnet-4-5", load_settings())
    assert (claude.base_url, claude.api_key) == ("https://api.anthropic.com", "sk-ant-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://proxy:9000/")
    assert create_provider("anthropic:m", load_settings()).base_url == "http://proxy:9000"
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "proxy:9000")
    with pytest.raises(BadInputError, match="set ANTHROPIC_BASE_URL or base_url"):
        create_provider("anthropic:m", load_settings())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", "must be written PROVIDER:MODEL"),
        ("openia:gpt-4o", "unknown LLM provider 'openia'"),
        ("openai-compatible:my-model", "names no server"),
        ("openai-compatible:http://h:8080/v1/", "must be URL/MODEL"),
    ],
)
def test_bad_model_names(spec, message):
    with pytest.raises(BadInputError, match=message):
        create_provider(spec, load_settings())


def test_model_split_keeps_tags():
    assert split_model("ollama:qwen2.5:7b") == ("ollama", "qwen2.5:7b")
