"""Rule-based reading of an agent's final answer: the mutating actions it claims and the values it names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

VERBS = (
    "create", "update", "delete", "remove", "send", "write", "post", "insert", "patch", "publish",
    "destroy", "drop", "add", "edit", "upload", "merge", "close", "cancel", "approve", "revoke",
)  # fmt: skip
_IRREGULAR = {"send": ("sent",), "write": ("wrote", "written"), "set": ("set",), "put": ("put",)}
SKIPPED = {"the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "their", "its", "new", "some"}
NOT_NOUNS = {"it", "them", "him", "her", "and", "or", "to", "for", "with", "in", "on", "at", "from", "by", "of", "as"}
NEGATIONS = {"not", "never", "didn't", "didnt", "couldn't", "wasn't", "weren't", "haven't", "hasn't", "no", "unable"}
AUXILIARIES = {"was", "were", "been", "is", "are", "got", "be", "has", "have", "had"}
_LITERAL = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|`([^`\n]+)`|#(\d+)')
_WORD = re.compile(r"\x00|[A-Za-z][A-Za-z'’]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class Claim:
    """A mutating action the answer says happened: `created the issue "Fix login"` -> create, issue, [Fix login]."""

    verb: str
    noun: str
    text: str
    literals: tuple[str, ...] = field(default=())


def past_forms(verbs: Iterable[str]) -> dict[str, str]:
    """Past tense and past participle -> base verb: created -> create, sent -> send, dropped -> drop."""
    return dict(_past_forms(tuple(verbs)))


@lru_cache(maxsize=64)
def _past_forms(verbs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in verbs:
        forms = set(_IRREGULAR.get(v, ()))
        if v.endswith("e"):
            forms.add(v + "d")
        elif v.endswith("y") and len(v) > 1 and v[-2] not in "aeiou":
            forms.add(v[:-1] + "ied")
        else:
            forms |= {v + "ed", v + v[-1] + "ed"}
        out.update(dict.fromkeys(forms, v))
    return out


def singular(word: str) -> str:
    """issues -> issue, entries -> entry, branches -> branch; other words as they are."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


@lru_cache(maxsize=4096)
def name_words(tool: str) -> frozenset[str]:
    """`createIssue`, `create_issue`, `issues.create` -> {create, issue}: the words of a tool name, singular."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", tool)
    return frozenset(singular(w) for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w)


def claims(text: str, verbs: Sequence[str]) -> list[Claim]:
    """The mutating actions `text` claims, in order: a past-tense verb paired with its noun.

    Active ("I created the issue"): the next word after skipping articles and determiners; passive ("the issue was
    created"): the nearest such word before the auxiliary. A verb with a negation among the three words before it
    is no claim, nor one whose noun is a pronoun or a preposition. Quoted values ("...", “...”, `...`) and `#N`
    belong to the nearest claim verb before them in the sentence (the first claim for those before it).
    """
    return list(_claims(text, tuple(verbs)))


@lru_cache(maxsize=1024)
def _claims(text: str, verbs: tuple[str, ...]) -> tuple[Claim, ...]:
    forms = _past_forms(verbs)
    found: list[Claim] = []
    for sentence in _SENTENCE.split(text):
        literals = [next(g for g in m.groups() if g) for m in _LITERAL.finditer(sentence)]
        masked = _LITERAL.sub(" \x00 ", sentence)
        words = [m.group(0).lower().replace("’", "'") for m in _WORD.finditer(masked)]
        lit_at = [i for i, w in enumerate(words) if w == "\x00"]
        here: list[tuple[int, Claim]] = []
        for i, word in enumerate(words):
            verb = forms.get(word)
            if verb is None or any(w in NEGATIONS for w in words[max(i - 3, 0) : i]):
                continue
            noun = _noun(words, i)
            if noun:
                here.append((i, Claim(verb, singular(noun), f"{word} {noun}")))
        for n, (i, claim) in enumerate(here):
            end = here[n + 1][0] if n + 1 < len(here) else len(words)
            start = i if n else -1
            mine = tuple(literals[k] for k, at in enumerate(lit_at) if start < at < end)
            found.append(Claim(claim.verb, claim.noun, claim.text, mine))
    return tuple(found)


def _noun(words: Sequence[str], i: int) -> str | None:
    if i and words[i - 1] in AUXILIARIES - {"has", "have", "had"}:
        before = [w for w in reversed(words[max(i - 5, 0) : i - 1]) if w not in SKIPPED | AUXILIARIES | {"\x00"}]
        noun = before[0] if before else None
    else:
        after = [w for w in words[i + 1 : i + 5] if w not in SKIPPED and w != "\x00"]
        noun = after[0] if after else None
    return None if noun is None or noun in NOT_NOUNS or noun in NEGATIONS else noun
