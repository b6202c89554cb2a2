"""What each workflow job pays before its first line of work: a new Python process,
Snakemake's script preamble (``snakemake.script``) and the imports of the job's script.

Usage: python benchmarks/job_startup.py [--rounds 5] [--python PYTHON] [--repo DIR] [--smoke]

For every script in ``workflow/scripts``, a fresh interpreter runs Snakemake's preamble
import and the script's own top-level imports (nothing else), best of ``--rounds``
interleaved rounds. The baseline, timed in the same rounds, is the floor every job that
reads a table pays: the preamble, pandas and pyarrow's Parquet reader. It prints each
script's start-up and its ratio to the floor, and the total over the jobs of the
default workflow (`make run`: the job counts of its dry run) beside that many floors.
``--python`` and ``--repo`` time another checkout (its interpreter and its scripts), to
compare two versions of the code on one machine.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import time
from pathlib import Path

from toysize import add_smoke

REPO = Path(__file__).resolve().parents[1]
FLOOR = "import snakemake.script, pandas, pyarrow.parquet"


def script_imports(path: Path) -> str:
    """A script's top-level import statements, as code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = ["import snakemake.script"]
    lines += [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return "\n".join(lines)


def seconds(python: str, code: str, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], cwd=cwd, check=True)
    return time.perf_counter() - start


def rule_scripts(repo: Path) -> dict[str, str]:
    """Rule -> the script it runs, from the rule files (the generated evaluate_KIND rules
    all run evaluate.py)."""
    found = {}
    for smk in (repo / "workflow" / "rules").glob("*.smk"):
        for block in re.split(r"^(?=(?:rule|checkpoint) )", smk.read_text(), flags=re.M):
            name = re.match(r"(?:rule|checkpoint) (\w+)", block)
            script = re.search(r'^\s+script:\s*\n?\s*"(?:\.\./)?scripts/(\w+\.py)"', block, re.M)
            if name and script:
                found[name.group(1)] = script.group(1)
    return found


def default_jobs(python: str, repo: Path) -> dict[str, int]:
    """Rule -> job count in a dry run of the default workflow."""
    done = subprocess.run(
        [python, "-m", "snakemake", "-n", "--forceall", "--cores", "2", "--quiet", "rules"],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out = done.stdout + done.stderr
    counts = {}
    for line in out.split("Job stats:", 1)[-1].splitlines()[3:]:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            break
        if parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="the interpreter to time")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose scripts")
    add_smoke(parser)
    args = parser.parse_args()
    scripts = sorted((args.repo / "workflow" / "scripts").glob("*.py"))
    if args.smoke:
        args.rounds, scripts = 1, scripts[:3]
    codes = {s.name: script_imports(s) for s in scripts}
    best = {name: float("inf") for name in ["(floor)", *codes]}
    for _ in range(args.rounds):
        for name, code in [("(floor)", FLOOR), *codes.items()]:
            best[name] = min(best[name], seconds(args.python, code, args.repo))
    floor = best.pop("(floor)")
    print(f"start-up of each job's process, best of {args.rounds} rounds ({args.python})")
    print(f"floor (preamble, pandas, pyarrow.parquet): {floor:.2f} s\n")
    print("| script | start-up (s) | ratio to floor |\n|---|---:|---:|")
    for name, value in sorted(best.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {value:.2f} | {value / floor:.2f} |")
    if args.smoke:
        return
    jobs = default_jobs(args.python, args.repo)
    scripts_of = rule_scripts(args.repo)
    total = n = 0
    for rule, count in jobs.items():
        script = scripts_of.get(rule, "evaluate.py" if rule.startswith("evaluate_") else None)
        if script in best:
            total += count * best[script]
            n += count
    print(f"\nthe default workflow's {n} script jobs: {total:.0f} s of start-up, "
          f"{n * floor:.0f} s at the floor (ratio {total / (n * floor):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
