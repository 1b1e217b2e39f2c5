"""Results stores under many workers: episodes per second, the store's cost per episode, races.

Run `python benchmarks/store_throughput.py`. Four parts, in this order (the
last three on an SQLite file and a PostgreSQL database side by side):

1. Phases (`phases`): an eval's CPU by phase (imports, load tasks, resolve,
   plan, annotate, store) for the oracle on office-planning, in process
   (issue 33: what is not planning is the eval's own overhead).
2. The store's own cost per episode (`overhead`): what an eval does around
   each episode (claim, store the result and give up the lease), timed in
   process over `--episodes` real oracle Episodes, wall and CPU ms.
3. Throughput (`throughput`): 1, 2, 4 and 8 `sceneplan eval` processes on one
   new store, the oracle over office-planning + office-search (60 episodes;
   `--suites` names others), each with `--processes 1` (the workers are the
   parallelism); episodes per second of wall time, from the first start to the
   last exit; the workers' CPU per episode, and what is left of it beyond their
   start-ups (a start-up measured as one more eval that finds nothing left to
   do, the median of three).
4. Races (`races`, issue 26): `--trials` trials of two evals of office-search
   started together on one new store; a job stored twice shows as a row id
   above the row count, or as reported runs adding to more than 30.

Wall time depends on what else the machine runs (the load average is
printed); the CPU per episode (all the workers' user + system time over the
episodes) does much less.

PostgreSQL: `--postgres URL` (a server whose user may create databases), or
SCENEPLAN_TEST_POSTGRES, or else a throwaway cluster started for the run
(tests/pg_cluster.py; needs the server's binaries). `--quick` runs 1 and 2
workers, 50 episodes and 3 trials; `--parts` picks some parts, by name.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the throwaway cluster of the tests

SUITES = "office-planning,office-search"
MAIN = "import sys; from sceneplan.cli import main; sys.argv[0] = 'sceneplan'; main()"


def eval_process(location: str, suites: str = SUITES) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *(sys.executable, "-c", MAIN, "eval", "-s", suites, "-p", "oracle"),
            *("--processes", "1", "--out", location),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stored_by(output: str) -> int:
    found = re.search(r"(\d+) run\(s\) stored in ", output)
    return int(found.group(1)) if found else -1


class Stores:
    """New, empty stores of each kind: SQLite files in a folder, databases on a server."""

    def __init__(self, folder: Path, server: str) -> None:
        self.folder, self.server = folder, server

    @contextmanager
    def new(self, kind: str) -> Iterator[str]:
        if kind == "sqlite":
            yield str(self.folder / f"{uuid.uuid4().hex[:8]}.db")
            return
        import pg_cluster

        with pg_cluster.new_database(self.server) as url:
            yield url


def state(location: str) -> tuple[int, int]:
    """(rows, highest row id) of a store."""
    from sceneplan.eval.store import Store

    with Store(location, create=False) as store:
        stored = store.stored()
    return len(stored), max((s.id for s in stored.values()), default=0)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def start_up_cpu(location: str, suites: str) -> float:
    """A worker's start-up: the CPU of one more eval that finds nothing left to do (the
    median of three)."""
    spent = []
    for _ in range(3):
        cpu = children_cpu()
        eval_process(location, suites).communicate()
        spent.append(children_cpu() - cpu)
    return sorted(spent)[1]


def throughput(stores: Stores, workers: list[int], suites: str) -> None:
    print(f"## Throughput: the oracle over {suites}, N eval processes on one store\n")
    print(
        "| workers | SQLite episodes/s | PostgreSQL episodes/s "
        "| SQLite CPU ms / episode | PostgreSQL CPU ms / episode "
        "| beyond start-up, SQLite | beyond start-up, PostgreSQL | runs reported |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rates: dict[tuple[str, int], float] = {}
    counts = set()
    for n in workers:
        cpus, beyond, reported = [], [], []
        for kind in ("sqlite", "postgresql"):
            with stores.new(kind) as location:
                started, cpu = time.perf_counter(), children_cpu()
                processes = [eval_process(location, suites) for _ in range(n)]
                outputs = [p.communicate() for p in processes]
                wall = time.perf_counter() - started
                spent = children_cpu() - cpu
                if any(p.returncode for p in processes):
                    sys.exit(f"an eval failed: {outputs}")
                jobs, top = state(location)
                assert jobs == top, (kind, n, jobs, top)  # no job stored twice
                counts.add(jobs)
                start_up = start_up_cpu(location, suites)
            rates[kind, n] = jobs / wall
            cpus.append(1000 * spent / jobs)
            beyond.append(1000 * (spent - n * start_up) / jobs)
            reported.append(sum(stored_by(out) for out, _ in outputs))
        print(
            f"| {n} | {rates['sqlite', n]:.2f} | {rates['postgresql', n]:.2f} "
            f"| {cpus[0]:.0f} | {cpus[1]:.0f} | {beyond[0]:.0f} | {beyond[1]:.0f} "
            f"| {reported[0]}, {reported[1]} |"
        )
    print(f"\nEpisodes: {', '.join(map(str, sorted(counts)))} (each configuration stores all once)")
    top, low = max(workers), (2 if 2 in workers else min(workers))
    if top != low:
        ratios = [rates[kind, top] / rates[kind, low] for kind in ("sqlite", "postgresql")]
        print(
            f"{top} workers against {low}: {ratios[0]:.2f}x the episodes/s on SQLite, "
            f"{ratios[1]:.2f}x on PostgreSQL; a worker's start-up is the CPU of one more eval "
            "with nothing left to do"
        )
    print()


def overhead(stores: Stores, episodes: int) -> None:
    """Claim + put-and-release per episode, as the runner does, in process."""
    import asyncio

    from sceneplan.eval.runner import Job, load_specs, load_tasks, run_job, task_hash
    from sceneplan.eval.store import Store

    task = load_tasks(["office-planning"], ["planning-simple-01"])[0]
    spec = load_specs(["oracle"])[0]
    episode = asyncio.run(run_job(Job(task, spec.planner, "none", 1), None))
    print(f"## The store's cost per episode ({episodes} oracle Episodes)\n")
    print("| store | wall ms / episode | CPU ms / episode |")
    print("|---|---|---|")
    for kind in ("sqlite", "postgresql"):
        with stores.new(kind) as location, Store(location) as store:
            owner = Store.owner()
            wall, cpu = time.perf_counter(), time.process_time()
            for run in range(1, episodes + 1):
                job = Job(task, spec.planner, "none", run)
                assert store.claim(job.key, owner, ttl=3600, seen=None)
                store.put(task.suite, run, episode, task_hash(task), owner=owner)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            name = "SQLite" if kind == "sqlite" else "PostgreSQL"
            print(f"| {name} | {1000 * wall / episodes:.2f} | {1000 * cpu / episodes:.2f} |")
    print()


def phases(stores: Stores) -> None:
    """Where an eval's CPU goes, phase by phase, for the oracle on office-planning (30 tasks),
    in process: what is not planning is the eval's own overhead (issue 33)."""
    import asyncio

    started = time.process_time()
    from sceneplan.eval.annotate import annotate
    from sceneplan.eval.runner import check_tasks, load_tasks, task_hash
    from sceneplan.eval.store import Store
    from sceneplan.planners.base import get_planner
    from sceneplan.runs import resolve

    spent = {"imports": time.process_time() - started}
    clock = time.process_time()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.process_time()
        spent[name] = spent.get(name, 0.0) + now - clock
        clock = now

    tasks = load_tasks(["office-planning"])
    lap("load tasks")
    check_tasks(tasks)
    lap("check tasks")

    async def run_all(store: Store) -> None:
        for task in tasks:
            lap("(other)")
            setup = resolve(task)
            lap("resolve")
            planner = get_planner("oracle", {})
            episode = await planner.aplan(setup.target, setup.graph, None, prior=setup.prior)
            lap("plan (the oracle's solving and verifying)")
            episode.planner, episode.model, episode.options = "oracle", "none", {}
            annotate(episode, task, setup.graph)
            lap("annotate for the metrics")
            store.put(task.suite, 1, episode, task_hash(task))
            lap("store")

    with stores.new("sqlite") as location, Store(location) as store:
        lap("(other)")
        asyncio.run(run_all(store))
    lap("(other)")
    print(f"## An eval's CPU by phase: the oracle on office-planning ({len(tasks)} tasks)\n")
    print("| phase | CPU s |")
    print("|---|---|")
    for name, seconds in spent.items():
        print(f"| {name} | {seconds:.2f} |")
    print()


def races(stores: Stores, trials: int) -> None:
    print(f"## Two evals started together on one store, office-search, {trials} trials\n")
    print("| store | trials with a job stored twice | trials whose reported runs != 30 |")
    print("|---|---|---|")
    for kind in ("sqlite", "postgresql"):
        twice = wrong = 0
        for _ in range(trials):
            with stores.new(kind) as location:
                processes = [eval_process(location, "office-search") for _ in range(2)]
                outputs = [p.communicate() for p in processes]
                rows, top = state(location)
                twice += top != rows
                wrong += sum(stored_by(out) for out, _ in outputs) != 30
        name = "SQLite" if kind == "sqlite" else "PostgreSQL"
        print(f"| {name} | {twice} of {trials} | {wrong} of {trials} |")
    print()


@contextmanager
def server(url: str | None) -> Iterator[str]:
    url = url or os.environ.get("SCENEPLAN_TEST_POSTGRES")
    if url:
        yield url
        return
    import pg_cluster

    url, folder = pg_cluster.start()
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a server URL (its user may create databases)")
    parser.add_argument("--workers", default="1,2,4,8", help="worker counts, comma-separated")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--suites", default=SUITES, help="the suites of `throughput`")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--parts", default="phases,overhead,throughput,races")
    args = parser.parse_args()
    workers = [int(n) for n in args.workers.split(",")]
    if args.quick:
        workers, args.episodes, args.trials = [1, 2], 50, 3
    parts = set(args.parts.split(","))
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start\n")
    with server(args.postgres) as url, TemporaryDirectory() as folder:
        stores = Stores(Path(folder), url)
        if "phases" in parts:
            phases(stores)
        if "overhead" in parts:
            overhead(stores, args.episodes)
        if "throughput" in parts:
            throughput(stores, workers, args.suites)
        if "races" in parts:
            races(stores, args.trials)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
