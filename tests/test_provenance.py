"""The provenance records (learnability.provenance) outside a workflow run: what the
library and the CLI write, how inputs are named, mixed versions, and the command's
errors. The workflow's own records: tests/test_workflow.py."""

import hashlib
import json
from importlib import metadata

import numpy as np
import pandas as pd
import pytest

import learnability
from learnability import provenance, schemas
from learnability.cli import main
from learnability.errors import InputError
from learnability.pipeline import rerun as rerun_params
from learnability.reports import records
from learnability.schemas import write_table


def _vocab(n: int = 3) -> pd.DataFrame:
    return pd.DataFrame({"embedding": "e", "index": np.arange(n), "word": list("abc")[:n],
                         "count": np.arange(n) + 1})  # fmt: skip


def test_a_table_written_by_the_library_records_its_version_code_and_libraries(tmp_path):
    path = tmp_path / "vocab.parquet"
    write_table(_vocab(), path, "vocab")
    record = provenance.read(path)
    assert record["package"]["version"] == learnability.__version__
    assert record["command"] == "library" and "inputs" in record
    # versions as the installed distributions give them (sklearn is scikit-learn's)
    for dist in ("numpy", "pandas", "pyarrow"):
        assert record["libraries"][dist] == metadata.version(dist)
    # the data reads as what pandas writes: the record is in the metadata, not in a column
    plain = tmp_path / "plain.parquet"
    schemas.conform(_vocab(), "vocab").to_parquet(plain, index=False)
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(plain))
    assert provenance.read(plain) is None
    # the id names the record's content: the sha256 of its canonical JSON without the id
    # (computed here by hashlib, not by the module), so another record has another id
    body = {k: v for k, v in record.items() if k != "id"}
    canonical = json.dumps(body, sort_keys=True).encode()
    assert record["id"] == hashlib.sha256(canonical).hexdigest()[:16]


def test_library_names_map_to_their_distributions():
    versions = provenance.library_versions(["sklearn", "yaml", "numpy", "no_such_lib"])
    assert versions == {"scikit-learn": metadata.version("scikit-learn"),
                        "PyYAML": metadata.version("PyYAML"),
                        "numpy": metadata.version("numpy")}  # fmt: skip


def test_inputs_are_named_by_their_record_or_their_content(tmp_path):
    words = tmp_path / "list.txt"
    words.write_text("cat\ndog\n")
    first = provenance.input_digest(words)
    assert first.startswith("sha256:") and first == provenance.input_digest(words)
    words.write_text("cat\ndogs\n")
    assert provenance.input_digest(words) != first
    # an embedding's folder: the vectors are named by the record of its meta.json
    from learnability.embeddings.store import Embedding, save_embedding

    emb = Embedding(words=["a", "b"], vectors=np.eye(2, dtype=np.float32),
                    counts=np.array([2, 1]), name="e", meta={})  # fmt: skip
    save_embedding(emb, tmp_path / "emb")
    meta = json.loads((tmp_path / "emb" / "meta.json").read_text())
    assert meta["provenance"]["id"]
    assert provenance.input_digest(tmp_path / "emb" / "vectors.npy") == (
        f"{meta['provenance']['id']}/vectors.npy"
    )
    assert provenance.input_digest(tmp_path / "emb" / "vocab.parquet") == provenance.read(
        tmp_path / "emb" / "vocab.parquet")["id"]  # fmt: skip
    assert provenance.input_digest(tmp_path / "nothing") == "missing"


def test_environments_other_than_the_current_one_are_named_with_their_rules():
    now = provenance.library_versions(["numpy", "scipy"])
    here = {"learnability": "1", "commit": None, "python": provenance.platform.python_version()}
    same = {**here, "libraries": now, "rules": ["pvalues"]}
    old = {**here, "libraries": {**now, "numpy": "0.0.1"}, "rules": ["learnability", "null"]}
    merged: dict = {}
    provenance.merge_environments(merged, [same, old, same])
    assert len(merged) == 2
    lines = records.mixed({"lineage": merged})
    assert lines == [f"numpy 0.0.1 (now {now['numpy']}): learnability, null"]
    assert records.mixed({"lineage": {"k": same}}) == []


def test_the_cli_records_its_command_and_explains_a_table(tmp_path, capsys):
    aucs = tmp_path / "aucs.csv"
    rows = [(f"l{i}", e, 0.6 + 0.01 * i + (0.1 if e == "a" else 0)) for i in range(8)
            for e in ("a", "b")]  # fmt: skip
    pd.DataFrame(rows, columns=["list", "embedding", "auc"]).to_csv(aucs, index=False)
    out = tmp_path / "tests.parquet"
    assert main(["--quiet", "compare", "--aucs", str(aucs), "--out", str(out)]) == 0
    record = provenance.read(out)
    assert record["command"] == "learnability compare"
    assert "learnability.cli" in record["code"]["roots"]
    capsys.readouterr()
    assert main(["provenance", str(out), "--check"]) == 0
    text = capsys.readouterr().out
    assert "learnability compare" in text and record["id"] in text
    assert "would make the same file" in text
    # the file it read is named by its content; another content would differ
    digest = "sha256:" + hashlib.sha256(aucs.read_bytes()).hexdigest()[:16]
    assert record["inputs"] == {str(aucs.resolve()): digest}
    aucs.write_text(aucs.read_text().replace("0.6", "0.5", 1))
    assert main(["provenance", str(out), "--check"]) == 3
    text = capsys.readouterr().out
    assert f"input       {aucs.resolve()}: " in text and "would differ" in text


def test_the_command_refuses_a_file_without_a_record_in_one_line(tmp_path, capsys):
    plain = tmp_path / "plain.parquet"
    _vocab().to_parquet(plain)
    text = tmp_path / "notes.json"
    text.write_text("[1, 2]")
    for path, said in ((plain, "holds no provenance record"),
                       (text, "holds no provenance record"),
                       (tmp_path / "none.parquet", "no such file")):  # fmt: skip
        with pytest.raises(InputError, match=said) as err:
            records.describe(path)
        assert "\n" not in str(err.value) and str(path) in str(err.value)
        assert main(["provenance", str(path)]) == 1
        assert capsys.readouterr().err.count("\n") == 1


def test_the_rules_params_hold_the_code_digest_and_with_rerun_the_libraries(monkeypatch):
    """What the Snakefile adds to each rule: with provenance.libraries: rerun, a change of
    a version the job's code imports changes its params (Snakemake then reruns it); a
    version it does not import changes nothing."""
    from paths import REPO

    scripts = REPO / "workflow" / "scripts"
    recorded = rerun_params.rule_params("../scripts/pvalues.py", scripts, "record")
    assert set(recorded) == {"code"} and len(recorded["code"]) == 16
    rerun = rerun_params.rule_params("../scripts/pvalues.py", scripts, "rerun")
    assert rerun["code"] == recorded["code"] and set(rerun) == {"code", "libraries"}
    assert rerun_params.rule_params(None, scripts, "rerun") == {}
    assert rerun_params.rule_params("other/workflow/script.py", scripts, "rerun") == {}
    real = rerun_params.library_versions

    def upgraded(dist):
        return lambda libs: {d: ("99.0" if d == dist else v) for d, v in real(libs).items()}

    monkeypatch.setattr(rerun_params, "library_versions", upgraded("scipy"))
    after = rerun_params.rule_params("../scripts/pvalues.py", scripts, "rerun")
    assert after["code"] == rerun["code"] and after["libraries"] != rerun["libraries"]
    # the p-values import no numba: its upgrade leaves them be, and retrains GloVe (ours,
    # compiled by numba; the trainer's param), not word2vec (gensim's)
    word2vec = "learnability.embeddings.word2vec:train_word2vec"
    glove = "learnability.embeddings.glove:train_glove"
    before = {t: rerun_params.target_params(t, "rerun") for t in (word2vec, glove)}
    monkeypatch.setattr(rerun_params, "library_versions", upgraded("numba"))
    assert rerun_params.rule_params("pvalues.py", scripts, "rerun") == rerun
    assert rerun_params.target_params(glove, "rerun") != before[glove]
    assert rerun_params.target_params(word2vec, "rerun") == before[word2vec]
    # recorded, not rerun: the trainer's code alone
    assert rerun_params.target_params(word2vec, "record") == before[word2vec].split("/")[0]


def test_a_job_run_in_this_process_leaves_the_writer_as_it_found_it(tmp_path):
    """A script run in-process (the tests run them so) writes under its job's record,
    and what the process writes afterwards is the library's again, not that job's."""
    from types import SimpleNamespace

    from snakemake.iocontainers import Namedlist

    from learnability.logs import logged

    inside, after = tmp_path / "inside.parquet", tmp_path / "after.parquet"
    smk = SimpleNamespace(
        rule="vocab_job", input=Namedlist(fromdict={}), output=Namedlist([str(inside)]),
        params=Namedlist(fromdict={"k": 1}), wildcards=Namedlist(fromdict={}), threads=1,
        log=Namedlist([str(tmp_path / "job.log")]),
    )  # fmt: skip
    with logged(smk):
        write_table(_vocab(), inside, "vocab")
    write_table(_vocab(), after, "vocab")
    assert provenance.read(inside)["rule"] == "vocab_job"
    assert provenance.read(after)["command"] == "library"
    with pytest.raises(ValueError), logged(smk):  # and after a job that failed
        raise ValueError("the job fails")
    write_table(_vocab(), after, "vocab")
    assert provenance.read(after)["command"] == "library"


def test_the_science_writes_the_record_only_once_the_records_are_imported(tmp_path):
    """The science never imports the records (tests/test_layers.py): its writers ask
    learnability.io, where importing learnability.provenance installs the maker. In a
    fresh interpreter, a table and a meta.json written by the science alone carry no
    record; once the records are imported, both carry the library's."""
    import subprocess
    import sys

    script = """
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from learnability.embeddings.store import Embedding, save_embedding
from learnability.schemas import write_table

out = Path(sys.argv[1])
vocab = pd.DataFrame({"embedding": "e", "index": [0], "word": ["a"], "count": [1]})
def written(tag):
    write_table(vocab, out / f"{tag}.parquet", "vocab")
    emb = Embedding(["a"], np.ones((1, 2), np.float32), np.ones(1, np.int64), "e")
    save_embedding(emb, out / tag)
    meta = json.loads((out / tag / "meta.json").read_text())
    keys = pq.read_schema(out / f"{tag}.parquet").metadata or {}
    return [k.decode() for k in keys if k.startswith(b"learnability")], "provenance" in meta
print(json.dumps(written("alone")))
assert "learnability.provenance" not in sys.modules
import learnability.provenance
print(json.dumps(written("recorded")))
"""
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    alone, recorded = (json.loads(line) for line in done.stdout.splitlines())
    assert alone == [[], False]
    assert recorded == [["learnability.provenance"], True]
    record = provenance.read(tmp_path / "recorded.parquet")
    assert record["command"] == "library" and record["id"]
