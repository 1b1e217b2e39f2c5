"""The benchmark runner: every (task, planner, model, run) not yet stored, concurrently.

Planners are given as specs with options, `sclplan[planner=bfsf,timeout=5]`
(`planners.options`); a planner with other options is another planner to
the store, and options equal to the defaults are no options at all.

Jobs run as asyncio tasks, at most `concurrency` at once, with one LLMClient
per model shared by all of them (plus one without the response cache for the
runs after the first, so that repeated runs really ask the model again).
Each finished Episode is annotated for the metrics (`annotate.py`) and
committed to the store at once, so a rerun of the same command skips it. A
task that raises is stored as an Episode with Status.ERROR and the run goes
on; Ctrl-C stops the run and keeps what is stored. Planners without an LLM
(`needs_llm = False`) run once per task and run, not once per model, under
the model name "none". A planner is not given the tasks it does not support
(`refusals`, `Planner.supports`): one line per (planner, suite) says so.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Iterator, Sequence, Set
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from sceneplan.datasets.registry import load_environment
from sceneplan.datasets.tasks import Task, check_task_file, load_suite, packaged_tasks
from sceneplan.datasets.tasks import check_tasks as check_task_list
from sceneplan.errors import BadInputError, LLMUnavailableError, SceneplanError
from sceneplan.eval.annotate import annotate
from sceneplan.eval.faults import Execution, plan_and_execute
from sceneplan.eval.store import NO_OPTIONS, Key, Store, options_key
from sceneplan.graph.model import SceneGraph
from sceneplan.llm import LLMClient, LLMSettings, load_settings
from sceneplan.planners.base import Planner, get_planner
from sceneplan.planners.episode import Episode, Status
from sceneplan.planners.options import parse_spec, planner_label
from sceneplan.runs import resolve
from sceneplan.simulated.session import record, simulating

NO_MODEL = "none"
# How long a claimed job stays an eval's to run (`Store.claim`) without news from it: a
# running eval renews its leases every RENEW_S, so a killed one's jobs (on another machine:
# on its own, they are free at once) are taken over within LEASE_S.
LEASE_S = 300.0
RENEW_S = 60.0
# Runs in a row that could not reach the LLM server before the benchmark stops (`--stop-after`).
STOP_AFTER = 5


@dataclass(frozen=True)
class Spec:
    """A planner with options: its name and non-default options (`options_key`)."""

    planner: str
    options: str = NO_OPTIONS
    needs_llm: bool = True
    cpu_bound: bool = False  # run in a process of its own (`Planner.cpu_bound`)
    built: Planner | None = field(default=None, compare=False, repr=False)  # to ask it


def load_specs(specs: Sequence[str]) -> list[Spec]:
    """Planner specs (`name[key=value,...]`) checked now, each setup once, in order.

    An unknown planner or a bad option raises BadInputError before any run.
    """
    out: dict[Spec, None] = {}
    for text in specs:
        name, raw = parse_spec(text)
        planner = get_planner(name, raw)
        spec = Spec(name, options_key(planner.options.changed()), planner.needs_llm)
        out[replace(spec, cpu_bound=planner.cpu_bound, built=planner)] = None
    return list(out)


@dataclass(frozen=True)
class Job:
    """One planner run to do."""

    task: Task
    planner: str
    model: str
    run: int
    options: str = NO_OPTIONS  # the planner's non-default options, `options_key`
    cpu_bound: bool = False

    @property
    def key(self) -> Key:
        return Key(self.task.id, self.planner, self.model, self.run, self.options)


def task_hash(task: Task) -> str:
    """A short hash of everything a task file says about the task (its content, not its id).

    A stored run whose hash differs from the task's now was made for another
    version of the task, and is run again.
    """
    text = json.dumps(task.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass
class Totals:
    """What a run did: jobs done now, skipped as already stored, outcomes and spending."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    failed: int = 0
    errors: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0  # of the runs with a known cost
    unpriced: dict[str, int] = field(default_factory=dict)  # model -> runs of unknown cost
    changed: list[str] = field(default_factory=list)  # ids of edited tasks whose runs rerun
    unreachable: int = 0  # runs in a row, up to the last one, that could not reach the server
    stopped: str | None = None  # why the benchmark stopped early (the circuit breaker)
    unsupported: list[str] = field(default_factory=list)  # (planner, suite) pairs left out

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.done

    def add(self, episode: Episode) -> None:
        self.done += 1
        self.failed += episode.status is Status.FAILED
        self.errors += episode.status is Status.ERROR
        self.input_tokens += episode.input_tokens
        self.output_tokens += episode.output_tokens
        if episode.cost_usd is None:
            self.unpriced[episode.model] = self.unpriced.get(episode.model, 0) + 1
        else:
            self.cost_usd += episode.cost_usd


class Reporter(Protocol):
    """Told about progress (e.g. the rich progress bar of `progress.py`)."""

    def update(self, totals: Totals, episode: Episode | None) -> None: ...


def load_tasks(suites: Sequence[str], only: Sequence[str] = ()) -> list[Task]:
    """The tasks of packaged suites or task files, each task once, in order.

    `only` keeps just the tasks with these ids (each must be in the suites).
    Task files are checked whole (`check_task_file`: fields and world), and the
    problems of every file are raised together, in one BadInputError.
    """
    tasks: dict[str, Task] = {}
    problems: list[str] = []
    for suite in suites:
        if Path(suite).is_file() and not any(t.suite == suite for t in packaged_tasks()):
            found, wrong = check_task_file(suite)
            problems += [f"{suite}: {p}" for p in wrong]
        else:
            found = load_suite(suite)
        for task in found:
            tasks.setdefault(task.id, task)
    if problems:
        raise BadInputError(
            f"{len(problems)} problem(s) in the task files\n"
            + "\n".join(f"  - {p}" for p in problems)
        )
    if not tasks:
        raise BadInputError("no tasks to run: name at least one suite")
    if only:
        unknown = [t for t in only if t not in tasks]
        if unknown:
            raise BadInputError(
                f"task(s) {', '.join(unknown)} not in suite(s) {', '.join(suites)}; "
                "`sceneplan tasks list SUITE` shows the ids"
            )
        return [t for t in tasks.values() if t.id in set(only)]
    return list(tasks.values())


def check_tasks(tasks: Sequence[Task]) -> None:
    """Refuse tasks with a problem in their world before any run: an environment that does
    not load, a goal or `initial` fact that does not parse or names an unknown node, a
    reference plan naming unknown nodes, search answers and rooms their graph does not hold.
    One BadInputError names every problem (`datasets.tasks.task_problems`)."""
    check_task_list(list(tasks))


def plan_jobs(
    tasks: Sequence[Task],
    planners: Sequence[Spec],
    models: Sequence[str],
    runs: int,
    refused: Set[tuple[Spec, str]] = frozenset(),
) -> list[Job]:
    """Every job, run by run; planners without an LLM run once, under NO_MODEL. The
    (planner, task id) pairs in `refused` (`refusals`) are left out."""
    return [
        Job(task, spec.planner, model, run, spec.options, spec.cpu_bound)
        for run in range(1, runs + 1)
        for spec in planners
        for model in (models if spec.needs_llm else [NO_MODEL])
        for task in tasks
        if (spec, task.id) not in refused
    ]


def refusals(
    tasks: Sequence[Task], planners: Sequence[Spec]
) -> tuple[set[tuple[Spec, str]], list[str]]:
    """The (planner, task id) pairs a planner does not support (`Planner.refusal`: a kind of
    task, the vocabulary of the task's world), and one line for each (planner, suite) pair
    that has some, saying how many tasks are left out and why."""
    graphs: dict[str, SceneGraph] = {}
    refused: set[tuple[Spec, str]] = set()
    counts: dict[tuple[Spec, str, str], int] = {}
    for spec in planners:
        planner = spec.built if spec.built is not None else get_planner(spec.planner)
        for task in tasks:
            graph = None
            if planner.supports.vocabularies is not None:  # the world decides the vocabulary
                if task.environment not in graphs:
                    graphs[task.environment] = load_environment(task.environment)
                graph = graphs[task.environment]
            reason = planner.refusal(task, task.instruction, graph)
            if reason is not None:
                refused.add((spec, task.id))
                key = (spec, task.suite, reason)
                counts[key] = counts.get(key, 0) + 1
    lines = [
        f"{planner_label(spec.planner, json.loads(spec.options))} skips {n} task(s) of "
        f"{suite}: {reason}"
        for (spec, suite, reason), n in counts.items()
    ]
    return refused, lines


def resolve_models(
    planners: Sequence[Spec], models: Sequence[str], settings: LLMSettings
) -> list[str]:
    """The models to run; the configured one when none is named and a planner needs one.

    Raises the LLM layer's ModelNotConfiguredError (which says how to configure
    a model) when a planner needs one and none is named or configured.
    """
    models = list(dict.fromkeys(models))
    if not models and any(spec.needs_llm for spec in planners):
        models = [settings.default_model()]
    return models


async def run_eval(
    tasks: Sequence[Task],
    planners: Sequence[str],
    models: Sequence[str],
    store: Store | str | Path,
    *,
    runs: int = 1,
    concurrency: int = 4,
    settings: LLMSettings | None = None,
    retry_errors: bool = False,
    reporter: Reporter | None = None,
    stop_after: int = STOP_AFTER,
    execution: Execution | None = None,
    processes: int | None = None,
) -> Totals:
    """Run every job not in `store` yet (nor errored, with `retry_errors`) and store it.

    `planners` are specs: names, with options in brackets (`sclplan[timeout=5]`).
    `store` is an open Store or the path of one; a path is opened (and the file
    created) only once every argument has been checked, so a run refused for a
    bad argument leaves no file behind.
    When `stop_after` runs in a row end because the LLM server cannot be
    reached (LLMUnavailableError), no new run starts: the runs under way
    finish and are stored, and `Totals.stopped` says why.
    Episodes of CPU-bound planners (`Planner.cpu_bound`, the oracle) run in up to
    `processes` processes at once (default: the machine's cores, at most `concurrency`);
    1 runs them in this process.
    """
    if min(runs, concurrency, stop_after, 1 if processes is None else processes) < 1:
        raise BadInputError(
            "--runs, --concurrency, --processes and --stop-after must be at least 1"
        )
    specs = load_specs(planners)
    if settings is None:  # the config is read only when a model is asked: not for the oracle
        needs = models or any(spec.needs_llm for spec in specs)
        settings = load_settings() if needs else LLMSettings()
    if execution is not None:  # each plan also runs on a robot (`eval.faults.Execution`)
        specs = [replace(spec, options=execution.key_of(spec.options)) for spec in specs]
    check_tasks(tasks)
    refused, unsupported = refusals(tasks, specs)
    models = resolve_models(specs, models, settings)
    jobs = plan_jobs(tasks, specs, models, runs, refused)
    clients: dict[tuple[str, bool], LLMClient] = {}
    opened = pool = None
    try:
        _open_clients(clients, jobs, settings)  # before the store is made
        if not isinstance(store, Store):
            store = opened = Store(store)
        # what is stored now, read once: each job's claim checks it is still so (`Store.claim`)
        stored = store.stored()
        pending, edited = _pending(jobs, tasks, stored, retry_errors)
        totals = Totals(total=len(jobs), skipped=len(jobs) - len(pending))
        totals.unsupported = unsupported
        totals.changed = sorted({key.task_id for key in edited})
        pool = _pool(pending, processes, concurrency)
        seen = {key: row.id for key, row in stored.items()}
        lease = _Lease(store, Store.owner(), seen, pool)
        if reporter is not None:
            reporter.update(totals, None)
        workers = min(concurrency, len(pending))
        await _run_jobs(pending, workers, clients, lease, totals, reporter, stop_after)
    except BaseException:
        if pool is not None:  # Ctrl-C: the episodes under way end in their processes, unstored
            pool.shutdown(wait=False, cancel_futures=True)
            pool = None
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        for client in clients.values():
            await client.aclose()
        if opened is not None:
            opened.close()
    return totals


def _open_clients(
    clients: dict[tuple[str, bool], LLMClient], jobs: Sequence[Job], settings: LLMSettings
) -> None:
    """A client per model the jobs use, and per first or later run, added to `clients` (so
    that those made are closed if one fails). A bad model name or a missing key raises."""
    # Runs after the first must ask the model again, not read the response cache.
    fresh = settings.model_copy(update={"cache": False})
    for model, repeat in sorted({(j.model, j.run > 1) for j in jobs if j.model != NO_MODEL}):
        clients[(model, repeat)] = LLMClient(model, settings=fresh if repeat else settings)


def _pending(
    jobs: Sequence[Job], tasks: Sequence[Task], stored: dict[Key, Any], retry_errors: bool
) -> tuple[list[Job], set[Key]]:
    """The jobs to run, and the keys stored for another version of their task (edited since).

    A job runs when nothing is stored for it, when its stored run ended in an error and
    `retry_errors` is given, or when its task was edited since the run was stored.
    """
    kept = {Status.SUCCESS, Status.FAILED} if retry_errors else set(Status)
    hashes = {task.id: task_hash(task) for task in tasks}
    edited = {
        job.key
        for job in jobs
        if (row := stored.get(job.key)) is not None
        and row.task_hash not in (None, hashes[job.task.id])  # made for another version
    }
    pending = [
        job
        for job in jobs
        if job.key not in stored or stored[job.key].status not in kept or job.key in edited
    ]
    return pending, edited


async def _run_jobs(
    pending: Sequence[Job],
    workers: int,
    clients: dict[tuple[str, bool], LLMClient],
    lease: _Lease,
    totals: Totals,
    reporter: Reporter | None,
    stop_after: int,
) -> None:
    """Run the jobs with `workers` workers taking them in turn (`_ClaimOrder`), the lease
    renewed meanwhile."""
    queue = _ClaimOrder(pending, lease.owner)
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [
                group.create_task(_worker(queue, clients, lease, totals, reporter, stop_after))
                for _ in range(workers)
            ]
            heartbeat = group.create_task(_renew(lease))
            if tasks:
                await asyncio.wait(tasks)
            heartbeat.cancel()
    except* SceneplanError as failed:  # the store failing (its server gone): its one error
        raise next(iter(_leaves(failed))) from None


class _ClaimOrder:
    """The jobs in the order an eval claims them, each handed out once: run by run (the
    first run's jobs before the second's), in the planned order, until a claim is refused
    (another eval on the store runs that job, or has run it); then on from a place among
    the run's jobs left, drawn from a random sequence of the eval's own (seeded by its
    lease owner), and so again at each refusal.

    An eval alone on its store runs its jobs in the planned order. Evals started together
    meet on the first job and then part, each running a stretch of its own, instead of
    walking the same jobs in the same order, where every claim but one is refused.
    """

    def __init__(self, jobs: Sequence[Job], owner: str) -> None:
        runs = sorted({job.run for job in jobs})
        self._runs = [[job for job in jobs if job.run == run] for run in runs]
        self._random = random.Random(owner)
        self._at = 0  # the place of the next job in the current run's jobs left

    def __iter__(self) -> Iterator[Job]:
        return self

    def __next__(self) -> Job:
        while self._runs and not self._runs[0]:
            self._runs.pop(0)
            self._at = 0
        if not self._runs:
            raise StopIteration
        left = self._runs[0]
        self._at %= len(left)  # past the last job left: on from the first
        return left.pop(self._at)

    def refused(self) -> None:
        """Another eval runs the jobs here: go on from another place."""
        left = self._runs[0] if self._runs else []
        self._at = self._random.randrange(len(left)) if left else 0


def _leaves(group: BaseExceptionGroup) -> Iterator[BaseException]:
    for exc in group.exceptions:
        yield from _leaves(exc) if isinstance(exc, BaseExceptionGroup) else (exc,)


def evaluate(*args: Any, **kwargs: Any) -> Totals:
    """Blocking `run_eval` (Ctrl-C raises KeyboardInterrupt once the run has stopped)."""
    return asyncio.run(run_eval(*args, **kwargs))


async def _worker(
    queue: _ClaimOrder,
    clients: dict[tuple[str, bool], LLMClient],
    lease: _Lease,
    totals: Totals,
    reporter: Reporter | None,
    stop_after: int = STOP_AFTER,
) -> None:
    store = lease.store
    for job in queue:  # workers share the iterator: each job is taken once
        if totals.stopped:
            return
        if not store.claim(job.key, lease.owner, ttl=LEASE_S, seen=lease.seen.get(job.key)):
            totals.skipped += 1  # another eval on this store runs it, or has stored it
            queue.refused()
            if reporter is not None:
                reporter.update(totals, None)
            continue
        client = clients.get((job.model, job.run > 1))
        watched = _Watched(client) if client is not None else None
        try:
            if lease.pool is not None and job.cpu_bound:
                loop = asyncio.get_running_loop()
                episode = await loop.run_in_executor(lease.pool, run_alone, job)
            else:
                episode = await run_job(job, watched)
        except BaseException:
            store.release(job.key, lease.owner)  # not run (Ctrl-C): free for another eval
            raise
        # stored and released in one transaction
        store.put(job.task.suite, job.run, episode, task_hash(job.task), owner=lease.owner)
        totals.add(episode)
        cause = watched.unreachable if watched is not None else None
        if episode.status is Status.ERROR and cause is not None:
            totals.unreachable += 1
            if totals.unreachable >= stop_after and not totals.stopped:
                totals.stopped = (
                    f"{totals.unreachable} runs in a row could not reach the LLM server "
                    f"({cause}); the results so far are stored"
                )
        else:
            totals.unreachable = 0
        if reporter is not None:
            reporter.update(totals, episode)


@dataclass
class _Lease:
    """Who this eval is to the store's leases, and the row id of each result stored when it
    planned its jobs (a job whose row has changed since was run by another eval)."""

    store: Store
    owner: str
    seen: dict[Key, int]
    pool: ProcessPoolExecutor | None = None  # where CPU-bound planners' episodes run


class _Watched:
    """An LLMClient that remembers whether its last request could not reach the server.

    The planner turns that error into an Episode with Status.ERROR and a
    message; the circuit breaker needs its kind, not its text.
    """

    def __init__(self, client: LLMClient) -> None:
        self._client = client
        self.unreachable: LLMUnavailableError | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def acomplete(self, *args: Any, **kwargs: Any) -> Any:
        try:
            response = await self._client.acomplete(*args, **kwargs)
        except LLMUnavailableError as exc:
            self.unreachable = exc
            raise
        self.unreachable = None
        return response


async def _renew(lease: _Lease) -> None:
    """Keep this eval's leases alive while it runs."""
    while True:
        await asyncio.sleep(RENEW_S)
        lease.store.renew(lease.owner, LEASE_S)


def _pool(
    pending: Sequence[Job], processes: int | None, concurrency: int
) -> ProcessPoolExecutor | None:
    """Processes for the episodes of CPU-bound planners, when more than one can run at once.

    Forked (the planners registered in this process are known there), ignoring Ctrl-C,
    which this process handles: it stops the run and shuts them down.
    """
    cpu_jobs = sum(job.cpu_bound for job in pending)
    size = min(processes or os.cpu_count() or 1, concurrency, cpu_jobs)
    if size < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return ProcessPoolExecutor(
        size, mp_context=multiprocessing.get_context("fork"), initializer=_ignore_sigint
    )


def _ignore_sigint() -> None:
    """A pool process ignores Ctrl-C, and ends at once on SIGTERM (not as its parent does)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_alone(job: Job) -> Episode:
    """`run_job` without a model, in a process of the pool (`_pool`)."""
    return asyncio.run(run_job(job, None))


async def run_job(job: Job, llm: LLMClient | _Watched | None) -> Episode:
    """One planner run, annotated; anything it raises becomes an Episode with Status.ERROR."""
    started = time.perf_counter()
    options = json.loads(job.options)
    planner_options = dict(options)
    execution = Execution.pop(planner_options)  # `eval --robot`: the plan also runs on a robot
    try:
        setup = resolve(job.task)
        planner = get_planner(job.planner, planner_options)
        with simulating(job.task, setup.graph) as session:  # a simulated model's task
            if execution is None:
                episode = await planner.aplan(setup.target, setup.graph, llm, prior=setup.prior)  # type: ignore[arg-type]
            else:
                episode = await plan_and_execute(planner, setup, llm, execution, job.run)
        record(session, episode)
        # the names the store keys on
        episode.planner, episode.model, episode.options = job.planner, job.model, options
        annotate(episode, job.task, setup.graph)
    except Exception as exc:  # a planner bug or a bad task file must not stop the benchmark
        task = job.task
        episode = Episode(
            planner=job.planner,
            model=job.model,
            environment=task.environment,
            instruction=task.instruction,
            task_id=task.id,
            family=task.family.value,
            options=options,
            goal=task.goal,
            correct=False if task.goal is not None else None,  # no plan: the goal is not met
            status=Status.ERROR,
            error=f"{type(exc).__name__}: {exc}",
            wall_time_s=time.perf_counter() - started,
        )
    return episode
