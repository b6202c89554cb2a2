"""Real hard-wrapped text for the corpus tests: Python's own language reference
(``pydoc_data.topics``: 79 topics, about 65,000 tokens, wrapped at ~70 characters), shipped
with every Python, so nothing third-party is committed. Written as a folder of files,
one a topic, hard-wrapped as shipped or unwrapped (each paragraph's lines joined)."""

from __future__ import annotations

from pathlib import Path


def topics() -> dict[str, str]:
    from pydoc_data.topics import topics

    return dict(sorted(topics.items()))


def unwrapped(text: str) -> str:
    """``text`` with each paragraph's lines joined into one by a space; the blank
    (whitespace-only) lines between paragraphs kept as they are. Written apart from the
    package's own reading, which the tests hold it against."""
    out: list[str] = []
    held: list[str] = []
    for line in text.split("\n"):
        if line.strip():
            held.append(line)
            continue
        if held:
            out.append(" ".join(held))
            held = []
        out.append(line)
    if held:
        out.append(" ".join(held))
    return "\n".join(out)


def write_topics(folder: Path, wrap: bool = True, crlf: bool = False) -> list[Path]:
    """The topics as files ``folder/NAME.txt`` (in name order), hard-wrapped or not,
    with \\r\\n line ends if ``crlf``."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for name, text in topics().items():
        text = text if wrap else unwrapped(text)
        path = folder / f"{name}.txt"
        path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode("utf-8"))
        files.append(path)
    return files


def paragraph_lines(folder: Path) -> list[list[int]]:
    """The topics' paragraphs, each a document (``document: paragraph``), as the token
    counts of its hard-wrapped lines: the corpus lines each was cut into before wraps were
    joined. Their tokens are checked against the extraction of the topics (in
    ``folder``), whose documents are these paragraphs."""
    import json

    from learnability.corpus.documents import SourceOptions
    from learnability.corpus.extract import extract_corpus
    from learnability.corpus.tokenize import tokenize

    files = write_topics(folder / "topics")
    extract_corpus(files, folder / "text.txt.gz", folder / "stats.json", min_article_tokens=1,
                   source="text", options=SourceOptions(document="paragraph"))  # fmt: skip
    stats = json.loads((folder / "stats.json").read_text())
    documents = []
    for text in topics().values():
        held: list[int] = []
        for line in [*text.split("\n"), ""]:  # (a blank at the end closes the last)
            if line.strip():
                held.append(len(tokenize(line)))
            elif any(held):
                documents.append([n for n in held if n])
                held = []
            else:
                held = []
    assert len(documents) == stats["articles"] and sum(map(sum, documents)) == stats["tokens"]
    return documents
