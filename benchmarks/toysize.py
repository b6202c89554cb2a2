"""What the benchmarks share: the --smoke flag (every code path of a script at a toy size,
in seconds), and the one-line stop of a script that needs `make run`'s results.

tests/test_benchmarks.py runs each script with it in the environment its README line
names, so that a documented benchmark cannot silently stop running. Its figures mean
nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_smoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="every code path at a toy size, in seconds: checks that the script runs "
        "(its figures mean nothing)",
    )


def require_embedding(folder: Path) -> None:
    """Stop in one line where a script that reads `make run`'s results finds none."""
    if not (folder / "vectors.npy").exists():
        raise SystemExit(
            f"{folder}: no embedding folder here; run `make run` first, or give --embedding "
            "results/embeddings/NAME (any workflow embedding folder)"
        )
