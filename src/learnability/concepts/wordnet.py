"""Concept lists from WordNet 3.0 supersenses (lexicographer files), a second family of
concepts beside the affective Empath lists: taxonomic categories such as noun.animal.

Run ``learnability wordnet-lists resources/wordlists-wordnet`` with WordNet's
database installed (Debian: ``apt-get install wordnet-base``, files in
``/usr/share/wordnet``; or ``--wordnet DIR``). The generated lists are committed, so
users need neither.

Every synset line of ``data.noun`` / ``data.verb`` carries its lexicographer file number
(its supersense). A list holds the lemmas of every synset in its supersense, lowercased;
multiword lemmas (``ice_cream``) cannot be single embedding words and are left out, as
are lemmas with other characters; the command prints how many per list, and the
folder's README records them. A word
with senses in several supersenses (``chicken``: noun.animal and noun.food) is in each.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

# WordNet's lexicographer file numbers (lexnames(5WN)); the database files carry the
# number only
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal",
    "noun.artifact", "noun.attribute", "noun.body", "noun.cognition", "noun.communication",
    "noun.event", "noun.feeling", "noun.food", "noun.group", "noun.location",
    "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant",
    "noun.possession", "noun.process", "noun.quantity", "noun.relation", "noun.shape",
    "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change",
    "verb.cognition", "verb.communication", "verb.competition", "verb.consumption",
    "verb.contact", "verb.creation", "verb.emotion", "verb.motion", "verb.perception",
    "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)  # fmt: skip

# The supersenses shipped: concrete and affective categories of varied size
SHIPPED = (
    "noun.animal", "noun.body", "noun.feeling", "noun.food", "noun.plant",
    "noun.location", "noun.time", "noun.substance", "noun.communication",
    "verb.emotion", "verb.motion", "verb.consumption", "verb.communication",
    "verb.weather",
)  # fmt: skip

_WORD = re.compile(r"^[a-z]+(?:'[a-z]+)*$")


def read_supersenses(
    wordnet_dir: str | Path,
) -> tuple[dict[str, set[str]], dict[str, dict[str, set[str]]]]:
    """(supersense -> single-word lemmas, supersense -> reason -> lemmas left out)."""
    wordnet_dir = Path(wordnet_dir)
    lemmas: dict[str, set[str]] = defaultdict(set)
    skipped: dict[str, dict[str, set[str]]] = defaultdict(
        lambda: {"multiword": set(), "other_characters": set()}
    )
    for pos in ("noun", "verb"):
        path = wordnet_dir / f"data.{pos}"
        if not path.is_file():
            raise FileNotFoundError(
                f"{path}: WordNet's database is not there; install it (Debian: apt-get "
                "install wordnet-base) or pass --wordnet DIR"
            )
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):  # the licence header
                    continue
                fields = line.split(" ")
                lexname = LEXNAMES[int(fields[1])]
                for k in range(int(fields[3], 16)):
                    # verb and adjective lemmas may carry a syntactic marker: "(a)"
                    lemma = re.sub(r"\(.*\)$", "", fields[4 + 2 * k]).lower()
                    if "_" in lemma or "-" in lemma:
                        skipped[lexname]["multiword"].add(lemma)
                    elif not _WORD.match(lemma):
                        skipped[lexname]["other_characters"].add(lemma)
                    else:
                        lemmas[lexname].add(lemma)
    return dict(lemmas), dict(skipped)


def build_lists(
    out_dir: str | Path, wordnet_dir: str | Path = "/usr/share/wordnet"
) -> dict[str, tuple[int, int, int]]:
    """Write one ``noun_animal.txt``-style list per shipped supersense; returns, per
    supersense, (lemmas written, multiword lemmas left out, lemmas with other
    characters left out)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    lemmas, skipped = read_supersenses(wordnet_dir)
    sizes = {}
    for name in SHIPPED:
        words = sorted(lemmas.get(name, ()))
        path = out_dir / f"{name.replace('.', '_')}.txt"
        header = f"# WordNet 3.0 supersense {name}: single-word lemmas (see README.md)\n"
        path.write_text(header + "\n".join(words) + "\n", encoding="utf-8")
        left = skipped.get(name, {"multiword": (), "other_characters": ()})
        sizes[name] = (len(words), len(left["multiword"]), len(left["other_characters"]))
    return sizes


def hypernym_edges(wordnet_dir: str | Path = "/usr/share/wordnet") -> list[tuple[str, str]]:
    """Direct noun hypernym edges (``@``; instance hypernyms ``@i`` are left out) as
    (parent, child) words: each synset is named by its first single-word lemma, and a
    synset with none is left out with its edges. Synsets that share a head word (the
    senses of ``bank``) become one node; duplicate edges and self-loops are dropped.
    Sorted, so the file is reproducible."""
    path = Path(wordnet_dir) / "data.noun"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: WordNet's database is not there; install it (Debian: apt-get "
            "install wordnet-base) or pass --wordnet DIR"
        )
    head: dict[str, str] = {}
    parents: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            fields = line.split(" | ")[0].split(" ")
            offset, n_words = fields[0], int(fields[3], 16)
            words = [fields[4 + 2 * k].lower() for k in range(n_words)]
            single = [w for w in words if _WORD.match(w)]
            if single:
                head[offset] = single[0]
            at = 4 + 2 * n_words
            ptrs = fields[at + 1 : at + 1 + 4 * int(fields[at])]
            parents[offset] = [
                ptrs[i + 1] for i in range(0, len(ptrs), 4) if ptrs[i] == "@" and ptrs[i + 2] == "n"
            ]
    edges = {
        (head[p], head[c])
        for c, ps in parents.items()
        if c in head
        for p in ps
        if p in head and head[p] != head[c]
    }
    return sorted(edges)


def write_lists(out_dir: Path, wordnet: Path, hypernyms: Path | None = None) -> None:
    """What ``learnability wordnet-lists`` does: the supersense lists into ``out_dir``,
    and optionally the noun hypernym graph, with a count per list printed."""
    if hypernyms:
        edges = hypernym_edges(wordnet)
        header = "# WordNet 3.0 noun hypernyms, parent<TAB>child (see README.md)\n"
        hypernyms.write_text(header + "".join(f"{p}\t{c}\n" for p, c in edges), encoding="utf-8")
        print(f"{hypernyms}: {len(edges)} edges")
    print("supersense\tlemmas\tmultiword_left_out\tother_left_out")
    for name, (n, multi, other) in build_lists(out_dir, wordnet).items():
        print(f"{name}\t{n}\t{multi}\t{other}")
