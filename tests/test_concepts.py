import logging

import numpy as np
import pandas as pd
import pytest

from learnability.concepts.lists import (
    Entry,
    concept_words,
    coverage,
    member_indices,
    read_dic,
    read_dictionary,
    read_wordlist,
    resolve,
)
from learnability.concepts.matching import Matcher
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
    from learnability.concepts.lists import Entry

    res = resolve(
        [Entry("happy", 1), Entry("happ*", 2)], VOCAB, list_name="l", embedding="e", source="s"
    )
    assert sorted(concept_words(res)) == ["happen", "happiness", "happy"]
    assert (res["status"] == "duplicate").sum() == 1


def test_member_indices_maps_words_to_rows():
    from learnability.concepts.lists import Entry

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
        (b"ok\nbad \x81\x8d\n", "line 2: neither UTF-8 nor windows-1252"),
        ("caf\u00e9\n".encode("utf-16-le"), "UTF-16 without a byte-order mark"),
        ("$:\t-1.5\t0.80623\t[-1, -1, -1]\n", "line 1: tab-separated columns"),
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
    from learnability.concepts.lists import Entry, read_dictionary

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
    from learnability.concepts.lists import read_dictionary

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
    from learnability.concepts.lists import Entry, list_overlap, resolve
    from learnability.reports.tables import overlap_report

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


@pytest.mark.parametrize(
    "raw",
    [
        "café\nnaïve\n".encode(),
        "café\nnaïve\n".encode("utf-8-sig"),
        "café\nnaïve\n".encode("utf-16"),  # with its BOM: what editors call "Unicode"
        "café\nnaïve\n".encode("utf-32"),
        "café\nnaïve\n".encode("latin-1"),
        "café\nnaïve\n".encode("cp1252"),
    ],
)
def test_one_encoding_policy_for_lists_and_dictionaries(tmp_path, raw, caplog):
    """UTF-8, UTF-16/32 with a BOM, else windows-1252 with a warning: the same for a .txt
    list and a .dic (whose header and entries are written in the same encoding)."""
    # the warning's level, whatever an earlier in-process CLI run (--quiet) left the root at
    caplog.set_level(logging.WARNING)
    plain = tmp_path / "l.txt"
    plain.write_bytes(raw)
    assert [e.text for e in read_wordlist(plain)] == ["café", "naïve"]
    body = "%\n1\tposemo\n%\ncafé\t1\nnaïve\t1\n"
    encoding = {
        raw.startswith(b"\xff\xfe\x00\x00"): "utf-32",
        raw.startswith(b"\xff\xfe") and not raw.startswith(b"\xff\xfe\x00\x00"): "utf-16",
        raw.startswith(b"\xef\xbb\xbf"): "utf-8-sig",
    }.get(True, "utf-8" if raw == "café\nnaïve\n".encode() else "cp1252")
    dic = tmp_path / "d.dic"
    dic.write_bytes(body.encode(encoding))
    d = read_dic(dic)
    assert [e.text for e in d.entries["posemo"]] == ["café", "naïve"]
    fallback = encoding == "cp1252"
    assert d.encoding == ("windows-1252" if fallback else encoding.removesuffix("-sig"))
    assert ("read as windows-1252" in caplog.text) == fallback


def test_bing_liu_header_is_a_comment_and_hyphens_are_phrases_unless_the_vocabulary_has_them(
    tmp_path,
):
    path = tmp_path / "positive-words.txt"
    path.write_text(
        ";;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;\n"
        "; Opinion Lexicon: Positive\n;\n; Minqing Hu and Bing Liu. KDD-2004.\n;\n\n"
        "a+\nabound\nwell-known\n2-faced\nin-law\nfair-minded\n",
        encoding="utf-8",
    )
    entries = read_wordlist(path)
    assert [e.text for e in entries] == [
        "a+", "abound", "well-known", "2-faced", "in-law", "fair-minded"
    ]  # fmt: skip
    trained = ["a", "abound", "well", "known", "in", "law"]  # tokenised here: no hyphens
    res = resolve(entries, trained, list_name="p", embedding="w2v", source="s").set_index("entry")
    assert res.loc["a+", "status"] == "oov"  # one token, "a", but not the entry as written
    assert res.loc["abound", "status"] == "in_vocab"
    for hyphenated in ("well-known", "2-faced", "in-law", "fair-minded"):
        assert res.loc[hyphenated, "status"] == "phrase", hyphenated
    # GloVe 6B keeps "in-law": there it is a word, found as written
    glove = ["abound", "in-law", "well", "known"]
    res = resolve(entries, glove, list_name="p", embedding="g", source="s").set_index("entry")
    assert res.loc["in-law", "status"] == "in_vocab" and res.loc["well-known", "status"] == "phrase"
    cov = coverage(resolve(entries, glove, list_name="p", embedding="g", source="s")).iloc[0]
    assert (cov["n_entries"], cov["n_phrases"], cov["n_oov"], cov["n_in_vocab"]) == (6, 3, 1, 2)
    # MFD's "fair-*": only a hyphenated word could match, so a phrase, not a failed wildcard
    mfd = [Entry("fair-*", 1), Entry("fair*", 2), Entry("xyz*", 3)]
    res = resolve(mfd, ["fair", "fairness"], list_name="m", embedding="w2v", source="s")
    assert res.drop_duplicates("position")["status"].tolist() == ["phrase", "expanded", "no_match"]
    res = resolve(mfd, ["fair-minded", "fair"], list_name="m", embedding="g", source="s")
    assert res.loc[res["position"] == 0, "word"].tolist() == ["fair-minded"]


def test_n_entries_counts_duplicates_alike_in_every_format(tmp_path):
    """The same list, with one word twice, as a .txt, a .dic (two lines), an Empath line
    (twice on one line) and a word,category table: one count of entries and duplicates."""
    (tmp_path / "l.txt").write_text("happy\njoy\nhappy\n")
    (tmp_path / "l.dic").write_text("%\n1\tpos\n%\nhappy\t1\njoy\t1\nhappy\t1\n")
    (tmp_path / "l.tsv").write_text("pos\thappy\tjoy\thappy\n")
    (tmp_path / "l.csv").write_text("word,category\nhappy,pos\njoy,pos\nhappy,pos\n")
    lists = {
        "txt": read_wordlist(tmp_path / "l.txt"),
        "dic": read_dictionary(tmp_path / "l.dic").entries["pos"],
        "empath": read_dictionary(tmp_path / "l.tsv").entries["pos"],
        "table": read_dictionary(tmp_path / "l.csv").entries["pos"],
    }
    for name, entries in lists.items():
        res = resolve(entries, ["happy", "joy"], list_name=name, embedding="e", source=name)
        cov = coverage(res).iloc[0]
        assert (cov["n_entries"], cov["n_duplicates"], cov["n_in_vocab"]) == (3, 1, 2), name


CASED = ["the", "Australia", "australia", "US", "us", "Us", "NASA", "Paris", "paris", "Sydney"]


def test_case_policies_on_a_cased_vocabulary():
    """auto: as written, else lower-case, else the most frequent variant; lower: the
    lower-case form only; exact: as written only. Collisions are listed."""
    counts = np.array([100, 50, 5, 40, 90, 1, 30, 60, 2, 20])
    entries = [
        Entry(t, i + 1) for i, t in enumerate(["Australia", "US", "nasa", "PARIS", "sydney", "The"])
    ]

    def resolved(case):
        r = resolve(
            entries, CASED, list_name="l", embedding="e", source="s", case=case, counts=counts
        )
        return r.set_index("entry")

    auto = resolved("auto")
    assert auto["word"].tolist() == ["Australia", "US", "NASA", "paris", "Sydney", "the"]
    assert auto["match"].tolist() == ["exact", "exact", "variant", "lower", "variant", "lower"]
    assert auto.loc["US", "variants"] == "us|Us"  # the other forms of "us", most frequent first
    assert auto.loc["Australia", "variants"] == "australia"
    assert auto.loc["PARIS", "variants"] == "Paris"
    assert auto.loc["nasa", "variants"] == ""
    lower = resolved("lower")
    assert lower["word"].tolist() == ["australia", "us", "nasa", "paris", "sydney", "the"]
    assert lower["status"].tolist() == [
        "in_vocab",
        "in_vocab",
        "oov",
        "in_vocab",
        "oov",
        "in_vocab",
    ]
    exact = resolved("exact")
    assert exact["status"].tolist() == ["in_vocab", "in_vocab", "oov", "oov", "oov", "oov"]
    cov = coverage(
        resolve(entries, CASED, list_name="l", embedding="e", source="s", counts=counts)
    ).iloc[0]
    assert (cov["case"], cov["n_matched_lower"], cov["n_matched_variant"]) == ("auto", 2, 2)
    assert cov["n_case_collisions"] == 3  # Australia, US, PARIS


def test_the_most_frequent_variant_wins_and_without_counts_the_earlier_one():
    words = ["Apple", "APPLE"]
    assert Matcher(words, "auto", [1, 9]).find("apple") == (1, "variant")
    assert Matcher(words, "auto").find("apple") == (0, "variant")


def test_wildcards_under_each_case_policy():
    words = ["Rebel", "rebels", "REBELLION", "rebellion", "rebuke"]
    entries = [Entry("rebel*", 1)]
    got = {
        case: concept_words(
            resolve(entries, words, list_name="l", embedding="e", source="s", case=case)
        )
        for case in ("auto", "lower", "exact")
    }
    # auto: each lower-cased form once, as its chosen word ("rebel" -> "Rebel")
    assert got["auto"] == ["Rebel", "rebellion", "rebels"]
    assert got["lower"] == ["rebellion", "rebels"]
    assert got["exact"] == ["rebellion", "rebels"]
    assert concept_words(
        resolve([Entry("REBEL*", 1)], words, list_name="l", embedding="e", source="s", case="exact")
    ) == ["REBELLION"]


def test_a_lower_case_vocabulary_resolves_alike_under_every_policy():
    """Every embedding trained here is lower-case: the policy must change nothing there."""
    vocab = ["happy", "joy", "us", "paris", "rebel", "rebels"]
    entries = [Entry(t, i) for i, t in enumerate(["Happy", "JOY", "us", "Paris", "rebel*", "xyz"])]
    auto = resolve(entries, vocab, list_name="l", embedding="e", source="s", case="auto")
    lower = resolve(entries, vocab, list_name="l", embedding="e", source="s", case="lower")
    cols = ["entry", "word", "status", "match"]
    assert auto[cols].equals(lower[cols])
    assert concept_words(auto) == ["happy", "joy", "us", "paris", "rebel", "rebels"]
