from __future__ import annotations

import bz2
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]

XML_HEAD = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">
  <siteinfo><sitename>Test</sitename></siteinfo>
"""


def page(title: str, text: str, ns: int = 0, redirect: str | None = None) -> str:
    from xml.sax.saxutils import escape

    red = f'<redirect title="{escape(redirect)}" />' if redirect else ""
    return (
        f"  <page><title>{escape(title)}</title><ns>{ns}</ns><id>1</id>{red}"
        f'<revision><id>2</id><text xml:space="preserve">{escape(text)}</text>'
        "</revision></page>\n"
    )


def write_dump(path: Path, pages: list[str]) -> Path:
    xml = XML_HEAD + "".join(pages) + "</mediawiki>\n"
    path.write_bytes(bz2.compress(xml.encode("utf-8")))
    return path


@pytest.fixture
def planted():
    """A 2000 x 50 Gaussian embedding with a 200-word concept shifted along one direction."""
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((2000, 50))
    members = np.arange(200)
    direction = rng.standard_normal(50)
    direction /= np.linalg.norm(direction)
    vectors[members] += 3.0 * direction
    return vectors, members
