"""A synthetic multi-part Wikipedia dump that grows like the real one, for rehearsing the
workflow at scale (``learnability synthetic-dump``, ``benchmarks/scale.py``).

Text. A token is, with probability ``head_share``, one of the embedded sample's frequent
words (count >= :data:`HEAD_MIN_COUNT` in gensim's Wikipedia fragment) at its sample
frequency; otherwise a rank drawn from a Zipf-Mandelbrot tail, ``P(R >= r) = ((r + q) /
(1 + q)) ** -(s - 1)``, whose ranks are first the sample's other words in frequency order
and then made-up words (consonant-vowel syllables ending in ``q``). ``s`` and ``q`` were
fitted (:func:`fit_tail`) so that the expected vocabulary at ``min_count`` 5
(:func:`expected_vocabulary`) is the sample's, 8,685 types at 449,531 tokens, and 2.5 M
types at 2.6 B tokens, the English Wikipedia of the paper. Words are drawn independently:
random text has more distinct co-occurring pairs per token than prose, so GloVe's
counting measured on it errs on the large side.

Markup. Articles carry the sample's inline markup at about its rates per 1000 prose
tokens (links 73, templates 24, bold 4.5, files 2.2, categories 2, headings 5) and
enwiki's heavier kinds: citations in references (24), tables (1, with templates and now
and then a table in their cells), comments, infoboxes (60 % of articles) and navboxes
(45 %) whose fields hold templates nested up to four deep. A dump carries about 26 bytes
of XML per extracted token, as enwiki does; pages are also redirects, stubs and pages of
other namespaces, as in a real dump. Only prose draws tokens: markup text is filler
(:data:`FILLER`, one vocabulary per kind of markup) the extraction removes, so the tokens
a part's articles drew are exactly what the extraction gives back (``expected`` in the
part's record), and a filler word in the corpus names the markup that leaked.

Files: ``{wiki}-{date}-pages-articles{k}.xml-p{first}p{last}.bz2`` per part, a
``dumpstatus.json`` (job ``articlesdump``) and a ``{wiki}-{date}-sha1sums.txt``, as on
Wikimedia's servers: ``corpus.source.base_url`` pointing at the folder reads them. Each part is
drawn from its own stream of ``(seed, part)``, so the bytes do not depend on how many
processes write them.
"""

from __future__ import annotations

import bz2
import hashlib
import json
import os
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from learnability.corpus.download import resolve_package_path
from learnability.io import atomic_path

HEAD_MIN_COUNT = 100
# fitted by fit_tail() to the sample's 8,685 types at min_count 5 and 2.5 M at 2.6 B tokens
TAIL_S = 1.5727
TAIL_Q = 1957.4
SAMPLE_TOKENS = 449_531
SAMPLE_TYPES_5 = 8_685
ENWIKI_TOKENS = 2.6e9
ENWIKI_TYPES_5 = 2.5e6
# the largest rank drawn (ranks beyond are all singletons: capping them changes nothing)
MAX_RANK = 10**15
# article lengths in prose tokens: lognormal, median 230 and sigma 1.15 (a heavier tail
# than a lognormal of enwiki's median: one article in 2,000 is over 10,000 tokens, the
# longest of a 6 M-article dump near MAX_ARTICLE), so that about 6 M articles share
# Wikipedia's 2.6 B tokens (mean ~ 450); below 50 a page is a stub the extraction skips
ARTICLE_MEDIAN = 230
ARTICLE_SIGMA = 1.15
MIN_ARTICLE = 50
MAX_ARTICLE = 60_000
# page kinds: about the mix of pages-articles (articles, redirects, other namespaces)
KINDS = ("article", "redirect", "stub", "other")
KIND_P = (0.40, 0.42, 0.06, 0.12)
# markup per 1000 prose tokens: the sample's inline rates (links, templates, bold) and
# enwiki's heavier referencing, tables and comments, so that a dump carries about 26 bytes
# of XML per extracted token, enwiki's (about 70 GB of XML for 2.6 B tokens)
RATES = {
    "link": 60.0,
    "piped": 13.0,
    "template": 24.0,
    "ref": 24.0,
    "bold": 4.5,
    "file": 2.2,
    "table": 1.0,
    "comment": 1.0,
}
INFOBOX_P = 0.6  # articles with an infobox
NAVBOX_P = 0.45  # articles with a navbox at their end
HEADING_EVERY = 200  # prose tokens per section
PARAGRAPH = 90  # prose tokens per paragraph
CATEGORIES = 2.0  # per 1000 prose tokens, at the article's end

XML_HEAD = (
    '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="0.10" xml:lang="en">\n'
    "  <siteinfo>\n    <sitename>Synthetic Wikipedia</sitename>\n"
    "    <dbname>synthwiki</dbname>\n    <generator>learnability synthetic-dump</generator>\n"
    "  </siteinfo>\n"
)
XML_TAIL = "</mediawiki>\n"

_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
# filler: the words of markup the extraction removes, one vocabulary per kind of markup so
# that a leak names its kind (none of them is ever a prose token, and none is a word of
# the sample: tests/test_synthdump.py checks both)
FILLER = {
    "template": ("Lorem", "Ipsum", "Dolor", "Amet", "Consectetur", "Adipiscing"),
    "nested": ("Vexillum", "Quixotl", "Zephyrx", "Nabulox"),
    "table": ("Tabulax", "Mensox", "Cellulx", "Ordinx", "Columx"),
    "infobox": ("Infoxa", "Campux", "Valorx", "Imagox"),
    "navbox": ("Navixa", "Portux", "Indexq", "Catenx"),
    "ref": ("Auctorx", "Titulx", "Editrx", "Paginx", "Annalx"),
    "file": ("Picturx", "Imagx", "Legendx"),
    "comment": ("Notax", "Memorx", "Scriblx"),
    "category": ("Generx", "Classx", "Ordox"),
    "title": ("Elit", "Sed", "Tempor", "Incidunt"),
}


def spell(rank: int) -> str:
    """A made-up word for a tail rank: its base-70 digits as syllables, then ``q``."""
    out = []
    while True:
        rank, digit = divmod(rank, len(_SYLLABLES))
        out.append(_SYLLABLES[digit])
        if rank == 0:
            return "".join(out) + "q"


def spell_many(ranks: np.ndarray) -> list[str]:
    """:func:`spell` of every rank, a digit at a time over the whole array: at the 3
    million words of the enwiki rehearsal's vocabulary, calling :func:`spell` once a word
    took about 4 s of its 13 (a profile of ``planning.fake_enwiki``)."""
    syllables = np.array(_SYLLABLES, dtype=object)
    rest = np.asarray(ranks, dtype=np.int64)
    out = syllables[rest % len(_SYLLABLES)]
    rest = rest // len(_SYLLABLES)
    while (more := rest > 0).any():
        out[more] = out[more] + syllables[rest[more] % len(_SYLLABLES)]
        rest = rest // len(_SYLLABLES)
    return (out + "q").tolist()


@dataclass(frozen=True)
class Lexicon:
    head: np.ndarray  # the sample's frequent words, most frequent first
    head_cdf: np.ndarray  # their cumulative probabilities within the head
    head_share: float  # the head's share of the sample's tokens
    tail: np.ndarray  # the sample's other words, most frequent first (the first tail ranks)


@lru_cache(maxsize=1)
def sample_lexicon() -> Lexicon:
    """The words of gensim's Wikipedia fragment (the workflow's default dump), extracted
    by the workflow's own extraction."""

    import pandas as pd

    from learnability.corpus.extract import SAMPLE_DUMP, extract_corpus

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        extract_corpus(
            [resolve_package_path(SAMPLE_DUMP)], out / "text.txt.gz", out / "stats.json",
            out_counts=out / "counts.parquet", min_article_tokens=MIN_ARTICLE,
        )  # fmt: skip
        # most frequent first, ties alphabetical (corpus.write_counts)
        counts = pd.read_parquet(out / "counts.parquet")
    words = counts["word"].astype(str).to_numpy(dtype=object)
    freq = counts["count"].to_numpy(dtype=np.float64)
    head = freq >= HEAD_MIN_COUNT
    return Lexicon(
        head=words[head],
        head_cdf=np.cumsum(freq[head]) / freq[head].sum(),
        head_share=float(freq[head].sum() / freq.sum()),
        tail=words[~head],
    )


def _tail_tail(r: np.ndarray, s: float, q: float) -> np.ndarray:
    """P(R >= r) of the Zipf-Mandelbrot tail (ranks from 0)."""
    return ((r + 1 + q) / (1 + q)) ** (-(s - 1))


def expected_vocabulary(
    n_tokens: float, min_count: int, *, s: float = TAIL_S, q: float = TAIL_Q,
    head_share: float | None = None, n_head: int | None = None,
) -> float:  # fmt: skip
    """Expected number of types with at least ``min_count`` occurrences in ``n_tokens``
    drawn tokens: every head word (they are frequent at any size this is asked about),
    plus the tail ranks' Poisson probabilities of reaching ``min_count``, summed over a
    log grid of ranks."""
    from scipy import stats

    if head_share is None or n_head is None:
        lex = sample_lexicon()
        head_share, n_head = lex.head_share, len(lex.head)
    n_tail = n_tokens * (1 - head_share)
    edges = np.unique(np.round(np.logspace(0, 13, 200_001)).astype(np.int64)) - 1
    lo, hi = edges[:-1], edges[1:]
    p = _tail_tail(lo, s, q) - _tail_tail(lo + 1, s, q)
    return float(n_head + np.sum((hi - lo) * stats.poisson.sf(min_count - 1, n_tail * p)))


def fit_tail() -> tuple[float, float]:
    """(s, q) that put :func:`expected_vocabulary` at min_count 5 on the sample's count at
    its size and on 2.5 M types at 2.6 B tokens (how TAIL_S and TAIL_Q were set)."""
    from scipy import optimize

    def residuals(x):
        s, q = x[0], float(np.exp(x[1]))
        return [
            np.log(expected_vocabulary(SAMPLE_TOKENS, 5, s=s, q=q) / SAMPLE_TYPES_5),
            np.log(expected_vocabulary(ENWIKI_TOKENS, 5, s=s, q=q) / ENWIKI_TYPES_5),
        ]

    s, log_q = optimize.fsolve(residuals, [1.5, 5.0])
    return float(s), float(np.exp(log_q))


class TokenStream:
    """Independent draws of the model, in chunks (a vectorised draw per chunk)."""

    def __init__(self, rng: np.random.Generator, lexicon: Lexicon, chunk: int = 65_536):
        self.rng, self.lex, self.chunk = rng, lexicon, chunk
        self.buffer: list[str] = []

    def _refill(self) -> None:
        rng, lex, n = self.rng, self.lex, self.chunk
        out = np.empty(n, dtype=object)
        head = rng.random(n) < lex.head_share
        k = int(head.sum())
        out[head] = lex.head[np.searchsorted(lex.head_cdf, rng.random(k), side="right")]
        # inverse of P(R >= r): a uniform u gives r = floor((1 + q) u^(-1/(s-1)) - q) - 1
        u = rng.random(n - k)
        x = (1 + TAIL_Q) * np.power(np.maximum(u, 1e-300), -1 / (TAIL_S - 1)) - TAIL_Q
        ranks = np.minimum(np.floor(x) - 1, MAX_RANK).astype(np.int64)
        known = ranks < len(lex.tail)
        tail = np.empty(n - k, dtype=object)
        tail[known] = lex.tail[ranks[known]]
        made_up = ranks[~known] - len(lex.tail)
        tail[~known] = spell_many(made_up)
        out[~head] = tail
        self.buffer = out.tolist()
        self.buffer.reverse()

    def take(self, n: int) -> list[str]:
        words = []
        while len(words) < n:
            if not self.buffer:
                self._refill()
            m = min(n - len(words), len(self.buffer))
            words.extend(self.buffer[-m:][::-1])
            del self.buffer[-m:]
        return words


# nested templates: each field of a template is, with this probability, a template
# itself, down to NEST_DEPTH levels (real citations hold {{lang}}, {{date}}, {{!}}...)
NEST_P = 0.18
NEST_DEPTH = 4
CITE_KINDS = ("cite web", "cite book", "cite news", "cite journal")
CITE_FIELDS = (
    "last", "first", "title", "url", "website", "publisher", "date", "access-date",
    "archive-url", "archive-date", "url-status", "isbn", "page", "work", "location",
)  # fmt: skip
INLINE_TEMPLATES = ("convert", "citation needed", "lang", "nowrap", "sfn", "efn", "as of")


class Markup:
    """Markup the extraction removes whole: templates nested to NEST_DEPTH, tables with
    templates and tables in their cells, infoboxes, navboxes, references, files, comments.
    Words come from FILLER, drawn in batches (one numpy call per batch, not per word)."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self._words: dict[str, list[str]] = {}

    def words(self, kind: str, n: int) -> str:
        pool = self._words.setdefault(kind, [])
        if len(pool) < n:
            vocab = FILLER[kind]
            pool.extend(vocab[i] for i in self.rng.integers(0, len(vocab), max(n, 4096)))
        out = pool[-n:]
        del pool[-n:]
        return " ".join(out)

    def count(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high + 1))

    def value(self, kind: str, depth: int) -> str:
        """A template field's value: words, or (sometimes) a template one level down."""
        if depth < NEST_DEPTH and self.rng.random() < NEST_P:
            return self.template("nested", depth + 1)
        return self.words(kind, self.count(1, 4))

    def template(self, kind: str = "template", depth: int = 1) -> str:
        name = INLINE_TEMPLATES[self.count(0, len(INLINE_TEMPLATES) - 1)]
        fields = "".join(f"|{self.value(kind, depth)}" for _ in range(self.count(1, 3)))
        return f"{{{{{name}{fields}}}}}"

    def cite(self, depth: int = 1) -> str:
        kind = CITE_KINDS[self.count(0, len(CITE_KINDS) - 1)]
        chosen = self.rng.choice(len(CITE_FIELDS), self.count(5, 11), replace=False)
        fields = " ".join(
            f"|{CITE_FIELDS[i]}={self.value('ref', depth)}"
            if CITE_FIELDS[i] != "url" and not CITE_FIELDS[i].endswith("-url")
            else f"|{CITE_FIELDS[i]}=https://example.org/{self.words('ref', 1)}/{i}.html"
            for i in chosen
        )
        return f"{{{{{kind} {fields}}}}}"

    def ref(self) -> str:
        name = self.words("ref", 1)
        if self.rng.random() < 0.2:
            return f'<ref name="{name}" />'
        return f'<ref name="{name}">{self.cite()}</ref>'

    def table(self, depth: int = 1) -> str:
        """A wikitable: a caption, a header, rows whose cells are words, templates or (at
        the top level, sometimes) a table of their own."""
        cols = self.count(2, 6)
        lines = ['{| class="wikitable sortable"', f"|+ {self.words('table', 3)}"]
        lines.append("! " + " !! ".join(self.words("table", 1) for _ in range(cols)))
        for _ in range(self.count(3, 15)):
            lines.append("|-")
            cells = []
            for _ in range(cols):
                r = self.rng.random()
                if r < 0.15:
                    cells.append(self.template("nested", depth + 1))
                elif r < 0.2 and depth == 1:
                    cells.append("\n" + self.table(depth + 1) + "\n")
                else:
                    cells.append(self.words("table", self.count(1, 3)))
            lines.append("| " + " || ".join(cells))
        lines.append("|}")
        return "\n" + "\n".join(lines) + "\n"

    def infobox(self) -> str:
        rows = "\n".join(
            f"| {self.words('infobox', 1).lower()}_{k} = {self.value('infobox', 1)}"
            for k in range(self.count(8, 30))
        )
        return f"{{{{Infobox {self.words('infobox', 1)}\n{rows}\n}}}}\n"

    def navbox(self) -> str:
        groups = "\n".join(
            f"| group{k} = {self.words('navbox', 2)}\n| list{k} = {{{{flatlist|\n"
            + "\n".join(f"* [[{self.words('navbox', 2)}]]" for _ in range(self.count(4, 12)))
            + "\n}}"
            for k in range(1, self.count(2, 6) + 1)
        )
        return f"{{{{Navbox\n| name = {self.words('navbox', 2)}\n{groups}\n}}}}\n"

    def file(self) -> str:
        name, caption = self.words("file", 1), self.words("file", 5)
        # a link inside the caption, resolved before the file link is removed
        return f"[[File:{name}.jpg|thumb|upright=1.2|{caption} [[{self.words('file', 1)}]]]]"

    def comment(self) -> str:
        return f"<!-- {self.words('comment', self.count(3, 12))} -->"

    def title(self) -> str:
        return self.words("title", self.count(1, 3))

    def of(self, kind: str) -> str:
        if kind == "template":
            return self.template()
        if kind == "ref":
            return self.ref()
        if kind == "file":
            return self.file()
        if kind == "table":
            return self.table()
        if kind == "comment":
            return self.comment()
        raise ValueError(kind)


def article_wikitext(markup: Markup, words: list[str]) -> str:
    """An article whose prose tokens are ``words``, in order, dressed in markup."""
    n = len(words)
    rng = markup.rng
    events = {kind: rng.poisson(rate * n / 1000) for kind, rate in RATES.items()}
    marks: dict[int, list[str]] = {}
    for kind, count in events.items():
        for pos in rng.integers(0, n, count):
            marks.setdefault(int(pos), []).append(kind)
    out = [markup.infobox()] if rng.random() < INFOBOX_P else []
    i = since_heading = 0
    while i < n:
        if i and since_heading >= HEADING_EVERY:
            # a heading's text is prose (the extraction keeps it as a line)
            h = min(2, n - i)
            out.append(f"\n== {' '.join(words[i : i + h])} ==\n")
            i += h
            since_heading = 0
        end = min(n, i + PARAGRAPH)
        paragraph = []
        for j in range(i, end):
            w = words[j]
            for kind in marks.get(j, ()):
                if kind == "link":
                    w = f"[[{w}]]"
                elif kind == "piped":
                    w = f"[[{markup.title()}|{w}]]"
                elif kind == "bold":
                    w = f"'''{w}'''"
                else:
                    paragraph.append(markup.of(kind))
            paragraph.append(w)
        out.append(" ".join(paragraph) + "\n\n")
        since_heading += end - i
        i = end
    if rng.random() < NAVBOX_P:
        out.append(markup.navbox())
    cats = rng.poisson(CATEGORIES * n / 1000) + 1
    out.extend(f"[[Category:{markup.words('category', 2)}]]\n" for _ in range(cats))
    return "".join(out)


def _page(title: str, page_id: int, text: str, ns: int = 0, redirect: str | None = None) -> str:
    red = f"    <redirect title={quoteattr(redirect)} />\n" if redirect else ""
    digest = hashlib.sha1(text.encode()).hexdigest()[:31]
    return (
        f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n"
        f"    <id>{page_id}</id>\n{red}    <revision>\n      <id>{page_id * 7 + 1}</id>\n"
        f"      <parentid>{page_id * 7}</parentid>\n"
        "      <timestamp>2019-07-01T00:00:00Z</timestamp>\n"
        f"      <contributor>\n        <username>Synthetic</username>\n"
        f"        <id>{page_id % 9973}</id>\n      </contributor>\n"
        "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
        f'      <text xml:space="preserve">{escape(text)}</text>\n'
        f"      <sha1>{digest}</sha1>\n    </revision>\n  </page>\n"
    )


@dataclass
class PartRecord:
    name: str
    size: int
    sha1: str
    md5: str
    xml_bytes: int
    pages: int
    articles: int
    tokens: int  # prose tokens of the articles: what the extraction gives back


def write_part(
    directory: str | os.PathLike[str],
    *,
    wiki: str,
    date: str,
    part: int,
    first_page: int,
    xml_bytes: int,
    seed: int,
    counts: Counter[str] | None = None,
) -> PartRecord:
    """One bz2 part of about ``xml_bytes`` of XML, pages numbered from ``first_page``.
    ``counts``, if given, is updated with the articles' tokens (for tests)."""
    rng = np.random.default_rng([seed, part])
    markup = Markup(rng)
    stream = TokenStream(np.random.default_rng([seed, part, 1]), sample_lexicon())
    comp = bz2.BZ2Compressor(9)
    chunks: list[bytes] = []
    written = pages = articles = tokens = 0
    page_id = first_page

    def emit(text: str) -> None:
        nonlocal written
        data = text.encode("utf-8")
        written += len(data)
        chunks.append(comp.compress(data))

    emit(XML_HEAD)
    while written < xml_bytes:
        kind = KINDS[int(rng.choice(len(KINDS), p=KIND_P))]
        title = f"{markup.title()} {page_id}"
        if kind == "redirect":
            target = f"{markup.title()} {int(rng.integers(1, page_id + 1))}"
            emit(_page(title, page_id, f"#REDIRECT [[{target}]]\n\n{{{{R from move}}}}", 0, target))
        elif kind == "other":
            ns = int(rng.choice([4, 10, 14]))
            prefix = {4: "Wikipedia", 10: "Template", 14: "Category"}[ns]
            text = f"{markup.template()} {markup.words('template', 40)}\n{markup.table()}"
            emit(_page(f"{prefix}:{title}", page_id, text, ns))
        else:
            if kind == "stub":
                n = int(rng.integers(5, MIN_ARTICLE))
            else:
                drawn = rng.lognormal(np.log(ARTICLE_MEDIAN), ARTICLE_SIGMA)
                n = int(min(MAX_ARTICLE, max(MIN_ARTICLE, drawn)))
            words = stream.take(n)
            emit(_page(title, page_id, article_wikitext(markup, words)))
            if kind == "article":
                articles += 1
                tokens += n
                if counts is not None:
                    counts.update(words)
        pages += 1
        page_id += 1
    emit(XML_TAIL)
    chunks.append(comp.flush())
    name = f"{wiki}-{date}-pages-articles{part}.xml-p{first_page}p{page_id - 1}.bz2"
    sha1, md5, size = hashlib.sha1(), hashlib.md5(), 0
    with atomic_path(Path(directory) / name) as tmp, open(tmp, "wb") as fh:
        for chunk in chunks:
            fh.write(chunk)
            sha1.update(chunk)
            md5.update(chunk)
            size += len(chunk)
    return PartRecord(
        name, size, sha1.hexdigest(), md5.hexdigest(), written, pages, articles, tokens
    )


def _write_part(kwargs: dict) -> PartRecord:
    return write_part(**kwargs)


# page ids per part: part k's pages are numbered from k * PAGE_ID_STRIDE + 1, so a part's
# name does not depend on how many pages the parts before it hold (parts run in parallel)
PAGE_ID_STRIDE = 10**8


def write_dump(
    directory: str | os.PathLike[str],
    *,
    xml_mb: float,
    parts: int,
    seed: int = 0,
    wiki: str = "synthwiki",
    date: str = "20190701",
    processes: int = 1,
) -> dict:
    """A dump of about ``xml_mb`` MB of XML in ``parts`` parts, with its dumpstatus.json
    and sha1sums.txt; returns the summary written to ``synthetic.json`` beside them."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    per_part = int(xml_mb * 1e6 / parts)
    jobs = [
        dict(directory=directory, wiki=wiki, date=date, part=k + 1,
             first_page=k * PAGE_ID_STRIDE + 1, xml_bytes=per_part, seed=seed)
        for k in range(parts)
    ]  # fmt: skip
    sample_lexicon()  # once, before any fork
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            records = list(pool.map(_write_part, jobs))
    else:
        records = [write_part(**job) for job in jobs]
    files = {
        r.name: {"size": r.size, "url": f"/{wiki}/{date}/{r.name}", "md5": r.md5, "sha1": r.sha1}
        for r in records
    }
    status = {"jobs": {"articlesdump": {"status": "done", "files": files}}, "version": "0.8"}
    (directory / "dumpstatus.json").write_text(json.dumps(status, indent=1) + "\n")
    (directory / f"{wiki}-{date}-sha1sums.txt").write_text(
        "".join(f"{r.sha1}  {r.name}\n" for r in records)
    )
    tokens = sum(r.tokens for r in records)
    summary = {
        "seed": seed,
        "parts": parts,
        "xml_bytes": sum(r.xml_bytes for r in records),
        "bz2_bytes": sum(r.size for r in records),
        "pages": sum(r.pages for r in records),
        "articles": sum(r.articles for r in records),
        "tokens": tokens,
        "expected_types_at_least_5": round(expected_vocabulary(tokens, 5)),
        "model": {"tail_s": TAIL_S, "tail_q": TAIL_Q, "head_min_count": HEAD_MIN_COUNT},
        "files": [r.__dict__ for r in records],
    }
    (directory / "synthetic.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary
