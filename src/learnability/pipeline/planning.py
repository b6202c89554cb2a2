"""English Wikipedia's sizes as the paper's run meets them, and a results folder that has
them: every file the run makes before its heavy jobs, at enwiki's size as a hole (no
disk) or, for the vocabularies a plan must read, real. A dry run on that folder shows
what every job declares at full scale (tests/test_cluster_plan.py,
``benchmarks/scale.py``)."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from learnability.analyses.registry import ANALYSES
from learnability.concepts.lists import load_entries, resolve
from learnability.concepts.matching import Matcher
from learnability.defaults import SCHEMA
from learnability.embeddings import registry
from learnability.io import write_float32_npy_header
from learnability.pipeline import resources as cost
from learnability.schemas import write_table

# 57 files in 27 numbered parts, 16 GB of bz2 (estimated: ../reference/full-scale.md),
# 6.5 GB of gzipped corpus (2.6 B tokens at resources.TOKENS_PER_GZ_MB), 3 M words at
# min_count 5
ENWIKI_BZ2, ENWIKI_GZ = 16e9, 6.5e9
ENWIKI_WORDS, ENWIKI_DIM = 3_000_000, 300
DUMP = "enwiki-20190701"
EMBEDDINGS = ("word2vec", "fasttext", "glove", "random")
# config/paper.yaml's pin, in the repository: the dump's 57 file names (and, once a first
# manifest recorded them, their sizes and checksums)
ENWIKI_PIN = Path("config/dumps/enwiki-20190701.tsv")


def enwiki_files(repo: Path) -> dict[str, float]:
    """The paper's dump file by file, in page order: name -> bytes of bz2. The pin's
    sizes where a first manifest recorded them; until then estimated: ``ENWIKI_BZ2``
    split evenly among the 27 numbered parts (whose page ranges the dump's makers chose
    to balance their sizes), and a part's share among its files by their page spans
    (parts 14 to 27 are cut at 1.5 M page ids, so parts 1 to 13, one file each, are the
    largest, 593 MB)."""
    from learnability.corpus.dumps import PART_RE, read_manifest

    files = read_manifest(repo / ENWIKI_PIN)
    if all(f.size for f in files):
        return {f.name: float(f.size) for f in files}
    spans: dict[str, tuple[int, int]] = {}
    for f in files:
        m = PART_RE.search(f.name)
        if m is None:
            raise ValueError(f"{repo / ENWIKI_PIN}: {f.name} names no page range")
        spans[f.name] = (int(m.group(1)), int(m.group(3)) - int(m.group(2)) + 1)
    number_span: dict[int, int] = {}
    for number, span in spans.values():
        number_span[number] = number_span.get(number, 0) + span
    share = ENWIKI_BZ2 / len(number_span)
    return {name: share * span / number_span[n] for name, (n, span) in spans.items()}


def enwiki_counts(repo: Path) -> dict[str, float]:
    """enwiki's figures as the rehearsal extrapolates to them: its tokens, vocabulary and
    co-occurrence entries, and the tokens of its largest file (one extraction job's)."""
    files = enwiki_files(repo)
    tokens = 2.6e9
    return {
        "tokens": tokens,
        "vocabulary": (2.5e6, 3.0e6),
        "entries": (1.0e9, 3.5e9),
        "part_tokens": tokens * max(files.values()) / sum(files.values()),
    }


def sparse(path: Path, size: int, header: bytes = b"") -> None:
    """A file of ``size`` bytes that takes no disk (a hole after ``header``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(header)
        fh.truncate(size)


def fake_enwiki(
    folder: Path,
    vocabulary: int,
    lists_dir: Path,
    repo: Path,
    dim: int = ENWIKI_DIM,
) -> list[str]:
    """A results folder as the paper's run leaves it before fitting: every file of the
    dump (``repo``'s pin, :func:`enwiki_files`), the corpus, the embeddings, the shared
    space and the resolved lists of ``lists_dir``'s ``*.txt``, with enwiki's file sizes
    (as holes) and real vocabularies of ``vocabulary`` words. Returns the lists."""
    from learnability.corpus.dumps import DumpFile, write_manifest
    from learnability.corpus.synthdump import spell_many

    sizes = enwiki_files(repo)
    total = sum(sizes.values())
    files = [
        DumpFile(name=name, url=f"http://127.0.0.1:9/{name}", size=int(size), sha1="0" * 40)
        for name, size in sizes.items()
    ]
    write_manifest(files, folder / f"resources/dumps/{DUMP}/manifest.tsv")
    corpus = folder / f"results/corpus/{DUMP}"
    stats = {
        "tokens": int(enwiki_counts(repo)["tokens"]),
        "parts": len(files),
        "types_with_count_at_least": {"5": vocabulary},
    }
    for f in files:
        sparse(folder / f"resources/dumps/{DUMP}/parts/{f.name}", f.size)
        sparse(corpus / f"parts/{f.name}.txt.gz", int(ENWIKI_GZ * f.size / total))
        counts_mb = cost.part_counts_mb(f.size / 1e6)
        sparse(corpus / f"parts/{f.name}.counts.parquet", int(counts_mb * 1e6))
        (corpus / f"parts/{f.name}.stats.json").write_text(json.dumps(stats))
    sparse(corpus / "text.txt.gz", int(ENWIKI_GZ))
    (corpus / "stats.json").write_text(json.dumps(stats))
    lists = sorted(p.stem for p in lists_dir.glob("*.txt"))
    entries = {n: load_entries(str(lists_dir / f"{n}.txt"), None, "auto") for n in lists}
    # the lists' plain words first (so that they resolve), then made-up words
    known = sorted({e.text for es in entries.values() for e in es if e.text.isalpha()})
    words = known + spell_many(np.arange(vocabulary - len(known)))
    counts = np.arange(vocabulary, 0, -1, dtype=np.int64) + 4
    buf = io.BytesIO()
    write_float32_npy_header(buf, (vocabulary, dim))
    header = buf.getvalue()
    vocab = pd.DataFrame({"embedding": "", "index": np.arange(vocabulary), "word": words,
                          "count": counts})  # fmt: skip
    for root in ("results/embeddings", "results/shared"):
        for name in EMBEDDINGS:
            d = folder / root / name
            sparse(d / "vectors.npy", len(header) + 4 * vocabulary * dim, header)
            write_table(vocab.assign(embedding=name), d / "vocab.parquet", "vocab")
            (d / "meta.json").write_text(json.dumps({"embedding": name, "words": vocabulary}))
    write_table(
        vocab.assign(embedding="shared"), folder / "results/shared/vocabulary.parquet", "vocab"
    )
    matcher = Matcher(words, "auto", counts)
    for name in lists:
        resolved = resolve(entries[name], words, list_name=name, embedding="", source=name,
                           counts=counts, matcher=matcher)  # fmt: skip
        for emb in EMBEDDINGS:
            write_table(resolved.assign(embedding=emb),
                        folder / f"results/concepts/{emb}/{name}.parquet",
                        "concept_words")  # fmt: skip
    return lists


JOB = re.compile(r"^(?:rule|checkpoint) (\w+):\n((?:[ \t]+.*\n)*?)[ \t]+resources: (.*)$", re.M)


class Job(NamedTuple):
    """One job of a dry run: its rule, wildcards and resources (whether it runs on the
    submitting node: :func:`local_rules`), its outputs and benchmark file."""

    rule: str
    wildcards: dict[str, str]
    resources: dict[str, str]
    output: tuple[str, ...] = ()
    benchmark: str = ""


def planned_jobs(log: str) -> list[Job]:
    """Every job a dry run's log lists."""
    out = []
    for m in JOB.finditer(log):
        fields = dict(re.findall(r"^\s+(\w+): (.*)$", m.group(2), re.M))
        wc, output = fields.get("wildcards"), fields.get("output")
        out.append(
            Job(
                m.group(1),
                dict(kv.split("=", 1) for kv in wc.split(", ")) if wc else {},
                dict(re.findall(r"(\w+)=([^,]*)", m.group(3))),
                output=tuple(output.split(", ")) if output else (),
                benchmark=fields.get("benchmark", ""),
            )
        )
    return out


def dry_run(
    repo: Path, folder: Path, configs: list[Path], force: list[str], *extra: str,
    env: dict[str, str] | None = None,
) -> str:  # fmt: skip
    """The log of the cluster command's forced dry run (``--profile profiles/slurm``) on
    ``folder``, with ``configs``, forcing the rules ``force``; planned with the jobs'
    scratch on their nodes (LEARNABILITY_TMPDIR unset), for partition ``plan``, and the
    variables in ``env`` besides."""
    cmd = [
        sys.executable, "-m", "snakemake", "-n", "--snakefile", str(repo / "workflow/Snakefile"),
        "--directory", str(folder), "--configfile", *map(str, configs),
        "--profile", str(repo / "profiles/slurm"), "--slurm-no-account",
        "--forcerun", *force, *extra,
    ]  # fmt: skip
    variables = {k: v for k, v in os.environ.items() if k != "LEARNABILITY_TMPDIR"}
    variables.update({"SBATCH_PARTITION": "plan", "PYTHONHASHSEED": "0", **(env or {})})
    got = subprocess.run(cmd, capture_output=True, text=True, env=variables, check=False)
    if got.returncode:
        raise RuntimeError(f"the dry run failed:\n{(got.stdout + got.stderr)[-3000:]}")
    return got.stdout + got.stderr


def workflow_rules(repo: Path, folder: Path, configs: list[Path]) -> set[str]:
    """The workflow's rules under ``configs`` (``snakemake --list-rules``)."""
    got = subprocess.run(
        [sys.executable, "-m", "snakemake", "--list-rules", "--snakefile",
         str(repo / "workflow/Snakefile"), "--directory", str(folder), "--configfile",
         *map(str, configs)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if got.returncode:
        raise RuntimeError(f"snakemake --list-rules failed:\n{got.stderr[-3000:]}")
    return set(got.stdout.split())


# the checkpoints must be done for the jobs behind them to be planned; what they read or
# stand behind is forced in a first dry run, the rest in a second
CHECKPOINTS = {"dump_manifest", "resolve_concept"}
UPSTREAM = {
    "fetch_dump_part", "extract_part", "join_corpus", "train_embedding", "random_embedding",
    "restrict_embedding", "shared_vocabulary", "fetch_embedding", "import_embedding",
    "corpus_coverage", "corpus_prefix", "sweep_vocabulary", "evaluate_analogy",
    "evaluate_hierarchy", "evaluate_multi_answer", "evaluate_pseudo", "evaluate_word_pairs",
}  # fmt: skip


def plan(
    repo: Path, folder: Path, configs: list[Path], *extra: str, env: dict[str, str] | None = None
) -> list[Job]:
    """Every job of the run that ``configs`` describe on ``folder`` (a fake enwiki), with
    what it declares: two forced dry runs, before and behind the checkpoints (``env``:
    :func:`dry_run`'s)."""
    rules = workflow_rules(repo, folder, configs) - {"all"}
    first = planned_jobs(
        dry_run(repo, folder, configs, sorted(rules - CHECKPOINTS), *extra, env=env)
    )
    behind = sorted(rules - CHECKPOINTS - UPSTREAM)
    second = planned_jobs(dry_run(repo, folder, configs, behind, *extra, env=env))
    return [j for j in first if j.rule in UPSTREAM] + [j for j in second if j.rule not in UPSTREAM]


def local_rules(repo: Path) -> set[str]:
    """The rules that run on the submitting node (a dry run does not say): the names in
    the workflow's ``localrules:`` blocks, and the analyses' table rules
    (``localrule: True`` in workflow/rules/analyses.smk, named from the registry)."""

    names: set[str] = set()
    for path in [repo / "workflow/Snakefile", *sorted((repo / "workflow/rules").glob("*.smk"))]:
        for block in re.findall(r"^\s*localrules:\n((?:\s+\w+,\n)+)", path.read_text(), re.M):
            names.update(re.findall(r"(\w+),", block))
    return names | {f"{a.name}_table" for a in ANALYSES.values() if a.report}


def paper_config(repo: Path, *overlays: Path) -> dict:
    """config/config.yaml with config/paper.yaml and ``overlays`` merged in (as
    ``--configfile`` merges them), the schema's defaults filled."""
    import yaml

    from learnability.pipeline.config import fill_defaults

    def merge(a: dict, b: dict) -> dict:
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(a[k], v) if isinstance(v, dict) and isinstance(a.get(k), dict) else v
        return out

    cfg = yaml.safe_load((repo / "config/config.yaml").read_text())
    for path in (repo / "config/paper.yaml", *overlays):
        cfg = merge(cfg, yaml.safe_load(Path(path).read_text()))
    return fill_defaults(cfg, yaml.safe_load(Path(SCHEMA).read_text()))


class Scale(NamedTuple):
    """A run's sizes as the models take them: each dump file's bz2 MB (by name, the
    ``part`` wildcard of its jobs), the gzipped corpus's MB, each embedding's words
    (``"shared"``: the shared vocabulary, which the fitting jobs and analyses read) and
    the vectors' dimension."""

    parts_mb: dict[str, float]
    corpus_mb: float
    words: dict[str, float]
    dim: int

    def words_of(self, rule: str, wildcards: dict[str, str]) -> float:
        """The vocabulary a job of ``rule`` reads: its embedding's own (training, the
        baseline, restriction, the evaluations), or the shared one (what the lists are
        fitted in)."""
        own = rule in ("train_embedding", "random_embedding", "restrict_embedding")
        own = own or rule.startswith("evaluate_")
        name = wildcards.get("embedding", "shared") if own else "shared"
        return self.words.get(name, self.words["shared"])


@functools.lru_cache(maxsize=4)
def enwiki_scale(repo: Path) -> Scale:
    """enwiki as the paper's run meets it: its 57 files (:func:`enwiki_files`), 6.5 GB of
    corpus, 3 M x 300 everywhere."""
    return Scale(
        parts_mb={name: size / 1e6 for name, size in enwiki_files(repo).items()},
        corpus_mb=ENWIKI_GZ / 1e6,
        words={"shared": ENWIKI_WORDS},
        dim=ENWIKI_DIM,
    )


def enwiki_job_sizes(
    rule: str, wildcards: dict[str, str], config: dict, lists: int, repo: Path
) -> dict:
    """The sizes of one job of ``config``'s run at enwiki's size (its files, corpus and
    3 M x 300 vectors), for its rule's model (learnability.pipeline.resources): stated
    here from enwiki's figures and the config, not read from the files the rules read."""
    return job_sizes(rule, wildcards, config, lists, enwiki_scale(repo))


def job_sizes(rule: str, wildcards: dict[str, str], config: dict, lists: int, scale: Scale) -> dict:
    """The sizes of one job of ``config``'s run at ``scale``, for its rule's model."""

    words = scale.words_of(rule, wildcards)
    shape = dict(words=words, dim=scale.dim)
    fitting = config["learnability"]
    if rule == "fetch_dump_part":
        return dict(size_mb=scale.parts_mb[wildcards["part"]])
    if rule == "extract_part":
        return dict(part_mb=scale.parts_mb[wildcards["part"]])
    if rule == "corpus_coverage":
        counts = [cost.part_counts_mb(mb) for mb in scale.parts_mb.values()]
        return dict(counts_mb=sum(counts), largest_mb=max(counts))
    if rule == "join_corpus":
        return dict(tokens=scale.corpus_mb * cost.TOKENS_PER_GZ_MB, text_mb=scale.corpus_mb)
    if rule == "train_embedding":
        method = registry.method(config["embeddings"][wildcards["embedding"]]["method"])
        trainer = cost.trainer_cost(method.name)
        training = config["training"]
        epochs = training["glove"]["epochs"] if method.name == "glove" else training["epochs"]
        return dict(
            corpus_mb=scale.corpus_mb, epochs=epochs, threads=training["threads"],
            **trainer.sizes(),
            counting_mb=training["count_memory_mb"] if method.counts_cooccurrence else 0,
            counts_cooccurrence=method.counts_cooccurrence, plain_copy=method.plain_copy,
            method=method.name, words=words, dim=scale.dim,
            bucket=training["fasttext"]["bucket"] if method.name == "fasttext" else 0,
        )  # fmt: skip
    if rule in ("random_embedding", "restrict_embedding", "explorer"):
        return shape
    if rule in ("shared_vocabulary", "coverage"):
        return dict(words=words, vocabularies=len(config["compare"]["embeddings"]))
    if rule == "resolve_concept":
        return dict(words=words)
    if rule.startswith("evaluate_"):
        pseudo = rule == "evaluate_pseudo"
        return dict(
            **shape, max_tokens=config["evaluations"]["pseudo"]["max_tokens"] if pseudo else 0
        )
    nulls = config["random_lists"]
    fits = {
        "learnability": fitting["iterations"],
        "null_distribution": nulls["lists"] * nulls["iterations"],
    }
    if rule in fits:
        return dict(**shape, fits=fits[rule], threads=fitting["threads"])
    if rule in ANALYSES:
        analysis = ANALYSES[rule]
        size = cost.JobSize(lists, words, scale.dim, fitting["iterations"])
        seconds = cost.analysis_seconds(rule, analysis.from_config(config), size)
        return dict(**shape, seconds=seconds,
                    threads=fitting["threads"] if analysis.fits else 1)  # fmt: skip
    return {}
