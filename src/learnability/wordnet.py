"""Concept lists from WordNet 3.0 supersenses (lexicographer files), a second family of
concepts beside the affective Empath lists: taxonomic categories such as noun.animal.

Run ``python -m learnability.wordnet resources/wordlists-wordnet`` with WordNet's
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

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description="Write WordNet supersense word lists.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    print("supersense\tlemmas\tmultiword_left_out\tother_left_out")
    for name, (n, multi, other) in build_lists(args.out_dir, args.wordnet).items():
        print(f"{name}\t{n}\t{multi}\t{other}")


if __name__ == "__main__":
    main()
