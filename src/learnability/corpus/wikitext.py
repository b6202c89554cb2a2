"""Wikitext to plain text: remove markup that is not prose, keep what a reader would read.

Removed: comments, templates and parser functions (``{{...}}``, nested), tables
(``{|...|}``, nested), references and other non-prose elements (``<ref>``, ``<math>``,
``<gallery>``, ...), file/image/media links with their captions, category and
interlanguage links, bare URLs, magic words, HTML tags (their inner text is kept)
and bold/italic quotes. Kept: link anchor text (``[[target|anchor]]`` -> ``anchor``,
``[[target]]`` -> ``target``), external link labels, headings and list items as text.
"""

from __future__ import annotations

import html
import re

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# Elements whose content is not running prose, removed with their content.
_DROP_ELEMENTS = (
    "ref",
    "math",
    "chem",
    "ce",
    "gallery",
    "timeline",
    "score",
    "syntaxhighlight",
    "source",
    "pre",
    "code",
    "imagemap",
    "hiero",
    "graph",
    "mapframe",
    "maplink",
    "references",
    "templatedata",
    "inputbox",
    "categorytree",
)
_DROP_ELEMENT = re.compile(
    r"<(" + "|".join(_DROP_ELEMENTS) + r")\b[^>]*?(?:/>|>.*?</\1\s*>)",
    re.DOTALL | re.IGNORECASE,
)
_UNCLOSED_REF = re.compile(r"<ref\b[^>]*>", re.IGNORECASE)
_TEMPLATE_TOKEN = re.compile(r"\{\{|\}\}")
_TABLE_TOKEN = re.compile(r"\{\||\|\}")
_EXTERNAL_LINK = re.compile(r"\[(?:https?:|ftp:|//)[^\s\]]*\s*([^\]]*)\]", re.IGNORECASE)
_BARE_URL = re.compile(r"(?:https?|ftp)://[^\s\]|<>]+", re.IGNORECASE)
_INTERNAL_LINK = re.compile(r"\[\[([^\[\]]*)\]\]")
# The common links, resolved without a Python callback: [[target]] and [[target|anchor]]
# with no namespace colon in the target (what _link_text would return for them).
_PLAIN_LINK = re.compile(r"\[\[\s*([^\[\]|:#]*?)\s*\]\]")
_PIPED_LINK = re.compile(r"\[\[[^\[\]|:]*\|([^\[\]|]+)\]\]")
# The namespaces whose links are not prose (a file with its caption, a category), by
# number: -2 Media, 6 File, 14 Category. Every wiki accepts the canonical English names
# (and "Image", File's old name); a dump's siteinfo names the local ones (Bulgarian
# "Файл", "Категория"): :func:`drop_prefixes` joins the two.
DROP_NAMESPACE_KEYS = (-2, 6, 14)
CANONICAL_PREFIXES = frozenset({"file", "image", "media", "category"})
# A link to a media file under a namespace name the dump does not list (a local alias,
# such as Bulgarian "Картинка" for File) still names a file: dropped by its extension.
_MEDIA_FILE = re.compile(
    r"\.(?:jpe?g|png|svg|gif|tiff?|webp|xcf|ogg|ogv|oga|webm|mp3|wav|flac|opus|mid|midi"
    r"|pdf|djvu|stl)\s*$",
    re.IGNORECASE,
)
_INTERLANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[a-z]+)*$")
_TAG = re.compile(r"</?[a-zA-Z][^>\n]*?/?>")
# ''+ rather than '{2,}: the same matches, but a leading literal lets the regex engine
# skip to each apostrophe instead of trying the pattern at every position (7x faster)
_QUOTES = re.compile(r"''+")
# ^(=+)\s*(.*?)\s*\1\s*$ and ^[*#:;]+\s*, written to start with a literal or a class
# (the line start checked just after it): the regex engine then jumps to candidate
# characters instead of trying the pattern at every position (5x faster for headings).
_HEADING = re.compile(r"=(?<=^=)(=*)\s*(.*?)\s*=\1\s*$", re.MULTILINE)
_LIST_MARKER = re.compile(r"[*#:;](?<=^[*#:;])[*#:;]*\s*", re.MULTILINE)
_MAGIC_WORD = re.compile(r"__[A-Z]+__")
_RULE = re.compile(r"^-{4,}\s*$", re.MULTILINE)


def _remove_nested(text: str, token: re.Pattern[str], opener: str) -> str:
    """Remove balanced ``opener ... closer`` spans, nesting included.

    A closer with no opener is left as text; an opener never closed removes only itself,
    so one stray ``{{`` cannot swallow the rest of an article.
    """
    out: list[str] = []
    while True:
        depth = 0
        pos = 0  # start of the text not yet emitted
        start = 0  # where the outermost open span began
        for m in token.finditer(text):
            if m.group() == opener:
                if depth == 0:
                    out.append(text[pos : m.start()])
                    start = m.start()
                depth += 1
            elif depth > 0:
                depth -= 1
                if depth == 0:
                    pos = m.end()
        if depth == 0:
            out.append(text[pos:])
            return "".join(out)
        # The span opened at ``start`` never closed: drop its opener, rescan the rest.
        text = text[start + len(opener) :]


def _keep_group(pattern: re.Pattern[str], text: str, group: int = 1) -> str:
    """``pattern.sub(rf"\\{group}", text)``, for groups that take part in every match.

    ``re.split`` returns the text between matches with every group of each match, all
    from C; before Python 3.12, ``sub`` with a group reference called back into Python
    for each match, and links and headings are many matches per article.
    """
    pieces = pattern.split(text)
    step = pattern.groups + 1
    if step > 2:
        # the text between matches, interleaved with the one group (slices, no loop)
        between, kept = pieces[::step], pieces[group::step]
        pieces = between + kept
        pieces[::2], pieces[1::2] = between, kept
    return "".join(pieces)


def namespace_key(name: str) -> str:
    """A namespace name as links may write it: case-insensitive (MediaWiki compares the
    first letter so, and no two namespaces differ only in case), "_" for a space."""
    return " ".join(name.replace("_", " ").split()).lower()


def drop_prefixes(namespaces: dict[int, str]) -> frozenset[str]:
    """The link prefixes to drop for a wiki whose namespaces (number -> local name, from
    its dump's siteinfo) are ``namespaces``: the local names of Media, File and Category
    with the canonical English ones."""
    local = {namespace_key(namespaces[k]) for k in DROP_NAMESPACE_KEYS if namespaces.get(k)}
    return CANONICAL_PREFIXES | local


def _link_text(match: re.Match[str], drop: frozenset[str]) -> str:
    inner = match.group(1)
    target, _, label = inner.partition("|")
    target = target.strip()
    # (a leading colon, [[:Category:X]], makes a visible link: kept as text)
    if ":" in target and not target.startswith(":"):
        prefix, _, rest = target.partition(":")
        prefix = namespace_key(prefix)
        # a media file under a namespace alias; not an interwiki link to another wiki's
        # file ([[wikisource:File:X.pdf|label]] shows its label)
        media = ":" not in rest and _MEDIA_FILE.search(rest)
        if prefix in drop or _INTERLANGUAGE.match(prefix) or media:
            return ""
    if label:
        # [[File:...|thumb|caption]] was handled above; for a normal link the last
        # pipe-separated part is the anchor text.
        return label.rsplit("|", 1)[-1]
    return target.split("#", 1)[0] if not target.startswith("#") else target[1:]


def strip_wikitext(text: str, drop: frozenset[str] = CANONICAL_PREFIXES) -> str:
    """Return the readable prose of one article's wikitext, one paragraph or item per line.
    ``drop``: the namespace prefixes whose links are removed with their captions (the
    wiki's own, from :func:`drop_prefixes`; the English names by default)."""
    # Each pattern runs only where a cheap substring test says it can match: most
    # articles have no comment, URL, rule or magic word, and a regex scan of the whole
    # article costs far more than `in`.
    if "<!--" in text:
        text = _COMMENT.sub("", text)
    if "<" in text:
        text = _DROP_ELEMENT.sub("", text)
        text = _UNCLOSED_REF.sub("", text)
    if "{{" in text:
        text = _remove_nested(text, _TEMPLATE_TOKEN, "{{")
    if "{|" in text:
        text = _remove_nested(text, _TABLE_TOKEN, "{|")
    if "[" in text:
        text = _keep_group(_EXTERNAL_LINK, text)
    if "//" in text:
        text = _BARE_URL.sub("", text)
    # Innermost links first, so a link inside a file caption is resolved before the
    # file link itself is removed.
    if "[[" in text:
        text = _keep_group(_PIPED_LINK, _keep_group(_PLAIN_LINK, text))
    while "[[" in text:
        new = _INTERNAL_LINK.sub(lambda m: _link_text(m, drop), text)
        if new == text:
            break
        text = new
    if "<" in text:
        text = _TAG.sub("", text)
    if "&" in text:
        text = html.unescape(text)
    if "''" in text:
        text = _QUOTES.sub("", text)
    if "=" in text:
        text = _keep_group(_HEADING, text, 2)
    text = _LIST_MARKER.sub("", text)
    if "__" in text:
        text = _MAGIC_WORD.sub("", text)
    if "----" in text:
        text = _RULE.sub("", text)
    return text
