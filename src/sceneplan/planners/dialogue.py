"""The conversation with the model, and the prompt templates it is written from.

Templates live in `planners/prompts/` and use `$name` placeholders
(`string.Template`), so the JSON examples in them need no escaping.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Template

from sceneplan.graph.serialize import view_to_dict
from sceneplan.graph.tokens import count_tokens
from sceneplan.graph.views import GraphView

# What an older turn shows instead of its scene graph, once a newer turn carries it.
GRAPH_MOVED = "(shown in the latest message)"


@cache
def _template(name: str) -> Template:
    text = (resources.files("sceneplan.planners") / "prompts" / name).read_text(encoding="utf-8")
    return Template(text)


def has_template(name: str) -> bool:
    """Whether `planners/prompts/` holds a template of that name."""
    return (resources.files("sceneplan.planners") / "prompts" / name).is_file()


def render(name: str, **values: str) -> str:
    """Fill the template `prompts/<name>`; a missing value is a KeyError (a bug, not input)."""
    return _template(name).substitute(values).strip()


def graph_text(view: GraphView, *, topology: bool = True) -> str:
    """The view as compact JSON; without `topology`, poses and links are left out.

    Planners whose actions move between rooms directly (SayPlan Lite) have no
    use for the pose nodes, so their prompts leave them out.
    """
    data = view_to_dict(view)
    if not topology:
        data["nodes"].pop("pose", None)
        data.pop("links", None)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def memory_text(view: GraphView) -> str:
    """The search's memory of explored nodes as JSON, for a turn of the dialogue."""
    return json.dumps(view.memory)


class Dialogue:
    """Messages that accumulate over a run; only the newest turn carries the full scene graph.

    Older user turns are rewritten to their compact form (the graph replaced by
    a pointer to the newest one) when a new turn is added, so the dialogue
    grows by the replies and feedback, not by a graph per turn.

    A Markovian dialogue (`markov=True`, SayPlan Sec. 3.2: the memory input
    stands in for the history) sends only the system prompt and the newest
    user turn, which carries the instruction, the graph, the memory and the
    last feedback; the whole exchange is still kept in `messages`.

    >>> d = Dialogue("You plan.")
    >>> d.user("graph: {big}", compact="graph: (see below)")
    >>> d.assistant("ok")
    >>> d.user("graph: {bigger}", compact="graph: (see below)")
    >>> [m["content"] for m in d.messages]
    ['You plan.', 'graph: (see below)', 'ok', 'graph: {bigger}']
    """

    def __init__(self, system: str, *, markov: bool = False):
        self.messages: list[dict[str, str]] = [{"role": "system", "content": system}]
        self._compact: dict[int, str] = {}
        self.markov = markov

    def user(self, content: str, *, compact: str | None = None) -> None:
        """Add a user turn; `compact` is what it becomes once a newer turn follows."""
        for index, text in self._compact.items():
            self.messages[index]["content"] = text
        self._compact = {len(self.messages): compact} if compact is not None else {}
        self.messages.append({"role": "user", "content": content})

    def user_turn(self, template: str, *, graph: str, **values: str) -> None:
        """Add a user turn rendered from a template with a `$graph` slot."""
        self.user(
            render(template, graph=graph, **values),
            compact=render(template, graph=GRAPH_MOVED, **values),
        )

    def assistant(self, content: str) -> None:
        """Add the model's reply to the exchange."""
        self.messages.append({"role": "assistant", "content": content})

    def sent(self) -> list[dict[str, str]]:
        """The messages a request carries now: all of them, or (Markovian) the system
        prompt and the newest user turn."""
        if not self.markov:
            return self.messages
        last_user = next((m for m in reversed(self.messages) if m["role"] == "user"), None)
        return [self.messages[0]] + ([last_user] if last_user is not None else [])

    def snapshot(self) -> list[dict[str, str]]:
        """A copy of the messages a request carries now (the Episode keeps what was sent).

        >>> d = Dialogue("You plan.", markov=True)
        >>> d.user("turn 1"); d.assistant("ok"); d.user("turn 2")
        >>> [m["content"] for m in d.snapshot()]
        ['You plan.', 'turn 2']
        """
        return [dict(m) for m in self.sent()]

    def tokens(self) -> int:
        """Tokens of the whole prompt as it would be sent now."""
        return sum(count_tokens(m["content"]) for m in self.sent())
