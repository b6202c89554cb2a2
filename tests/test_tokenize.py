import random
import re

from learnability.corpus.tokenize import (
    _classes,
    normalize,
    token_lines,
    tokenize,
    tokenize_normalized,
)

# The rule's plain form: letters/digits with internal apostrophes (then a letter test).
TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


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


def test_the_letter_test_equals_the_regex_definition():
    """Tokens are kept when they hold a character that is a word character but not a
    decimal digit ([^\\W\\d_]); the fast test must agree on every script's digits."""
    has_letter = re.compile(r"[^\W\d_]")
    for text in [
        "1990 19th mp3 000 a i don't 1'2 ٣٤ ٣x ²2 ⅻ 三 ௧௨ 12'ab x'1 '٣'",
        "ｆｕｌｌ ２０２０ 𝟙𝟚 ab٣ ﻻ",
    ]:
        expected = [t for t in TOKEN.findall(normalize(text)) if has_letter.search(t)]
        assert tokenize(text) == expected


def _reference_tokens(text: str) -> list[str]:
    """The rule written plainly: one Unicode pattern, then drop the tokens with no letter
    (only decimal digits and apostrophes)."""
    tokens = TOKEN.findall(text)
    return [t for t in tokens if not t.replace("'", "").isdecimal()]


def test_fast_paths_equal_the_plain_rule_on_random_text():
    # The tokeniser takes an ASCII-only pattern for ASCII text and filters numbers from C;
    # both must give what the plain rule gives. The alphabet mixes ASCII, accented and
    # non-Latin letters, ASCII and Arabic-Indic digits (decimal), superscripts (digits
    # but not decimal), apostrophes, underscores and separators.
    rng = random.Random(7)
    alphabet = list("abZ z09'' _-.\n") + ["é", "ß", "ж", "٣", "²", "7", "1'2", "x'"]
    texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 40))) for _ in range(20_000)]
    texts += ["1990 1990s 12'34 12'ab ab'12 '1' 3 a", "٣٤ ٣a ²"]
    assert sum(t.isascii() for t in texts) > 1000  # both paths are exercised
    for text in texts:
        assert tokenize_normalized(text) == _reference_tokens(text), text


def test_token_lines_equal_the_plain_rule_per_paragraph_with_cuts():
    # The extractor's compiled pass: each paragraph's tokens by the plain rule, cut into
    # lines of at most k tokens, empty paragraphs dropped, every line newline-ended.
    rng = random.Random(11)
    alphabet = list("ab z0'' -\n\n") + ["é", "٣", "²", "7", "ж", "\ud800"]
    for _ in range(5_000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 60)))
        k = rng.randint(1, 5)
        lines = []
        for paragraph in text.split("\n"):
            tokens = _reference_tokens(paragraph)
            lines += [" ".join(tokens[i : i + k]) for i in range(0, len(tokens), k)]
        expected = "".join(line + "\n" for line in lines)
        n_tokens = sum(len(line.split()) for line in lines)
        assert token_lines(text, k) == (expected, n_tokens, len(lines)), (text, k)


def test_character_classes_equal_the_str_methods_on_every_code_point():
    # read off the regex engine; checked here against str.isalnum and str.isdecimal
    classes = _classes()
    for code in range(0x110000):
        ch = chr(code)
        expected = 2 if ch.isdecimal() else 1 if ch.isalnum() else 0
        assert classes[code] == expected, hex(code)
