"""The concept stage: word lists and dictionaries are read (:mod:`.lists`: ``.txt``,
LIWC ``.dic``, tables, Empath's layout), matched to a vocabulary by one case policy
(:mod:`.matching`), resolved with every entry's status counted, and measured for
coverage and overlap; :mod:`.empath` and :mod:`.wordnet` build the shipped lists."""
