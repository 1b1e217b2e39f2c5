"""CLI start-up: what a `sceneplan` call costs over a bare `python -c pass`, side by side.

Run `python benchmarks/startup.py [--runs N]`. Each command runs N times,
interleaved with the bare interpreter so both see the same machine load; the
table shows medians and the overhead (command median minus bare median), in
wall time and in CPU time (user + system of the child process), which a busy
machine inflates less.
Target (issue 15): at most 0.15 s of overhead for `--help` and `verify`.
`--imports` prints the slowest imports of one command (`python -X importtime`).
`--floors` prints instead the commands of issue 43 in typer floors (the CPU of
`python -c "import typer, rich.console"` over a bare interpreter, measured in
the same run), against their targets: `--help` 1.2, `tasks show` 2, `solve
--task` 3, the oracle over office-planning 25; `--only WORD` keeps the commands
whose name has WORD (`--floors --only help --runs 31`: many runs of a short one).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_OVERHEAD_S = 0.15
ROOT = Path(__file__).resolve().parents[1]

# The script pip installs for `sceneplan`, beside this interpreter; else the same call through -c.
_SCRIPT = Path(sys.executable).parent / "sceneplan"
_LAUNCH = (
    [sys.executable, str(_SCRIPT)]
    if _SCRIPT.exists()
    else [sys.executable, "-c", "import sys; from sceneplan.cli import main; sys.exit(main())"]
)

PLAN = "goto(kitchen) > access(coffee_machine) > done"
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "sceneplan --help": [*_LAUNCH, "--help"],
    "sceneplan verify coffee ...": [*_LAUNCH, "verify", "coffee", PLAN],
    "sceneplan verify --help": [*_LAUNCH, "verify", "--help"],
    "sceneplan plan --help": [*_LAUNCH, "plan", "--help"],
    "sceneplan tasks list": [*_LAUNCH, "tasks", "list"],
}
TARGETS = ("sceneplan --help", "sceneplan verify coffee ...")

# `--floors` (issue 43): commands in typer floors, the CPU of importing typer and rich over a
# bare interpreter (what any typer CLI pays), each measured in the same run; with targets.
FLOOR = [sys.executable, "-c", "import typer, rich.console"]
BEHAVIOR_TASK = "behavior-1k-clean_a_led_screen"
FLOOR_COMMANDS: dict[str, tuple[list[str], float]] = {
    "sceneplan --help": ([*_LAUNCH, "--help"], 1.2),
    f"tasks show {BEHAVIOR_TASK}": ([*_LAUNCH, "tasks", "show", BEHAVIOR_TASK], 2.0),
    f"solve --task {BEHAVIOR_TASK}": (
        [*_LAUNCH, "solve", "behavior-clean_a_led_screen", "--task", BEHAVIOR_TASK],
        3.0,
    ),
    "eval -p oracle -s office-planning": (
        [*_LAUNCH, "eval", "-p", "oracle", "-s", "office-planning", "--out", "{out}"],
        25.0,
    ),
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def installed_env() -> dict[str, str]:
    """This environment, with bytecode written and read as in an installed package (pip
    compiles it), even where the environment turns that off: else every run compiles
    every module it imports (an editable install ships no bytecode)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU time of one run, in seconds; the command must succeed (exit status 0)."""
    env = installed_env()
    env["COLUMNS"] = "100"
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode()}{done.stdout.decode()}")
    return seconds, _children_cpu() - cpu


def floors(runs: int, only: str = "") -> None:
    """Print each of FLOOR_COMMANDS (those whose name has `only`) in typer floors: (its
    CPU - bare CPU) / (FLOOR's CPU - bare CPU), medians of `runs` interleaved runs,
    against its target."""
    bare = [sys.executable, "-c", "pass"]
    load_before = os.getloadavg()[0]
    chosen = {name: spec for name, spec in FLOOR_COMMANDS.items() if only in name}
    if not chosen:
        raise SystemExit(f"no command has {only!r}; they are: {', '.join(FLOOR_COMMANDS)}")
    cpus: dict[str, list[float]] = {name: [] for name in ("bare", "floor", *chosen)}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs + 1):  # the first round warms the caches and is not counted
            commands = [("bare", bare), ("floor", FLOOR)]
            for i, (name, (argv, _)) in enumerate(chosen.items()):
                commands.append((name, [a.replace("{out}", f"{tmp}/{run}-{i}.db") for a in argv]))
            for name, argv in commands:
                cpu = run_once(argv)[1]
                if run:
                    cpus[name].append(cpu)
    base = statistics.median(cpus["bare"])
    floor = statistics.median(cpus["floor"]) - base
    print(
        f"{runs} runs each, interleaved; CPU medians; load average {load_before:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after; typer floor {floor:.3f} s CPU over a bare "
        f"interpreter ({base:.3f} s)\n"
    )
    print(f"{'command':44} {'floors':>7} {'target':>7}")
    for name, (_, target) in chosen.items():
        ratio = (statistics.median(cpus[name]) - base) / floor
        mark = "ok" if ratio <= target else "over"
        print(f"{name:44} {ratio:7.2f} {target:7.1f}  {mark}")


def measure(runs: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU times of each command, `runs` of each."""
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values():
        run_once(argv)  # warm the file cache and .pyc files
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            wall, cpu = run_once(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return walls, cpus


def slowest_imports(argv: list[str], top: int = 15) -> str:
    """The `top` imports with the largest cumulative time in one run of `argv`."""
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]], capture_output=True, text=True, check=False
    )
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line.split("|"))
            if cumulative.isdigit():
                rows.append((int(cumulative), name))
    rows.sort(reverse=True)
    return "\n".join(f"  {us / 1e3:7.1f} ms  {name}" for us, name in rows[:top])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--imports", action="store_true", help="also list the slowest imports")
    parser.add_argument(
        "--floors", action="store_true", help="the issue-43 commands, in typer floors"
    )
    parser.add_argument("--only", default="", help="with --floors: the commands with this word")
    args = parser.parse_args()
    if args.floors:
        floors(args.runs, args.only)
        return
    load_before = os.getloadavg()[0]
    walls, cpus = measure(args.runs)
    bare, bare_cpu = (statistics.median(t["python -c pass"]) for t in (walls, cpus))
    print(
        f"{args.runs} runs each, interleaved; medians in seconds; "
        f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after\n"
    )
    print(f"{'command':30} {'median':>7} {'min':>7} {'overhead':>9} {'cpu over':>9}  target")
    worst = worst_cpu = 0.0
    for name, samples in walls.items():
        median = statistics.median(samples)
        overhead = median - bare
        cpu_overhead = statistics.median(cpus[name]) - bare_cpu
        mark = ""
        if name in TARGETS:
            worst, worst_cpu = max(worst, overhead), max(worst_cpu, cpu_overhead)
            mark = "ok" if overhead <= TARGET_OVERHEAD_S else f"over {TARGET_OVERHEAD_S}"
        cells = f"{median:7.3f} {min(samples):7.3f} {overhead:9.3f} {cpu_overhead:9.3f}"
        print(f"{name:30} {cells}  {mark}")
    print(
        f"\nworst overhead of {', '.join(TARGETS)}: {worst:.3f} s wall, {worst_cpu:.3f} s CPU "
        f"(target {TARGET_OVERHEAD_S} s)"
    )
    if args.imports:
        for name in TARGETS:
            print(f"\nslowest imports of {name}:")
            print(slowest_imports(COMMANDS[name]))


if __name__ == "__main__":
    main()
