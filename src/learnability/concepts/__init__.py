"""The concept stage: word lists and dictionaries are read (:mod:`.lists`: ``.txt``,
LIWC ``.dic``, tables, Empath's layout), matched to a vocabulary by one case policy
(:mod:`.matching`), resolved with every entry's status counted, and measured for
coverage and overlap; :mod:`.empath` and :mod:`.wordnet` build the shipped lists.

``learnability.concepts.NAME`` still gives what the former module
``learnability.concepts`` held (now :mod:`.lists`)."""

from learnability import former_module

__getattr__ = former_module(__name__, "lists")
