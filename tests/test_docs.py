"""The documentation names only what exists: every test docs/explanation/reliability.md (and the
other pages) cite is a test of the suite."""

from __future__ import annotations

import ast
import re

import pytest
from paths import REPO

PAGES = sorted(
    str(p.relative_to(REPO)) for p in [*(REPO / "docs").rglob("*.md"), REPO / "README.md"]
)


def defined_tests() -> dict[str, set[str]]:
    """test module -> the test functions it defines."""
    found = {}
    for path in (REPO / "tests").glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[path.name] = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return found


def cited(text: str) -> list[tuple[str, str]]:
    """(module, test) for every `test_x.py::name` and every `::name` after it in the same
    table cell or sentence."""
    out = []
    for cell in re.split(r"\|\n|\n\n", text):
        module = None
        for m in re.finditer(r"(?:(test_\w+\.py)|(?<![\w.]))::(test_\w+)|(test_\w+\.py)", cell):
            if m.group(3):
                module = m.group(3)
                continue
            module = m.group(1) or module
            out.append((module, m.group(2)))
    return out


@pytest.mark.parametrize("page", PAGES)
def test_every_test_a_page_cites_exists(page):
    tests = defined_tests()
    text = (REPO / page).read_text(encoding="utf-8")
    missing = [
        f"{module}::{name}"
        for module, name in cited(text)
        if module is None or name not in tests.get(module, set())
    ]
    assert not missing, f"{page} cites tests that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_every_test_a_page_names_is_read_as_a_citation(page):
    """The check above checks what cited() reads: a test named in a form it does not
    parse (another citation style) would go unchecked, and a renamed test with it. So
    every test-like name on a page (test_..., not a file or a path) must be one cited()
    reads."""
    text = (REPO / page).read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![/\w.])(test_\w+)\b(?!\.py)", text))
    unread = named - {name for _, name in cited(text)}
    assert not unread, f"{page} names tests in a form cited() does not read: {sorted(unread)}"
