"""Text and schema helpers shared by the DESC rules and the TDQS heuristics (pure functions, no I/O)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

SHORT_CHARS = 20
"""DESC-001: a description under this many characters (after trimming) carries too little signal."""
LONG_CHARS = 500
"""A description over this many characters is probably doing the schema's job: document 000's bound, where the TDQS
conciseness score starts to fall and where DESC-002 fires under `--strict`."""
VERY_LONG_CHARS = 1000
"""DESC-002's bound in the default tier: twice document 000's. Between the two, length alone was rarely worth acting
on: in the groups labelled by hand before the lint ran, 13 of 73 such findings were true (docs/quality.md)."""

# Base forms of the verbs tool descriptions use to say what they do; inflections are matched by `stems`.
COMMON_VERBS = frozenset(
    """
    access add adjust aggregate allocate analyze append apply approve archive assign attach authenticate
    authorize backup block book build calculate call cancel capture change check clear clone close collect
    combine commit compare compile complete compress compute configure confirm connect convert copy count
    create decode decrypt delete deploy describe detect diff disable download duplicate echo edit enable
    encode encrypt enqueue evaluate execute explain export extract fetch filter find fix format generate get
    give grant group import index inspect install invite invoke issue join launch link list load locate lock
    log look lookup make manage mark measure merge modify monitor move notify open order parse patch pause
    ping play post predict preview print process publish pull purchase push put query queue read rebase
    receive record refresh register reject release reload remove rename render reorder replace reply report
    request reset resize resolve restart restore resume retrieve return revert review revoke rotate run save
    scan schedule score search select send set share show sign simulate sort split start stop store stream
    submit subscribe summarize swap switch sync tag test toggle track transcribe transfer transform translate
    trigger truncate unarchive undo unlink unlock unsubscribe update upload upsert validate verify view
    visit watch write
    accept allow answer ask browse choose demonstrate display draw drop emit ensure fill gather handle help hide
    insert keep let lint map match navigate obtain pick place plan prepare provide rank recommend remember
    reveal rollback route scrape seed serve shorten specify suggest supply take tell trim try turn use wait
    wrap zip unzip
    """.split()  # noqa: SIM905 (a word list reads better as prose than as 250 quoted strings)
)

_POSITIONAL = compiled(
    r"\b(?:see|as|shown|mentioned|described|listed|defined|explained)\s+(?:above|below|earlier|previously)\b"
    r"|\b(?:previous|preceding|prior|next|following|last|above|below|earlier)\s+(?:tool|function|command)s?\b"
    r"|\bthe\s+other\s+(?:tool|function|command)\b"  # one unnamed tool; "any/every other tool", "other tools" are all
    r"|\b(?:the\s+)?aforementioned\b|\bsame\s+as\s+(?:above|before)\b",
    re.IGNORECASE,
)
_POSITIONAL_WORDS = (
    "above",
    "below",
    "earlier",
    "previous",
    "preceding",
    "prior",
    "next",
    "following",
    "last",
    "other",
    "aforementioned",
    "before",
)
_RETURN_WORDS = compiled(
    r"\b(?:return|output|result|respon(?:se|d)|yield|echo(?:es|ed)?\s+back)"
    r"|\b(?:will be|is|are) (?:displayed|shown|printed)\b[^.\n]{0,60}\b(?:showing|with|listing)\b",
    re.IGNORECASE,
)
_ALSO_WRITES = compiled(
    r"\b(?:and|or|then)\s+(?:then\s+)?(?:replace|insert|update|delete|write|create|remove|modify|save|add|push"
    r"|append|send|upload|move|rename|archive|apply)s?\b",
    re.IGNORECASE,
)
"""A write joined to the read verb a sentence opens on ("Search for text and replace all occurrences", "List, get,
or create boards", "Download an attachment and save it"): the sentence writes, so its read says nothing of what
comes back."""
_OTHER_TOOLS_RESULT = compiled(
    r"\b(?:[a-z]+[-_][\w-]+|other|another|previous|that)\s+tool(?:'s)?\s+(?:respon\w*|results?|outputs?)\b",
    re.IGNORECASE,
)
"""Another tool's result ("If hubspot-list-objects tool's response isn't helpful"): says nothing of this tool's."""
_CODE = compiled(r"```.*?```|`[^`\n]*`", re.DOTALL)
"""Code in a description (`return r;` in a sample edit, a `Result` column): not prose about this tool's result."""
_NOT_THIS_RESULT = compiled(
    r"\b(?:[Ii]n\s+response\s+to|[Rr]espond(?:s|ed|ing)?\s+to)\b"  # "in response to user behavior"
    r"|\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z]\w*)\s+\(?(?:returns?|results?|outputs?|responses?)\b"
    r"|\breturned\s+by\s+`?(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z]\w*)\b"  # "one returned by get_currencies"
    r"|\breturns?\s+(?:an?\s+)?(?:HTTP\s+)?(?:error|`?[45]\d\d)\b(?:[^.\n]{0,40}?\bresponses?\b)?"  # "returns a 403"
    r"|\b(?:[45]\d\d\b[^.\n]{0,40}\b)?error\s+(?:responses?|results?|outputs?)\b"  # "a 411 ... error response"
    r"|\b(?:[Aa]dd|[Cc]reate|[Rr]ecord|[Pp]ost|[Ss]ubmit|[Ll]og)s?\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:results?|responses?)\b"  # "Add a test result to a run": the thing written
    r"|\boutputs?\s+(?:files?|director(?:y|ies)|folders?|dir)\b"  # "Saves output file to directory": written
    r"|\breturn(?:s|ed|ing)?\s+to\b"  # "close_prefab_stage to return to the main scene": going back
    r"|\b(?:only\s+returns?|returns?\s+only)\s+an?\s+(?:dry[- ]run\s+)?preview\b"  # a dry run's, not the write's
    r"|\breturns?\s+an?\s+dry[- ]run\s+preview\b"
    r"|\bReturns?:\s*(?:the\s+)?[Rr]esult\s+of\s+the\s+(?:[\w-]+\s+){0,3}operation\.?[ \t]*(?:\n|$)"  # a tautology
)
"""Return words that are not about this tool's result: "respond to", another tool's result named by its snake_case
or camelCase identifier ("when rename_symbol returns", "get_single_transaction (returns the parent ...)", "one
returned by get_supported_cryptocurrencies"; not a compound such as "anti-enumeration"), and what comes
back when the call fails ("returns a 403 Forbidden response if ...", "an HTTP 411 error response", "returns an
error"), which says nothing of what a call that succeeds gives back; a result or response the tool writes ("Add a
test result to a run", "Creates a request response"), an output file it saves, "return to" (going back), and a
`Returns:` section that says only "Result of the operation"."""
READ_VERBS = frozenset(
    """
    get show list read fetch retrieve search find lookup display view print echo query describe count calculate
    compute convert summarize translate preview inspect download analyze analyse compare capture extract
    diagnose identify check discover browse explore obtain detect scan rephrase paraphrase
    """.split()  # noqa: SIM905
)
"""DESC-010: a sentence that starts with one of these verbs names what comes back ("Shows the commit logs")."""
_WORD = compiled(r"[A-Za-z]+")
_TAG = compiled(r"^\s*(?:\[[^\]]{1,40}\]|[^\w\s]{1,3}\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+)?\s+[—–]\s+(?=[A-Z]))")
"""A tag a server puts before its sentence, bracketed (`[🎓 COURSE] Gets ...`) or a symbol and a word or two before a
dash (`🔒 Plus — List your saved recipes`): a label, not the verb."""
_CAMEL = compiled(r"([a-z])([A-Z])")
_ENUM_LEAD = compiled(
    r"\b(?:(?P<weak>(?:must|can|should)\s+be(?!\s*:|\s+(?:one\s+of|either)\b)|can\s+include)"
    r"|(?:must|can|should)\s+be(?=\s*:)"
    r"|one\s+(?:or\s+more\s+)?of(?:\s+the\s+following)?|^\s*any\s+of(?=\s+[\"'`])|either|options\s+are|options(?=\s*:)"
    r"|(?:allowed|valid|possible|accepted|supported|available)\s+(?:values?|options?|[a-z]+s\b(?=\s*:))"
    r"|(?:valid|available|supports?|gültige\s+werte)(?=\s*:)"
    r"|comma-separated(?=\s*:))\b\s*(?:is|are)?\s*:?\s*"
    r"(?P<tail>(?:[^.;()\n]|\([^().;\n]{1,40}\))*)",
    re.IGNORECASE,
)
_DEFAULT_NOTE = compiled(r",?\s*(?:the\s+)?default\s*(?:is|:|=)\s*\S+\s*$", re.IGNORECASE)
"""A closing note on which listed value is the default ("..., 'commit', default is 'load'"): not one more value."""
_EXAMPLES_ANYWHERE = compiled(r"e\.g\.|for example|for instance|such as", re.IGNORECASE)
_PAREN_VALUE = compiled(r"""\(\s*(?:(["'`])(?P<value>[^"'`()]{1,40})\1|(?P<constant>[A-Z][A-Z0-9_]{3,30}))\s*\)""")
"""A value in parentheses after the words that say what it means: quoted ("local branches ('local')") or an upper-case
constant of four characters or more ("public (GLOBAL) or private (PRIVATE)"; "(API)" is a short form, not a value)."""
_QUOTED_OR = compiled(
    r"""(?P<tail>(?:["'`][^"'`]{1,40}["'`]\s*,?\s*)+or\s+(?:an?\s+|the\s+)?["'`][^"'`]{1,40}["'`]"""
    r"""|(?:["'`][A-Za-z][\w.:-]{0,39}["'`](?:\s*\([^()\n]{1,30}\))?\s*,?\s*)+or\s+["'`][A-Za-z][\w.:-]{0,39}["'`])"""
)
"""Quoted values joined by "or" ('"json" or "csv"'), each word-like value perhaps with a note ('"limited" (AND) or
"extended" (OR)'); a date or a symbol with a note is a form ('2025-01-01T11:00:00' (timed) or '2025-01-02')."""
_EXAMPLES_LEAD = compiled(
    r"(?:e\.g\.|examples?|for instance|such as|like|in the format|format\s*[-–]|bad\b[^:]{0,20}:|instead of|not"
    r"|defaults? to)\W*$",
    re.IGNORECASE,
)
_QUOTED_ITEM = compiled(r"""["'`]([^"'`]{1,40})["'`]""")
_CONSTANTS = compiled(
    r"\((?P<list>\s*[A-Z][A-Z0-9_]+(?:\s*,\s*[A-Z][A-Z0-9_]+){2,}\s*"
    r"|\s*[A-Z][A-Z0-9_]{3,}\s*,\s*[A-Z][A-Z0-9_]{3,}\s*"  # (LATEST, ACTIVE): two, each a word of four or more
    r"|\s*[A-Z][A-Z0-9_]+(?:\s*,\s*[A-Z][A-Z0-9_]+)*,?\s+or\s+[A-Z][A-Z0-9_]+\s*"  # (DAILY or MONTHLY)
    r"|\s*(['\"`])[a-z][a-z0-9_]{1,40}\2(?:\s*,\s*(['\"`])[a-z][a-z0-9_]{1,40}\3)+\s*)"  # ('get_a', 'get_b')
    r"(?:;\s*default\b[^()\n]{0,40})?\)"  # ('on', 'moderate', 'off'; default: 'moderate')
)
_NOTE = compiled(r"\s*\([^()]*\)")
_ARTICLE = compiled(r"^(?:an?|the)\s+", re.IGNORECASE)
_LIST_SPLIT = compiled(r"\s*(?:,|\bor\b|\band\b|\|)\s*", re.IGNORECASE)
_QUOTED = compiled(r"""^["'`](?:[^"'`]{1,40}|[a-z][a-z0-9_]{40,80})["'`]$""")
_SENTENCE_END = compiled(r"(?<=[.!?])\s+|\n+")
_TOKEN = compiled(r"""^(?:["'`](?:[^"'`]{1,40}|[a-z][a-z0-9_]{40,80})["'`]|[\w./:+<>=!-]{1,30})$""")


def words(text: str) -> list[str]:
    """The lowercase alphabetic words of `text`."""
    return [w.lower() for w in _WORD.findall(text)]


def stems(word: str) -> Iterator[str]:
    yield word
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            yield word[: -len(suffix)] + repl


@lru_cache(maxsize=1024)  # DESC-004 and the purpose score ask of the same description
def has_common_verb(text: str) -> bool:
    """Whether `text` names an action: a word of the common-verb list (any regular inflection), or a sentence
    that opens with a word the English lexicon knows can be a verb ("Press a key", "Hover over an element", "Fork
    a repository", "Type text"). A sentence opening on a word that can be both ("Weather information") is read as
    the imperative tool descriptions almost always are: the rule flags what cannot be an action at all."""
    if any(stem in COMMON_VERBS for w in words(text) for stem in stems(w)):
        return True
    return any(_opens_with_verb(words(s)) for s in sentences(text))


def _opens_with_verb(ws: list[str]) -> bool:
    """Whether the first word can be a verb, also with an undoing or repeating prefix the lexicon lacks ("Unmute a
    host", "Uninstall an app", "Resync the index")."""
    if not ws:
        return False
    verbs = lexicon().verbs
    first = ws[0]
    return first in verbs or any(first.startswith(p) and first[len(p) :] in verbs for p in ("un", "re"))


def opening_verb(sentence: str) -> str | None:
    """The sentence's first word when it is a verb in the imperative or the third person ("Edit a comment", "Copies
    a page"), after a bracketed tag; None for a noun phrase, and for a past form that opens one ("Rebuilt order book
    at a moment"): the lexicon knows a base form by its third person (`edit`/`edits`, `copy`/`copies`)."""
    ws = words(_TAG.sub("", sentence, count=1))
    if not ws:
        return None
    first, verbs = ws[0], lexicon().verbs
    if first not in verbs:
        return None
    if first.endswith("s") and any(stem != first and stem in verbs for stem in stems(first)):
        return first
    third = (first + "s", first + "es", first[:-1] + "ies" if first.endswith("y") else "")
    return first if any(form in verbs for form in third) else None


class Lexicon(NamedTuple):
    """The English word forms lemminflect's lexicon knows can be a verb, and those it knows can be a noun."""

    verbs: frozenset[str]
    nouns: frozenset[str]


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The verb and noun forms of lemminflect's English lexicon.

    Read from the data file lemminflect ships (lemma_lu.csv.gz), without importing the package (its import pulls
    in numpy), by one regular-expression pass over the whole text (~0.1 s; a line-by-line reading into a set of
    parts of speech per word took 0.35-0.47 s): only a description with no common verb pays for it, once per
    process."""
    import gzip
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        return Lexicon(frozenset(), frozenset())
    data = Path(next(iter(spec.submodule_search_locations))) / "resources" / "lemma_lu.csv.gz"
    text = "\n" + gzip.decompress(data.read_bytes()).decode("utf-8")
    pairs = _LEXICON_LINE.findall(text)
    return Lexicon(frozenset(w for w, pos in pairs if pos == "v"), frozenset(w for w, pos in pairs if pos == "n"))


_LEXICON_LINE = compiled(r"\n([^,\n]+),(v|n)(?:erb|oun),")
"""A line of lemma_lu.csv: `word,verb,lemma` or `word,noun,lemma` (other parts of speech skipped)."""


@lru_cache(maxsize=1024)  # DESC-001, DESC-004, DESC-010 and DESC-006 ask of the same description
def english(text: str) -> bool:
    """Whether `text` is written in English, the only language the word-reading rules (DESC-004, DESC-010) can
    judge: a description in Chinese ("将经纬度坐标转换为地址信息") or in German ("Historische Agrar-Klimadaten für
    einen Standort") names its verb and result in words they cannot read, so they stay silent rather than flag it.
    Latin letters make it English unless its function words are another language's ("für", "und", "einen"; "para",
    "los"), more of them than English ones ("the", "of", "for")."""
    if not text.isascii():  # ASCII, the usual case, is decided without a walk over the characters
        if cjk := len(CJK_CHAR.findall(text)):  # a character of these scripts is about half a word: weigh words
            return 2 * len(_LATIN_WORD.findall(text)) > cjk  # (API names in Chinese prose do not make it English)
        letters = [c for c in text if c.isalpha()]
        if letters and 2 * sum(1 for c in letters if c.isascii() or "\u00c0" <= c <= "\u024f") < len(letters):
            return False
    prose = _CODE.sub(" ", text)
    ws = words(prose)
    foreign = sum(1 for w in ws if w in _FOREIGN_FUNCTION_WORDS)
    if not prose.isascii():  # "Ernteerträge", "según": a word with these letters is not English either
        foreign += len(_ACCENTED_WORD.findall(prose))
    return foreign < 3 or foreign <= sum(1 for w in ws if w in _ENGLISH_FUNCTION_WORDS)


_ACCENTED_WORD = compiled(r"\w*[äöüßñçãõàèéìòùâêîôûœ]\w*", re.IGNORECASE)


_ENGLISH_FUNCTION_WORDS = frozenset(
    "the of and to for with from by this that are or be it its will can on at when which if not your you".split()  # noqa: SIM905
)
_FOREIGN_FUNCTION_WORDS = frozenset(
    """
    und der das für mit von zu den dem des ein eine einen einer ist nicht auf oder im aus bei nach werden wird sind
    zum zur über auch als wie
    el la los las del y para con por una que es se al su sus desde según
    le les des du et pour avec une est sur dans au aux ou qui
    il gli di per che della nel
    os do da dos das em com uma um
    het een van voor met op naar niet
    """.split()  # noqa: SIM905
)
"""Words of German, Spanish, French, Italian, Portuguese and Dutch prose that English prose does not use (none of
one letter: "e.g." is two words here)."""


CJK_CHAR = compiled("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
CJK_WRITE = compiled(
    "作成|追加|変更|更新|削除|投稿|承認|拒否|退席|既読|未読|送信|登録|创建|添加|修改|删除|发送|提交|上传|アップロード"
    "|部署|销毁|绑定|解绑|开通|安装|卸载|重启"
)
CJK_READ = compiled("获取|取得|查询|検索|搜索|一覧|列出|查看|表示|读取|読み")
CJK_VERB = compiled(
    f"{CJK_WRITE.pattern}|{CJK_READ.pattern}|检索|転換|转换|変換|计算|計算|生成|分析|检查|検査|翻译|翻訳|发布|执行|実行|运行|调用"
    "|打开|关闭|启动|停止|设置|設定|导出|导入|下载|ダウンロード|する|します|して"
)
"""A verb of an action in Chinese or Japanese (DESC-001: a short description without one names a thing; DESC-006:
one with one names the object the tool acts on)."""
_LATIN_WORD = compiled("[A-Za-z\u00c0-\u024f]{2,}")


def positional_phrases(text: str) -> list[str]:
    """Phrases like "see above" or "previous tool" that only make sense in a particular tool order. A pointer that
    names no tool ("see below", "as above", "listed below") is the description's own when its text goes on in that
    direction, on a line before "above" or after "below" (a long description's sections: "Also returns
    `data.time_range` (see below)" above a "READING THE RESPONSE" section): only on a description's first line
    (for above) or last line (for below) has it nothing of its own to point at."""
    lower = text.lower()
    if not any(word in lower for word in _POSITIONAL_WORDS):  # the cheap test spares most texts the regex
        return []
    return [m.group(0) for m in _POSITIONAL.finditer(text) if not _points_inside(text, m)]


def _points_inside(text: str, match: re.Match[str]) -> bool:
    phrase = match.group(0).lower()
    if re.search(r"\b(?:tool|function|command)s?\b|\bsame\s+as\b|aforementioned", phrase):
        return False
    if phrase.endswith("below"):
        _, newline, rest = text[match.end() :].partition("\n")
        return bool(newline and rest.strip())
    return "\n" in text[: match.start()].strip()


@lru_cache(maxsize=1024)  # DESC-010 and the return_format score ask of the same description
def mentions_return(text: str) -> bool:
    """Whether `text` says what comes back: a return/output/result/response/yield word, "echoes back", a table or
    list that "will be displayed showing ...", or a sentence that starts with a read verb and names its object
    (`READ_VERBS`: "Shows the commit logs", "List Git branches", "This tool retrieves the property's metadata"; a
    bare "Search" names nothing, and a read joined to a write, "Search for text and replace all occurrences", is a
    write). A docstring's `Args:` section is not read: its lines describe the arguments ("max_tokens: Maximum output
    tokens", "display_name: Display name")."""
    text = _CODE.sub(" ", text) if "`" in text else text
    text = _without_arguments_section(text)
    said = _OTHER_TOOLS_RESULT.sub(" ", text) if "tool" in text.lower() else text
    if _RETURN_WORDS.search(_NOT_THIS_RESULT.sub(" ", said)):
        return True
    if _CRUMBS.match(text):  # "[Feishu/Lark]-Docs-Base-Field-List fields-Get all fields ...": one step per segment
        text = _CRUMB_STEP.sub(". ", text)
    return any(
        len(w) > 1 and has_verb_in(w[0], READ_VERBS) and not _ALSO_WRITES.search(" ".join(w[1:8]))
        for w in (_subject_dropped(s) for s in sentences(text))
    ) or any(_MAPS_TO.match(s) for s in sentences(text))


_MAPS_TO = compiled(r"^(?:resolve|map|expand)s?\s[^,;:.]{1,60}?\s(?:to|into)\s", re.IGNORECASE)
"""An opening that names its result after "to" or "into": "Resolve a place_id to normalized address and
coordinates", "Map IP addresses to ASN/organization", "Expand a UK postcode into every delivery point"."""


def _without_arguments_section(text: str) -> str:
    """`text` without its docstring-style `Args:` section (`arguments_section`): its lines describe the arguments
    ("max_tokens: Maximum output tokens", "display_name: Display name"), not the result."""
    found = arguments_section(text)
    return text if found is None else text[: found[0]] + text[found[2] :]


_CRUMBS = compiled(r"^\s*\[[^\]]{1,40}\]-\w")
"""A description written as a breadcrumb after a bracketed tag, its parts joined by hyphens ("[Feishu/Lark]-Docs-
Base-Field-List fields-Get all fields according to app_token"): the last parts say what the tool does."""
_CRUMB_STEP = compiled(r"(?<=[\w)])-(?=[A-Z\[])")


def _subject_dropped(sentence: str) -> list[str]:
    """A sentence's words without a leading "This tool", "It", "Use this ... to", a bracketed tag or an adverb
    ("Automatically detect ..."), or the "will" after them ("This tool retrieves detailed information about a
    property" reads as "retrieves detailed information ...", "This tool will retrieve a discount" as "retrieve a
    discount", "Use this as the primary tool to list the log names" as "list the log names", "[COURSE] Gets the
    status" as "Gets the status"): the verb that follows says what the tool does."""
    ws = words(_TAG.sub("", sentence))
    if ws[:2] in (["use", "this"], ["call", "this"]) and "to" in ws[2:8]:
        return ws[ws.index("to", 2) + 1 :]
    if ws[:2] in (["this", "tool"], ["the", "tool"]):
        ws = ws[2:]
    elif ws[:1] == ["it"]:
        ws = ws[1:]
    if ws and len(ws[0]) > 4 and ws[0].endswith("ly") and ws[0] not in _LY_VERBS:  # "Automatically detect ..."
        ws = ws[1:]
    return ws[1:] if ws[:1] in (["will"], ["can"]) else ws  # "This tool will retrieve a discount": the verb is next


_LY_VERBS = frozenset("apply reply supply multiply comply imply rely tally rally bully".split())  # noqa: SIM905
"""Verbs that end in -ly, which an opening adverb ("Automatically", "Recursively") is not."""


def has_verb_in(text: str, verbs: frozenset[str]) -> bool:
    """Whether a word of `text` (camelCase, snake_case and kebab-case split) is one of `verbs`, in any inflection."""
    return any(stem in verbs for w in words(_CAMEL.sub(r"\1 \2", text)) for stem in stems(w))


@lru_cache(maxsize=4096)  # argument and tool names, asked of by several rules each
def normalized(text: str) -> str:
    """Lowercase words joined by single spaces: `getWeather`, `get_weather.` and `Get weather` normalize alike."""
    return " ".join(words(_CAMEL.sub(r"\1 \2", text)))


def prose_enum(text: str) -> list[str] | None:
    """The fixed set of values a description spells out ("one of open, closed, or pending"), if any.

    A plain "must/can/should be" only counts when the values are quoted ("can be 'json' or 'csv'"): "can be absolute
    or relative" describes a path, not a value set; with a colon ("Can be: list, board") it introduces the set, as
    "Options:" does, and "Can be one of: ..." reads as "one of", as "One or more of" does; "Can include" counts with
    quoted values. A closing note on the default (", default is 'load'") is no value, nor is a note on whether the
    argument is required ("- REQUIRED", "(required)"), nor a value's note that it is the default ("list (default) |
    get | set", "json|markdown|html (default: json)"). A note that opens on a qualifier of three words or fewer
    ("Optional.", "Grafana-managed only.") is read from its next sentence as a note of its own ("Optional. Filter by
    type: 'iso', 'vztmpl', 'backup'"), unless it gives examples. A list introduced by "e.g." or "such as" is
    examples, not a set.
    """
    first = next(prose_value_sets(text), None)
    if first is not None and _OPEN_TAIL.match(text, first[0][1]):  # "Available: 'a', 'b'. Or a numeric category id."
        return None
    found = first[1] if first is not None else None
    if found is not None or not text:
        return found
    plain = _DEFAULT_PAREN.sub("", text) if "(" in text else text  # "list (default) | get | set | delete"
    plain = _REQUIRED_NOTE.sub("", plain) if "equired" in plain or "ptional" in plain else plain
    if plain != text:
        found = next((values for _, values in prose_value_sets(plain)), None)
    parts = sentences(plain) if found is None and "." in plain[:40] and not _EXAMPLES_ANYWHERE.search(plain) else ()
    if len(parts) > 1 and len(parts[0].split()) <= 3:  # "Optional. Filter by type: 'iso', 'vztmpl', 'backup'"
        note = next(_note_value_sets(parts[1]), None)
        if note is not None and _OPEN_TAIL.match(" ".join(parts[1:]), note[0][1]):
            return None
        found = note[1] if note is not None else None
    return found


def _note_value_sets(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """The value sets of the readers that take a whole note (`prose_value_sets`'s anchored ones), for a sentence
    read as a note of its own."""
    yield from _leading_values(text)
    yield from _explained_values(text)
    yield from _bare_list(text)
    yield from _labelled_list(text)
    yield from _whole_note_list(text)


_REQUIRED_NOTE = compiled(r"\s*(?:\((?:required|optional)\)|[-–—]\s*(?:required|optional)\b)", re.IGNORECASE)
"""A note on whether the argument must be given ("(s3, iotsitewise) - REQUIRED", "ASSET or COMPUTATION_MODEL
(required)"): no value."""
_DEFAULT_PAREN = compiled(r"\s*\((?:the\s+)?default(?:\s*(?:is|:|=)\s*[^()\n]{1,40})?\)", re.IGNORECASE)
"""A value's note that it is the default ("list (default) | get", "json|markdown|html (default: json)"): no value."""


def prose_value_sets(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """Every value set `prose_enum` recognises in `text`, with the span of its lead phrase and list. A list wrapped
    onto the next line after a comma ("One of: get_workload_estimate,\\n list_workload_estimates, ...") is read
    as one line."""
    text = unwrap_lists(text)
    if "``" in text:  # reStructuredText literals (``"pubmed"``, ``json``), as Sphinx docstrings write values
        text = _RST_LITERAL.sub(lambda m: m["quoted"] or f"`{m['bare']}`", text)
    yield from _parenthesised_values(text)
    yield from _coded_values(text)
    yield from _quoted_bullets(text)
    yield from _leading_values(text)
    yield from _explained_values(text)
    yield from _bare_list(text)
    yield from _labelled_list(text)
    yield from _whole_note_list(text)
    yield from _bulleted_values(text)
    if "(" in text:
        yield from _constant_list(text)
    candidates = [m for m in _ENUM_LEAD.finditer(text)] + [m for m in _QUOTED_OR.finditer(text)]
    for match in candidates:
        if _EXAMPLES_LEAD.search(text[: match.start()][-30:]):
            continue
        tail = _DEFAULT_NOTE.sub("", match.group("tail")).strip(" :")
        quoted = _QUOTED_ITEM.findall(tail) if match.re is _QUOTED_OR else []
        if quoted:  # '"or" or "and"': the separators are outside the quotes, the values inside
            yield match.span(), quoted
            continue
        tail = _NOTE.sub("", tail) if "(" in tail else tail  # `BACK (android only), HOME`: a value's note
        items = [_ARTICLE.sub("", i) for i in _LIST_SPLIT.split(tail) if i]
        token = _QUOTED if match.groupdict().get("weak") else _TOKEN
        if len(items) >= 2 and all(token.match(i) for i in items):
            yield match.span(), [i.strip("\"'`") for i in items]


_LEADING = compiled(
    r"""^\s*(?P<list>["'`][\w.-]{1,40}["'`](?:\s*\([^)\n]{0,60}\))?"""
    r"""(?:\s*(?:,|/|\bor\b|,\s*or\b)\s*["'`][\w.-]{1,40}["'`](?:\s*\([^)\n]{0,60}\))?)+)"""
)


_OPEN_TAIL = compiled(r"[\s,.]*(?:or|oder)\s+(?:an?|any|another|other|eine?)\s", re.IGNORECASE)
"""A list left open by a last alternative that is a kind of value: "'dhcp', 'manual', or a static CIDR like ...",
"Verfügbar: 'kultur', 'museen'. Oder eine numerische Kategorie-ID."."""


def _leading_values(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """A note that opens on the values themselves, quoted, each perhaps with what it takes in parentheses:
    `"list" (no args), "get" (board_id_or_name), "create" (name, desc?)`, `"archive"/"unarchive" (card)`; values
    written as commands (lower-case words), since `"Sheet1" (name) or "0" (index)` shows samples of two forms; a
    last alternative that is a kind of value ("'dhcp', 'manual', or a static CIDR like ...") leaves the set open."""
    match = _LEADING.match(text)
    if match and not _OPEN_TAIL.match(text, match.end()):
        values = _QUOTED_ITEM.findall(re.sub(r"\([^)]*\)", "", match.group("list")))
        if all(re.fullmatch(r"[a-z][a-z0-9_-]*", v) for v in values):  # `"Sheet1" (name) or "0" (index)`: samples
            yield match.span(), values


_EXPLAINED = compiled(
    r"""(?:^|[,;]\s*|\.\s+|\bor\s+)["'`](?P<value>[+-]?[A-Za-z][\w-]{0,30})["'`]\s*(?:\([^()\n]{1,40}\)\s*)?"""
    r"(?:for|returns?|gives|means|to|=|:|—|–)\s",
)


_DASHED_LABEL = compiled(r"^(?:[A-Z][\w' ]{0,40}?(?:\s[-–—]|:)\s+)?(?:use\s+)?(?=[\"'`])", re.IGNORECASE)


def _coded_values(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """Two or more quoted codes, each with what it means in parentheses, after the note's short label and a dash or a
    colon, to the note's end: "Site type code — 'ST' (stream, default), 'LK' (lake), 'SP' (spring).", "USGS
    parameter code — '00060' (discharge, default) or '00065' (gage height)."."""
    found = _CODED.search(text) if "(" in text else None
    if found is not None:
        yield found.span("list"), [m["value"] for m in _CODE_WITH_NOTE.finditer(found["list"])]


_CODE_WITH_NOTE = compiled(r"""["'`](?P<value>[A-Za-z0-9_]{1,12})["'`]\s*\((?=[^()\n]*[A-Za-z]{3})[^()\n]{1,40}\)""")
_ONE_CODE = _CODE_WITH_NOTE.pattern.replace("?P<value>", "?:")
_CODED = compiled(
    rf"^[^.:\n]{{1,60}}?(?:\s[-–—]|:)\s+(?P<list>{_ONE_CODE}(?:\s*(?:,\s*(?:or\s+)?|or\s+){_ONE_CODE})+)"
    r"\s*(?:[.;]|$)"
)


def _explained_values(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """A note that opens on a quoted value and what it does, then names the others the same way: '"standard" for
    full output, "minimal" for compact summary', '"standard" (default) returns full flow data; "minimal" returns
    only ...': each value a lower-case word in quotes, at the note's start (or after a short label and a dash:
    "Output format - 'json' returns ...") or after a comma, a semicolon, a sentence end or "or", followed by what it
    gives."""
    label = _DASHED_LABEL.match(text)  # "Output format - 'json' returns a list, 'text' a string"
    skip = label.end() if label and not _EXPLAINED.match(text) else 0
    first = _EXPLAINED.match(text[skip:])
    if first is None:
        return
    values = list(dict.fromkeys(m["value"] for m in _EXPLAINED.finditer(text[skip:])))
    if len(values) >= 2:
        yield (skip + first.start(), len(text)), values


_BARE_ITEM = r"[a-z0-9][a-z0-9_.-]{0,30}(?:[A-Z][a-z0-9]+){0,3}(?:\s*\([^()\n]{1,60}\))?"
_BARE_LIST = compiled(
    rf"^\s*(?:[a-z]+(?:\s+only)?(?:,\s*(?:required|optional))?\s*:\s*"  # "polyhaven only: ", "polyhaven, optional: "
    rf"|[A-Z][a-z]+(?:\s[a-z]+){{0,2}}\s[-–—]\s+)?"  # "Test type - short, long, or conveyance"
    rf"(?P<list>{_BARE_ITEM}(?:\s*,\s*{_BARE_ITEM})+,?\s+or\s+{_BARE_ITEM})\s*(?:[.;]|$)"
)
_SLASH_PAIR = compiled(r"^[^()\n]{1,40}\((?P<list>[a-z]{2,12}(?:/[a-z]{2,12}){1,3})\)\s*\.?\s*$")


_LEADING_CONSTANTS = compiled(
    r"(?:^|—|–|\s-\s)\s*(?P<list>[A-Z][A-Z0-9_]{3,}(?:\s*,\s*[A-Z][A-Z0-9_]{3,})*,?\s+or\s+[A-Z][A-Z0-9_]{3,})\s*(?:[.;]|$)"
)
"""A note that opens on upper-case constants joined by "or", or lists them after a dash ("The type of analysis —
MAX_SAVINGS, CUSTOM_COMMITMENT, or TARGET_AVERAGE_COVERAGE."), each of four characters or more so that it reads as
a constant and not a short form word ("ONE_YEAR or THREE_YEARS.", "PAYER or LINKED.", not "ID or URL")."""


def _bare_list(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """A note that is nothing but the values: "polyhaven, sketchfab or polypizza.", "auto (default), tripo,
    hunyuan3d, hyper3d or meshy", "polyhaven only: hdris, textures, models or all" (three or more lower-case words,
    the last joined by "or", each perhaps with a note in parentheses); or a name with its values in parentheses,
    slashed: "Sort direction (asc/desc)"."""
    constants = _LEADING_CONSTANTS.search(text)
    if constants:
        yield constants.span(), _split_values(constants.group("list"))
        return
    match = _BARE_LIST.match(text) or _SLASH_PAIR.match(text)
    if match:
        listed = _NOTE.sub("", match.group("list"))
        yield match.span(), _split_values(listed)


_LISTED_WORD = r"[A-Za-z][a-z0-9_]{1,19}"
_NAMED_LIST = compiled(
    rf"^\s*(?:[A-Za-z][\w-]*\s+){{1,5}}\((?P<list>{_LISTED_WORD}(?:\s*,\s*{_LISTED_WORD})*(?:\s*,)?\s+or\s+{_LISTED_WORD}"
    rf"|{_LISTED_WORD}(?:\s*,\s*{_LISTED_WORD}){{2,}})\)\s*(?:[.;:]|$)"
)
"""A note that names the argument in a few words, then words in parentheses: "File format to download (fastq,
submitted, or sra).", "Filter by severity (Chat, Note, Warn, Error)"; but also "Repository owner (username or
organization)", kinds of value, which is why `named_values` alone decides nothing."""


def named_values(text: str) -> list[str] | None:
    """The words a note lists in parentheses after a few words naming the argument (`_NAMED_LIST`), or None. They
    may be the values or kinds of value ("Start time (absolute or relative)"): the caller asks the schema (a
    `default` or `examples` among them) before calling them a set."""
    match = _NAMED_LIST.match(text)
    return _split_values(match.group("list")) if match else None


_ITEM = r"""(?:["'`][\w.=!~-]{1,30}["'`]|[\w.=!~-]{1,30})(?:\s*\([^()\n]{1,60}\))?"""
_LABELLED_LIST = compiled(
    rf"^\s*(?P<label>[A-Za-z][\w '-]{{0,50}}?)(?:\s*:|\s+[-–—])\s*(?P<list>{_ITEM}(?:\s*,\s*{_ITEM})*,?\s+or\s+{_ITEM}"
    rf"|{_ITEM}(?:\s*/\s*{_ITEM}){{2,}}|{_ITEM}(?:\s*,\s*{_ITEM}){{2,}}|[A-Z][A-Z0-9_]{{2,}}\s*,\s*[A-Z][A-Z0-9_]{{2,}})"
    rf"\s*(?:[.;(]|$)"
)
_TWO_WORDS = compiled(r"^\s*(?P<list>[a-z][\w-]{1,20}\s+or\s+[a-z][\w-]{1,20})\s*\.?\s*$")


def _labelled_list(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """A note that names what the value is, a colon (or a dash: "Currency code — NGN, GHS, or KES"), then nothing
    but the values: "Sort column: criticality, depth, node_count, or name.", "Theme for the rendered image: light or
    dark", "Query type: 'range' (default) or 'instant'", "priority: low/normal/high/urgent" (three or more slashed,
    or joined by commas); or a note that is only two words joined by "or" ("asc or desc.", "proxy or direct"). A
    label that introduces examples ("Example:", "e.g.:"), a note, a default or a syntax is not a set's."""
    match = _LABELLED_LIST.match(text)
    if match and not _EXAMPLES_LEAD.search(match["label"] + ":") and not _NOT_A_SET_LABEL.search(match["label"]):
        listed = _NOTE.sub("", match["list"])
        values = _split_values(listed)
        if len(values) >= 2 and values[-1].lower() not in ("etc", "...") and not _forms_of_value(values):
            yield match.span("list"), values  # "edit, server, client-1, etc": open; "name or number": forms
        return
    two = _TWO_WORDS.match(text)
    if two and not _forms_of_value(_split_values(two["list"])):
        yield two.span("list"), _split_values(two["list"])


def _forms_of_value(values: list[str]) -> bool:
    """Whether listed words are the forms a value may take, not values ("Today's municipality: name or number",
    "id or slug"): the agent writes a name or a number, whichever it has."""
    return all(v.strip("'\"`").lower() in _VALUE_FORMS for v in values)


_VALUE_FORMS = frozenset(
    """
    name names number numbers id ids identifier code codes slug url uri path email username title key uuid label
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)


_BULLET_LEAD = compiled(
    r"\b(?:optional|allowed|valid|possible|supported|accepted)\s+values(?:\s+are)?\W{0,4}:", re.IGNORECASE
)
_BULLET_VALUE = compiled(r"(?:^|(?<=[\s\w.)*]))-\s*(`?)(?P<value>[A-Za-z0-9_.-]{1,40})\1(?=\s*(?::|-|$))")
_BULLETS_END = compiled(r"\*\*|\n\s*\n")


_RST_LITERAL = compiled(r"""``(?:(?P<quoted>(["'])[^"'`\n]{1,40}\2)|(?P<bare>[^`\n]{1,40}))``""")
_QUOTED_BULLET = compiled(r"""^[ \t]*[-*•][ \t]*(["'])(?P<value>[^"'`\n]{1,40})\1[ \t]*(?::|\(|[-–—])""", re.MULTILINE)
_SAMPLES_LEAD = compiled(r"\b(?:common|typical|example|e\.g\.|such as|for instance|like)\b", re.IGNORECASE)
_BULLET_LINE = compiled(r"^[ \t]*[-*•][ \t]", re.MULTILINE)


def _quoted_bullets(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """Values listed as the bullets of a note, each quoted and then explained ('- "any": kept if any field matches',
    '- "all": kept only if all match'), with no lead phrase: every bullet of the note opens on a quoted value, and
    nothing before them calls them common values or examples."""
    found = list(_QUOTED_BULLET.finditer(text))
    if len(found) < 2 or _SAMPLES_LEAD.search(text[: found[0].start()]):  # "Common values:\n - "AWS/EC2": ..."
        return
    if len(found) == len(_BULLET_LINE.findall(text)):
        yield (found[0].start(), found[-1].end()), [m["value"] for m in found]


def _bulleted_values(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """Values listed as bullets after "Optional values are:" or "Valid values:", each a word (or a backticked word)
    after a hyphen, perhaps with what it means after a colon, as Lark's OpenAPI server writes them ("**Optional
    values are**:- `private`: A private group- `public`: A public group", "**Optional values**:- text- post-
    image") and as docstrings list them ("Valid values:\n - create: Create a new resource\n - replace: ...")."""
    lead = _BULLET_LEAD.search(text)
    if lead is None:
        return
    start = lead.end()
    end = _BULLETS_END.search(text, start + 2)
    body = text[start : end.start() if end else len(text)]
    values = [m["value"] for m in _BULLET_VALUE.finditer(body)]
    if len(values) >= 2 and values[-1].lower() != "etc":
        yield (lead.start(), start + len(body)), values


MCP_CONTENT_MODELS = frozenset(["TextContent", "ImageContent", "AudioContent", "EmbeddedResource", "ResourceLink"])
"""The MCP SDK's content-block models, by the names a framework gives their `$defs`."""
MCP_MODELS = MCP_CONTENT_MODELS | {
    "CallToolResult",
    "TextResourceContents",
    "BlobResourceContents",
    "Annotations",
    "Icon",
}
"""The MCP SDK's own models a framework puts in a schema's `$defs` (a result's content blocks, or every model a
leaked `ctx` parameter of type CallToolResult reaches)."""


_VALUE_WORD = r"[A-Za-z][\w.-]{0,40}"
_QUOTED_WORD = rf"[\"'`]{_VALUE_WORD}[\"'`]"
_WHOLE_NOTE_LIST = compiled(
    rf"^\s*(?:[A-Z][\w ]{{0,30}}:\s*|\[[\w ]{{1,20}}\]\s*|[A-Za-z][\w ]{{0,30}}\s[—–]\s*)?"  # "Mode: ", "[system] "
    rf"(?P<list>{_VALUE_WORD}(?:\s*\|\s*{_VALUE_WORD})+"  # "auto | literal | regex"
    rf"|{_QUOTED_WORD}(?:\s*\|\s*{_QUOTED_WORD})+"  # '"all" | "annual_report" | "earnings_call"'
    rf"|{_VALUE_WORD}(?:/{_VALUE_WORD}){{1,}}/{_VALUE_WORD}(?:\s[A-Z][a-z]+)?"  # "low/normal/high", ".../In Progress"
    rf"|[A-Z][A-Z0-9_]+(?:\s*,\s*[A-Z][A-Z0-9_]+){{2,}}"  # "COUNT, SUM, AVG, MIN, MAX"
    rf"|[a-z][a-z0-9_]+(?:\s*,\s*[a-z][a-z0-9_]+){{3,}}(?=\s+[—–]))"  # "new, open, pending, hold — leave empty..."
    rf"\s*(?:\([^()\n]{{1,60}}\))?\s*(?:[.;]\s*$|[.;]?$|[—–]\s)"
)
_WORDS_IN_PARENTHESES = compiled(
    r"^(?P<lead>[A-Za-z][^()\n.:;]{2,60}?)\s*\((?P<list>[A-Za-z][\w-]{1,30}(?:\s*,\s*[A-Za-z][\w-]{1,30})+"
    r"|[A-Za-z][\w-]{1,30}\s+or\s+[A-Za-z][\w-]{1,30})\)\s*(?:[.;](?:\s|$)|$)"
)


def _whole_note_list(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """A note that is nothing but the values, piped ("auto | literal | regex", "[system] error|warning|info",
    "Filter mode: updated_by | created_by"), slashed ("new/open/pending/hold/solved/closed"; three or more), or
    upper-case constants joined by commas ("COUNT, SUM, AVG, MIN, MAX"), or four or more lower-case words before a
    dash ("new, open, pending, hold — leave empty for all"); or a note of a few words naming a kind of choice
    (`_KIND_WORDS`), then the values in parentheses, and nothing after in its sentence: "Filter by tag status
    (Active, Inactive)", "Type of resource (cluster, node, pod, namespace, service)", "How Grafana should access
    the datasource (proxy or direct)". A list ending on "etc" is open: no set."""
    found = _WHOLE_NOTE_LIST.match(text)
    if found is None:
        found = _WORDS_IN_PARENTHESES.match(text)
        lead = words(found["lead"]) if found is not None else []
        if found is not None and (len(lead) > 8 or not _KIND_WORDS.intersection(lead) or "etc" in found["list"]):
            found = None
    if found is not None:
        values = _split_values(found["list"].replace("|", "/"))
        if len(values) >= 2 and values[-1].lower() != "etc":
            yield found.span("list"), values


_KIND_WORDS = frozenset(
    """type types kind status state mode level scope direction access category priority visibility policy strategy
    order sort style format""".split()  # noqa: SIM905
)
"""The words by which a short note names a choice among kinds ("Filter by tag status (Active, Inactive)"); a note
that names a thing instead ("Repository owner (username or organization)", "Optional end timestamp (RFC3339 or
Unix)", "Automation event ID (get_a, list_b)") lists its forms or the operations it serves, not its values."""


_NOT_A_SET_LABEL = compiled(
    r"\b(?:examples?|e\.g|note|default|see|usage|pattern|syntax|popular|common|typical|some)\b", re.IGNORECASE
)
"""A label that introduces something other than the set: examples, a note, a syntax, or a few of the values
("Popular: 'games', 'ai-machine-learning'", "Common values: ...")."""


def _split_values(listed: str) -> list[str]:
    """The values of a list written "a, b, or c", "a/b/c" or "'a' or 'b'": split at commas, slashes and "or", each
    without its quotes, surrounding spaces or closing period."""
    return [v for v in (p.strip(" \"'`.") for p in _VALUE_SEPARATOR.split(listed)) if v]


_VALUE_SEPARATOR = compiled(r"\s*(?:,\s*or\b|,|/|\bor\b)\s*")


def _constant_list(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """ "Logging level (DEBUG, INFO, WARNING, ERROR)", "HTTP method to use (GET, POST, PUT, DELETE)": three or more
    upper-case constants in parentheses right after the few words that name the argument (at most five): the
    argument's own values. Deeper in the text such a list is about something else ("boolean operators (AND, OR,
    ANDNOT)" of a query syntax, "binary files (PNG, JPG, PDF)"), and a note on a comma-separated value that writes
    one in parentheses ("Comma-separated competition codes (PL,BL1,SA)") shows a sample."""
    match = _CONSTANTS.search(text)
    if match is None or len(words(text[: match.start()])) > 8 or _EXAMPLES_LEAD.search(text[: match.start()][-30:]):
        return
    if "comma" in text.lower() and re.search(r",\S", match.group("list")):
        return  # "Comma-separated competition codes (PL,BL1,SA)": one sample of the comma-separated form
    if len(_SAMPLED_FORMS.findall(text)) < 2:
        yield match.span(), _split_values(match.group("list"))


_SAMPLED_FORMS = compiled(r"\b(?:a|an)\s+[^(),;:.]{1,40}\(")
"""Kinds of value, each with samples in parentheses: "Accepted: a kernel name ('sda', 'nvme0n1'), a bare NVMe
controller ('nvme0'), ...": the forms a value takes (two or more), not the set of values."""


def _parenthesised_values(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """ "local branches ('local'), remote branches ('remote') or all branches ('all')": two or more quoted values in
    parentheses, in one sentence, the last joined by "or" (a closed set, not a list of examples)."""
    found = list(_PAREN_VALUE.finditer(text))
    if len(found) < 2 or _EXAMPLES_ANYWHERE.search(text[: found[0].start()][-40:]):
        return
    between = text[found[-2].end() : found[-1].start()]
    if re.search(r"\bor\b", between, re.IGNORECASE) and not re.search(
        r"[.;!?]\s", text[found[0].end() : found[-1].start()]
    ):
        yield (found[0].start(), found[-1].end()), [m.group("value") or m.group("constant") for m in found]


@lru_cache(maxsize=1024)  # a tool description, split by a dozen rules
def sentences(text: str) -> tuple[str, ...]:
    """The sentences of `text` (split after . ! ? followed by whitespace, and at line breaks), non-empty ones."""
    return tuple(s.strip() for s in _SENTENCE_END.split(text) if s.strip())


def nearest_name(sentence: str, span: tuple[int, int], names: Iterable[str]) -> str | None:
    """The name mentioned (as a whole word) closest to `span` in `sentence`; None when none is, or on a tie.

    This is how a phrase of a tool description ("must not be empty", "one of a, b") is tied to one argument.
    """
    gaps: dict[str, int] = {}
    for name in names:
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence):
            gap = max(span[0] - m.end(), m.start() - span[1], 0)
            gaps[name] = min(gap, gaps.get(name, gap))
    ranked = sorted(gaps.items(), key=lambda kv: kv[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


CODE_NAME = compiled(r"[a-z0-9]_[a-z0-9]|[a-z][A-Z]")
"""An argument name no prose word is (`due_at`, `fromDate`): found bare in a sentence, it names the argument."""
SELECTORS = frozenset(["operation", "action", "command", "op", "mode", "method"])
"""Names of the argument that picks one of a multi-operation tool's operations (`operation: "get_credits"`)."""
_WRAPPED_LIST = compiled(r",[ \t]*\n[ \t]*")


def unwrap_lists(text: str) -> str:
    """`text` with each list wrapped onto the next line after a comma ("one of: a, b,\n    c") joined into one line."""
    return _WRAPPED_LIST.sub(", ", text) if ",\n" in text else text


_ARGS_HEADING = compiled(r"^[ \t]*(?:Args|Arguments|Parameters|Params)[ \t]*:[ \t]*$", re.MULTILINE)
_ARGS_END = compiled(r"\n[ \t]*\n|^[ \t]*(?:Returns?|Raises|Yields?|Examples?|Notes?)[ \t]*:", re.MULTILINE)
_ARG_LINE = compiled(
    r"^[ \t]+[-*]?[ \t]*`?([A-Za-z_][A-Za-z0-9_]*)`?[ \t]*(?:\([^)\n]*\))?[ \t]*:[ \t]*(.*)$", re.MULTILINE
)


_ARGS_LINE = compiled(
    r"^[ \t]+[-*]?[ \t]*([A-Za-z_][A-Za-z0-9_]*(?:[ \t]*[,/][ \t]*[A-Za-z_][A-Za-z0-9_]*){1,3})[ \t]*:[ \t]*(.*)$"
)
"""An `Args:` line that documents two to four arguments at once ("start_date, end_date: ISO YYYY-MM-DD bounds")."""


def arguments_section(description: str) -> tuple[int, int, int] | None:
    """Where a docstring-style argument section is: the start of its `Args:` (`Arguments:`, `Parameters:`,
    `Params:`) heading line, the end of that line, and the end of the section (a blank line, a Returns, Raises or
    Example heading, or the end of the text); None when there is none."""
    heading = _ARGS_HEADING.search(description) if "Arg" in description or "Param" in description else None
    if heading is None:
        return None
    end = _ARGS_END.search(description, heading.end())
    return heading.start(), heading.end(), end.start() if end else len(description)


_INLINE_ARGS = compiled(r"\b(?:Args|Arguments|Parameters|Params)[ \t]*:[ \t]+(?=[A-Za-z_][A-Za-z0-9_]*=)([^\n]+)")
_INLINE_ARG = compiled(r"(?:^|,[ \t]*)([A-Za-z_][A-Za-z0-9_]*)=")


def _inline_arguments(description: str) -> dict[str, str]:
    """The arguments an `Args:` note documents on one line, `name=text` after `name=text` ("Args: date=YYYY-MM-DD,
    city=city name (or pass latitude+longitude), system=drik|vakya (default: drik)."): each name -> its text, up to
    the next `, name=`."""
    match = _INLINE_ARGS.search(description) if "=" in description else None
    if match is None:
        return {}
    line = match.group(1).rstrip().removesuffix(".")
    starts = list(_INLINE_ARG.finditer(line))
    return {
        m.group(1): line[m.end() : nxt.start() if nxt else len(line)].strip()
        for m, nxt in zip(starts, [*starts[1:], None], strict=True)
    }


@lru_cache(maxsize=1024)  # DESC-006, -009, -013 and -017 read the same description
def docstring_arguments(description: str) -> dict[str, str]:
    """The arguments a docstring-style section of a tool description documents, name -> the text of its line: a
    line `Args:`, `Arguments:`, `Parameters:` or `Params:`, then indented `name: ...` or `name (type): ...` lines, up
    to a blank line or a Returns, Raises or Example heading (what FastMCP and the Python SDK send when a function's
    docstring becomes the description and its arguments go to the schema without a description). A deeper-indented
    line goes on with the argument above it: a docstring wraps a long note ('classification: one of "Class I",' /
    '    "Class II", "Class III"'). Without such a section, an `Args:` note on one line of `name=text` pairs
    ("Args: date=YYYY-MM-DD, days=1-14, system=drik|vakya") documents the arguments it names."""
    found = arguments_section(description)
    if found is None:
        return _inline_arguments(description)
    section = description[found[1] : found[2]]
    out: dict[str, str] = {}
    indent = None
    current = None  # the argument whose text a deeper line goes on with
    for line in section.splitlines():
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip(" \t"))
        match = _ARG_LINE.match(line) or _ARGS_LINE.match(line)
        if match and (indent is None or depth == indent):
            indent = depth
            names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", match.group(1))  # "start_date, end_date: ISO bounds"
            current = names[-1] if names[-1] not in out else None
            for one in names:
                out.setdefault(one, match.group(2).strip())
        elif current and indent is not None and depth > indent:  # a wrapped line: `  "Class II", "Class III"`
            out[current] = f"{out[current]} {line.strip()}".strip()
        else:
            current = None
    return out


def argument_text(tool: Tool, name: str, schema: dict[str, Any]) -> str:
    """What documents an argument: its schema `description`, else its line in the tool description's docstring-style
    argument section (`Args:\n    project: Project name`), else its inline note there (`endpoint: Trello API path
    like "/boards/{id}/cards".`), else ""."""
    return (
        description_of(schema)
        or docstring_arguments(tool.description).get(name, "")
        or inline_note(tool.description, name)
    )


@lru_cache(maxsize=4096)
def inline_note(description: str, name: str) -> str:
    """The note a tool description writes for an argument inline, `name: text` at the start of a line, a list item
    or a sentence, up to the end of its sentence or line (`operation: "list" (no args), "get" (board_id_or_name)`,
    `- prompt: Natural language description ...`), or the name and "is", "are" or "can be" there ("tags are OSM tag
    key-value pairs", or "area can be:" and the bullets under it); a quoted key (`"name": 1`, a worked call's), a
    name inside a sentence ("everything on the sheet: ...") and a bare value (`(promptId: 'onb2_01')`) are not one."""
    if name not in description:
        return ""
    match = re.search(
        rf"(?:^|(?<=[.;!?]\s))[ \t]*(?:[-*•][ \t]*)?[`*]*{re.escape(name)}[`*]*(?:[ \t]*\([^)\n]{{0,40}}\))?"
        rf"(?:[ \t]*:|[ \t]+(?:is|are|(?:can|must|should|may)[ \t]+be)(?:[ \t]*:)?)"
        rf"(?:[ \t]+(\S[^\n]*?)(?=\.\s|\n|$)|[ \t]*\n(?P<items>(?:[ \t]*[-*•][ \t]+[^\n]+(?:\n|$))+))",
        description,
        re.MULTILINE,
    )
    note = (match.group(1) or match.group("items")).strip() if match else ""
    return note if len(re.findall(r"[A-Za-z]{2,}", note)) >= 2 else ""  # a note says something: not a bare value


def arguments(tool: Tool) -> Iterator[tuple[str, dict[str, Any]]]:
    """The top-level arguments of a tool: `(name, property schema)` in declaration order."""
    props = tool.input_schema.get("properties")
    if isinstance(props, dict):
        for name, schema in props.items():
            yield name, schema if isinstance(schema, dict) else {}


def declared_read_only(tool: Tool) -> bool:
    """Whether the tool's annotations declare it read-only (`readOnlyHint: true`)."""
    annotations = tool.raw.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def required(tool: Tool) -> list[str]:
    """The names the input schema lists as required."""
    req = tool.input_schema.get("required")
    return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []


def description_of(schema: dict[str, Any]) -> str:
    """A property's description, trimmed (empty when absent or not a string); for a nullable property that has
    none, its one other branch's (pydantic writes `Optional[Annotated[str, Field(description=...)]]` as
    `anyOf: [{type: string, description: ...}, {type: null}]`: the agent reads that text as the property's)."""
    desc = schema.get("description")
    if desc is None:
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list):
                others = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"]
                if len(others) == 1:
                    desc = others[0].get("description")
    return desc.strip() if isinstance(desc, str) else ""


def types_of(schema: dict[str, Any]) -> set[str]:
    """The JSON types a schema declares via `type` (a string or a list of strings); none for a boolean schema or a
    draft-4 tuple (`"items": [...]`), which a valid catalog may hold where a rule expects an object."""
    if not isinstance(schema, dict):
        return set()
    t = schema.get("type")
    return {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)} if isinstance(t, list) else set()


def branch_types(schema: dict[str, Any]) -> set[str]:
    """The JSON types the schema's `anyOf`/`oneOf` branches declare (pydantic's `int | None`: integer and null)."""
    return {t for key in ("anyOf", "oneOf") for b in schema.get(key) or () if isinstance(b, dict) for t in types_of(b)}
