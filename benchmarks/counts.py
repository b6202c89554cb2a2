"""The paper's run at enwiki's counts with small sizes: what grows with the number of
files, shards, lists and jobs rather than with their bytes, under a low open-files limit.

Usage: python benchmarks/counts.py [--xml-mb 5] [--shards 600] [--lists 200]
       [--words 3000000] [--nofile 256] [--csv PATH] [--smoke]

1. The dump's 57 files: a synthetic dump (learnability.corpus.synthdump) of 57 parts,
   each renamed as one of the 2019-07-01 dump's files (config/paper.yaml's pin), with a
   dumpstatus.json whose multistream job lists each file's index beside it, as
   Wikimedia's does, served from 127.0.0.1. config/paper.yaml's corpus stages (the
   manifest against a copy of the pin of names, which it locks; 57 downloads; 57
   extractions; the join; the lists' coverage in the corpus) run by Snakemake on 2 cores.
2. GloVe's counting at enwiki's shard count: the joined corpus (a gzip member a file)
   counted by 2 processes within a budget small enough for about ``--shards`` shards
   (enwiki's counting writes 420 to 630), then merged into buckets.
3. The paper's DAG at enwiki's vocabulary with ``--lists`` made-up lists
   (benchmarks/plan.py's), planned by the cluster profile's two forced dry runs.

Each stage runs in processes whose open files are limited to ``--nofile`` (the usual
soft limit is 1,024) while a thread polls, every 20 ms, the open files and the resident
memory of every process in its tree. One row a stage: what it counted, its wall
seconds, the largest resident MB of one process (for the plan: the controlling
Snakemake's), the most files one process held open, and the limit: the ratio of the two
(held / limit) is what the stage leaves of the limit. ``--csv`` writes the rows
(benchmarks/measurements/counts.csv).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale import serve  # noqa: E402
from toysize import add_smoke  # noqa: E402

from learnability.corpus.dumps import read_manifest  # noqa: E402
from learnability.corpus.synthdump import write_dump  # noqa: E402
from learnability.pipeline.planning import DUMP, ENWIKI_PIN, ENWIKI_WORDS  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FIELDS = ("stage", "counted", "count", "wall_s", "peak_rss_mb", "max_open_files", "nofile")


class TreeWatch:
    """The most open files and the largest resident memory of any one process in the
    tree of ``pid`` (itself included), polled every 20 ms while the tree runs; and the
    largest of a Snakemake process (``-m snakemake``: the controller, not its jobs)."""

    def __init__(self, pid: int) -> None:
        self.root, self.files, self.rss, self.snakemake_rss = psutil.Process(pid), 0, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            for p in procs:
                try:
                    self.files = max(self.files, p.num_fds())
                    rss = p.memory_info().rss
                    self.rss = max(self.rss, rss)
                    if "snakemake" in p.cmdline()[1:3]:
                        self.snakemake_rss = max(self.snakemake_rss, rss)
                except psutil.NoSuchProcess:
                    continue

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def limited(nofile: int):
    """A preexec_fn that sets the child's (and so its children's) open-files limit."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    return apply


def watched(cmd: list[str], nofile: int, **kwargs) -> tuple[subprocess.CompletedProcess, dict]:
    """``cmd`` under the open-files limit, with what :class:`TreeWatch` saw."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=limited(nofile), **kwargs)  # fmt: skip
    watch = TreeWatch(proc.pid)
    out, err = proc.communicate()
    watch.stop()
    done = subprocess.CompletedProcess(cmd, proc.returncode, out, err)
    seen = {"wall_s": round(time.perf_counter() - started, 1),
            "peak_rss_mb": round(watch.rss / 1e6), "max_open_files": watch.files,
            "controller_rss_mb": round(watch.snakemake_rss / 1e6)}  # fmt: skip
    return done, seen


def real_names(files: int) -> list[str]:
    """The first ``files`` of the 2019-07-01 dump's 57 file names (the pin's)."""
    return [f.name for f in read_manifest(REPO / ENWIKI_PIN)][:files]


def paper_dump(folder: Path, names: list[str], xml_mb: float) -> None:
    """A synthetic dump of ``len(names)`` parts of ``xml_mb`` MB of XML each, renamed as
    ``names``; its dumpstatus.json's multistream job lists each with an index file."""
    summary = write_dump(folder, xml_mb=xml_mb * len(names), parts=len(names), processes=2)
    status = json.loads((folder / "dumpstatus.json").read_text())
    made = sorted(status["jobs"]["articlesdump"]["files"].items(),
                  key=lambda kv: int(kv[0].split("articles")[1].split(".")[0]))  # fmt: skip
    files = {}
    for (old, info), name in zip(made, names, strict=True):
        (folder / old).rename(folder / name)
        files[name] = dict(info, url=f"/enwiki/20190701/{name}")
        index = name.replace("-multistream", "-multistream-index").replace(".xml-", ".txt-")
        (folder / index).write_bytes(b"")
        files[index] = {"size": 0, "url": f"/enwiki/20190701/{index}", "sha1": "0" * 40,
                        "md5": "0" * 32}  # fmt: skip
    job = {"status": "done", "files": files}
    (folder / "dumpstatus.json").write_text(
        json.dumps({"jobs": {"articlesmultistreamdump": job}, "version": "0.8"})
    )
    assert summary["parts"] == len(names)


def corpus_stages(work: Path, files: int, xml_mb: float, nofile: int) -> dict:
    dump = work / "dump"
    paper_dump(dump, real_names(files), xml_mb)
    run = work / "run"
    (run / "config/dumps").mkdir(parents=True)
    pin = run / "config/dumps/pin.tsv"
    shutil.copy(REPO / ENWIKI_PIN, pin)
    if files < 57:  # --smoke: a pin of the files served
        lines = pin.read_text().splitlines(keepends=True)
        pin.write_text("".join(lines[: files + 1]))
    server, url = serve(dump)
    # a --configfile's corpus.source is taken whole: paper.yaml's, at this mirror and pin
    source = yaml.safe_load((REPO / "config/paper.yaml").read_text())["corpus"]["source"]
    source.update(base_url=url, pinned=str(pin))
    overlay = {"corpus": {"source": source}, "training": {"threads": 2}}
    (run / "counts.yaml").write_text(yaml.safe_dump(overlay))
    target = f"results/corpus/{DUMP}/stats.json"
    coverage = f"results/corpus/{DUMP}/coverage.parquet"
    try:
        done, seen = watched(
            [sys.executable, "-m", "snakemake", target, coverage, "--cores", "2",
             "--snakefile", str(REPO / "workflow/Snakefile"), "--directory", str(run),
             "--configfile", str(REPO / "config/paper.yaml"), str(run / "counts.yaml")],
            nofile, env=dict(os.environ, PYTHONHASHSEED="0"),
        )  # fmt: skip
    finally:
        server.shutdown()
    if done.returncode != 0:
        raise SystemExit(f"the corpus stages failed:\n{done.stderr[-3000:]}")
    jobs = len(list((run / "benchmarks/out").rglob("*.tsv")))
    locked = all(f.sha1 for f in read_manifest(pin))
    if not locked:
        raise SystemExit(f"{pin}: the manifest did not lock the pin")
    stats = json.loads((run / target).read_text())
    print(f"  corpus: {stats['parts']} files, {stats['tokens']:,} tokens, {jobs} jobs, "
          f"the pin locked; {seen}", flush=True)  # fmt: skip
    return {"stage": "corpus stages (Snakemake, 2 cores)", "counted": "dump files",
            "count": stats["parts"], **seen, "nofile": nofile,
            "corpus": str(run / f"results/corpus/{DUMP}/text.txt.gz")}  # fmt: skip


# what the counter needs for one line of paper.yaml's max_line_tokens (1000) at window 5,
# in each of the 2 processes (cooccur.CooccurrenceCounter: 2 x window pairs a token, 32
# bytes a pair in its buffer)
LINE_BUDGET = 2 * 1000 * 10 * 32
# the merge's key ranges at enwiki's: its 16 GB budget holds 500 M pairs, a range a
# quarter of that, over 3.5 B entries (and more in the shards, before they are summed)
MERGE_RANGES = 40
COUNT = """
import json, os, sys
from learnability.corpus.cooccur import count_members
from learnability.corpus.lines import count_vocabulary, gzip_members
corpus, budget, ranges = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
members = gzip_members(corpus)
words, counts = count_vocabulary(corpus, 5, 2, members=members)
counter = count_members(corpus, members, words, 5, processes=2, budget_bytes=budget)
shards = len(counter.shards)
# every shard's entries, before the merge sums them (a .npy's header is 128 bytes)
held = sum((os.path.getsize(str(s) + ".keys.npy") - 128) // 8 for s in counter.shards)
if ranges:  # the merge's ranges of a quarter of its capacity: about `ranges` of them
    counter.capacity = max(counter.capacity, 4 * held // ranges)
with counter.finish_buckets() as buckets:
    print(json.dumps({"members": len(members), "words": len(words), "shards": shards,
                      "shard_entries": held, "buckets": len(buckets),
                      "entries": buckets.entries}))
"""


def counting(corpus: str, shards: int, nofile: int) -> dict:
    """GloVe's counting of ``corpus`` into about ``shards`` shards, merged in enwiki's
    number of key ranges: a first count at a budget that holds each member whole gives
    the members' entries (a shard each), and the budget is then what holds their sum
    over ``shards`` in each of the 2 processes (not below what a line of 1000 tokens
    needs)."""
    probe = subprocess.run([sys.executable, "-c", COUNT, corpus, str(1 << 30), "0"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    held = json.loads(probe.stdout)["shard_entries"]
    budget = max(LINE_BUDGET, int(2 * 32 * held / shards))
    done, seen = watched([sys.executable, "-c", COUNT, corpus, str(budget), str(MERGE_RANGES)],
                         nofile)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the counting failed:\n{done.stderr[-3000:]}")
    got = json.loads(done.stdout)
    print(f"  counting: {got} at a budget of {budget:,} bytes; {seen}", flush=True)
    return {"stage": "GloVe counting and merge (2 processes)", "counted": "shards",
            "count": got["shards"], **seen, "nofile": nofile}  # fmt: skip


PLAN = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import yaml
from plan import PAPER, REPO, write_lists
from learnability.pipeline.planning import fake_enwiki, plan
work, words, lists = Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
folder = work / "enwiki"
folder.mkdir()
lists_dir = write_lists(work / "lists", lists)
(folder / "plan.yaml").write_text(
    yaml.safe_dump({"wordlists": {"dir": str(lists_dir), "dictionaries": []}})
)
fake_enwiki(folder, words, lists_dir, REPO)
started = time.perf_counter()
jobs = plan(REPO, folder, [PAPER, folder / "plan.yaml"])
print(json.dumps({"jobs": len(jobs), "plan_s": time.perf_counter() - started}))
"""


def planned(work: Path, words: int, lists: int, nofile: int) -> dict:
    """The paper's plan with ``lists`` made-up lists on a results folder of enwiki's
    sizes (benchmarks/plan.py's), in a process of its own under the limit: the cluster
    profile's two forced dry runs, timed apart from making the folder, and the largest
    controlling Snakemake."""
    folder = work / "plan"
    folder.mkdir()
    done, seen = watched([sys.executable, "-c", PLAN, str(REPO / "benchmarks"), str(folder),
                          str(words), str(lists)], nofile)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the plan failed:\n{done.stderr[-3000:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    seen.update(wall_s=round(got["plan_s"], 1), peak_rss_mb=seen["controller_rss_mb"])
    print(f"  plan: {got['jobs']:,} jobs; {seen}", flush=True)
    return {"stage": f"the paper's plan ({lists} lists, {words:,} words; its controller)",
            "counted": "jobs", "count": got["jobs"], **seen, "nofile": nofile}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xml-mb", type=float, default=5.0, help="MB of XML a file")
    parser.add_argument("--shards", type=int, default=600)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--words", type=int, default=ENWIKI_WORDS)
    parser.add_argument("--nofile", type=int, default=256)
    parser.add_argument("--csv", type=Path)
    add_smoke(parser)
    args = parser.parse_args()
    files = 57
    if args.smoke:
        files, args.xml_mb, args.shards, args.lists, args.words = 3, 0.05, 10, 12, 20_000
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = corpus_stages(work, files, args.xml_mb, args.nofile)
        rows = [corpus, counting(corpus.pop("corpus"), args.shards, args.nofile),
                planned(work, args.words, args.lists, args.nofile)]  # fmt: skip
    print(f"{'stage':<48}{'count':>7}{'wall s':>8}{'peak MB':>9}{'open':>6}{'limit':>7}"
          f"{'held/limit':>12}")  # fmt: skip
    for r in rows:
        print(f"{r['stage']:<48}{r['count']:>7}{r['wall_s']:>8}{r['peak_rss_mb']:>9}"
              f"{r['max_open_files']:>6}{r['nofile']:>7}"
              f"{r['max_open_files'] / r['nofile']:>12.2f}")  # fmt: skip
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows({k: r[k] for k in FIELDS} for r in rows)


if __name__ == "__main__":
    main()
