from learnability.tokenize import tokenize
from learnability.wikitext import strip_wikitext

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
