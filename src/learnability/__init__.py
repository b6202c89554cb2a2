"""learnability: how well do word embeddings capture human-defined concepts?

Implements the method of Sutton & Cristianini (2020), "On the Learnability of
Concepts", as a library that the Snakemake workflow calls. The package never
imports Snakemake: each module can be used and tested on its own.
"""

__version__ = "0.1.0"
