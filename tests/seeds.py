"""Run every statistical test (those that take the `seed` fixture) at consecutive seeds
and print, per test, at how many it passed and which failed.

    .venv/bin/python tests/seeds.py              # seeds 0-19
    .venv/bin/python tests/seeds.py --first 20 --count 20 -k calibrat
    .venv/bin/python tests/seeds.py -k twolevel --workers 2   # fewer workers to start

A statistical test's tolerance comes from its own Monte Carlo error, so it must pass at
every seed; CI runs seed 0 only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("-k", default=None, help="only the tests pytest -k selects")
    parser.add_argument("--workers", type=int, default=None,
                        help="pytest-xdist workers (pyproject's by default); a few tests "
                        "start faster on fewer")  # fmt: skip
    args = parser.parse_args()
    passed: dict[str, list[int]] = defaultdict(list)
    failed: dict[str, list[int]] = defaultdict(list)
    start = time.perf_counter()
    for seed in range(args.first, args.first + args.count):
        cmd = [sys.executable, "-m", "pytest", str(TESTS), "-m", "statistical", "-q", "-rA",
               "-p", "no:cacheprovider", "--durations", "0", "--seed", str(seed)]  # fmt: skip
        if args.k:
            cmd += ["-k", args.k]
        if args.workers:
            cmd += ["-n", str(args.workers)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=TESTS.parent)
        results = re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", done.stdout, re.M)
        if done.returncode not in (0, 1) or not results:  # nothing ran: not a pass
            print(f"seed {seed}: pytest exited {done.returncode} without results:\n"
                  f"{(done.stdout + done.stderr)[-3000:]}", flush=True)  # fmt: skip
            return 2
        for status, test in results:
            (passed if status == "PASSED" else failed)[test].append(seed)
        now = sorted(t for t, v in failed.items() if seed in v)
        print(f"seed {seed}: {len(results) - len(now)} passed, {len(now)} failed "
              f"{' '.join(now)}", flush=True)  # fmt: skip
    print(f"\n{args.count} seeds from {args.first}, {time.perf_counter() - start:.0f} s\n")
    print("| test | passed | failed at seeds |\n|---|---:|---|")
    for test in sorted(set(passed) | set(failed)):
        print(f"| `{test}` | {len(passed[test])} | {', '.join(map(str, failed[test]))} |")
    return 1 if any(failed.values()) else 0  # (the table above reads failed[test] for every test)


if __name__ == "__main__":
    raise SystemExit(main())
