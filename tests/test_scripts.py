"""Bad input through the rules' own scripts: each script is run as Snakemake runs it (the
file executed with a ``snakemake`` object), and must stop with a message naming the file,
the line or key and the fix, log that message, and leave none of its outputs."""

from __future__ import annotations

import bz2
import re
import runpy
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from dumps import page, write_dump
from paths import REPO
from snakemake.iocontainers import Namedlist

from learnability.errors import InputError

SCRIPTS = REPO / "workflow" / "scripts"


def run_script(name: str, tmp: Path, *, input: dict, output: dict, params: dict, wildcards=None):
    smk = SimpleNamespace(
        rule=name,
        input=Namedlist(fromdict=input),
        output=Namedlist(fromdict={k: str(tmp / "out" / v) for k, v in output.items()}),
        params=Namedlist(fromdict=params),
        wildcards=Namedlist(fromdict=wildcards or {}),
        threads=1,
        log=Namedlist([str(tmp / "logs" / f"{name}.log")]),
    )
    with pytest.raises(InputError) as err:
        runpy.run_path(str(SCRIPTS / f"{name}.py"), init_globals={"snakemake": smk})
    log = Path(smk.log[0]).read_text()
    assert "ERROR" in log and str(err.value).splitlines()[0][:60] in log
    out = tmp / "out"
    leftovers = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert leftovers == [], leftovers  # no output, no temporary file
    return str(err.value)


def good_dump(path: Path) -> Path:
    return write_dump(path, [page(f"A{i}", "word " * 80) for i in range(3)])


def dump_cases(tmp: Path):
    corrupt = good_dump(tmp / "corrupt.xml.bz2")
    data = bytearray(corrupt.read_bytes())
    data[len(data) // 2] ^= 0xFF
    corrupt.write_bytes(bytes(data))
    truncated = tmp / "truncated.xml.bz2"
    xml = bz2.decompress(good_dump(tmp / "whole.xml.bz2").read_bytes())
    truncated.write_bytes(bz2.compress(xml[: len(xml) // 2]))
    empty = tmp / "empty.xml.bz2"
    empty.write_bytes(b"")
    nopages = write_dump(tmp / "nopages.xml.bz2", [])
    return [
        (corrupt, r"corrupt\.xml\.bz2: .*(decompressed|malformed).*download it again"),
        (truncated, r"truncated\.xml\.bz2: the XML is malformed or truncated.*Download"),
        (empty, r"empty\.xml\.bz2: the dump is empty.*download it again"),
        (nopages, r"nopages\.xml\.bz2: no <page> found"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_extract_script_on_bad_dumps(tmp_path, case):
    dump, match = dump_cases(tmp_path)[case]
    msg = run_script(
        "extract_corpus",
        tmp_path,
        input={"dump": str(dump)},
        output={"text": "t.txt.gz", "counts": "c.parquet", "stats": "s.json"},
        params={"min_article_tokens": 50, "max_line_tokens": 1000, "source": "mediawiki",
                "options": {}, "ranges": {}},
    )  # fmt: skip
    assert re.search(match, msg), msg


def test_extract_script_on_a_bad_corpus_of_your_own(tmp_path):
    table = tmp_path / "posts.csv"
    table.write_text("body,user\nsome words,a\n", encoding="utf-8")
    msg = run_script(
        "extract_corpus",
        tmp_path,
        input={"part": str(table)},
        output={"text": "t.txt.gz", "counts": "c.parquet", "stats": "s.json"},
        params={"min_article_tokens": 1, "max_line_tokens": 1000, "source": "csv",
                "options": {"text_column": "text", "group_column": None}, "ranges": {}},
    )  # fmt: skip
    assert re.search(r"posts\.csv:1: no column 'text'; set corpus\.source\.text_column", msg), msg


LISTS = {
    "empty.txt": ("# nothing here\n\n", r"empty\.txt.*no entries"),
    "binary.txt": (b"\x00\x01\x02binary", r"binary\.txt.*binary"),
    "undefined.txt": (b"caf\x81\n", r"undefined\.txt, line 1: neither UTF-8 nor windows-1252"),
    "noheader.dic": ("happy\t1\n", r"noheader\.dic, line 1: a \.dic file must start with a '%'"),
    "badid.dic": ("%\n1\tposemo\n%\nhappy\t7\n", r"badid\.dic, line 4: .*category id 7"),
}


@pytest.mark.parametrize("name", sorted(LISTS))
def test_resolve_script_on_bad_lists(tmp_path, name):
    content, match = LISTS[name]
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    vocab = tmp_path / "vocab.parquet"
    pd.DataFrame({"word": ["happy", "sad"], "count": [2, 1]}).to_parquet(vocab)
    msg = run_script(
        "resolve_concept",
        tmp_path,
        input={"source": str(path), "vocab": str(vocab)},
        output={"concepts": "l.parquet"},
        params={"category": "posemo" if name.endswith(".dic") else None, "format": "auto"},
        wildcards={"embedding": "e", "list": "l"},
    )
    assert re.search(match, msg), msg


EMBEDDINGS = {
    "dims.txt": ("a 1 2 3\nb 1 2\n", r"dims\.txt, line 2: .*2 values"),
    "nan.txt": ("a 1 nan\n", r"nan\.txt, line 1: the vector of 'a' holds NaN or Inf"),
    "inf.txt": ("a 1 2\nb inf 2\n", r"inf\.txt, line 2: the vector of 'b' holds NaN or Inf"),
    "dup.txt": ("a 1 2\nb 3 4\na 5 6\n", r"dup\.txt, line 3: the word 'a' appears again"),
    "empty.txt": ("", r"empty\.txt: the embedding file is empty"),
}


@pytest.mark.parametrize("name", sorted(EMBEDDINGS))
def test_import_script_on_bad_embeddings(tmp_path, name):
    content, match = EMBEDDINGS[name]
    path = tmp_path / name
    path.write_text(content)
    hp = {"format": "glove_text" if content else "auto", "member": None, "max_vocab": None,
          "exclude_prefixes": [], "frequency_ordered": True, "subword_oov": False,
          "allow_pickle": False}  # fmt: skip
    msg = run_script(
        "import_embedding",
        tmp_path,
        input={"source": str(path)},
        output={"vectors": "e/vectors.npy", "vocab": "e/vocab.parquet", "meta": "e/meta.json"},
        params={"hp": hp, "lists": {}},
        wildcards={"embedding": "e"},
    )
    assert re.search(match, msg), msg


def small_store(tmp: Path) -> dict:
    import numpy as np

    from learnability.embeddings.store import Embedding, save_embedding

    words = ["north", "south", "east", "west", "dog", "cat", "animal"]
    vectors = np.random.default_rng(0).standard_normal((len(words), 4)).astype("float32")
    save_embedding(Embedding(words, vectors, np.arange(7, 0, -1), name="e"), tmp / "emb")
    return {
        "vectors": str(tmp / "emb" / "vectors.npy"),
        "vocab": str(tmp / "emb" / "vocab.parquet"),
    }


EVALUATION_CASES = [
    ("multi_answer", "bad.txt", ": dirs\nnorth\tsouth\teast\n", {"k": 2},
     r"bad\.txt, line 2: expected 'query<TAB>answer1/answer2/\.\.\.'.*one query"),
    ("hierarchy", "bad.tsv", "animal\tdog\nanimal\tdog\n", {},
     r"bad\.tsv, line 2: duplicate edge animal -> dog \(first on line 1\); remove one"),
    ("analogy", "bad.txt", "north south east west\n",
     {"restrict_vocab": 10, "cosmul_eps": 1e-3},
     r"bad\.txt, line 1: a question before any ': section' header"),
    ("word_pairs", "bad.tsv", "# header only\n", {"restrict_vocab": 10},
     r"bad\.tsv: no pairs; expected 'word1<TAB>word2<TAB>score'"),
]  # fmt: skip


@pytest.mark.parametrize("case", range(len(EVALUATION_CASES)))
def test_evaluation_scripts_on_bad_files(tmp_path, case):
    """The one evaluation script, on each kind's bad file: one line, no output."""
    from learnability.evaluations.registry import KINDS

    kind, name, text, settings, match = EVALUATION_CASES[case]
    (tmp_path / name).write_text(text)
    msg = run_script(
        "evaluate",
        tmp_path,
        input={**small_store(tmp_path), "files": [str(tmp_path / name)]},
        output={t: f"{t}.parquet" for t in KINDS[kind].tables},
        params={"kind": kind, "datasets": [name.split(".")[0]],
                "settings": {**settings, "case": "auto"}},
        wildcards={"embedding": "e"},
    )  # fmt: skip
    assert re.search(match, msg), msg


def _run_quietly(name: str, smk) -> None:
    runpy.run_path(str(SCRIPTS / f"{name}.py"), init_globals={"snakemake": smk})


def _space(tmp: Path, words: int = 12):
    import numpy as np

    from learnability.concepts.lists import Entry, resolve
    from learnability.schemas import write_table

    vocab = [f"w{i}" for i in range(words)]
    np.save(tmp / "vectors.npy", np.random.default_rng(0).normal(size=(words, 5)))
    pd.DataFrame({"word": vocab, "count": range(words, 0, -1)}).to_parquet(tmp / "vocab.parquet")
    resolved = resolve([Entry(e, i) for i, e in enumerate(["w1", "w2", "w3", "nope"])], vocab,
                       list_name="few", embedding="e", source="few.txt")  # fmt: skip
    write_table(resolved, tmp / "few.parquet", "concept_words")
    return dict(vectors=str(tmp / "vectors.npy"), vocab=str(tmp / "vocab.parquet"))


FIT = dict(C=1.0, seed=1, n_bins=None, solver="batched", chunk_mb=16, device="cpu",
           min_words=4)  # fmt: skip


def test_a_list_the_space_cannot_score_gets_empty_tables_and_a_logged_reason(tmp_path):
    """The learnability job of a list with 3 words in the space, and the random lists of
    a fixed size larger than half the space: each writes its outputs in their schemas
    with no rows (read beside the others', they add nothing) and logs why, instead of
    failing the run."""
    import numpy as np

    from learnability import schemas

    space = _space(tmp_path)
    out = {name: str(tmp_path / "out" / f"{name}.parquet")
           for name in ("iterations", "summary", "roc", "members")}  # fmt: skip
    out["coef"] = str(tmp_path / "out" / "coefficients.npy")
    smk = SimpleNamespace(
        rule="learnability", threads=1,
        input=Namedlist(fromdict={**space, "concept": str(tmp_path / "few.parquet")}),
        output=Namedlist(fromdict=out),
        params=Namedlist(fromdict={**FIT, "iterations": 4, "bootstrap": 0, "confidence": 0.95}),
        wildcards=Namedlist(fromdict={"embedding": "e", "list": "few", "negatives": "uniform"}),
        log=Namedlist([str(tmp_path / "logs" / "learnability.log")]),
    )  # fmt: skip
    _run_quietly("learnability", smk)
    for name in ("iterations", "summary", "roc", "members"):
        table = pd.read_parquet(out[name])
        assert len(table) == 0 and list(table.columns) == schemas.columns(name), name
    assert np.load(out["coef"]).size == 0
    log = Path(smk.log[0]).read_text()
    assert "list few is not scored on e: only 3 words in the embedding's vocabulary" in log
    null_out = str(tmp_path / "out" / "size-7.parquet")
    smk = SimpleNamespace(
        rule="null_distribution", threads=1, input=Namedlist(fromdict=space),
        output=Namedlist([null_out]),
        params=Namedlist(fromdict={**FIT, "lists": 3, "iterations": 2}),
        wildcards=Namedlist(fromdict={"embedding": "e", "negatives": "uniform", "key": "size-7"}),
        log=Namedlist([str(tmp_path / "logs" / "null.log")]),
    )  # fmt: skip
    _run_quietly("null_distribution", smk)
    null = pd.read_parquet(null_out)
    assert len(null) == 0 and list(null.columns) == schemas.columns("null")
    assert "random lists size-7 are not drawn on e: 7 words but the vocabulary has only 12" in (
        Path(smk.log[0]).read_text()
    )
