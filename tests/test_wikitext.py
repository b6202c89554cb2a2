import random
import re

from learnability.corpus import wikitext as W
from learnability.corpus.tokenize import tokenize
from learnability.corpus.wikitext import strip_wikitext

WIKITEXT = """{{Infobox person|name=Ada {{nested|deep}}|born=1815}}
'''Ada Lovelace''' was an [[England|English]] [[mathematician]]s and writer.<ref name="a">{{cite book|title=Secret}}</ref>
She worked on the [[Analytical Engine#Design|engine]].<ref>Hidden reference text</ref><ref name="b" />
[[File:Ada.jpg|thumb|A portrait of [[Ada Lovelace|Ada]] in hiddencaption]]
{| class="wikitable"
|-
| tablecell || {{flag|UK}}
|}
<!-- invisible comment -->
== Early life ==
* Born in [[London]]
See [http://example.org the website] and http://bare.example.com/x for more.
Math <math>x^2 + hiddenmath</math> and <small>small text</small> &amp; entities&nbsp;here.
[[Category:Mathematicians]]
[[de:Ada Lovelace]]
__NOTOC__
"""


def test_removed_and_kept():
    text = strip_wikitext(WIKITEXT)
    words = set(tokenize(text))
    # kept: prose, link anchors, link targets without anchors, headings, list items
    for w in [
        "ada",
        "lovelace",
        "english",
        "mathematicians",
        "engine",
        "early",
        "life",
        "london",
        "website",
        "small",
        "text",
        "entities",
        "here",
        "writer",
    ]:
        assert w in words, w
    # removed: templates (nested), refs, files with captions, tables, comments,
    # categories, interlanguage links, URLs, math, magic words
    for w in [
        "infobox",
        "nested",
        "deep",
        "secret",
        "hidden",
        "reference",
        "hiddencaption",
        "portrait",
        "tablecell",
        "wikitable",
        "invisible",
        "mathematicians_category",
        "example",
        "bare",
        "hiddenmath",
        "notoc",
        "de",
        "uk",
        "flag",
        "class",
        "1815",
        "england",
        "design",
        "analytical",
    ]:
        assert w not in words, w
    assert "Category" not in text and "{{" not in text and "<ref" not in text


def test_unclosed_template_does_not_swallow_article():
    text = strip_wikitext("Before {{broken template\nAfter the break {{ok}} end")
    assert tokenize(text) == ["before", "broken", "template", "after", "the", "break", "end"]


def test_link_trail_and_pipe():
    assert tokenize(strip_wikitext("Many [[cat]]s and [[a|b|c]]")) == ["many", "cats", "and", "c"]


def test_group_substitutions_equal_re_sub_on_random_wikitext():
    # Links, external links and headings are resolved with re.split (no Python call per
    # match); the result must be what re.sub with the group reference gives. The quote,
    # heading and list patterns are rewritten for speed; they must match what their
    # plain forms match.
    rng = random.Random(3)
    alphabet = ["[[", "]]", "[", "]", "|", ":", "#", "=", "==", " ", "\n", "a", "bc",
                "http://x.y", "//", "'", "''", "'''", "*", ";", "\t"]  # fmt: skip
    texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 30))) for _ in range(20_000)]
    texts.append(WIKITEXT)
    cases = [(W._PLAIN_LINK, 1), (W._PIPED_LINK, 1), (W._EXTERNAL_LINK, 1), (W._HEADING, 2)]
    matched = dict.fromkeys(range(len(cases) + 1), 0)
    for text in texts:
        for k, (pattern, group) in enumerate(cases):
            assert W._keep_group(pattern, text, group) == pattern.sub(rf"\{group}", text)
            matched[k] += pattern.search(text) is not None
        assert W._QUOTES.sub("", text) == re.sub(r"'{2,}", "", text)
        heading = re.sub(r"^(=+)\s*(.*?)\s*\1\s*$", r"\2", text, flags=re.MULTILINE)
        assert W._keep_group(W._HEADING, text, 2) == heading
        listed = re.sub(r"^[*#:;]+\s*", "", text, flags=re.MULTILINE)
        assert W._LIST_MARKER.sub("", text) == listed
        matched[len(cases)] += listed != text
    assert min(matched.values()) > 100  # every pattern matched many texts


# gensim's real Bulgarian fragment (UTF-16 XML): one article and two project pages whose
# file and category links use the local names ("Файл", "Категория") and a local alias of
# File that the siteinfo does not list ("Картинка")
BG_DUMP = (
    __import__("pathlib").Path(__import__("gensim").__file__).parent
    / "test" / "test_data" / "bgwiki-latest-pages-articles-shortened.xml.bz2"
)  # fmt: skip


def test_a_bulgarian_dump_names_its_namespaces_and_none_leaks_into_the_corpus(tmp_path):
    import gzip

    from learnability.corpus.extract import extract_corpus
    from learnability.corpus.mediawiki import iter_pages, read_namespaces

    namespaces = read_namespaces(BG_DUMP)
    assert {k: namespaces[k] for k in (-2, 0, 6, 14)} == {
        -2: "Медия",
        0: "",
        6: "Файл",
        14: "Категория",
    }
    assert namespaces[10] == "Шаблон" and len(namespaces) == 27
    drop = W.drop_prefixes(namespaces)
    assert {"медия", "файл", "категория", "file", "image", "media", "category"} == drop
    # file links' parameters and captions: none in any page's text, the project pages
    # (not extracted) included; their prose names categories in plain text, as headings
    pages = list(iter_pages(BG_DUMP))
    assert [p.ns for p in pages] == [0, 4, 4]
    files = re.compile(r"(?:файл|медия|картинка|image|file)\s*:|thumb|\d+px|"
                       r"\.(?:jpe?g|png|svg|gif)\b|usmivka|uhilen|lolcat", re.I)  # fmt: skip
    texts = [strip_wikitext(p.text, drop) for p in pages]
    for page, text in zip(pages, texts, strict=True):
        assert not files.findall(text), page.title
    # and in the article, not even the names
    names = re.compile(r"категория|файл|медия|картинка|image|file|category|мини")
    assert not names.findall(" ".join(tokenize(texts[0])))
    # what the local names and the file check catch: with neither, both leak
    english = strip_wikitext(pages[0].text, frozenset())
    assert "Категория:Календари" in english and "Категория" not in texts[0]
    # (File links under the alias, with their captions; "Ухилен съм" is one's caption)
    assert "Ухилен съм" in pages[2].text and "Ухилен съм" not in texts[2]
    # the workflow's extraction: the article, its prose kept, no leak
    stats = extract_corpus([BG_DUMP], tmp_path / "t.txt.gz", tmp_path / "s.json",
                           min_article_tokens=50)  # fmt: skip
    corpus = gzip.open(tmp_path / "t.txt.gz", "rt", encoding="utf-8").read()
    assert stats["articles"] == 1 and stats["skipped"]["non_article_namespace"] == 2
    assert "григорианският календар" in corpus and "папа григорий xiii" in corpus
    assert not names.findall(corpus) and not files.findall(corpus)
