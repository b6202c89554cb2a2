"""The explorer page (learnability.reports.explorer) as a person meets it: written by
`learnability evaluate --out-dir`, opened from file:// in headless Chromium with no
server, drawn, and switched to another list with the mouse."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from browser import CHROMIUM, Browser

LISTS = {"animals": 0, "tools": 1, "colours": 2}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A word2vec-format text embedding with three planted concepts (one direction
    each), its three lists, and the CLI's outputs for them."""
    root = tmp_path_factory.mktemp("explorer")
    rng = np.random.default_rng(0)
    n, d = 1500, 16
    x = rng.standard_normal((n, d))
    words = [f"w{i}" for i in range(n)]
    folder = root / "lists"
    folder.mkdir()
    for k, (name, axis) in enumerate(LISTS.items()):
        rows = np.arange(k * 60, k * 60 + 60)
        x[rows, axis] += 4.0
        # 45 of the 60 planted words are listed: the rest are what the list is missing
        (folder / f"{name}.txt").write_text("\n".join(words[i] for i in rows[:45]) + "\n")
    emb = root / "vectors.txt"
    lines = [f"{n} {d}"] + [
        w + " " + " ".join(f"{v:.5f}" for v in row) for w, row in zip(words, x, strict=True)
    ]
    emb.write_text("\n".join(lines) + "\n")
    out = root / "out"
    cmd = [sys.executable, "-m", "learnability.cli", "evaluate", "--embedding", str(emb),
           "--lists", str(folder), "--iterations", "20", "--null-lists", "20", "--check-folds",
           "3", "--entanglement-iterations", "10", "--out-dir", str(out)]  # fmt: skip
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return out, result.stdout


def test_the_cli_prints_and_writes_the_diagnostics(page):
    import pandas as pd

    out, printed = page
    assert "## Suggested additions" in printed and "## Held-out check" in printed
    suggestions = pd.read_parquet(out / "suggestions.parquet")
    for name in LISTS:
        top = suggestions[suggestions["list"] == name].nsmallest(15, "rank")["word"]
        planted = {f"w{i}" for i in range(list(LISTS).index(name) * 60 + 45,
                                          list(LISTS).index(name) * 60 + 60)}  # fmt: skip
        # the 15 unlisted planted words are found (a random 15 of 1350 finds 0.17 of them)
        assert len(planted & set(top)) >= 10, (name, list(top))
    check = pd.read_parquet(out / "suggestion_check.parquet")
    assert (check["recall"] > check["baseline_recall"]).all()
    tangle = pd.read_parquet(out / "entanglement.parquet").set_index(["list_a", "list_b"])
    assert tangle.loc[("animals", "animals"), "share"] > 0.8
    assert abs(tangle.loc[("animals", "tools"), "share"]) < 0.2


def test_the_page_holds_its_javascript_and_asks_no_server(page):
    html = (page[0] / "explorer.html").read_text(encoding="utf-8")
    assert len(html) > 1_000_000  # plotly.js is inside it
    assert not re.search(r"<script[^>]+src=", html), "a script from elsewhere"
    assert "cdn." not in html.split("</script>")[-1]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt install chromium)")
def test_the_page_draws_from_file_and_the_selector_switches_the_list(page, tmp_path):
    path = page[0] / "explorer.html"
    with Browser(tmp_path / "profile") as browser:
        browser.open(path.as_uri())
        points = "document.querySelectorAll('#explorer .scatterlayer .point').length"
        browser.wait_for(f"!!document.querySelector('#explorer .main-svg') && {points} > 100")
        title = "document.querySelector('#explorer .gtitle').textContent"
        visible = ("JSON.stringify(document.getElementById('explorer')._fullData"
                   ".filter(t => t.visible === true).map(t => t.index))")  # fmt: skip
        before_title, before_traces = browser.evaluate(title), browser.evaluate(visible)
        assert "animals" in before_title
        before = browser.screenshot(tmp_path / "before.png")
        # open the dropdown and pick the second list, with the mouse
        box = browser.evaluate("(() => { const r = document.querySelector('#explorer "
                               ".updatemenu-header').getBoundingClientRect(); "
                               "return [r.x + r.width / 2, r.y + r.height / 2]; })()")  # fmt: skip
        browser.click(*box)
        items = "[...document.querySelectorAll('#explorer .updatemenu-dropdown-button')]"
        browser.wait_for(f"{items}.length >= 3")
        item = browser.evaluate(f"(() => {{ const b = {items}.find(e => "
                                "e.textContent.startsWith('tools')); const r = "
                                "b.getBoundingClientRect(); "
                                "return [r.x + r.width / 2, r.y + r.height / 2]; })()")  # fmt: skip
        browser.click(*item)
        browser.wait_for(f"{title}.includes('tools')")
        after_traces = browser.evaluate(visible)
        after = browser.screenshot(tmp_path / "after.png")
    assert after_traces != before_traces
    assert before != after
    from PIL import Image

    a = np.asarray(Image.open(tmp_path / "before.png").convert("L"), dtype=float)
    b = np.asarray(Image.open(tmp_path / "after.png").convert("L"), dtype=float)
    assert a.shape == b.shape and a.std() > 10  # drawn, not blank
    changed = (np.abs(a - b) > 30).mean()
    assert changed > 0.01, changed  # the charts changed, not a pixel of the title only
    Path(tmp_path / "changed.txt").write_text(f"{changed:.4f}\n")
