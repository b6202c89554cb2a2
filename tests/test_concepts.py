import numpy as np
import pandas as pd
import pytest

from learnability.concepts import (
    concept_words,
    coverage,
    member_indices,
    read_dic,
    read_wordlist,
    resolve,
)
from learnability.errors import InputError

DIC = """%
1\tposemo
2\tfamily
3\tempty
%
happ*\t1
love\t1
Mother\t2
brother*\t2
famil*\t2
xyzzy*\t1
good\t1
good\t1
kind of\t1
"""

VOCAB = [
    "happy",
    "happiness",
    "happen",
    "hap",
    "love",
    "mother",
    "brother",
    "brotherhood",
    "family",
    "families",
    "familiar",
    "cat",
]


def test_dic_reader_and_wildcards(tmp_path):
    path = tmp_path / "mini.dic"
    path.write_text(DIC, encoding="utf-8")
    dic = read_dic(path)
    assert dic.categories == {"1": "posemo", "2": "family", "3": "empty"}
    assert [e.text for e in dic.entries["family"]] == ["Mother", "brother*", "famil*"]
    assert dic.entries["empty"] == []

    res = resolve(dic.entries["posemo"], VOCAB, list_name="posemo", embedding="e", source=str(path))
    # happ* expands to happen, happiness, happy (not 'hap', which lacks the prefix)
    exp = res[res["entry"] == "happ*"]
    assert sorted(exp["word"]) == ["happen", "happiness", "happy"]
    assert set(exp["status"]) == {"expanded"}
    assert res.loc[res["entry"] == "xyzzy*", "status"].tolist() == ["no_match"]
    assert res.loc[res["entry"] == "kind of", "status"].tolist() == ["phrase"]
    assert res.loc[res["entry"] == "good", "status"].tolist() == ["oov", "duplicate"]
    assert sorted(concept_words(res)) == ["happen", "happiness", "happy", "love"]
    assert res["line"].tolist()[0] == 6

    fam = resolve(dic.entries["family"], VOCAB, list_name="family", embedding="e", source=str(path))
    assert sorted(concept_words(fam)) == [
        "brother",
        "brotherhood",
        "familiar",
        "families",
        "family",
        "mother",
    ]

    cov = coverage(pd.concat([res, fam]))
    row = cov.set_index("list").loc["posemo"]
    assert row["n_entries"] == 6
    assert row["n_wildcards"] == 2
    assert row["n_wildcard_words"] == 3
    assert row["n_wildcards_unmatched"] == 1
    assert row["n_phrases"] == 1
    assert row["n_duplicates"] == 1
    assert row["n_oov"] == 1
    assert row["n_in_vocab"] == 4
    assert cov.set_index("list").loc["family", "n_in_vocab"] == 6
    # happ* expands to 3 of posemo's 4 words: a share of 0.75, flagged (default 0.25)
    assert row["max_wildcard_share"] == 0.75 and row["n_wildcards_flagged"] == 1
    fam_row = coverage(fam, max_wildcard_share=0.5).iloc[0]
    # brother* gives 2 of 6 words, famil* 3 of 6: neither exceeds 0.5
    assert fam_row["max_wildcard_share"] == 0.5 and fam_row["n_wildcards_flagged"] == 0
    assert coverage(fam, max_wildcard_share=0.4).iloc[0]["n_wildcards_flagged"] == 1


def test_overlapping_wildcard_and_word_counted_once():
    from learnability.concepts import Entry

    res = resolve(
        [Entry("happy", 1), Entry("happ*", 2)], VOCAB, list_name="l", embedding="e", source="s"
    )
    assert sorted(concept_words(res)) == ["happen", "happiness", "happy"]
    assert (res["status"] == "duplicate").sum() == 1


def test_member_indices_maps_words_to_rows():
    from learnability.concepts import Entry

    res = resolve(
        [Entry("cat", 1), Entry("love", 2)], VOCAB, list_name="l", embedding="e", source="s"
    )
    assert member_indices(res, VOCAB).tolist() == [11, 4]
    assert member_indices(res, pd.Series(VOCAB)).dtype == np.int64


def test_wordlist_comments_blank_lines_and_normalisation(tmp_path):
    path = tmp_path / "l.txt"
    path.write_text("# header\n\nHappy  # trailing comment\n  Don’t \nLOVE\n", encoding="utf-8")
    entries = read_wordlist(path)
    assert [(e.text, e.line) for e in entries] == [("Happy", 3), ("Don’t", 4), ("LOVE", 5)]
    res = resolve(entries, ["happy", "don't", "love"], list_name="l", embedding="e", source="s")
    assert concept_words(res) == ["happy", "don't", "love"]


@pytest.mark.parametrize(
    "content,match",
    [
        ("# only comments\n\n", "no entries"),
        (b"\x00\x01binary", "binary"),
        (b"caf\xe9\n", "line 1: not valid UTF-8"),
    ],
)
def test_wordlist_errors_name_the_file(tmp_path, content, match):
    path = tmp_path / "bad.txt"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    with pytest.raises(InputError, match=match) as err:
        read_wordlist(path)
    assert "bad.txt" in str(err.value)


@pytest.mark.parametrize(
    "content,match",
    [
        ("happy\t1\n", "line 1: a .dic file must start with a '%'"),
        ("%\n1\tposemo\n%\nhappy\t7\n", "line 4: entry 'happy' uses category id 7"),
        ("%\n1\tposemo\nhappy\t1\n", "line 3: .*closing '%' line missing"),
        ("%\n1\tposemo\n", "not closed"),
        ("%\n1\tposemo\n%\nhappy\t1 x2\n", "line 4: .*field 'x2'"),
        ("%\n1\tposemo\n%\nlike\t(02 134)1/7\n", "line 4: .*condition refers to category id 02"),
        ("%\n1\tposemo\n2\tposemo\n%\n", "line 3: category name 'posemo' is used by two"),
        ("%\n1\tposemo\n%\nhappy\n", "line 4: entry 'happy' has no category id"),
    ],
)
def test_dic_errors(tmp_path, content, match):
    path = tmp_path / "bad.dic"
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        read_dic(path)


# A LIWC2015-style dictionary written by hand (not a real LIWC file), exercising every
# quirk the reader supports, saved in windows-1252 (the é of "café" is byte 0xE9).
QUIRKS = (
    "\n"  # a blank line before the header
    "%\n"
    "1\tfunction\t(Function Words)\n"
    "\t2\tpronoun\n"
    "\t\t3\tppron\n"
    "\t4\tarticle\n"
    "30\taffect\n"
    "    31\tposemo\n"  # indented with spaces
    "125\tcogproc\n"
    "131\tsocial\n"
    "134\tverb\n"
    "464\tinformal\n"
    "%\n"
    "I\t1\t2\t3\n"
    "the    1   4\n"  # runs of spaces
    "\n"  # a blank line among the entries
    "Happy\t30 31\n"  # a tab, then spaces
    "happy\t125\n"  # the same word again: the union of categories
    "like\t(02 134)125/464\t30\n"  # conditional on the previous word's category
    "kind\t<of>131/125\n"  # conditional on the next word
    "kind of\t125\n"  # a multiword entry
    "café\t31\n"
    "lov*\t31  31\n"  # one id twice on a line is one membership
)


def test_dic_with_every_quirk(tmp_path):
    path = tmp_path / "quirks.dic"
    path.write_bytes(QUIRKS.encode("cp1252"))
    dic = read_dic(path)
    assert dic.encoding == "windows-1252"
    assert dic.categories == {
        "1": "function",
        "2": "pronoun",
        "3": "ppron",
        "4": "article",
        "30": "affect",
        "31": "posemo",
        "125": "cogproc",
        "131": "social",
        "134": "verb",
        "464": "informal",
    }
    assert dic.parents == {
        "function": None,
        "pronoun": "function",
        "ppron": "pronoun",
        "article": "function",
        "affect": None,
        "posemo": "affect",
        "cogproc": None,
        "social": None,
        "verb": None,
        "informal": None,
    }

    def words(category):
        return [(e.text, e.line, e.conditional) for e in dic.entries[category]]

    assert words("function") == [("I", 14, False), ("the", 15, False)]
    assert words("ppron") == [("I", 14, False)]
    assert words("article") == [("the", 15, False)]
    assert words("affect") == [("Happy", 17, False), ("like", 19, True)]
    assert words("posemo") == [("Happy", 17, False), ("café", 22, False), ("lov*", 23, False)]
    assert words("cogproc") == [
        ("happy", 18, False),
        ("like", 19, True),
        ("kind", 20, True),
        ("kind of", 21, False),
    ]
    assert words("informal") == [("like", 19, True)]
    assert words("social") == [("kind", 20, True)]

    vocab = ["i", "the", "happy", "like", "kind", "café", "love", "lovely", "of"]
    res = resolve(dic.entries["cogproc"], vocab, list_name="c", embedding="e", source=str(path))
    assert res["status"].tolist() == ["in_vocab", "in_vocab", "in_vocab", "phrase"]
    assert res["conditional"].tolist() == [False, True, True, False]
    cov = coverage(res).iloc[0]
    assert (cov["n_conditional"], cov["n_phrases"], cov["n_in_vocab"]) == (2, 1, 3)
    # case-insensitive: "Happy" (line 17) resolves to the vocabulary's "happy"
    pos = resolve(dic.entries["posemo"], vocab, list_name="p", embedding="e", source=str(path))
    assert sorted(concept_words(pos)) == ["café", "happy", "love", "lovely"]


def test_dic_in_utf8_with_a_bom(tmp_path):
    path = tmp_path / "utf8.dic"
    path.write_bytes("\ufeff%\n1\tposemo\n%\ncafé\t1\nnaïve\t1\n".encode())
    dic = read_dic(path)
    assert dic.encoding == "utf-8"
    assert [e.text for e in dic.entries["posemo"]] == ["café", "naïve"]


def test_table_and_empath_dictionaries(tmp_path):
    from learnability.concepts import Entry, read_dictionary

    csv = tmp_path / "moral.csv"
    csv.write_text("Category,Word,weight\ncare,kindness,1\nharm,cruel,1\n\ncare,Nurture*,1\n")
    dic = read_dictionary(csv)
    assert {c: [(e.text, e.line) for e in v] for c, v in dic.entries.items()} == {
        "care": [("kindness", 2), ("Nurture*", 5)],
        "harm": [("cruel", 3)],
    }
    tsv = tmp_path / "table.tsv"
    tsv.write_text("word\tcategory\nsun\tweather\n")
    assert read_dictionary(tsv).entries == {"weather": [Entry("sun", 2)]}
    emp = tmp_path / "categories.tsv"  # no header: Empath's layout
    emp.write_text("family\tmother\tfather\tfamily_tree\nanimal\tcat\n")
    dic = read_dictionary(emp)
    assert [e.text for e in dic.entries["family"]] == ["mother", "father", "family tree"]
    res = resolve(dic.entries["family"], ["mother"], list_name="f", embedding="e", source="s")
    assert res["status"].tolist() == ["in_vocab", "oov", "phrase"]


@pytest.mark.parametrize(
    "name,content,match",
    [
        ("bad.csv", "term,label\na,b\n", r"bad\.csv, line 1: the header must name"),
        ("bad.csv", "word,category\nlonely\n", r"bad\.csv, line 2: expected a word and a category"),
        ("bad.tsv", "animal\n", r"bad\.tsv, line 1: expected 'category<TAB>word"),
        ("bad.tsv", "a\tx\na\ty\n", r"bad\.tsv, line 2: category 'a' appears twice"),
        ("bad.json", "{}", r"bad\.json: cannot tell the dictionary's layout"),
    ],
)
def test_table_and_empath_errors(tmp_path, name, content, match):
    from learnability.concepts import read_dictionary

    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        read_dictionary(path)


def test_list_words_match_whatever_their_unicode_form_and_case(tmp_path):
    """NFC and NFKC differ on ligatures and compatibility forms; decomposed and composed
    accents differ in NFD. Every form, and every case, resolves to the one vocabulary
    word (NFKC + lowercase), and the second spelling is counted as a duplicate."""
    path = tmp_path / "l.txt"
    forms = ["ﬁne", "FINE", "A\u030angstr\u00f6m", "\u00c5ngstr\u00f6m", "ｗｉｄｅ"]
    path.write_text("\n".join(forms) + "\n", encoding="utf-8")
    entries = read_wordlist(path)
    res = resolve(entries, ["fine", "ångström", "wide"], list_name="l", embedding="e",
                  source=str(path))  # fmt: skip
    assert concept_words(res) == ["fine", "ångström", "wide"]
    assert res["status"].tolist().count("duplicate") == 2


def test_list_overlap_counts_shared_members_over_the_smaller_list():
    """affect holds all of posemo (nested), shares one word with work, none with x; the
    report marks the nested pair and the Wilcoxon counts it."""
    from learnability.concepts import Entry, list_overlap, resolve
    from learnability.tables import overlap_report

    vocab = ["happy", "glad", "sad", "angry", "job", "boss", "tree"]
    lists = {
        "affect": ["happy", "glad", "sad", "angry", "job"],
        "posemo": ["happy", "glad", "nowhere"],
        "work": ["job", "boss"],
        "x": ["tree", "boss"],
    }
    resolved = pd.concat(
        [
            resolve(
                [Entry(w, i + 1) for i, w in enumerate(words)],
                vocab,
                list_name=name,
                embedding="e",
                source="",
            )
            for name, words in lists.items()
        ]
    )
    ov = list_overlap(resolved, "own").set_index(["list_a", "list_b"])
    assert len(ov) == 6
    assert ov.loc[("affect", "posemo"), "n_shared"] == 2  # "nowhere" is not in vocabulary
    assert ov.loc[("affect", "posemo"), "overlap"] == 1.0 and ov.loc[("affect", "posemo"), "nested"]
    assert ov.loc[("affect", "work"), "overlap"] == 0.5 and not ov.loc[("affect", "work"), "nested"]
    assert ov.loc[("work", "x"), "overlap"] == 0.5 and ov.loc[("affect", "x"), "n_shared"] == 0
    report = overlap_report(ov.reset_index())
    assert "| own | affect | posemo | e | 5 | 2 | 2 | 1.000 | **yes** |" in report
