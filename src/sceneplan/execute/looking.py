"""The executor's looking: searching for what the goal names and the robot lost sight of, and
confirming by a look what holds of the goal's nodes on memory alone.

Both send skill calls that count as looks, not against the plan's budget: a search
has a budget of its own (`search.search_budget`), and a node is looked at
`CONFIRM_TRIES` times at most. `Looking` is the `Executor`'s part that does them; the
executor's round loop (executor.py) calls `_lost`, `_search` and `_confirm`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from sceneplan.errors import SceneplanError
from sceneplan.execute.belief import Belief
from sceneplan.execute.search import (
    CALLS_PER_PLACE,
    llm_rooms,
    look_actions,
    rooms_to_search,
    search_budget,
    search_order,
    seen_whole,
)
from sceneplan.execute.settings import Stop
from sceneplan.execute.skills import SkillResult
from sceneplan.execute.trace import record_of
from sceneplan.execute.worth import greedy_look, last_places, surface_weights, sweep_look
from sceneplan.graph.model import NodeKind
from sceneplan.planners.episode import Episode
from sceneplan.planners.records import Confirmation, ExecutionRecord, Round, SearchRecord
from sceneplan.world.actions import Action
from sceneplan.world.goals import Formula, parse_goal

if TYPE_CHECKING:
    from sceneplan.llm import LLMClient

CONFIRM_TRIES = 2  # looks at a goal's node before the run stops for want of confirming it


class Looking:
    """The search and the confirmation, on the `Executor`'s state (declared here, set there)."""

    goal: str | None
    belief: Belief
    search: str  # how to search (search.ORDERS)
    confirm: bool
    llm: LLMClient | None
    max_replans: int
    _step: Callable[[Action, Episode], Awaitable[SkillResult | None]]
    _goal: Callable[[], Formula | None]
    _looking: int  # skill calls made to search or confirm
    _searching: bool  # calls now count as looking
    _surfaces: set  # (asset, relation) seen whole
    _observed: set  # nodes seen or handled
    _tries: dict  # goal node -> looks to confirm it
    _unconfirmed: dict  # goal node -> why not seen
    _search_calls_before: int  # looks when the search began
    _ranked: list  # rooms the LLM named
    _looked: list  # assets seen by the last search
    _tried: set  # (room, asset) the search made
    _weights: dict  # surface -> worth (greedy)
    _search_metres: float  # travelled while searching

    def _lost(self) -> list[str]:
        """The objects the goal names, by id or by the category it quantifies over, that
        the belief dropped as missing."""
        if self.goal is None or not self.belief.lost:
            return []
        goal = parse_goal(self.goal)
        selectors, todo = set(), [goal]
        while todo:
            formula = todo.pop()
            if isinstance(selector := getattr(formula, "selector", None), str):
                selectors.add(selector)
            todo += formula.children()
        lost = self.belief.lost
        return sorted(
            n
            for n in lost
            if n in goal.nodes()
            or lost[n].category in selectors
            or f"kind:{lost[n].kind.value}" in selectors
        )

    async def _search(self, lost: list[str], episode: Episode) -> str:
        """Look at assets, likely ones first, until every lost object is seen again (one
        replan round), within the search's own budget of skill calls."""
        record = record_of(episode)
        rounds = record.rounds
        reason = f"lost sight of {', '.join(lost)}, which the goal names"
        if episode.replans >= self.max_replans:
            raise Stop(f"the replan budget ({self.max_replans}) is spent; last: {reason}")
        episode.replans += 1
        rounds.append(
            Round(round=len(rounds), source="search", at_step=len(episode.steps), reason=reason)
        )
        started, calls_before = time.perf_counter(), self._looking
        self._search_calls_before = calls_before
        budget = search_budget(self.belief)
        self._ranked, asked = [], None
        if self.search in ("greedy", "likely") and self.llm is not None:
            self._ranked, asked = await llm_rooms(self.llm, self.belief, lost, episode)
        looked = self._looked = []  # assets the robot saw while searching, in order
        visited = 0  # assets the search went to look at
        metres_before = self._search_metres
        self._tried = set()
        self._weights = surface_weights(self.belief, lost, self._ranked)

        def missing() -> bool:
            return any(n in self.belief.lost for n in lost)

        self._searching = True
        try:
            for room, asset in self._looks(lost):
                if not missing():
                    break
                if self._skips(asset):
                    continue  # seen whole already (arriving in its room, say)
                try:
                    actions = look_actions(self.belief, room, asset)
                except SceneplanError:  # cut off since the order was made
                    continue
                visited += asset is not None
                for action in actions:
                    if self._looking - calls_before >= budget:
                        raise Stop(
                            f"the search for {', '.join(n for n in lost if n in self.belief.lost)}"
                            f" spent its budget of {budget} skill calls ({CALLS_PER_PLACE} per "
                            f"asset and room of the map), {self._cost(metres_before)}"
                        )
                    result = await self._step(action, episode)
                    self._tried.add((self.belief.state.room_of(self.belief.state.agent_id), None))
                    if result is not None and not result.ok:
                        break
                    if not missing():
                        break
                    if self._skips(asset):
                        break  # arriving showed it whole: no need to reach it
        finally:
            self._searching = False
        still = [n for n in lost if n in self.belief.lost]
        record.searches.append(
            SearchRecord(
                lost=list(lost),
                order=self.search,
                llm_rooms=list(self._ranked) if self.llm is not None else None,
                llm_note=asked,
                looked=visited,
                seen=len(looked),
                calls=self._looking - calls_before,
                metres=round(self._search_metres - metres_before, 2),
                found=not still,
            )
        )
        rounds[-1].time_s = round(time.perf_counter() - started, 4)
        rounds[-1].note = self._cost(metres_before) + (
            f"; not found: {', '.join(still)}" if still else ""
        )
        if still:
            raise Stop(
                f"searched every place the robot can reach ({self._cost(metres_before)}) "
                f"and did not find {', '.join(still)}"
            )
        return ", ".join(lost)

    def _cost(self, metres_before: float) -> str:
        """What the search under way cost the robot, as its messages say it."""
        calls = self._looking - self._search_calls_before
        metres = self._search_metres - metres_before
        return f"{calls} skill call(s), {metres:.0f} m, {len(self._looked)} asset(s) seen"

    def _skips(self, asset: str | None) -> bool:
        """Whether the search need not look at an asset: seen whole already. (The nearest
        search visits every asset.)"""
        if self.search == "nearest" or asset is None:
            return False
        return seen_whole(self.belief, asset, self._surfaces)

    def _looks(self, lost: list[str]) -> Iterator[tuple[str, str | None]]:
        """The search's (room, asset) looks, one at a time, each chosen from where the
        robot is now and what it has seen since (the nearest order: made once)."""
        if self.search == "nearest":
            yield from self._order(lost)
            return
        while True:
            item = self._next(lost)
            if item is None:
                return
            self._tried.add(item)
            yield item

    def _next(self, lost: list[str]) -> tuple[str, str | None] | None:
        """The search's next look, or None when nothing is left to look at."""
        if self.search == "likely":
            return next((i for i in self._order(lost) if i not in self._tried), None)
        seen = self._surfaces | last_places(self.belief, lost)
        if self.search == "sweep":
            return sweep_look(self.belief, seen, self._tried)
        return greedy_look(self.belief, self._weights, seen, self._tried)

    def _order(self, lost: list[str]) -> list[tuple[str, str | None]]:
        """(room, asset) pairs in the search's order."""
        belief, graph = self.belief, self.belief.graph
        if self.search == "nearest":
            return [
                (room, c)
                for room in rooms_to_search(belief, lost)
                for c in graph.children(room)
                if graph.nodes[c].kind is NodeKind.ASSET
            ]
        seen = [a for a in (n.id for n in graph) if seen_whole(belief, a, self._surfaces)]
        return search_order(belief, lost, seen, self._ranked)

    async def _confirm(self, episode: Episode) -> bool:
        """Before done: look at the goal's nodes that the robot has neither seen nor
        handled in this run (what holds of them rests only on memory), one look per
        node's asset. Whether it looked (then the goal is checked again).

        A node counts as confirmed only when a call of the run saw or handled it; a
        look that cannot be made (a blocked room, a stuck container) or that does not
        show it is tried again once (the belief may have learnt a way round), then the
        run stops with the reason: the goal is not declared reached on memory alone.
        """
        goal = self._goal() if self.confirm else None
        if goal is None:
            return False
        state, graph = self.belief.state, self.belief.graph
        todo: dict[str, list[str]] = {}  # asset to look at -> the nodes it confirms
        for node in sorted(goal.nodes()):
            if node in self._observed or node not in graph:  # not in graph: lost, searched
                continue
            kind = graph.nodes[node].kind
            asset = node if kind is NodeKind.ASSET else None
            if kind is NodeKind.OBJECT and not state.holds(node):
                asset = state.support_asset(node)
            if asset is None:
                continue
            tries = self._tries.get(node, 0)
            if tries >= CONFIRM_TRIES:
                raise Stop(
                    f"could not confirm the goal: no look showed {node} "
                    f"({self._unconfirmed.get(node, 'not seen')})"
                )
            self._tries[node] = tries + 1
            todo.setdefault(asset, []).append(node)
        if not todo:
            return False
        record = record_of(episode)
        self._searching = True
        try:
            for asset, nodes in todo.items():
                why = await self._look_at(asset, nodes[0], record, episode)
                for node in nodes:
                    missed = node not in self._observed and node in self.belief.graph
                    if missed and (why or node not in self._unconfirmed):  # keep a failure's
                        self._unconfirmed[node] = why or f"the look at {asset} did not show it"
        finally:
            self._searching = False
        return True

    async def _look_at(
        self, asset: str, node: str, record: ExecutionRecord, episode: Episode
    ) -> str | None:
        """Look at `asset` to confirm `node`; why the look could not be made, or None."""
        room = self.belief.graph.room_of(asset)
        if room is None:
            return f"{asset} is in no room"
        try:
            actions = look_actions(self.belief, room, asset)
        except SceneplanError as exc:  # cut off (a blocked room)
            return str(exc)
        record.confirmed.append(Confirmation(node=node, asset=asset, step=len(episode.steps)))
        for action in actions:
            result = await self._step(action, episode)
            if result is not None and not result.ok:
                return f"{episode.steps[-1].action}: {result.message or result.reason}"
        return None
