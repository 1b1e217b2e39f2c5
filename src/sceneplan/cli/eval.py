"""`sceneplan eval` runs planners on task suites into a results store; `report` reads it.

`--planners` takes planner specs with options in brackets:
`sayplan,sclplan[planner=bfsf,timeout=5]` (`sceneplan planners` lists them).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from sceneplan.cli.common import (
    FaultsOpt,
    OpenLoopOpt,
    SearchOpt,
    console,
    err_console,
    planner_lines,
    seeded,
)
from sceneplan.cli.limits import MAX_CONCURRENCY, MAX_RUNS, MAX_STOP_AFTER, SEED_LIMIT
from sceneplan.cli.paths import ForceOpt, check_output_files, check_writable_file
from sceneplan.errors import BadInputError
from sceneplan.eval.faults import Execution
from sceneplan.eval.progress import ProgressBar
from sceneplan.eval.runner import STOP_AFTER, Totals, evaluate, load_tasks
from sceneplan.eval.store import Record, Store, dialect_for, merge
from sceneplan.execute.executor import DEFAULT_SETTINGS
from sceneplan.planners.options import split_specs
from sceneplan.plugins import unknown_name


def _names(values: list[str] | None, option: str = "") -> list[str]:
    """The names of a repeatable, comma-separated option (`-s a,b -s c`), in order.

    An option given with nothing in it (`-t ''`) is refused: it would read as not given.
    """
    names = [part.strip() for text in values or () for part in text.split(",") if part.strip()]
    if values and not names and option:
        raise BadInputError(f"{option} is empty; give one or more names, comma-separated")
    return names


def eval_command(
    suite: Annotated[
        list[str],
        typer.Option(
            "--suite",
            "-s",
            help="Suites or task files, comma-separated or repeated (e.g. office-search).",
        ),
    ],
    planners: Annotated[
        list[str],
        typer.Option(
            "--planners",
            "-p",
            help="Planners, comma-separated or repeated, with options in brackets "
            "(e.g. sayplan,sclplan[planner=bfsf,timeout=5]).",
        ),
    ],
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--tasks", "-t", help="Only these task ids of the suites, comma-separated or repeated."
        ),
    ] = None,
    llm: Annotated[
        list[str] | None,
        typer.Option(
            help="Models as PROVIDER:MODEL, comma-separated or repeated; default: the "
            "configured one."
        ),
    ] = None,
    runs: Annotated[
        int, typer.Option(min=1, max=MAX_RUNS, help="Runs of every task (repeatability).")
    ] = 1,
    concurrency: Annotated[
        int, typer.Option(min=1, max=MAX_CONCURRENCY, help="Tasks planned at once.")
    ] = 4,
    processes: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_CONCURRENCY,
            help="Processes for CPU-bound planners' episodes (the oracle); default: the "
            "machine's cores. 1: all in this process.",
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            help="The results store: an SQLite file, or postgresql://USER@HOST:PORT/DB "
            "shared by workers on many machines (the postgres extra)."
        ),
    ] = "results.db",
    retry_errors: Annotated[
        bool,
        typer.Option("--retry-errors", help="Run again the stored runs that ended in an error."),
    ] = False,
    stop_after: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_STOP_AFTER,
            help="Stop when this many runs in a row cannot reach the LLM server "
            "(what is done stays stored).",
        ),
    ] = STOP_AFTER,
    robot: Annotated[
        str | None,
        typer.Option(
            help="Also run each plan on a robot, closed loop: sim (with --faults) or a robot "
            "server's URL (docs/execute.md).",
        ),
    ] = None,
    faults: FaultsOpt = "none",
    seed: Annotated[
        int,
        typer.Option(
            min=-SEED_LIMIT,
            max=SEED_LIMIT,
            help="Seed of the first run's faults (run r: +r-1), and of simulated models.",
        ),
    ] = 0,
    open_loop: OpenLoopOpt = False,
    search: SearchOpt = DEFAULT_SETTINGS.search,
) -> None:
    """Run planners on task suites; what is already stored in --out is skipped.

    Exits 1 when a run ended in an error (stored; --retry-errors runs them again).
    """
    where = check_store_path(out)
    tasks = load_tasks(_names(suite, "--suite"), _names(only, "--tasks"))
    planner_names = [spec for text in planners for spec in split_specs(text)]
    execution = None
    if robot is not None:
        execution = Execution(robot, faults, seed, closed_loop=not open_loop, search=search)
    elif faults != "none" or open_loop or search != DEFAULT_SETTINGS.search:
        raise BadInputError("--faults, --open-loop and --search go with --robot (e.g. --robot sim)")
    if not planner_names:
        raise BadInputError("name at least one planner with --planners")
    try:
        with ProgressBar(err_console()) as bar, _terminate_as_interrupt():
            totals = evaluate(  # creates the store only once every argument is checked
                tasks,
                planner_names,
                [seeded(m, seed) or m for m in _names(llm, "--llm")],
                out,
                runs=runs,
                concurrency=concurrency,
                processes=processes,
                retry_errors=retry_errors,
                reporter=bar,
                stop_after=stop_after,
                execution=execution,
            )
    except KeyboardInterrupt:
        stored = _count(out)
        err_console().print(
            f"interrupted: {stored} results are stored in {where}; "
            "run the same command again to continue"
        )
        raise typer.Exit(130) from None
    _say_totals(totals, where)
    if totals.errors or totals.stopped:
        raise typer.Exit(1)


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops the eval as Ctrl-C does: the runs under way are stopped, the pool's
    processes end, what is finished is stored (without this, `kill` leaves them running)."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _say_totals(totals: Totals, where: str) -> None:
    """What the eval did: runs stored and their outcomes, tokens and cost; then warnings
    (unpriced models, an early stop, runs that ended in an error) on stderr."""
    console().print(
        f"{totals.done} run(s) stored in {where} ({totals.skipped} already there): "
        f"{totals.done - totals.failed - totals.errors} succeeded, {totals.failed} failed, "
        f"{totals.errors} error(s); {totals.input_tokens:,} input and "
        f"{totals.output_tokens:,} output tokens, {_cost(totals)}"
    )
    for model, count in totals.unpriced.items():
        err_console().print(
            f"warning: no price for model {model}: the cost of its {count} run(s) is unknown "
            '(n/a); add its price under [llm.prices."PROVIDER:MODEL"] in the config file '
            "(docs/llm.md)",
            markup=False,
        )
    if totals.stopped:
        err_console().print(
            f"stopped early: {totals.stopped}; {totals.remaining} run(s) not started. "
            "Check the server (`sceneplan llm check`), then run the same command again"
        )
    console().print(f"report: sceneplan report {where}")
    if totals.errors:
        err_console().print(
            f"{totals.errors} run(s) ended in an error (kept in {where}); "
            "run the same command with --retry-errors to run them again"
        )


def check_store_path(location: str | Path) -> str:
    """Refuse a results store that cannot be used, before any work: one BadInputError (or
    BackendUnavailableError for a server that cannot be reached). Returns the store's name
    to print (a URL's password masked).

    An existing file must be a sceneplan store; a new one needs its folder to exist. A
    database server must be reachable, and its store (if any) one this sceneplan can use.
    """
    dialect = dialect_for(location)
    if dialect.path is None:  # a database server: connect, change nothing
        dialect.probe(create=True).close()
        return dialect.location
    out = dialect.path
    if out.is_dir():
        raise BadInputError(
            f"the results store {out} is a folder; give a file name, e.g. {out / 'results.db'}"
        )
    if out.is_file() and out.stat().st_size > 0:  # an empty file becomes a new store
        Store(out, create=False).close()  # says what is wrong with a file that is not a store
        check_writable_file(out, "the results store")  # before any run: its result is kept
        return str(out)
    if not out.parent.is_dir():
        raise BadInputError(
            f"cannot create the results store {out}: the folder {out.parent} "
            + ("is a file" if out.parent.exists() else "does not exist")
            + f" (create it first: mkdir -p {out.parent})"
        )
    check_writable_file(out, "the results store")  # a store is added to, never replaced
    return str(out)


def _count(location: str) -> int:
    """How many results the store holds (0 when it was not made)."""
    path = dialect_for(location).path
    if path is not None and (not path.is_file() or path.stat().st_size == 0):
        return 0
    with Store(location, create=False) as store:
        return len(store)


def _cost(totals: Totals) -> str:
    """The cost so far; 'n/a' for runs on models without a price, never counted as 0."""
    unknown = sum(totals.unpriced.values())
    if not unknown:
        return f"${totals.cost_usd:.4f}"
    if unknown == totals.done:
        return "cost n/a (no price for the model)"
    return f"${totals.cost_usd:.4f} + n/a for {unknown} run(s) of unpriced models"


def report_command(
    store: Annotated[
        str | None,
        typer.Argument(
            help="A results store written by `sceneplan eval`: a file or a postgresql:// URL."
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md, csv or json.")] = "md",
    plots: Annotated[
        Path | None,
        typer.Option(help="Also write PNG plots into this folder (needs the plots extra)."),
    ] = None,
    compare_with: Annotated[
        tuple[str, str] | None,
        typer.Option("--compare", help="Two stores A B: show B's metrics minus A's."),
    ] = None,
    table_name: Annotated[
        str | None,
        typer.Option(
            "--table",
            help="Only one table, beside the paper's numbers: sayplan-1, sayplan-2 (graph "
            "tokens; no store needed), sayplan-3, lookplangraph-1 (the stored suites' "
            "statistics), lookplangraph-2, -3 or -4, sclplan-1, -2 or -3; failures (each run "
            "that did not succeed, and why); or faults (runs of `eval --robot`: success, "
            "replans, extra steps).",
        ),
    ] = None,
    force: ForceOpt = False,
    title: Annotated[
        str | None,
        typer.Option(
            "--title",
            help="The report's title (default: the store's name); two stores holding the same "
            "runs, under one title, give the same report byte for byte.",
        ),
    ] = None,
) -> None:
    """Report the metrics of a results store, with the papers' numbers alongside."""
    # the metrics and their tables, loaded here: `eval` has no use for them
    from sceneplan.eval.compare import compare, render_compare
    from sceneplan.eval.faults import fault_rows, render_faults, write_fault_plot
    from sceneplan.eval.metrics import compute
    from sceneplan.eval.plots import PLOTS, require_matplotlib, write_plots
    from sceneplan.eval.report import FORMATS, render

    if fmt not in FORMATS:
        raise unknown_name("report format", fmt, FORMATS)
    if compare_with is not None:
        if store is not None:
            raise BadInputError("give either one store or --compare A B, not both")
        a, b = (compute(_records(path)) for path in compare_with)
        pair = (_name(compare_with[0]), _name(compare_with[1]))
        print(render_compare(compare(a, b), fmt, pair), end="")
        return
    if store is None and table_name != "sayplan-2":  # Table 2 is measured on the graphs
        raise BadInputError("name a results store (or --compare A B)")
    if plots is not None:
        names = ["faults.png"] if table_name == "faults" else list(PLOTS)
        check_output_files(plots, names, "the plots folder", force=force)
        require_matplotlib()  # before the report is printed
    records = _records(store) if store is not None else []
    if table_name == "faults" and store is not None:  # (checked above: faults need a store)
        rows = fault_rows(r.episode for r in records)
        print(render_faults(rows, title or f"Execution under faults: {_name(store)}"), end="")
        written = write_fault_plot(rows, plots / "faults.png") if plots is not None else None
        if written is not None:
            err_console().print(f"plot written to {written}")
        return
    metrics = compute(records)
    if table_name == "lookplangraph-1":
        metrics["datasets"] = _suite_stats(dict.fromkeys(r.suite for r in records))
    if title is None:
        title = _name(store) if store is not None else "scene graphs"
    print(render(metrics, fmt, title=title, table_name=table_name), end="")
    if plots is not None:
        pngs = write_plots(metrics, plots)
        err_console().print(f"{len(pngs)} plot(s) written to {plots}")


def _suite_stats(suites) -> list[dict]:
    """LookPlanGraph Table 1's figures of each suite (packaged, or a task file)."""
    from sceneplan.datasets.stats import load_suite, suite_stats

    return [{"suite": suite, **suite_stats(load_suite(suite))} for suite in suites]


def _records(location: str) -> list[Record]:
    with Store(location, create=False) as store:
        return store.records()


def _name(location: str) -> str:
    """A store's name to print: as given, a URL's password masked."""
    return dialect_for(location).location


store_app = typer.Typer(help="Results stores: merge the shards of a benchmark.")


@store_app.command("merge")
def merge_command(
    stores: Annotated[
        list[str],
        typer.Argument(help="Results stores to merge: files or postgresql:// URLs."),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out", "-o", help="The merged store (created, or added to): a file or a URL."
        ),
    ],
) -> None:
    """Merge results stores (e.g. one per worker) into one; of a run in several, the newest.

    Any kind into any kind: SQLite shards into a PostgreSQL store, or back.
    """
    for location in stores:
        if _same(location, out):
            raise BadInputError(f"--out {_name(out)} is also one of the stores to merge")
    where = check_store_path(out)
    copied, older = merge(stores, out)
    console().print(
        f"{copied} result(s) merged into {where} from {len(stores)} store(s)"
        + (f"; {older} older duplicate(s) left out" if older else "")
    )


def _same(a: str, b: str) -> bool:
    first, second = dialect_for(a), dialect_for(b)
    if first.path is not None and second.path is not None:
        return first.path.resolve() == second.path.resolve()
    return a == b


class _EvalCommand(TyperCommand):
    """`eval`, whose --help ends with the suites and planners, looked up only for help."""

    def format_help(self, ctx, formatter):
        from sceneplan.datasets.tasks import list_suites

        self.epilog = (
            "Suites (-s NAME, or a task file; `sceneplan tasks list NAME` shows the tasks):\n"
            + "\n".join(f"  {name}" for name in list_suites())
            + "\n\nPlanners (-p NAME[KEY=VALUE,...]; options: `sceneplan planners`):\n"
            + "\n".join(f"  {line}" for line in planner_lines())
        )
        return super().format_help(ctx, formatter)


def register(app: typer.Typer) -> None:
    """Add `eval` and `report` to the root app."""
    app.command("eval", cls=_EvalCommand)(eval_command)
    app.command("report")(report_command)
    app.add_typer(store_app, name="store")
