"""Settings are bounded so that a run ends; a config the run does not need does not stop it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sceneplan import envvars
from sceneplan.cli import app
from sceneplan.errors import BadInputError
from sceneplan.llm import load_settings
from scripted_llm import isolate_llm_env


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("timeout = inf", "llm.timeout: Input should be a finite number"),
        ("timeout = nan", "llm.timeout: Input should be a finite number"),
        ("max_retries = 100000000000000000000", "llm.max_retries: Input should be less than"),
        ("backoff_max = 1e300", "llm.backoff_max: Input should be less than or equal to 86400"),
        ("retry_after_max = inf", "llm.retry_after_max: Input should be a finite number"),
        ("concurrency = 1000000000", "llm.concurrency: Input should be less than"),
    ],
)
def test_a_setting_that_would_never_end_is_refused(tmp_path, monkeypatch, toml, message):
    isolate_llm_env(monkeypatch, tmp_path)
    config = tmp_path / "c.toml"
    config.write_text(f"[llm]\n{toml}\n")
    monkeypatch.setenv(envvars.CONFIG, str(config))
    with pytest.raises(BadInputError, match=message):
        load_settings()


def _unreadable_default_config(tmp_path, monkeypatch) -> None:
    """The default config location holds something that cannot be read (a folder)."""
    isolate_llm_env(monkeypatch, tmp_path)
    (tmp_path / "config" / "sceneplan" / "config.toml").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)


def test_an_oracle_eval_does_not_read_the_model_config(tmp_path, monkeypatch):
    _unreadable_default_config(tmp_path, monkeypatch)

    def unreadable(*args, **kwargs):  # as with an unreadable HOME (root reads any folder)
        raise BadInputError("cannot read the config file: Permission denied")

    monkeypatch.setattr("sceneplan.eval.runner.load_settings", unreadable)
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "oracle"]
    result = CliRunner().invoke(app, [*args, "--out", "r.db"])
    assert result.exit_code == 0, result.output


def test_an_llm_eval_names_the_config_it_cannot_read(tmp_path, monkeypatch):
    _unreadable_default_config(tmp_path, monkeypatch)
    args = ["eval", "-s", "office-planning", "-t", "planning-simple-02", "-p", "sayplan"]
    result = CliRunner().invoke(app, [*args, "--out", "r.db"])
    assert result.exit_code == 2
    assert "cannot read the config file" in result.output
    assert "it is a directory, not a file" in result.output
