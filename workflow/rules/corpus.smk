rule fetch_dump:
    output:
        f"resources/dumps/{{dump}}/{DUMP_FILE}",
    log:
        "logs/fetch_dump/{dump}.log",
    conda:
        "../envs/learnability.yaml"
    params:
        source=config["dump"]["source"],
        checksums={
            h: config["dump"][h]
            for h in ("sha256", "sha1", "md5")
            if config["dump"].get(h)
        },
        allow_unverified=config["dump"].get("allow_unverified", False),
    script:
        "../scripts/fetch_dump.py"


rule extract_corpus:
    input:
        f"resources/dumps/{{dump}}/{DUMP_FILE}",
    output:
        text="results/corpus/{dump}/text.txt.gz",
        stats="results/corpus/{dump}/stats.json",
    log:
        "logs/extract_corpus/{dump}.log",
    benchmark:
        "benchmarks/out/extract_corpus/{dump}.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        min_article_tokens=config["corpus"].get("min_article_tokens", 50),
        max_line_tokens=config["corpus"].get("max_line_tokens", 1000),
    script:
        "../scripts/extract_corpus.py"
