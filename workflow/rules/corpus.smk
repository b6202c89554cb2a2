rule fetch_dump:
    output:
        f"resources/dumps/{{dump}}/{DUMP_FILE}",
    params:
        source=config["dump"]["source"],
        checksums={h: config["dump"][h] for h in ("sha256", "sha1", "md5") if config["dump"].get(h)},
        allow_unverified=config["dump"].get("allow_unverified", False),
    log:
        "logs/fetch_dump/{dump}.log",
    script:
        "../scripts/fetch_dump.py"


rule extract_corpus:
    input:
        f"resources/dumps/{{dump}}/{DUMP_FILE}",
    output:
        text="results/corpus/{dump}/text.txt.gz",
        stats="results/corpus/{dump}/stats.json",
    params:
        min_article_tokens=config["corpus"].get("min_article_tokens", 50),
        max_line_tokens=config["corpus"].get("max_line_tokens", 1000),
    log:
        "logs/extract_corpus/{dump}.log",
    benchmark:
        "benchmarks/out/extract_corpus/{dump}.tsv"
    script:
        "../scripts/extract_corpus.py"
