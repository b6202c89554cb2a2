# The corpus: the dump downloaded (in parts, for a multi-part dump), each part extracted
# to text and counts, then merged.


include: "helpers/corpus.smk"


# Downloads run on the submitting node: many clusters' compute nodes have no internet.
# Each holds one `download` (the profiles allow 2 at once: Wikimedia's dump servers ask
# for no more than 2 connections per client).
if MULTIPART:

    localrules:
        dump_manifest,
        fetch_dump_part,

    checkpoint dump_manifest:
        input:
            # the pin, if any: editing it checks the mirror's list again
            pinned=[SOURCE["pinned"]] if SOURCE["pinned"] else [],
        output:
            "resources/dumps/{corpus}/manifest.tsv",
        log:
            "logs/dump_manifest/{corpus}.log",
        benchmark:
            "benchmarks/out/dump_manifest/{corpus}.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("dump_manifest"),
            download=1,
        params:
            base_url=SOURCE["base_url"],
            status=SOURCE["status"],
            job=SOURCE["job"],
            pattern=SOURCE["pattern"],
            allow_unverified=SOURCE["allow_unverified"],
            allow_unpinned=SOURCE["allow_unpinned"],
        script:
            "../scripts/dump_manifest.py"

    rule fetch_dump_part:
        input:
            manifest="resources/dumps/{corpus}/manifest.tsv",
        output:
            "resources/dumps/{corpus}/parts/{part}",
        log:
            "logs/fetch_dump_part/{corpus}/{part}.log",
        benchmark:
            "benchmarks/out/fetch_dump_part/{corpus}/{part}.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("fetch_dump_part", part_download_sizes),
            download=1,
        params:
            allow_unverified=SOURCE["allow_unverified"],
        script:
            "../scripts/fetch_dump_part.py"

elif not OWN_PARTS[CORPUS]:

    localrules:
        fetch_dump,

    rule fetch_dump:
        output:
            f"resources/dumps/{{corpus}}/{DUMP_FILE}",
        log:
            "logs/fetch_dump/{corpus}.log",
        benchmark:
            "benchmarks/out/fetch_dump/{corpus}.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("fetch_dump", unknown_download),
            download=1,
        params:
            source=SOURCE["path"],
            checksums={h: SOURCE[h] for h in ("sha256", "sha1", "md5") if SOURCE.get(h)},
            allow_unverified=SOURCE["allow_unverified"],
        script:
            "../scripts/fetch_file.py"


rule extract_part:
    input:
        dump_part_file,
    output:
        text="results/corpus/{corpus}/parts/{part}.txt.gz",
        counts="results/corpus/{corpus}/parts/{part}.counts.parquet",
        stats="results/corpus/{corpus}/parts/{part}.stats.json",
    log:
        "logs/extract_part/{corpus}/{part}.log",
    benchmark:
        "benchmarks/out/extract_part/{corpus}/{part}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: 1
    resources:
        **job_resources("extract_part", extract_sizes),
    params:
        min_article_tokens=corpus_min_tokens,
        max_line_tokens=config["corpus"]["max_line_tokens"],
        source=corpus_format,
        reader_code=reader_code,
        options=corpus_options,
        ranges=corpus_ranges,
    script:
        "../scripts/extract_corpus.py"


rule join_corpus:
    input:
        unpack(extracted_parts),
    output:
        text="results/corpus/{corpus}/text.txt.gz",
        stats=report(
            "results/corpus/{corpus}/stats.json",
            caption="../report/corpus.rst",
            category="Corpus",
        ),
    log:
        "logs/join_corpus/{corpus}.log",
    benchmark:
        "benchmarks/out/join_corpus/{corpus}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("join_corpus", join_sizes),
    script:
        "../scripts/join_corpus.py"


# How each list meets the corpus, from the extraction's counts: logged, a line a list,
# as soon as the extraction ends, so that a list the text does not cover is known in
# minutes and not after training. Ready when the join is, before any training can be,
# and first among ready jobs (priority); no training waits for it as an input, which
# would retrain every embedding when it is rewritten or missing.
rule corpus_coverage:
    input:
        counts=lambda wildcards: extracted_parts(wildcards)["counts"],
        lists=list_sources,
    output:
        parquet="results/corpus/{corpus}/coverage.parquet",
        md="results/corpus/{corpus}/coverage.md",
    log:
        "logs/corpus_coverage/{corpus}.log",
    benchmark:
        "benchmarks/out/corpus_coverage/{corpus}.tsv"
    priority: 50
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("corpus_coverage", corpus_coverage_sizes),
    params:
        lists=LISTS,
        min_count=config["training"]["min_count"],
        min_words=config["learnability"]["min_words"],
        case=CASE,
    script:
        "../scripts/corpus_coverage.py"
