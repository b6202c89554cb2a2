"""The explorer page (learnability.reports.explorer) as a person meets it: written by
`learnability evaluate --out-dir` in the environment `make run` gives, opened from
file:// in headless Chromium with no server, drawn, and switched to another list with
the mouse. Its data are drawn from the --seed (tests/seeds.py varies it)."""

import json
import subprocess

import numpy as np
import pandas as pd
import pytest
import userenv
from browser import CHROMIUM, Browser

pytestmark = pytest.mark.statistical

LISTS = {"animals": 0, "tools": 1, "colours": 2}
PLANTED, LISTED = 60, 45  # words planted per concept, of which the list names the first


def listed(name: str) -> list[str]:
    k = list(LISTS).index(name)
    return [f"w{i}" for i in range(k * PLANTED, k * PLANTED + LISTED)]


def unlisted(name: str) -> set[str]:
    k = list(LISTS).index(name)
    return {f"w{i}" for i in range(k * PLANTED + LISTED, (k + 1) * PLANTED)}


@pytest.fixture(scope="module")
def page(tmp_path_factory, request):
    """A word2vec-format text embedding with three planted concepts (one direction
    each), its three lists, and the CLI's outputs for them."""
    root = tmp_path_factory.mktemp("explorer")
    rng = np.random.default_rng(request.config.getoption("--seed"))
    n, d = 1500, 16
    x = rng.standard_normal((n, d))
    words = [f"w{i}" for i in range(n)]
    folder = root / "lists"
    folder.mkdir()
    for k, (name, axis) in enumerate(LISTS.items()):
        x[k * PLANTED : (k + 1) * PLANTED, axis] += 4.0
        # 45 of the 60 planted words are listed: the rest are what the list is missing
        (folder / f"{name}.txt").write_text("\n".join(listed(name)) + "\n")
    emb = root / "vectors.txt"
    lines = [f"{n} {d}"] + [
        w + " " + " ".join(f"{v:.5f}" for v in row) for w, row in zip(words, x, strict=True)
    ]
    emb.write_text("\n".join(lines) + "\n")
    out = root / "out"
    venv = userenv.user_env()
    cmd = [str(venv / "bin" / "learnability"), "evaluate", "--embedding", str(emb), "--lists",
           str(folder), "--iterations", "20", "--null-lists", "20", "--check-folds", "3",
           "--entanglement-iterations", "10", "--entanglement-pairs", "all",
           "--out-dir", str(out)]  # fmt: skip
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                            env=userenv.env_vars(venv))  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return out, result.stdout


def test_the_cli_prints_and_writes_the_analyses(page):
    out, printed = page
    assert "## Suggested additions" in printed and "## Held-out check" in printed
    suggestions = pd.read_parquet(out / "suggestions.parquet")
    for name in LISTS:
        top = suggestions[suggestions["list"] == name].nsmallest(15, "rank")["word"]
        # the unlisted planted words are found: a random 15 of the 1455 outside words
        # holds 0.15 of them; these hold 10-13 of 15 at 20 seeds (mean 11.8, SD 0.9)
        assert len(unlisted(name) & set(top)) >= 8, (name, list(top))
    check = pd.read_parquet(out / "suggestion_check.parquet")
    # every list at every k: 3 lists x the default k (10, 50, 100), 3 folds of 9 hidden
    assert sorted(zip(check["list"], check["k"], strict=True)) == [
        (name, k) for name in sorted(LISTS) for k in (10, 50, 100)
    ]
    assert (check["hidden"] == 27).all() and check["recall"].notna().all()
    # above the baseline at every k, each significant at 1 % (the largest p-value of the
    # 180 rows at 20 seeds: 3.7e-4; the top 10 holds the other lists' planted words too,
    # which are as frequent as the members, so the baseline is high at k = 10)
    assert (check["recall"] > check["baseline_recall"]).all()
    assert (check["p_value"] < 0.01).all(), check
    tangle = pd.read_parquet(out / "entanglement.parquet").set_index(["list_a", "list_b"])
    assert len(tangle) == 9 and tangle["measured"].all()  # --entanglement-pairs all
    # erasing a list removes all of its own AUC above chance (within 4 standard errors)
    own = tangle.loc[("animals", "animals")]
    assert own["share"] > 1 - 4 * own["share_se"], own
    # another direction: erasing animals leaves tools' AUC (within 4 standard errors, and
    # 0.02 for the eraser's direction, estimated from 45 words, leaning on every axis: at
    # most 0.012 at 20 seeds, 6 SEs)
    other = tangle.loc[("animals", "tools")]
    assert abs(other["share"]) < 4 * other["share_se"] + 0.02, other
    # what the CLI prints counts the table's pairs (three orthogonal concepts: none
    # entangled; the count line says how many are beyond the null and of what kind)
    off = tangle[tangle.index.get_level_values(0) != tangle.index.get_level_values(1)]
    assert (f"{int(off['beyond_null'].sum())} of 6 ordered pairs tested beyond erasing a "
            f"random list") in printed, printed  # fmt: skip
    assert f": {int(off['entangled'].sum())} entangled (share above" in printed


def test_the_page_draws_from_file_asks_no_server_and_the_selector_switches_the_list(page, tmp_path):
    """Loaded from file:// with every request recorded (DevTools' Network domain): the
    page itself is the only file it reads and nothing is asked of a server, at load or
    when a list is switched; the mouse picks another list in the dropdown, and the page
    then shows that list (read from the page: the label, the title, the member and
    suggestion words), not the first one or another."""
    if CHROMIUM is None:
        pytest.fail("chromium is not installed: `make test` installs it (tests/system.sh)")
    path = page[0] / "explorer.html"
    assert path.stat().st_size > 1_000_000  # plotly.js is inside it
    # what the page draws, read from the page: the dropdown's label, the title, and the
    # words of the visible members trace and suggestions table
    header = "document.querySelector('#explorer .updatemenu-header').textContent"
    title = "document.querySelector('#explorer .gtitle').textContent"
    shown = (
        "JSON.stringify((() => { const d = document.getElementById('explorer')._fullData"
        ".filter(t => t.visible === true); return {members: d.filter(t => t.name === "
        "'members (x: outsiders)').map(t => Array.from(t.text)), suggested: d.filter(t => "
        "t.type === 'table').map(t => Array.from(t.cells.values[1]))}; })())"
    )
    with Browser(tmp_path / "profile") as browser:
        browser.record_requests()
        browser.open(path.as_uri())
        points = "document.querySelectorAll('#explorer .scatterlayer .point').length"
        browser.wait_for(f"!!document.querySelector('#explorer .main-svg') && {points} > 100")
        before = {"header": browser.evaluate(header), "title": browser.evaluate(title),
                  **json.loads(browser.evaluate(shown))}  # fmt: skip
        before_png = browser.screenshot(tmp_path / "before.png")
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
        after = {"header": browser.evaluate(header), "title": browser.evaluate(title),
                 **json.loads(browser.evaluate(shown))}  # fmt: skip
        after_png = browser.screenshot(tmp_path / "after.png")
        requested = browser.requested()
    assert requested and requested[0] == path.as_uri(), requested
    elsewhere = [u for u in requested if not u.startswith(("file:", "data:"))]
    assert not elsewhere, elsewhere
    assert [u for u in requested if u.startswith("file:")] == [path.as_uri()], requested
    for state, name in ((before, "animals"), (after, "tools")):
        assert state["header"].startswith(f"{name} ·"), state["header"]
        assert f"{name} on vectors" in state["title"], state["title"]
        # one members trace, holding exactly the list's words
        assert [sorted(m) for m in state["members"]] == [sorted(listed(name))], state
        # the suggestions shown are the list's: most of its unlisted planted words
        (suggested,) = state["suggested"]
        assert len(unlisted(name) & set(suggested)) >= 8, suggested
    assert before_png != after_png  # and the screen shows it, not only the page's model


def _panel(emb: str, name: str):
    from learnability.reports.explorer import Panel

    words = [f"{name}{i}" for i in range(5)]
    members = pd.DataFrame({"rank": range(1, 6), "mean_share_outscored": 0.9, "word": words})
    suggestions = pd.DataFrame({"rank": [1], "word": ["x"], "mean_probability": [0.5],
                                "top_share": [0.5], "count": [3]})  # fmt: skip
    projection = pd.DataFrame({"index": range(5), "word": words, "role": "member",
                               "x": np.arange(5.0), "y": np.arange(5.0)})  # fmt: skip
    # the sample's longest verdict (p-value, power, bounds): the subtitle that ran off
    verdict = ("; p 0.000999 (floor 0.000999); 80% power from AUC 0.612 (p <= 0.05); AUC "
               "0.581-0.702 (95% bounds each)")  # fmt: skip
    return Panel(emb, name, 0.7, members, suggestions, projection, verdict)


def test_the_page_counts_each_embedding_s_own_pairs_and_its_headings_fit():
    """Each heatmap's legend counts its own embedding's pairs (entangled, beyond chance
    only, overlap) as the table's statuses give them (tests/tangles.py: the two differ);
    no heading carries another's count (the page's title was overwritten by the last
    legend); every line of a heading fits the 600 px plotly draws between the margins of
    a 700 px page at the subtitle's 12 px (about 6.5 px a character: 92 characters)."""
    import tangles

    from learnability.reports.explorer import explorer_figure

    panels = [_panel(emb, name) for emb in tangles.STATUS for name in tangles.LISTS]
    title = "learnability explorer: sample (uniform non-members)"
    fig = explorer_figure(panels, tangles.table(), title)
    maps = [t for t in fig.data if t.type == "heatmap"]
    assert len(maps) == len(tangles.STATUS)
    for trace, emb in zip(maps, tangles.STATUS, strict=True):
        c = tangles.count(emb)
        legend = trace.colorbar.title.text.replace("<br>", " ")
        assert legend == (f"share: {c['entangled']} of {c['tested']} pairs entangled "
                          f"{c['chance']} more beyond chance only, {c['overlap']} by "
                          "overlap"), legend  # fmt: skip
        # the shares shown: the pairs beyond the null and the diagonal
        assert np.isfinite(np.asarray(trace.z, dtype=float)).sum() == (
            len(tangles.LISTS) + c["entangled"] + c["chance"] + c["overlap"]
        )
    headings = [b["args"][1]["title.text"] for b in fig.layout.updatemenus[0].buttons]
    assert len(headings) == len(panels) and fig.layout.title.text == headings[0]
    for heading in headings:
        assert heading.startswith(title + "<br><sub>") and "pairs" not in heading, heading
        lines = heading.removeprefix(title + "<br><sub>").removesuffix("</sub>").split("<br>")
        assert len(lines) > 1 and max(map(len, lines)) <= 92, lines
