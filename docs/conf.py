"""Sphinx configuration of the documentation site (``make site``; built with warnings as
errors by tests/test_site.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from learnability import __version__

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))  # _ext: the generated reference pages

project = "learnability"
author = "the learnability authors"
copyright = "2026, the learnability authors"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "example_notebook.py"]
myst_enable_extensions = ["colon_fence", "dollarmath"]
# headings down to ### get anchors that [text](page.md#anchor) links can use
myst_heading_anchors = 3
# a link to a page or an anchor that does not exist is a warning, hence an error (-W)
myst_all_links_external = False
# sphinx-argparse registers a domain without resolve_any_xref, which MyST notes once
suppress_warnings = ["myst.domains"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}

html_theme = "pydata_sphinx_theme"
html_title = f"learnability {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
}
html_static_path: list[str] = []
# the site opens from a file with no network: no external fonts or analytics
html_theme_options["icon_links"] = []
