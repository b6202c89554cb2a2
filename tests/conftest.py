from __future__ import annotations

import bz2
import hashlib
import http.server
import json
import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import scheduling
import timeline
import userenv

REPO = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption(
        "--seed",
        type=int,
        default=0,
        help="shift the random draws of every statistical test (those that take the `seed` "
        "fixture): tests/seeds.py runs them at 20 consecutive seeds",
    )


def _glove_python_skip():
    import sys

    from learnability.embeddings.registry import METHODS

    below = METHODS["glove_python"].python_below
    return pytest.mark.skipif(
        sys.version_info[:2] >= below,
        reason=f"glove-python (bicleaner-ai-glove) has no build for Python "
        f"{below[0]}.{below[1]} and later (pyproject.toml's glove_python extra)",
    )


# the tests that compare with glove-python, whose package cannot install on Python 3.13+
needs_glove_python = _glove_python_skip()


@pytest.fixture
def seed(request) -> int:
    """The seed offset of a statistical test (``--seed``, 0 in CI). A test that takes it
    draws its data from it, and its tolerance must hold at any value: tests/seeds.py
    checks 20 consecutive ones."""
    return request.config.getoption("--seed")


# How CI's two cores are shared among the workers: tests/scheduling.py


def pytest_configure(config):
    global CONFIG
    CONFIG = config
    timeline.register(config)
    if hasattr(config, "workerinput"):  # an xdist worker (not a pytest it runs)
        os.nice(scheduling.WORKER_NICE)


def seed_override(item) -> str | None:
    """How ``item`` replaces the ``seed`` fixture above (None where it takes it, or
    takes no seed): a test that parametrizes ``seed`` (``parametrize("seed", [0])``,
    directly or indirectly), or that sees another fixture of that name (one defined in
    its module, class or a nearer conftest), runs at that seed whatever ``--seed`` says,
    so tests/seeds.py would rerun one seed twenty times and call it twenty."""
    if "seed" not in item.fixturenames:
        return None
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "seed" in callspec.params:
        return "parametrizes `seed`"
    defs = item._fixtureinfo.name2fixturedefs.get("seed", ())
    func = defs[-1].func if defs else None
    code = getattr(func, "__code__", None)
    if code is None or code.co_filename != __file__ or code.co_name != "seed":
        where = getattr(code, "co_filename", "?")
        return f"sees another fixture named `seed` (defined in {where})"
    return None


SEED_OVERRIDE = pytest.StashKey[str]()


def pytest_runtest_setup(item):
    reason = item.stash.get(SEED_OVERRIDE, None)
    if reason is not None:
        pytest.fail(
            f"{item.nodeid} {reason}: a statistical test takes tests/conftest.py's `seed` "
            "fixture, draws its data from it and passes at any --seed (tests/seeds.py "
            "checks 20); remove the override",
            pytrace=False,
        )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "seed" in item.fixturenames:
            item.add_marker(pytest.mark.statistical)
            reason = seed_override(item)
            if reason is not None:  # the test fails at its setup (pytest_runtest_setup)
                item.stash[SEED_OVERRIDE] = reason
        if "workflow_dir" in item.fixturenames and item.path.name not in scheduling.SMOKE_MODULES:
            raise pytest.UsageError(
                f"{item.nodeid} reads the smoke run: add its module to scheduling.SMOKE_MODULES"
            )
    # stable: within a rank, the collection order
    items.sort(key=lambda item: scheduling.heavy_rank(item.nodeid))


CONFIG = None
SMOKE_BUILD = None  # the controller's wfutil.BackgroundSmokeBuild, once started


NUMBA_WARM = None  # the controller's thread compiling the numba kernels, once started


def _warm_numba(lock) -> None:
    import subprocess
    import sys

    try:
        subprocess.run([sys.executable, str(REPO / "tests" / "numba_warm.py")],
                       capture_output=True, timeout=600)  # fmt: skip
    finally:
        lock.close()  # the workers go on (a failed warm-up only costs them the compiling)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """In the controller, once a worker has collected: compile the numba kernels once
    (tests/numba_warm.py; the workers wait for it, _numba_warm), and start building the
    smoke run if a collected test reads it."""
    global SMOKE_BUILD, NUMBA_WARM
    import fcntl
    import threading

    userenv.ROOT = CONFIG._tmp_path_factory.getbasetemp()  # the workers' parent
    if NUMBA_WARM is None:
        lock = open(userenv.ROOT / "numba-warm.lock", "w")  # noqa: SIM115 (the thread's)
        fcntl.flock(lock, fcntl.LOCK_EX)
        NUMBA_WARM = threading.Thread(target=_warm_numba, args=(lock,), daemon=True)
        NUMBA_WARM.start()
    if SMOKE_BUILD is None and any(scheduling.reads_the_smoke_run(i) for i in ids):
        from wfutil import BackgroundSmokeBuild

        SMOKE_BUILD = BackgroundSmokeBuild(userenv.ROOT)
        SMOKE_BUILD.start()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None
    return scheduling.make_scheduler(
        config, log, lambda: SMOKE_BUILD is None or SMOKE_BUILD.finished()
    )


@pytest.fixture(scope="session")
def workflow_dir(_user_env_root) -> Path:
    """The session's smoke run (wfutil.smoke_run, built by whichever worker asks first):
    read it, or copy it (wfutil.own_copy) to change it."""
    from wfutil import smoke_run

    return smoke_run()


@pytest.fixture(scope="session", autouse=True)
def _user_env_root(tmp_path_factory):
    """Where the user environments (tests/userenv.py) and the null cache are: one folder
    for all the xdist workers of this session."""
    base = tmp_path_factory.getbasetemp()
    worker = hasattr(CONFIG, "workerinput")  # an xdist worker, not a pytest it runs
    userenv.ROOT = base.parent if worker else base
    # the nulls that score() and `learnability evaluate` keep on disk: one folder for the
    # session (the doc examples share their random lists' nulls), none in the home folder
    os.environ["LEARNABILITY_CACHE_DIR"] = str(userenv.ROOT / "learnability-cache")
    # under xdist, wait for the controller's numba warm-up: every process that found no
    # compiled kernels would compile them itself, several at once
    import fcntl

    with open(userenv.ROOT / "numba-warm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)


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
def planted(seed):
    """A 2000 x 50 Gaussian embedding with a 200-word concept shifted along one direction."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((2000, 50))
    members = np.arange(200)
    direction = rng.standard_normal(50)
    direction /= np.linalg.norm(direction)
    vectors[members] += 3.0 * direction
    return vectors, members


def sklearn_aucs(
    vectors: np.ndarray, members: np.ndarray, seeds: list[int], C: float, fraction: float = 0.5
) -> np.ndarray:
    """The test AUC of each split, fitted and scored by scikit-learn: an independent
    reference for the learnability engine (our L-BFGS and metrics). The splits are the
    protocol's (learnability.protocol.sampling.split_concept from each recorded seed); the model
    is the protocol's logistic regression, fitted to a tight tolerance."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from learnability.protocol.sampling import split_concept

    mask = np.zeros(vectors.shape[0], dtype=bool)
    mask[members] = True
    out = []
    for seed in seeds:
        tr, ytr, te, yte = split_concept(
            np.random.default_rng(seed), members, mask, train_fraction=fraction
        )
        x = np.asarray(vectors, dtype=np.float64)
        model = LogisticRegression(C=C, solver="lbfgs", tol=1e-12, max_iter=10_000)
        model.fit(x[tr], ytr)
        out.append(roc_auc_score(yte, model.decision_function(x[te])))
    return np.array(out)


def sklearn_suggestion_check(
    vectors: np.ndarray,
    members: np.ndarray,
    *,
    C: float,
    seed: int,
    list_name: str,
    holdout: float,
    folds: int,
    iterations: int,
    ks: list[int],
    bins: np.ndarray | None,
) -> dict[int, tuple[int, int, float, float]]:
    """The held-out check of the suggestions (uniform non-members in the splits),
    recomputed independently: each hidden fold's splits (the check's own seeds) fitted
    by scikit-learn, every word outside the kept members ranked by mean probability,
    then mean logit, then row; the hidden members in the top k counted, the baseline
    (each hidden member's frequency bin's share of non-members in the top k) counted by
    hand, and the p-value as the Poisson-binomial tail by convolution. Returns k ->
    (hits, hidden, baseline recall, p-value)."""
    from scipy.special import expit
    from sklearn.linear_model import LogisticRegression

    from learnability.analyses.suggestion_check import fold_partition
    from learnability.protocol.sampling import derive_seed, split_concept

    x = np.asarray(vectors, dtype=np.float64)
    n = x.shape[0]
    members = np.unique(members)
    group = bins if bins is not None else np.zeros(n, dtype=np.int64)
    in_list = np.isin(np.arange(n), members)
    pool = np.bincount(group[~in_list], minlength=group.max() + 1)
    hits = dict.fromkeys(ks, 0)
    chances: dict[int, list] = {k: [] for k in ks}
    parts = fold_partition(members, max(2, round(1 / holdout)), seed, list_name)
    for f, hidden in enumerate(parts[:folds]):
        kept = np.setdiff1d(members, hidden)
        mask = np.isin(np.arange(n), kept)
        logits = []
        for i in range(iterations):
            rng = np.random.default_rng(derive_seed(seed, "suggestion-check", list_name, f, i))
            train, labels, _, _ = split_concept(rng, kept, mask)
            model = LogisticRegression(C=C, tol=1e-12, max_iter=10_000)
            logits.append(model.fit(x[train], labels).decision_function(x))
        logit = np.array(logits)
        prob = expit(logit).mean(0)
        outside = np.flatnonzero(~mask)
        ranking = outside[np.lexsort((outside, -logit.mean(0)[outside], -prob[outside]))]
        for k in ks:
            best = ranking[:k]
            hits[k] += int(np.isin(best, hidden).sum())
            in_top = np.bincount(group[best[~in_list[best]]], minlength=pool.size)
            chances[k].append((in_top / np.maximum(pool, 1))[group[hidden]])
    out = {}
    for k in ks:
        p = np.concatenate(chances[k])
        pmf = np.ones(1)
        for q in p:
            pmf = np.convolve(pmf, [1 - q, q])
        out[k] = (hits[k], p.size, float(p.mean()), float(min(1.0, pmf[hits[k] :].sum())))
    return out


def assert_aucs_match_the_reference(ours, reference, n_pos: int, n_neg: int) -> None:
    """Each split's AUC equals scikit-learn's, but for a near-tie: a test member and a
    non-member whose scores differ by less than the solvers' tolerances may come out in
    either order, moving the AUC by 1 / (n_pos n_neg). At most two such pairs per split,
    and most splits exact."""
    ours, reference = np.asarray(ours), np.asarray(reference)
    pair = 1 / (n_pos * n_neg)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=2 * pair + 1e-9)
    assert np.mean(np.abs(ours - reference) < 1e-9) >= 0.5, (ours, reference)


# A real HTTP server on 127.0.0.1 serving bytes the tests made (no network in tests).
PAYLOAD = bytes(range(256)) * 4096  # 1 MiB


class Handler(http.server.BaseHTTPRequestHandler):
    payload = PAYLOAD
    files: dict[str, bytes] = {}  # other paths the server holds (multi-part dumps)
    support_range = True
    served: list[int] = []
    fail_first: list[bool] = []
    corrupt: set[str] = set()  # paths served with their last byte flipped
    slow: set[str] = set()  # paths sent in 64 KiB pieces, 20 ms apart
    starts: list[int] = []  # the first byte of every response

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/missing":
            self.send_error(404)
            return
        if self.path == "/error":
            self.send_error(500)
            return
        payload = self.files.get(self.path, self.payload)
        if self.path in self.corrupt:
            payload = payload[:-1] + bytes([payload[-1] ^ 1])
        start = 0
        rng = self.headers.get("Range")
        if rng and self.support_range:
            start = int(rng.split("=")[1].split("-")[0])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(payload) - 1}/{len(payload)}")
        else:
            self.send_response(200)
        body = payload[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # record before writing: the client may finish reading before this thread resumes
        if self.fail_first and self.fail_first.pop():
            # send half, then drop the connection: the client must resume
            type(self).served.append(len(body) // 2)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.close()
            return
        type(self).served.append(len(body))
        type(self).starts.append(start)
        if self.path in self.slow:
            for lo in range(0, len(body), 1 << 16):
                self.wfile.write(body[lo : lo + (1 << 16)])
                self.wfile.flush()
                time.sleep(0.02)
            return
        self.wfile.write(body)


@pytest.fixture
def server():
    Handler.served = []
    Handler.fail_first = []
    Handler.support_range = True
    Handler.files = {}
    Handler.corrupt = set()
    Handler.slow = set()
    Handler.starts = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


WORDS = [f"w{i}" for i in range(300)]


def synthetic_pages(n: int, seed: int = 0) -> list[str]:
    """Articles of random words, with a redirect, a talk page and a stub mixed in."""
    import random

    rng = random.Random(seed)
    pages = []
    for i in range(n):
        if i % 17 == 5:
            pages.append(page(f"R{i}", f"#REDIRECT [[A{i - 1}]]", redirect=f"A{i - 1}"))
        elif i % 23 == 7:
            pages.append(page(f"Talk:A{i}", "talk " * 80, ns=1))
        elif i % 29 == 3:
            pages.append(page(f"S{i}", "too short"))
        else:
            paragraphs = [" ".join(rng.choices(WORDS[: 50 + i % 250], k=120)) for _ in range(3)]
            pages.append(page(f"A{i}", "\n\n".join(paragraphs)))
    return pages


def multipart_dump(directory: Path, parts: int = 3, pages_per_part: int = 40) -> dict:
    """A dump in ``parts`` numbered part files plus the same pages as one file, with a
    dumpstatus.json and a sha1sums.txt. Returns {path in the server: bytes}."""
    pages = synthetic_pages(parts * pages_per_part)
    files: dict[str, bytes] = {}
    status_files = {}
    sha1_lines = []
    for k in range(parts):
        lo, hi = k * pages_per_part + 1, (k + 1) * pages_per_part
        name = f"testwiki-20990101-pages-articles{k + 1}.xml-p{lo}p{hi}.bz2"
        chunk = pages[k * pages_per_part : (k + 1) * pages_per_part]
        data = bz2.compress((XML_HEAD + "".join(chunk) + "</mediawiki>\n").encode())
        files[f"/dump/{name}"] = data
        sha1 = hashlib.sha1(data).hexdigest()
        status_files[name] = {
            "size": len(data),
            "url": f"/testwiki/20990101/{name}",
            "md5": hashlib.md5(data).hexdigest(),
            "sha1": sha1,
        }
        sha1_lines.append(f"{sha1}  {name}")
    whole = bz2.compress((XML_HEAD + "".join(pages) + "</mediawiki>\n").encode())
    whole_name = "testwiki-20990101-pages-articles.xml.bz2"
    files[f"/dump/{whole_name}"] = whole
    sha1_lines.append(f"{hashlib.sha1(whole).hexdigest()}  {whole_name}")
    # reversed: the manifest must restore page order itself
    status = {
        "jobs": {
            "articlesdump": {"status": "done", "files": dict(reversed(status_files.items()))},
            "articlesdumprecombine": {"status": "done", "files": {}},
        },
        "version": "0.8",
    }
    files["/dump/dumpstatus.json"] = json.dumps(status).encode()
    files["/dump/testwiki-20990101-sha1sums.txt"] = ("\n".join(sha1_lines) + "\n").encode()
    for path, data in files.items():
        (directory / path.rsplit("/", 1)[-1]).write_bytes(data)
    return files
