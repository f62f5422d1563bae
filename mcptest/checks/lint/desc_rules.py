"""DESC rules about the tool description text itself: length, signal, verbs, positional phrases, returns."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.checks.findings import Hit, Severity, pointer
from mcptest.checks.lint.shapes import properties
from mcptest.checks.lint.text import (
    CJK_CHAR,
    CJK_READ,
    CJK_VERB,
    CJK_WRITE,
    MCP_CONTENT_MODELS,
    READ_VERBS,
    SELECTORS,
    SHORT_CHARS,
    VERY_LONG_CHARS,
    arguments,
    declared_read_only,
    description_of,
    docstring_arguments,
    english,
    has_common_verb,
    has_verb_in,
    lexicon,
    mentions_return,
    normalized,
    opening_verb,
    positional_phrases,
    sentences,
    stems,
    words,
)
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

_AT = pointer("description")
_SPACE_RUN = compiled(r"\s+")


def desc_001_short_description(tool: Tool) -> Iterator[Hit]:
    """Description is empty, or too short to say what the tool does.

    What it flags: a tool whose description, trimmed, is empty, or shorter than 20 characters and either under
    three words ("Search.", "Switches branches") or without a word that can be an action. A short description
    that is complete, an action and what it acts on ("Navigate to a URL", "Close the page"), is left alone. In a
    script the word-reading rules cannot read (Chinese, Japanese: see `english`), words and verbs cannot be
    counted and a character carries about a word ("チャット一覧を取得します。", "Get the list of chats", is 13), so
    such a description is short only under a third of the characters (6), or, in Chinese or Japanese, under half
    (10) with no verb of an action (获取, 查询, 创建, 转换, します ...): "地理编码服务" ("Geocoding service") names a
    thing, as "Weather information" does in English.
    Worth acting on: when the description gives the agent nothing to tell the tool from its neighbours by; it is
    critical because an agent cannot choose such a tool on purpose. Two words that name an action and its object
    ("Launches browser", "Switches branches") are still reported, as a warning: the agent can choose the tool, it
    just learns little more than the name says.
    Why it matters: the description is the only prose an agent reads when it picks a tool. A one-word
    description ("Search") gives it nothing to tell this tool from its neighbours (Hasan et al.,
    arXiv:2602.14878, "unclear purpose").
    Example: `{"name": "search", "description": "Search."}`
    Fix: say what the tool does, on what, and when to use it, in one or two sentences: "Search the
    product catalog by keyword and return the matching products."
    """
    text = tool.description.strip()
    chars = len(text)
    if chars and chars < SHORT_CHARS and not english(text):
        limit, unsaid = SHORT_CHARS // 3, ""  # 6: a character carries about a word
        short = chars < limit
        if not short and chars < SHORT_CHARS // 2 and CJK_CHAR.search(text) and not CJK_VERB.search(text):
            limit, short, unsaid = SHORT_CHARS // 2, True, " and names no action"
    else:
        limit = SHORT_CHARS
        short = chars < limit and (len(words(text)) < 3 or not has_common_verb(text))
        unsaid = " and names no complete action"
    if chars == 0 or short:
        what = "is empty" if chars == 0 else f"is {chars} characters (under {limit}){unsaid}"
        acts = bool(unsaid) and _action_and_object(text)  # "Launches browser": the agent can choose it
        severity = Severity.WARNING if acts else None
        yield Hit(f"description {what}", "Say what the tool does, on what, and when to use it.", _AT, severity=severity)


_NO_OBJECT = frozenset(["it", "this", "that", "them", "things", "stuff", "something", "anything", "everything"])


def _action_and_object(text: str) -> bool:
    """Two words, a verb and a noun the English lexicon knows ("Launches browser", "Switches branches"): an action
    and what it acts on. "Run it" names no object."""
    ws = words(text)
    if len(ws) != 2 or ws[1] in _NO_OBJECT or not has_common_verb(text):
        return False
    return ws[1] in lexicon().nouns or ws[1].endswith("s")


def desc_002_long_description(tool: Tool, long_chars: int = VERY_LONG_CHARS) -> Iterator[Hit]:
    """Description is over 1,000 characters (over 500 under `--strict`).

    What it flags: a description longer than 1,000 characters; with `--strict`, longer than 500 (document 000's
    bound, which the TDQS conciseness score keeps either way).
    Why it matters: every description is paid for in input tokens on every model call, and a long one
    usually carries rules (formats, limits, allowed values) that belong in the `inputSchema`, where the
    client can validate them (arXiv:2602.18914, "verbose").
    Characters are counted with each run of whitespace as one: the indentation a docstring carries into the
    description (eight or twelve spaces before each `Args:` line) is layout, not text the agent reads, and costs a
    token or none.
    Worth acting on: over 1,000 characters, almost always: the bulk is then per-argument documentation, a Returns
    section that repeats the outputSchema, worked calls or routing advice, which belong in the schema or can go.
    Between 500 and 1,000 characters, length alone rarely is: a purpose, a usage note and the result fit there,
    and in the real catalogs labelled by hand most such descriptions were left as they were (why the default tier
    waits for twice the bound).
    Example: a 1,400-character description that lists date formats and page-size limits in prose.
    Fix: move constraints into the schema (`enum`, `format`, `maximum`, `maxLength`) and keep the
    description to purpose, usage and result.
    """
    text = tool.description.strip()
    chars = len(_SPACE_RUN.sub(" ", text)) if len(text) > long_chars else 0  # collapsing never lengthens
    if chars > long_chars:
        yield Hit(
            f"description is {chars} characters (over {long_chars})",
            "Move constraints into inputSchema (enum, format, limits); keep purpose, usage and result.",
            _AT,
        )


def desc_003_description_equals_name(tool: Tool) -> Iterator[Hit]:
    """Description equals the tool name.

    What it flags: a description that is the tool name again, ignoring case, punctuation and the
    `_`/`-` separators (`get_weather` described as "Get weather.").
    A tool that says the rest where it belongs is left alone: annotated, with an `outputSchema` naming the fields
    of its result and every argument described ("Get CPU information." on Red Hat's `get_cpu_information`,
    read-only, its result's `model`, `logical_cores` ... declared): the name is a complete action, and what it
    reads, takes and gives back is all stated.
    Worth acting on: when the name is all the agent has; the description tells it nothing the name did not, so
    it chooses between similar tools by guesswork.
    Why it matters: it repeats what the agent already read and adds no signal to choose by.
    Example: `{"name": "list_users", "description": "List users"}`
    Fix: describe the behaviour the name cannot: "List the users of a workspace, newest first, with
    their ids, names and roles."
    """
    repeats = tool.description.strip() and normalized(tool.description) == normalized(tool.name)
    if repeats and not _documented_elsewhere(tool):
        yield Hit("description only repeats the tool name", "Describe what the name cannot: scope, input, result.", _AT)


def _documented_elsewhere(tool: Tool) -> bool:
    """Annotations declared, an outputSchema with named fields, and every argument described."""
    output = tool.output_schema
    if not tool.annotations or not isinstance(output, dict) or not isinstance(output.get("properties"), dict):
        return False
    return bool(output["properties"]) and all(description_of(s) for _, s in arguments(tool))


def desc_004_no_common_verb(tool: Tool) -> Iterator[Hit]:
    """Description names no action verb.

    What it flags: a non-empty description in which no word is a common action verb ("get", "list", "create",
    "search", ... in any regular inflection: "returns", "fetches", "queries") and no sentence opens with a word
    that English can use as a verb. The second test reads lemminflect's lexicon (the data it ships), so "Press a
    key", "Hover over an element", "Go back", "Perform click" and "Fork a repository" are understood, not
    matched against a longer list.
    Worth acting on: when the description only names a thing ("Information about the weather"), so an agent
    cannot tell whether the tool reads, writes or deletes.
    Why it matters: agents sort tools by the action they perform; a noun phrase leaves the agent guessing.
    A description written mostly in another script than Latin (Chinese, Japanese, Cyrillic), or in another language
    in Latin letters (German, Spanish, French ...: its function words, "für", "und", "los", tell), is left alone: the
    rule reads English words only. So is a read tool (annotated read-only, or named get, list, fetch ...) whose
    first sentence names what comes back ("Coolify API version" on `get_version`): its name or its annotation says
    it reads, which is what the rule asks the agent to be told (DESC-010 reads such a tool alike).
    Example: `{"name": "weather", "description": "Information about the weather in a location"}`
    Fix: start with the action: "Get the current weather for a city."
    """
    text = tool.description
    if text.strip() and english(text) and not has_common_verb(text) and not _names_what_it_reads(tool):
        yield Hit("description names no action verb", "Start with the action the tool performs: 'Get ...'.", _AT)


def desc_005_positional_phrase(tool: Tool) -> Iterator[Hit]:
    """Description uses positional phrases such as "see above" or "previous tool".

    What it flags: phrases that refer to a position in a list ("see above", "as described below",
    "the previous tool", "the aforementioned"), and "the other tool" (one tool the text never names). Tools in
    general are no reference: "pass the tabId to any other tool", "slower than other tools", "before calling other
    tools" point at no position. Nor is a pointer that names no tool ("see below", "as above") inside a description
    whose own text goes on in that direction, on a line after "below" or before "above": it points at the
    description's own section (in the labelled real catalogs, 8 such findings, all dismissed).
    Worth acting on: always; the phrase points at a tool the agent cannot identify.
    Why it matters: an agent sees a flat catalog whose order is not guaranteed; "above" points at nothing,
    and the reference breaks as soon as tools are added, removed or merged from several servers.
    Example: "Same as above, but for folders."
    Fix: name the other tool explicitly ("Like `list_files`, but for folders.") or repeat the needed facts.
    """
    for phrase in positional_phrases(tool.description):
        yield Hit(f"description says {phrase!r}, which means nothing in a flat catalog", "Name the tool instead.", _AT)


def desc_010_missing_return_format(tool: Tool) -> Iterator[Hit]:
    """The description never says what the tool returns.

    What it flags: a non-empty description with no return/output/result/response/yield word, on a tool
    that declares no `outputSchema`, or, for a tool that writes (creates, updates, deletes, adds, sets, pushes,
    sends, moves, turns off, submits, starts, stops, reserves, provisions, migrates, rolls back ...; "manages" when
    an operation selector's values name a write, `post_users` or `delete_item`; any other opening verb of an action
    the English lexicon knows, "Transition an issue", "Build an APK", but a read's or a question's, "Poll",
    "Peek at"; or annotated `readOnlyHint: false`), one that is any
    object (`{"type": "object", "additionalProperties": true}`: it names no field; a read's result is the thing it
    names), or FastMCP's wrapped result (`{"result": ...}`) holding any object or one untitled string, or only MCP's
    own content-block model (what FastMCP derives from a function returning `TextContent`: a text comes back, saying
    what?).
    A description written mostly in another script than Latin is read only in Chinese or Japanese (API names in
    Chinese prose do not make it English: a character of those scripts weighs half a Latin word), and only for a
    write verb (作成, 更新, 削除, 创建, 发送, 部署 ...) with no word of a result (返回, 結果 ...; "400エラーを返します"
    names the failure only) and no read verb (取得, 查询, 一覧 ...) that names it: in a read tool, or opening the
    description; after the write, or among the operations of a "管理" (manage) tool, a query is one more thing it
    does. "新しいグループチャットを作成します" is flagged, "将经纬度坐标转换为地址信息" is left alone; other
    scripts are left alone. A description in Spanish, German, French, Portuguese or Italian is read alike, for a
    write verb of that language ("Elimina un movimiento", "Erstellt eine Notiz") and no word of a result
    ("devuelve", "gibt ... zurück", "renvoie"); "Historische Klimadaten für einen Standort" is a read, left alone.
    Why it matters: an agent plans its next step from what a call gives back; without it, it calls the tool
    just to find out. The check is coarse (it sees whether the description gestures at a result at all,
    not whether it is accurate), which is why it is a warning.
    A tool whose first sentence runs a search or a read-only query and nothing else ("Perform an Elasticsearch
    search", "Execute a SELECT query on the SQLite database") returns its matches or rows: left alone. So does a
    sentence that opens on a read verb, extract included ("Extract structured data from the page"), after a lead-in
    such as "Use this tool to" or "Use this as the primary tool to", or a bracketed tag ("[COURSE] Gets the current
    status ..."; or a symbol and a word or two before a dash, "🔒 Plus — List your saved recipes"), and a tool that
    opens with "Take a screenshot" and has no argument saying where to keep it
    (`name`, `path`): the picture comes back; and a tool that says it is read-only or runs read operations: it
    changes nothing, what it reads comes back; so does a read tool (annotated read-only, or named get, list, fetch,
    describe ...) whose first sentence is a noun phrase ("Server details.", "Coolify API version"; also where its
    words could be verbs: "Overview of all resources with counts", "Service details"; or a short noun phrase before
    a colon, a slash or "via": "Security bundle: ssl, tls, ...", "WHOIS / domain registration data via ..."): the
    phrase is what comes back. What comes back when the call fails ("returns a 403 Forbidden
    response if ...", "an HTTP 411 error response", "returns an error") says nothing of a call that succeeds, and is
    not read as an answer; nor is a result the tool writes ("Add a test result to a run"), an output file it saves,
    "return to" (going back), or a `Returns:` section that says only "Result of the operation". A read joined to a
    write in its sentence ("Search for text and replace all occurrences")
    is a write; a return word about another tool ("one returned by get_supported_cryptocurrencies") says nothing of
    this one's; a breadcrumb after a bracketed tag ("[Feishu/Lark]-Docs-Base-Field-List fields-Get all fields") is
    read a part at a time.
    Worth acting on: an action or write tool whose result (the new id, the new state, nothing) the agent cannot
    know without calling it.
    Example: "Create an invoice for a customer."
    Fix: "Create an invoice for a customer. Returns the invoice id and its PDF URL." or declare an
    `outputSchema`.
    """
    text = tool.description
    if not text.strip() or not _shapeless(tool.output_schema):
        return
    if not english(text):
        if _cjk_write_without_result(text, _read_tool(tool)) or _latin_write_without_result(text, tool):
            yield Hit("description never says what the tool returns", _RETURN_FIX, _AT)
        return
    if mentions_return(text) or _reads_matches(text) or _takes_picture(tool) or _READ_ONLY.search(text):
        return
    if _names_what_it_reads(tool) or _names_its_result(tool):
        return
    if tool.output_schema is not None and not (_says_write(tool) or _declared_write(tool) or _acts(tool)):
        return  # any object from a read: the thing it names ("Compact context for one card") is what comes back
    yield Hit(
        "description never says what the tool returns, and there is no outputSchema"
        if tool.output_schema is None
        else "description never says what the tool returns, and its outputSchema is only MCP's content block"
        if _content_blocks(tool.output_schema, tool.output_schema)
        else "description never says what the tool returns, and its outputSchema is any object",
        _RETURN_FIX,
        _AT,
    )


_RETURN_FIX = "Add 'Returns ...' describing the result's shape, or declare an outputSchema."
# Chinese and Japanese: the verbs of a write, and the words of a read or of a result (返回/返します,
# 结果/結果, 输出/出力, 获取/取得, 查询/検索, 一覧 ...). "400エラーを返します" says what comes back on failure only.
_CJK_RESULT = compiled("返回|返[しすさ]|返却|结果|結果|输出|出力|响应|応答|レスポンス")

_CJK_ERROR_RETURN = compiled("(?:错误|エラー)を?返[しすさ回]\\w*")


def _cjk_write_without_result(text: str, read_tool: bool) -> bool:
    """A Chinese or Japanese description that names a write and no result. A read verb names the result too in a
    tool annotated read-only or named for a read, or in a description that opens on it ("查询环境列表..."); after a
    write verb it is one more thing the tool does ("创建、更新和删除环境，并查询..."), as it is among the operations
    of a tool that opens on "管理" (manage), and the write's own result is still unsaid."""
    write = CJK_WRITE.search(text)
    if write is None or _CJK_RESULT.search(_CJK_ERROR_RETURN.sub("", text)):
        return False
    read = CJK_READ.search(text)
    manages = text.lstrip().startswith("管理")  # "管理环境，支持：list=查询...，create=创建...": its operations
    return read is None or (not read_tool and (manages or read.start() > write.start()))


_LATIN_WRITE = compiled(
    r"\b(?:crea|crear|cree|actualiza|actualizar|elimina|eliminar|borra|borrar|envía|enviar|agrega|agregar|añade"
    r"|añadir|modifica|modificar|registra|registrar|guarda|guardar|erstellt|erstelle|erstellen|aktualisiert"
    r"|aktualisieren|löscht|lösche|löschen|sendet|sende|senden|fügt|hinzufügen|ändert|ändern|speichert|speichern"
    r"|crée|créer|supprime|supprimer|envoie|envoyer|ajoute|ajouter|modifie|modifier|enregistre|enregistrer|cria"
    r"|criar|atualiza|atualizar|exclui|excluir|adiciona|adicionar|aggiorna|aggiornare|invia|inviare|aggiunge"
    r"|aggiungere|salva|salvare)\b",
    re.IGNORECASE,
)
_LATIN_RESULT = compiled(
    r"\b(?:devuelve|devuelven|retorna|retornan|resultado|respuesta|gibt\b[^.]{0,80}\bzurück|zurückgegeben"
    r"|rückgabe|ergebnis|liefert|renvoie|retourne|résultat|réponse|devolve|resposta|restituisce|ritorna|risultato"
    r"|risposta)",
    re.IGNORECASE,
)
"""DESC-010 in Spanish, German, French, Portuguese and Italian: the verbs of a write ("Crea un gasto", "Löscht den
Eintrag") and the words of a result ("devuelve", "gibt ... zurück", "renvoie")."""


def _latin_write_without_result(text: str, tool: Tool) -> bool:
    """A description in Spanish, German, French, Portuguese or Italian that names a write and no result ("Elimina un
    movimiento por su id"): what comes back is as unsaid as in English. "Crea un grupo ... y devuelve su título"
    names one, but the preview a dry run returns ("sin confirm=true solo devuelve una vista previa") is not the
    write's result; a tool annotated read-only writes nothing."""
    if not _LATIN_WRITE.search(text) or declared_read_only(tool):
        return False
    said = _LATIN_PREVIEW.sub("", text)
    return not _LATIN_RESULT.search(said) and not mentions_return(said)  # a docstring's English "Returns:" heading


_LATIN_PREVIEW = compiled(
    r"\b(?:devuelve|retorna|devolve|renvoie|retourne|restituisce|liefert|gibt)\s+(?:solo\s+|seulement\s+|nur\s+)?"
    r"(?:una?|une|um|eine?)\s+(?:vista\s+previa|previsualización|aperçu|pré-visualização|anteprima|vorschau)\b",
    re.IGNORECASE,
)
"""The preview a dry run returns ("Sin confirm=true solo devuelve una vista previa"): it names what comes back
before the write, not after it."""


def _read_tool(tool: Tool) -> bool:
    """A tool annotated read-only, or named for a read (`get_`, `list_` ...) and for no write."""
    named_read = has_verb_in(tool.name, _READ_NAMES)
    return (declared_read_only(tool) or named_read) and not has_verb_in(tool.name, _WRITE_NAMES)


def _shapeless(schema: dict[str, object] | None) -> bool:
    """No outputSchema, or one that is any object (`{"type": "object", "additionalProperties": true}`, what FastMCP
    declares for a function returning a `dict`): it names no field, so it says no more than none."""
    if schema is None or _content_blocks(schema, schema):
        return True
    props = schema.get("properties")
    if isinstance(props, dict) and list(props) == ["result"] and isinstance(props["result"], dict):
        schema = props["result"]  # FastMCP's wrapped result (`x-fastmcp-wrap-result`): what it holds is what comes back
        if schema.get("type") == "string" and not (set(schema) - {"type", "title"}):
            return True  # one untitled string: a message? an id? the new value?
    keys = set(schema) - {"type", "additionalProperties", "title", "$schema"}
    anything = schema.get("additionalProperties") in (None, True, {})
    return not keys and schema.get("type") in ("object", None) and anything


_CONTENT_KINDS = frozenset(["text", "image", "audio", "resource", "resource_link"])


def _content_blocks(schema: dict[str, Any], root: dict[str, Any]) -> bool:
    """Whether an outputSchema is only MCP's own content-block model, what FastMCP derives from a function that returns
    `TextContent` (`{type: const "text", text, annotations, _meta}`) or a union of content blocks under `result`:
    it says a text (or an image, a resource) comes back, not what it holds, so it answers nothing."""
    props = schema.get("properties")
    if isinstance(props, dict) and list(props) == ["result"] and isinstance(props["result"], dict):
        schema = props["result"]
    branches = [b for k in ("anyOf", "oneOf") for b in schema.get(k) or () if isinstance(b, dict)] or [schema]
    return all(_content_block(b, root) for b in branches)


def _content_block(schema: dict[str, Any], root: dict[str, Any]) -> bool:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1] in MCP_CONTENT_MODELS and ref.startswith(("#/$defs/", "#/definitions/"))
    props = schema.get("properties")
    kind = props.get("type") if isinstance(props, dict) else None
    return isinstance(kind, dict) and kind.get("const") in _CONTENT_KINDS


_READ_QUERY = compiled(
    r"\bsearch(?:es)?\b|\bSELECT quer(?:y|ies)\b|\bread-only (?:\w+ )?quer(?:y|ies)\b", re.IGNORECASE
)
_WRITE_WORD = compiled(
    r"\b(?:replace|insert|update|delete|write|create|remove|modify|save|add|set|push|append|send|post|upload|move"
    r"|rename|archive|enable|disable|turn|record|assign|apply|publish|trigger|install|deploy|cancel|reset|clear"
    r"|wipe|purge|erase|refresh|sync|resolve|revoke|grant|rotate|restart|submit|start|stop|pause|resume|reserve"
    r"|release|provision|extend|clone|forget|reboot|kill|launch|import|register|lock|unlock|approve|reject|merge"
    r"|schedule|subscribe|unsubscribe|invite|share|transfer|attach|detach|activate|deactivate|suspend|restore"
    r"|migrate|upgrade|rollback|retry|rerun|manage)s?\b",
    re.IGNORECASE,
)


def _says_write(tool: Tool) -> bool:
    """Whether the description names a write the tool does. "Manage mealie app operations" is one only when an
    operation selector's values name a write too (`post_admin_users`, `delete_...`): a tool that manages reads
    (`get_startup_info`, `get_app_theme`) is a read."""
    said = {w.lower().rstrip("s") for w in _WRITE_WORD.findall(tool.description)}
    if not said:
        return False
    if said != {"manage"}:
        return True
    selectors = (s for name, s in arguments(tool) if name.lower() in SELECTORS)
    values = " ".join(f"{description_of(s)} {' '.join(map(str, s.get('enum') or ()))}" for s in selectors)
    return bool(values) and any(w.lower() != "manage" for w in _WRITE_WORD.findall(values.replace("_", " ")))


def _declared_write(tool: Tool) -> bool:
    """Whether the tool's annotations declare it is not read-only (`readOnlyHint: false`): it changes something."""
    annotations = tool.raw.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is False


def _acts(tool: Tool) -> bool:
    """Whether a tool not named or annotated for a read opens on a verb of an action, any verb the English lexicon
    knows but a read's ("Edit an existing comment", "Transition a Jira issue", "Build an APK file"), where a write
    list would miss most: what the action leaves behind is what the agent needs to hear."""
    if _read_tool(tool):
        return False
    first = next(iter(sentences(tool.description)), "")
    verb = opening_verb(first)
    if verb is None or any(stem in READ_VERBS or stem in _ASKS for stem in stems(verb)):
        return False
    return _RUNS_A_CHECK.match(first) is None


_ASKS = frozenset("ask poll peek wait watch monitor reverse manage".split())  # noqa: SIM905
"""Opening verbs of a question, not of an action: "Ask AI about sources", "Poll research progress", "Peek at
documents", "Reverse geocode coordinates"; "Manage ..." is a write only when its operations name one (`_says_write`)."""
_RUNS_A_CHECK = compiled(
    r"^\s*(?:run|perform|execute)s?\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:diagnostics?|analysis|health\s+checks?|audits?"
    r"|scans?)\b",
    re.IGNORECASE,
)
"""An opening that runs a check ("Run diagnostics on the credentials"): its findings come back."""


_READ_ONLY = compiled(r"\bread-only\b|\bread operations?\b", re.IGNORECASE)
"""A tool that says it only reads ("Run one of the following read operations (read-only)"): it changes nothing, so
what it reads is what comes back, as for a read-only query."""
_PICTURE = compiled(r"^\s*(?:take|capture)s?\s+an?\s+(?:screenshot|snapshot)\b", re.IGNORECASE)
_STORED_AS = compiled(r"name|path|file|dir|output|save|dest", re.IGNORECASE)


def _takes_picture(tool: Tool) -> bool:
    """Whether the tool opens with "Take a screenshot" (or a snapshot) and has no argument saying where to keep it
    (`name`, `path`, `filename`, `outputDir`): the picture is what comes back. With one, it may be stored rather
    than returned, and that is worth saying."""
    return _PICTURE.search(tool.description) is not None and not any(_STORED_AS.search(n) for n, _ in arguments(tool))


_READ_NAMES = frozenset("get list read fetch show view describe find lookup retrieve inspect".split())  # noqa: SIM905
"""A tool name's word that says the call reads (`get_server`, `list-domains`)."""


def _names_its_result(tool: Tool) -> bool:
    """Whether the description's first sentence is a noun phrase holding the tool's one-word name: `area` is
    "Geodesic area of a GeoJSON geometry", `distance` "Geodesic centroid-to-centroid distance between two
    geometries": the thing named is what comes back, as a read tool's noun phrase is."""
    first = next(iter(sentences(tool.description)), "")
    named = normalized(tool.name).split()
    if len(named) != 1 or len(named[0]) < 3 or has_common_verb(first) or _POINTS_ELSEWHERE.search(first):
        return False  # a name of two words or more may hold the verb the lexicon missed ("recipe_adapt")
    return named[0] in {w.lower() for w in words(first)} and opening_verb(named[0]) is None


def _names_what_it_reads(tool: Tool) -> bool:
    """Whether a read tool's first sentence is a noun phrase, the thing that comes back ("Server details.", "Coolify
    API version", "App diagnostics by UUID/name/domain"): a tool annotated read-only, or named for a read, whose
    first sentence names no action, or names only the API operation it runs, its own name ("Execute the AWS Amazon
    SNS `list_topics` operation"). "Explicit tier override for the current session" on a `set_tool_tier` writes,
    and "Same as above, but for a single ticket" names no result: both are still asked what they return."""
    if not _read_tool(tool):
        return False
    first = next(iter(sentences(tool.description)), "")
    if (found := _RUNS_OPERATION.match(first)) and normalized(found["op"]) == normalized(tool.name):
        return True  # "Execute the AWS Amazon SNS `list_topics` operation": the named read's answer comes back
    if _POINTS_ELSEWHERE.search(first):
        return False
    return not has_common_verb(first) or _NOUN_HEAD.match(first) is not None or _nominal_opening(first)


def _nominal_opening(sentence: str) -> bool:
    """Whether a sentence opens on a noun phrase, up to a colon, a slash or "via", with no verb of an action the
    lexicon knows at its head ("Security bundle: ssl, tls, ...", "WHOIS / domain registration data via ...")."""
    head = re.split(r"\s*(?::|/|\bvia\b)\s*", sentence, maxsplit=1)[0]
    ws = words(head)
    if not 0 < len(ws) <= 4 or head == sentence or normalized(head) in SELECTORS | _ALERTS:
        return False  # "operation: list, create", "CRITICAL: Call this tool first": no thing that comes back
    return opening_verb(head) is None


_ALERTS = frozenset("required critical important note warning tip deprecated usage".split())  # noqa: SIM905


_NOUN_HEAD = compiled(
    r"^\s*(?:[A-Za-z][\w-]*\s+of\b|(?:[A-Za-z][\w-]*\s+){1,2}(?:details|info|information|status|summary|overview"
    r"|metadata|statistics|stats)\b)",
    re.IGNORECASE,
)
"""A first sentence whose head is a noun, though its words could be verbs: "Overview of all resources with counts",
"Service details", "Project status by UUID" (its first word, then "of"; or one or two words, then `details`,
`status` ...)."""


_RUNS_OPERATION = compiled(
    r"^\s*(?:execute|call|invoke|run)s?\s+the\s+[^`]{0,60}`(?P<op>[\w.-]+)`\s+(?:operation|api|endpoint|method)\b",
    re.IGNORECASE,
)
"""A description that only names the API operation the tool runs, the tool's own name ("Execute the AWS Amazon SNS
`get_topic_attributes` operation"): for a read, that operation's answer is what comes back."""
_POINTS_ELSEWHERE = compiled(r"\b(?:above|below|same as|similar to|like|see)\b", re.IGNORECASE)
"""A phrase that sends the reader elsewhere ("Same as above, but for a single ticket"): it names no result."""
_WRITE_NAMES = frozenset("set create add update delete remove write send post put patch move run".split())  # noqa: SIM905


def _reads_matches(text: str) -> bool:
    """Whether the first sentence runs a search or a read-only query and nothing else ("Perform an Elasticsearch
    search with the provided query DSL", "Execute a SELECT query on the SQLite database"): what comes back is the
    matches, or the rows; "Search and replace text in a file" writes, and is still asked what it returns."""
    first = next(iter(sentences(text)), "")
    named = len(words(first)) >= 4  # a bare "Search" names nothing to return
    return named and _READ_QUERY.search(first) is not None and _WRITE_WORD.search(first) is None


def desc_017_documented_argument_absent(tool: Tool) -> Iterator[Hit]:
    """The description documents an argument the input schema does not have.

    What it flags: a description with a docstring-style argument section (a line `Args:`, `Arguments:`,
    `Parameters:` or `Params:`, then indented `name: ...` or `name (type): ...` lines, up to a blank line or a
    Returns, Raises or Example heading) that lists a name no property of the input schema has, at any depth.
    The usual cause is a framework parameter the server fills in itself (FastMCP's `ctx: Context`) whose
    docstring line went out with the tool. Nothing else in the description is read: an argument of another tool
    named in the prose ("set isochrone_tool `polygons=true`") is not a claim about this one.
    Worth acting on: always; the line describes nothing the agent can send.
    Why it matters: the agent reads the description as the call's contract; it sends `ctx` (rejected by a closed
    schema, dropped by an open one) or wonders what it was meant to pass.
    Example: a `search(query, max_results)` tool whose description says "Args:\\n    query: ...\\n    ctx: MCP
    context for logging"
    Fix: drop the line from the description (or expose the argument, if the agent should set it).
    """
    documented = docstring_arguments(tool.description)
    if not documented:
        return
    known = {prop.name for prop in properties(tool.input_schema)}
    absent = [name for name in documented if name not in known]
    if absent:
        names = ", ".join(f"'{n}'" for n in absent)
        yield Hit(
            f"the description documents {names}, which the input schema does not have",
            "Drop the line, or add the argument to the schema.",
            _AT,
        )
