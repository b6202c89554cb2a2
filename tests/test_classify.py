"""The batched solver against the converged reference, on the same splits."""

import gzip

import numpy as np
import pytest
from scipy.optimize import minimize

from learnability.classify import fit_many, lbfgs_batched
from learnability.evaluate import Protocol, evaluate_concept_full


def _objective(theta, x, y, C):
    w, b = theta[:-1], theta[-1]
    z = x @ w + b
    return 0.5 * w @ w + C * np.sum(np.logaddexp(0, z) - y * z)


def test_lbfgs_reaches_the_optimum_of_the_objective():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 80, 6))
    y = (x[:, :, 0] + rng.normal(size=(3, 80)) > 0).astype(float)
    X = np.concatenate([x, np.ones((3, 80, 1))], axis=2)
    W, iters, converged = lbfgs_batched(X, y, C=0.5, tol=1e-9)
    assert converged.all() and (iters > 0).all()
    for b in range(3):
        ref = minimize(
            _objective, np.zeros(7), args=(x[b], y[b], 0.5), method="BFGS", options={"gtol": 1e-11}
        ).x
        np.testing.assert_allclose(W[b], ref, rtol=1e-6, atol=1e-7)


def _compare(vectors, members, C=1.0, iterations=12):
    results = {}
    for solver in ("batched", "reference"):
        proto = Protocol(iterations=iterations, C=C, seed=5, solver=solver)
        results[solver] = evaluate_concept_full(
            vectors, members, proto, list_name="c", embedding="e"
        ).iterations
    a, b = results["batched"], results["reference"]
    assert (a["seed"] == b["seed"]).all()
    np.testing.assert_allclose(a["auc"], b["auc"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(a["accuracy"], b["accuracy"], rtol=0, atol=1e-12)
    return a


def _coefficients(vectors, members, solver, iterations=6, backend=None):
    from learnability.evaluate import _draw_splits

    proto = Protocol(iterations=iterations, C=1.0, seed=5)
    splits = _draw_splits(
        vectors.shape[0], np.asarray(members), proto, list(range(iterations)), None
    )
    idx = np.stack([s[0] for s in splits])
    y = np.stack([s[1] for s in splits]).astype(float)
    return fit_many(vectors, idx, y, 1.0, solver=solver, backend=backend)


def test_batched_equals_reference_on_a_planted_400_word_concept():
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((6000, 300))
    u = rng.standard_normal(300)
    vectors[:400] += 3.0 * u / np.linalg.norm(u)
    its = _compare(vectors, np.arange(400), iterations=8)
    assert its["auc"].mean() > 0.8
    a = _coefficients(vectors, np.arange(400), "batched")
    b = _coefficients(vectors, np.arange(400), "reference")
    rel = np.abs(a - b).max(axis=1) / np.abs(b).max(axis=1)
    assert rel.max() < 1e-4


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A small word2vec embedding trained here, with a concept of co-occurring words."""
    from learnability.embeddings import train

    rng = np.random.default_rng(2)
    topic = [f"t{i}" for i in range(60)]
    other = [f"o{i}" for i in range(600)]
    lines = []
    for _ in range(3000):
        pool = topic if rng.random() < 0.3 else other
        lines.append(" ".join(rng.choice(pool, size=10)))
    path = tmp_path_factory.mktemp("emb") / "c.txt.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    params = dict(
        dim=40,
        window=3,
        min_count=2,
        negative=5,
        sample=0.0,
        alpha=0.025,
        min_alpha=0.0001,
        epochs=3,
        seed=1,
    )
    emb = train("word2vec", str(path), params, threads=1)
    members = np.array([emb.index[w] for w in topic])
    return emb.vectors, members


def test_batched_equals_reference_on_a_trained_embedding(trained):
    vectors, members = trained
    its = _compare(vectors, members, iterations=10)
    assert its["auc"].mean() > 0.9
    a = _coefficients(vectors, members, "batched")
    b = _coefficients(vectors, members, "reference")
    rel = np.abs(a - b).max(axis=1) / np.abs(b).max(axis=1)
    assert rel.max() < 1e-4


def test_chunking_does_not_change_results(trained):
    vectors, members = trained
    small = Protocol(iterations=7, C=1.0, seed=1, chunk_bytes=1)  # one problem per chunk
    big = Protocol(iterations=7, C=1.0, seed=1)
    a = evaluate_concept_full(vectors, members, small, list_name="c", embedding="e")
    b = evaluate_concept_full(vectors, members, big, list_name="c", embedding="e")
    np.testing.assert_allclose(a.iterations["auc"], b.iterations["auc"], atol=1e-9)


def test_unknown_solver():
    with pytest.raises(ValueError, match="unknown solver"):
        fit_many(np.zeros((10, 2)), np.zeros((1, 4), int), np.zeros((1, 4)), 1.0, solver="magic")


def test_torch_backend_runs_the_same_algorithm(trained):
    """The optional GPU backend, run on the CPU with torch: same optimum as numpy.
    Skipped where torch is not installed (it is an optional extra)."""
    pytest.importorskip("torch")
    from learnability.classify import backend_ops

    rng = np.random.default_rng(7)
    X = np.concatenate([rng.normal(size=(4, 120, 20)), np.ones((4, 120, 1))], axis=2)
    y = (X[:, :, 0] + rng.normal(size=(4, 120)) > 0).astype(float)
    w_np, it_np, ok_np = lbfgs_batched(X, y, 1.0)
    w_t, it_t, ok_t = lbfgs_batched(X, y, 1.0, ops=backend_ops("cpu", "torch"))
    assert ok_np.all() and ok_t.all()
    np.testing.assert_allclose(w_t, w_np, rtol=1e-6, atol=1e-8)
    vectors, members = trained
    a = _coefficients(vectors, members, "batched")
    b = _coefficients(vectors, members, "batched", backend="torch")
    np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-7)


def test_cuda_without_torch_or_gpu_is_a_clear_error(monkeypatch):
    import builtins

    from learnability.classify import backend_ops

    real_import = builtins.__import__

    def no_torch(name, *args, **kwargs):
        if name == "torch":
            raise ImportError("no torch")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    with pytest.raises(RuntimeError, match="needs PyTorch"):
        backend_ops("cuda")


def test_null_distribution_honours_solver_options(trained):
    from learnability.evaluate import null_distribution

    vectors, _ = trained
    kw = dict(size=20, lists=3, iterations=2, C=1.0, seed=1, embedding="e")
    a = null_distribution(vectors, **kw)
    b = null_distribution(vectors, chunk_bytes=1, **kw)
    c = null_distribution(vectors, solver="reference", **kw)
    np.testing.assert_allclose(a["auc"], b["auc"], atol=1e-9)
    np.testing.assert_allclose(a["auc"], c["auc"], atol=1e-6)
