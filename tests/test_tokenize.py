from learnability.tokenize import normalize, tokenize


def test_keeps_single_letters_and_contractions():
    assert tokenize("I don't know, a cat's ‘toy’ isn’t here.") == [
        "i",
        "don't",
        "know",
        "a",
        "cat's",
        "toy",
        "isn't",
        "here",
    ]


def test_edge_apostrophes_and_hyphens_split():
    assert tokenize("'Tis the students' well-known rock-and-roll") == [
        "tis",
        "the",
        "students",
        "well",
        "known",
        "rock",
        "and",
        "roll",
    ]


def test_numbers_rule():
    # tokens without a letter are dropped; letter-digit mixes are kept
    assert tokenize("In 1990 the 19th MP3 cost 3.50 and 1990s") == [
        "in",
        "the",
        "19th",
        "mp3",
        "cost",
        "and",
        "1990s",
    ]


def test_unicode_normalisation_and_case():
    assert tokenize("Café ﬁne ÅNGSTRÖM") == ["café", "fine", "ångström"]
    assert normalize("Don’t") == "don't"


def test_underscores_and_punctuation_separate():
    assert tokenize("foo_bar (baz) [qux]; x/y") == ["foo", "bar", "baz", "qux", "x", "y"]
