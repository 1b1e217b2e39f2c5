"""The price table: USD per million tokens by `provider:model`, from prices.toml and the config."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from importlib import resources

from sceneplan.llm.config import Price

# A dated or pinned version of a priced model: gpt-4o-2024-08-06, claude-sonnet-4-5-20250929.
_VERSION_SUFFIX = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$")


class PriceTable:
    """Prices of models; `cost` is None for a model the table does not know."""

    def __init__(self, prices: Mapping[str, Price]) -> None:
        self.prices = dict(prices)

    @classmethod
    def load(cls, extra: Mapping[str, Price] | None = None) -> PriceTable:
        """The packaged table, with `extra` (from the config file) added or overriding."""
        text = resources.files("sceneplan.llm").joinpath("prices.toml").read_text("utf-8")
        packaged = {k: Price(**v) for k, v in tomllib.loads(text)["prices"].items()}
        return cls({**packaged, **(extra or {})})

    def lookup(self, key: str) -> Price | None:
        """The price of `provider:model`: exact, then a dated version of it, then `provider:*`.

        >>> table = PriceTable({"openai:gpt-4o": Price(input=2.5, output=10)})
        >>> table.lookup("openai:gpt-4o-2024-08-06").input
        2.5
        >>> table.lookup("openai:gpt-4o-mini") is None
        True
        """
        if key in self.prices:
            return self.prices[key]
        undated = _VERSION_SUFFIX.sub("", key)
        if undated in self.prices:
            return self.prices[undated]
        return self.prices.get(key.partition(":")[0] + ":*")

    def cost(self, key: str, input_tokens: int, output_tokens: int) -> float | None:
        """The cost in USD of a call, or None if the model has no price."""
        price = self.lookup(key)
        if price is None:
            return None
        return (input_tokens * price.input + output_tokens * price.output) / 1_000_000
