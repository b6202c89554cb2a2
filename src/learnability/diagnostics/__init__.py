"""Beyond learnability: what a list may be missing (:mod:`.suggestions`, with its held-out
check) and how much of one list is another (:mod:`.entanglement`, by LEACE erasure,
:mod:`.leace`)."""
