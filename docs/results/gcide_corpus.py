"""The GNU Collaborative International Dictionary of English (GCIDE: Webster's Revised
Unabridged Dictionary of 1913, with later supplements and WordNet 1.5 glosses) as a
corpus the workflow reads: one JSON Lines object an entry, its headword (``id``) and its
text (``text``), a blank line between its senses. It reads Debian's ``dict-gcide``
package where it is installed (``apt-get install dict-gcide``); the dictionary's text is
written to ``OUT`` on this machine, never to the repository.

    .venv/bin/python docs/results/gcide_corpus.py resources/dumps/gcide.jsonl.gz

The results page docs/results/corpora.md compares it with the Wikipedia sample
(config/corpora-gcide.yaml). What an entry keeps: the headword, the definitions, the
quotations, the usage notes and the synonyms (``{cross references}`` as their words);
what it loses: the pronunciation spellings (``\\A*back"\\ ([.a]*b[a^]k")``), every square
bracket (etymologies, labels such as ``[Obs.]``, the sources ``[1913 Webster]``), the
quotations' attributions (``--Chaucer.``, ``--Matt. xxii. 37.``) and the labels ``Syn:``
and ``Note:``; the format's accent codes (``caf['e]``) are read as their letters
(``cafe``). The file's own header entries (``00-database-*``: the licence, the editors)
are left out.

dictd's ``.dict.dz`` is dictzip, a gzip file that any gzip reader reads whole; its
``.index`` gives each headword's entry as a byte offset and a length in base 64.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path

DICTD = Path("/usr/share/dictd")
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

# the headword's spelling with its accent marks, and the pronunciation after it
PRONUNCIATION = re.compile(r"\\[^\\\n]*\\[ \t]*(?:\([^()]*\))?")
# accent codes: a mark and a letter (['e] [=a] [.a] ["o] [~n] [,c]), a letter and a
# breve ([a^] [oo^]), and named letters; the others (roots, degrees) are no letters
MARKED = re.compile(r"\[[`'\"=.\-~^,*]([A-Za-z]{1,2})\]|\[([A-Za-z]{1,2})\^\]")
NAMED = {"ae": "ae", "AE": "AE", "oe": "oe", "OE": "OE", "imac": "i", "aum": "a",
         "udd": "u", "eth": "th", "th": "th", "ng": "ng", "yogh": "y", "asl": "a",
         "add": "a"}  # fmt: skip
NAMED_CODE = re.compile(r"\[(" + "|".join(NAMED) + r")\]")
SYMBOL_CODE = re.compile(r"\[(root|deg|sect|cre|hand|pause|prime|minus|min)\]")
BRACKETS = re.compile(r"\[[^\[\]]*\]")  # innermost first: etymologies, labels, sources
# a source whose bracket the file leaves open ("[WordNet 1.5" at a line's end)
UNCLOSED = re.compile(r"\[(?:WordNet|PJC|Webster|\d{4} Webster)[^\]\n]*$", re.M)
ATTRIBUTION = re.compile(r"--[A-Z][^\n]*$", re.M)  # --Chaucer.  (not "-- said of")
# what an attribution leaves on its own line: a chapter and verse ("xxii. 39.")
CITATION = re.compile(
    r"^[ \t]*(?:[ivxlcIVXLC]+\.|\d+[.,;:]?)(?:[ \t,;:.]+(?:[ivxlcIVXLC]+\.|\d+))*[.,;:]?[ \t]*$",
    re.M,
)
LABEL = re.compile(r"^(\s*)(?:Syn|Note)\s*:", re.M)
BLANKS = re.compile(r"\n\s*\n(?:\s*\n)*")


def b64(text: str) -> int:
    value = 0
    for ch in text:
        value = value * 64 + B64.index(ch)
    return value


def entries(index: Path) -> list[tuple[int, int, str]]:
    """Each entry once (several headwords can name one), in the file's order: offset,
    length and the first headword that names it; the header entries left out."""
    header, seen = set(), {}
    for line in index.read_text(encoding="utf-8").splitlines():
        word, offset, length = line.rsplit("\t", 2)
        key = (b64(offset), b64(length))
        if word.startswith("00-"):
            header.add(key)
        seen.setdefault(key, word)
    return sorted((o, n, w) for (o, n), w in seen.items() if (o, n) not in header)


def clean(entry: str) -> str:
    """An entry's text without the dictionary's apparatus (see the module's docstring)."""
    text = PRONUNCIATION.sub(" ", entry)
    text = MARKED.sub(lambda m: m.group(1) or m.group(2), text)
    text = NAMED_CODE.sub(lambda m: NAMED[m.group(1)], text)
    text = SYMBOL_CODE.sub(" ", text)
    while True:
        text, n = BRACKETS.subn(" ", text)
        if not n:
            break
    text = CITATION.sub("", ATTRIBUTION.sub("", UNCLOSED.sub("", text)))
    text = LABEL.sub(r"\1", text.replace("{", "").replace("}", ""))
    lines = [" ".join(line.split()) for line in BLANKS.sub("\n\n", text.strip()).split("\n")]
    return "\n".join(lines).strip()


def convert(dictd: Path, out: Path, name: str = "gcide") -> dict[str, int]:
    """Write ``out`` (JSON Lines, gzip if it ends in .gz) from ``dictd``'s NAME.dict.dz and
    NAME.index; returns the entries written and the whitespace-separated words."""
    index, data = dictd / f"{name}.index", dictd / f"{name}.dict.dz"
    for path in (index, data):
        if not path.is_file():
            sys.exit(f"{path}: not there; install Debian's dict-{name} (apt-get install "
                     f"dict-{name}) or give --dictd the folder holding {name}.index")  # fmt: skip
    with gzip.open(data) as f:
        raw = f.read()
    out.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if out.suffix == ".gz" else open
    written = words = 0
    with opener(out, "wt", encoding="utf-8") as f:
        for offset, length, word in entries(index):
            text = clean(raw[offset : offset + length].decode("utf-8", errors="replace"))
            if not text:
                continue
            f.write(json.dumps({"id": word, "text": text}, ensure_ascii=False) + "\n")
            written += 1
            words += len(text.split())
    return {"entries": written, "words": words}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the JSON Lines file to write (.jsonl[.gz])")
    parser.add_argument(
        "--dictd",
        type=Path,
        default=DICTD,
        help=f"the folder of gcide.index and .dict.dz ({DICTD})",
    )
    args = parser.parse_args(argv)
    counts = convert(args.dictd, args.out)
    print(f"{args.out}: {counts['entries']} entries, {counts['words']} words")


if __name__ == "__main__":
    main()
