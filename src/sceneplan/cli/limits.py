"""The bounds of every count option of the CLI, in one place (README, "Limits").

Each is far above any use seen (the papers repeat a task 10 times; a run
takes at most a few hundred steps) and low enough that a mistyped value
fails at once with typer's range message, instead of building a job list
that fills the memory or a key the store cannot hold.
"""

from __future__ import annotations

MAX_RUNS = 1_000  # eval --runs; view --run
MAX_CONCURRENCY = 64  # eval --concurrency: tasks planned at once
MAX_STOP_AFTER = 1_000  # eval --stop-after
MAX_TURNS = 1_000  # plan --max-turns: semantic-search turns
MAX_REPLANS_OPTION = 100  # plan/execute --max-replans
MAX_STEPS = 10_000  # plan --max-steps
SEED_LIMIT = 2**53  # |--seed|: a seed and seed + runs stay exact in JSON
