# %% [markdown]
# # Scoring word lists on your own embedding
#
# A notebook in percent format: open it with Jupytext or VS Code, or run it as a script
# from the repository root (`python docs/example_notebook.py`). The test suite runs it.
#
# It scores a few word lists on the 10-dimensional vectors that gensim trains on the Lee
# corpus in its own tests (`lee_fasttext.vec`, shipped in gensim's package data), then
# looks at what the workflow's tables say about them.

# %%
from gensim.models import KeyedVectors
from gensim.test.utils import datapath

from learnability import score

kv = KeyedVectors.load_word2vec_format(datapath("lee_fasttext.vec"))
print(f"{len(kv)} words, {kv.vector_size} dimensions")

# %% [markdown]
# Lists can be Python lists, `.txt` files, or a dictionary (`.dic`) or folder. Here: a
# list written inline, and the shipped Empath-derived lists for family and positive
# emotion. Entries that the vocabulary lacks are counted, never dropped silently.

# %%
lists = {
    "numbers": [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "hundred",
        "thousand",
        "million",
        "dozen",
    ],
    "family": "resources/wordlists/family.txt",
    "posemo": "resources/wordlists/posemo.txt",
}
result = score(kv, lists, iterations=50, null_lists=200)
result.coverage[["list", "n_entries", "n_in_vocab", "n_oov", "n_phrases"]]

# %% [markdown]
# One row per list: the five metrics' means over the splits, the empirical p-value
# against 200 random lists of the same in-vocabulary size (rescaled to the list's 50
# splits), the Holm-adjusted p-value across the three lists, and the smallest p the null
# can give (`p_floor`).

# %%
print(result.lists[["list", "in_vocab", "auc", "p_value", "p_adjusted", "p_floor"]])

# %% [markdown]
# Which members does the classifier find hardest? `members` holds, for each member, the
# share of held-out non-members it outscored when it was held out.

# %%
members = result.members.sort_values("mean_share_outscored")
print(members.groupby("list").head(3)[["list", "word", "mean_share_outscored", "n_test"]])

# %% [markdown]
# The null: each random list's mean AUC over its 10 splits, before rescaling.

# %%
null = result.null.groupby("null_key")["auc"].describe()[["count", "mean", "std", "max"]]
print(null)
