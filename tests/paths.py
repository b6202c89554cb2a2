"""Where the repository is, for the tests that read or run its files."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
