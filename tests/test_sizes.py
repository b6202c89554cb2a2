"""Which lists can be scored (learnability.protocol.sizes)."""

import pytest

from learnability.defaults import schema
from learnability.errors import InputError
from learnability.protocol.sizes import FEWEST_WORDS, check_size, unscored_reason


def test_a_list_is_scored_from_min_words_and_up_to_half_the_vocabulary():
    """Both halves hold two members from 4 words (min_words); as many non-members as
    members are drawn up to half the vocabulary. Below and above, the reason, which the
    workflow's tables, score() and the CLI print, and check_size raises."""
    assert unscored_reason(4, 8, 4) is None and unscored_reason(50, 100, 4) is None
    assert unscored_reason(3, 100, 4) == (
        "only 3 words in the embedding's vocabulary; at least 4 are needed so that both "
        "halves hold two members"
    )
    assert unscored_reason(1, 100, 2).startswith("only 1 word in")
    assert unscored_reason(51, 100, 4) == (
        "51 words but the vocabulary has only 100; the list must be at most half the "
        "vocabulary so that as many non-members can be drawn"
    )
    check_size(4, 8, "list 'x'", 4)
    with pytest.raises(
        InputError, match=r"^list 'x': only 3 words .* lower learnability\.min_words\.$"
    ):
        check_size(3, 100, "list 'x'", 4)
    # too large for its vocabulary, at min_words itself: no advice to add words
    with pytest.raises(InputError) as err:
        check_size(4, 7, "list 'x'", 4)
    assert str(err.value) == (
        "list 'x': 4 words but the vocabulary has only 7; the list must be at most half "
        "the vocabulary so that as many non-members can be drawn"
    )
    # the fewest any list is split with (the nulls' check) is the schema's least min_words
    learnability = schema()["properties"]["learnability"]["properties"]
    assert FEWEST_WORDS == learnability["min_words"]["minimum"]
