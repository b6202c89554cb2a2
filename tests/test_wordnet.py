"""WordNet supersense lists: the parser on hand-made database lines, and the committed
lists against a regeneration where WordNet is installed."""

from pathlib import Path

import pytest

from learnability.concepts.wordnet import build_lists, hypernym_edges, read_supersenses

HEADER = "  1 This software and database is being provided to you, the LICENSEE, by  \n"
NOUNS = (
    HEADER
    + "00001740 05 n 02 Dog 0 domestic_dog 0 000 | a canine  \n"  # 05 noun.animal
    + "00002000 13 n 03 chicken 0 ice_cream 0 a.m. 1 000 | food  \n"  # 13 noun.food
    + "00003000 05 n 0a cat 0 b 0 c 0 d 0 e 0 f 0 g 0 h 0 i 0 chicken 0 000 | hex count  \n"
)
VERBS = HEADER + "00004000 37 v 01 fear(a) 0 000 | feel fear  \n"  # 37 verb.emotion


def test_supersenses_from_hand_made_lines(tmp_path):
    (tmp_path / "data.noun").write_text(NOUNS)
    (tmp_path / "data.verb").write_text(VERBS)
    lemmas, skipped = read_supersenses(tmp_path)
    # w_cnt is hexadecimal: "0a" is ten lemmas
    assert lemmas["noun.animal"] == {"dog", "cat", *"bcdefghi", "chicken"}
    assert lemmas["noun.food"] == {"chicken"}
    assert lemmas["verb.emotion"] == {"fear"}  # the "(a)" marker removed
    assert skipped["noun.animal"]["multiword"] == {"domestic_dog"}
    assert skipped["noun.food"] == {"multiword": {"ice_cream"}, "other_characters": {"a.m."}}
    sizes = build_lists(tmp_path / "out", tmp_path)
    assert sizes["noun.food"] == (1, 1, 1)
    text = (tmp_path / "out" / "noun_animal.txt").read_text().splitlines()
    assert text[0].startswith("#") and text[1:4] == ["b", "c", "cat"]


def test_missing_database_says_how_to_install(tmp_path):
    with pytest.raises(FileNotFoundError, match="apt-get install wordnet-base"):
        read_supersenses(tmp_path)


SYSTEM = Path("/usr/share/wordnet")
REPO = Path(__file__).resolve().parents[1]


# The committed lists and graph are what `learnability wordnet-lists` writes: run as the
# README gives it, in the user's environment, by test_cli.py's README test.


def test_hypernym_edges_from_a_hand_written_database(tmp_path):
    # three synsets: dog (lemmas dog, domestic_dog) -> canine; hotdog's head is
    # multiword only (left out with its edge); an instance hypernym (@i) is not an edge
    (tmp_path / "data.noun").write_text(
        "  1 licence header line\n"
        "00000001 05 n 02 dog 0 domestic_dog 0 002 @ 00000002 n 0000 @i 00000003 n 0000 | a dog\n"
        "00000002 05 n 01 canine 0 000 | a canid\n"
        "00000003 05 n 01 hot_dog 0 001 @ 00000002 n 0000 | food\n"
    )
    assert hypernym_edges(tmp_path) == [("canine", "dog")]


@pytest.mark.skipif(not (SYSTEM / "data.noun").is_file(), reason="WordNet is not installed")
def test_committed_hypernym_graph_is_what_the_script_writes():
    edges = hypernym_edges(SYSTEM)
    shipped = (REPO / "resources" / "hierarchy" / "wordnet-nouns.tsv").read_text()
    lines = [line for line in shipped.splitlines() if not line.startswith("#")]
    assert lines == [f"{p}\t{c}" for p, c in edges]
    assert ("canine", "dog") in edges
