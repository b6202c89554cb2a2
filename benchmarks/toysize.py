"""The benchmarks' --smoke flag: every code path of a script at a toy size, in seconds.

tests/test_benchmarks.py runs each script with it in the environment its README line
names, so that a documented benchmark cannot silently stop running. Its figures mean
nothing.
"""

from __future__ import annotations

import argparse


def add_smoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="every code path at a toy size, in seconds: checks that the script runs "
        "(its figures mean nothing)",
    )
