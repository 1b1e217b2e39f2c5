"""`simulated:PROFILE`: a chat-model provider that answers as a model that errs would.

It answers at the provider boundary: it gets the request's messages and reply schema,
as a server does, and everything above it is the real client path (structured modes,
validation and the re-ask of an unusable reply, retries, the ledger, the transcript),
with the prompt's real token counts. Each reply is the correct one for the run's task
(`replies.draft`), then, with the profile's rate, carries one error of a kind drawn by
the profile's weights among those that apply (`profiles`). The draw is seeded by the
profile's seed and the request itself, so the same seed gives the same replies whatever
order runs go in, and a request asked again (a re-ask, a replan) is a new draw. The
errors made are noted in the run's session (`session`), which the episode records.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from random import Random
from typing import TYPE_CHECKING, Any, Self

from sceneplan.datasets.tasks import find_task
from sceneplan.errors import LLMRequestError
from sceneplan.graph.tokens import count_tokens
from sceneplan.llm.base import Provider
from sceneplan.llm.messages import ProviderReply, Request
from sceneplan.runs import resolve
from sceneplan.simulated.mistakes import malformed
from sceneplan.simulated.profiles import KINDS, Kind, Profile, parse_profile
from sceneplan.simulated.prompt import Prompt
from sceneplan.simulated.replies import draft
from sceneplan.simulated.session import Session, current

if TYPE_CHECKING:
    from sceneplan.llm.config import LLMSettings


class SimulatedProvider(Provider):
    """A stand-in model that knows the task and makes the errors of its profile."""

    name = "simulated"
    label = "the simulated model"
    cacheable = False  # each run draws its errors anew; a cache would replay the first

    def __init__(self, profile: Profile, *, timeout: float, concurrency: int) -> None:
        super().__init__(profile.spec(), base_url=None, timeout=timeout, concurrency=concurrency)
        self.profile = profile
        self._unbound: dict[str, Session] = {}

    @classmethod
    def from_settings(cls, model: str, settings: LLMSettings) -> Self:
        """The stand-in with the profile `model` names (`p=0.2`, `sayplan-gpt4,seed=3`)."""
        return cls(
            parse_profile(model),
            timeout=settings.timeout,
            concurrency=max(settings.concurrency, 64),
        )

    async def _complete(self, request: Request) -> ProviderReply:
        session = current()
        text = await asyncio.to_thread(self.answer, request, session)
        prompt = sum(count_tokens(m.content) for m in request.messages)
        return self.reply(text, prompt, count_tokens(text), served_model=None)

    def answer(self, request: Request, session: Session | None = None) -> str:
        """The reply text to `request` for the run of `session` (else the packaged task
        whose instruction the request carries)."""
        messages = [(m.role, m.content) for m in request.messages]
        schema = str((request.schema or {}).get("title", ""))
        prompt = Prompt.read(messages, schema)
        if session is None and not prompt.instruction:  # not a planner's (`llm check`)
            return json.dumps(_plain(request.schema)) if request.schema is not None else "ok"
        if session is None:
            session = self._session_for(prompt.instruction)
        knowledge = session.knowledge()
        reply = draft(prompt, knowledge)
        rng = Random(self._seed(request))
        if reply.persisting is not None:
            detail = reply.persisting(rng)
            session.note(
                schema, Kind.MISSING_ACTION.value, detail, KINDS[Kind.MISSING_ACTION].error_type
            )
            return json.dumps(reply.data)
        if rng.random() < self.profile.rate:
            kinds = [
                k for k in (*reply.errors, Kind.MALFORMED) if self.profile.weights.get(k, 0) > 0
            ]
            if request.schema is None:
                kinds = []
            if kinds:
                kind = rng.choices(kinds, [self.profile.weights[k] for k in kinds])[0]
                if kind is not Kind.MALFORMED:
                    detail = reply.errors[kind](rng)
                    if detail:
                        session.note(schema, kind.value, detail, KINDS[kind].error_type)
                    return json.dumps(reply.data)
                text, form = malformed(json.dumps(reply.data), reply.data, rng)
                session.note(schema, kind.value, form, None)
                return text
        return json.dumps(reply.data) if request.schema is not None else "ok"

    def _seed(self, request: Request) -> str:
        """The draw's seed: the profile's seed and the request's messages and schema."""
        body = json.dumps(
            [self.profile.seed, [(m.role, m.content) for m in request.messages], request.schema],
            sort_keys=True,
        )
        return hashlib.sha256(body.encode()).hexdigest()

    def _session_for(self, instruction: str) -> Session:
        """A session for a run nobody bound: the packaged task with this instruction."""
        if instruction not in self._unbound:
            task = find_task(instruction)
            if task is None:
                raise LLMRequestError(
                    f"the simulated model knows only tasks with a formal goal: no packaged "
                    f"task has the instruction '{instruction}' (give a task with --task or "
                    "bind one with sceneplan.simulated.simulating(task, graph))"
                )
            self._unbound[instruction] = Session(task, resolve(task).graph)
        return self._unbound[instruction]


_PLAIN = {"string": "ok", "array": [], "boolean": True, "integer": 0, "number": 0}


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A reply of the simplest values a schema's properties take (a request that is no
    planner's, such as `sceneplan llm check`'s probes).

    >>> _plain({"properties": {"answer": {"type": "string"}}})
    {'answer': 'ok'}
    """
    return {
        name: _PLAIN.get(str(prop.get("type")))
        for name, prop in schema.get("properties", {}).items()
    }
