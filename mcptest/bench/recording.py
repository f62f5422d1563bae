"""Model picks through a cassette: replay what is recorded; with `--record`, ask the model only for what is missing."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

import anyio

from mcptest.bench.asking import MAX_TOKENS, SYSTEM, Presented, Question, ask, pick_from, questions
from mcptest.bench.model import ModelSelector
from mcptest.bench.options import LIVE_PROVIDERS, ModelOptions, PicksFailed
from mcptest.bench.spec import Bench
from mcptest.cassette import store
from mcptest.cassette.picks import PickCassette, RecordedPick, normalise_picks, pick_key, tools_hash
from mcptest.core.errors import Problem, UserError, usage_error
from mcptest.providers import build, key_values, provider_of
from mcptest.providers.base import Provider
from mcptest.providers.errors import MissingKey, RunFailed
from mcptest.providers.prices import cost, price_for
from mcptest.records.catalog import Catalog
from mcptest.records.messages import ModelReply

_SHOWN_MISSES = 3


@dataclass(frozen=True)
class _Needed:
    key: str
    question: Question
    presented: Presented
    catalog: str


def cassette_path(spec: str | Path, model: str) -> Path:
    """`<spec folder>/cassettes/tool-bench/<spec name>/<model>.json`."""
    spec = Path(spec)
    return spec.parent / store.CASSETTE_DIR / "tool-bench" / store.slug(spec.stem) / f"{store.slug(model)}.json"


def model_selector(bench: Bench, model: str, options: ModelOptions) -> tuple[ModelSelector, list[str]]:
    """A ModelSelector whose picks all come from the cassette (recorded first with `--record`); notes for stderr.

    Raises UserError when replay lacks a pick (naming the cassette and the record command) and PicksFailed when
    recording could not finish.
    """
    path = cassette_path(bench.path, model)
    secrets = key_values(options.environ)
    recorded = _read(path)
    known = recorded.picks if recorded else {}
    needed = _needed(bench, model, secrets)
    missing = list({n.key: n for n in needed if n.key not in known}.values())
    notes: list[str] = []
    if options.record:
        asked: dict[str, RecordedPick] = {}
        error = None
        if missing:
            provider_name, provider = _provider(model, options)
            asked, error = anyio.run(_ask_all, provider, model, missing, options)
        else:  # nothing to ask: no key needed, the cassette is only pruned to what the spec uses
            assert recorded is not None
            provider_name = recorded.provider
        picks = {n.key: known.get(n.key) or asked[n.key] for n in needed if n.key in known or n.key in asked}
        cassette = PickCassette(
            spec=Path(bench.path).name,
            model=model,
            provider=provider_name,
            system=SYSTEM,
            max_tokens=MAX_TOKENS,
            picks=picks,
        )
        store.save(path, normalise_picks(cassette), secrets)
        notes.append(_recorded_note(path, asked, len(picks) - len(asked)))
        if error:
            left = len(missing) - len(asked)
            raise PicksFailed(
                f"mcptest: {left} pick{'s' * (left != 1)} not recorded: {error}; the {len(picks)} recorded are "
                f"saved in {path}; run the same command again to ask for the rest"
            )
        known = picks
    elif missing:
        raise UserError(_misses(path, recorded, missing, len(needed), bench, model, options))
    table = {n.key: known[n.key].reply for n in needed}
    return ModelSelector(RecordedPicker(model, table, secrets), model), notes


class RecordedPicker:
    """Answers `ModelSelector` from the recorded replies: the pick is read from the reply for this question."""

    def __init__(self, model: str, replies: dict[str, ModelReply], secrets: set[str]) -> None:
        self._model, self._replies, self._secrets = model, replies, secrets
        self._last: tuple[Catalog, Presented, str] | None = None

    def pick(self, query: str, catalog: Catalog) -> str | None:
        """The recorded reply's pick (every question was planned, so a lookup miss is a bug)."""
        if self._last is None or self._last[0] is not catalog:
            presented = Presented.of(catalog.tools)
            self._last = (catalog, presented, tools_hash(presented.offered, self._secrets))
        _, presented, digest = self._last
        return pick_from(self._replies[pick_key(self._model, SYSTEM, MAX_TOKENS, query, digest)], presented)


def _needed(bench: Bench, model: str, secrets: set[str]) -> list[_Needed]:
    out: list[_Needed] = []
    last: tuple[tuple[object, ...], Presented, str] | None = None
    for q in questions(bench):
        if last is None or last[0] is not q.tools:
            presented = Presented.of(q.tools)
            last = (q.tools, presented, tools_hash(presented.offered, secrets))
        _, presented, digest = last
        out.append(_Needed(pick_key(model, SYSTEM, MAX_TOKENS, q.query, digest), q, presented, digest))
    return out


def _read(path: Path) -> PickCassette | None:
    if not path.is_file():
        return None
    try:
        return normalise_picks(store.load(path, PickCassette))
    except store.CassetteUnreadable as exc:
        raise usage_error(f"{exc}; re-record it with --record") from None


def _provider(model: str, options: ModelOptions) -> tuple[str, Provider]:
    name = provider_of(model, options.provider)
    if name is None:
        raise usage_error(
            f"--selector model:{model}: cannot tell which provider serves '{model}' (claude-* is Anthropic; gpt-*, "
            "chatgpt-*, o<digit>* are OpenAI; gemini-* is Gemini; mistral-*, magistral-*, codestral-* are Mistral): "
            "add --provider openai (with --base-url for an OpenAI-compatible server such as Ollama or vLLM) or "
            f"another of {', '.join(LIVE_PROVIDERS)}"
        )
    try:
        return name, build(name, options.environ, options.base_url)
    except MissingKey as exc:
        raise usage_error(f"--record: {exc}") from None


async def _ask_all(
    provider: Provider, model: str, todo: list[_Needed], options: ModelOptions
) -> tuple[dict[str, RecordedPick], str | None]:
    """Ask for every missing pick, `concurrency` at a time; after a failure, ask no more."""
    limiter = anyio.CapacityLimiter(max(1, options.concurrency))
    price = price_for(model)
    asked: dict[str, RecordedPick] = {}
    errors: list[str] = []

    async def one(n: _Needed) -> None:
        async with limiter:
            if errors:
                return
            try:
                reply = await ask(provider, model, n.question.query, n.presented, options.retry, options.sleep)
            except RunFailed as exc:
                errors.append(exc.message)
                return
            usage = reply.usage
            spent = cost(price, usage.input, usage.output) if usage else None
            asked[n.key] = RecordedPick(intent=n.question.query, catalog=n.catalog, reply=reply, cost_usd=spent)

    try:
        async with anyio.create_task_group() as tg:
            for n in todo:
                tg.start_soon(one, n)
    finally:
        await provider.aclose()
    return asked, errors[0] if errors else None


def _recorded_note(path: Path, asked: dict[str, RecordedPick], reused: int) -> str:
    costs = [p.cost_usd for p in asked.values()]
    spent = f", ${sum(c for c in costs if c is not None):.4f}" if asked and None not in costs else ""
    return (
        f"mcptest: asked the model for {len(asked)} pick{'s' * (len(asked) != 1)}{spent}, reused {reused}; wrote {path}"
    )


def record_command(bench: Bench, model: str, options: ModelOptions) -> str:
    """The command that records this spec's picks for this model."""
    extra = f" --provider {options.provider}" if options.provider else ""
    extra += f" --base-url {shlex.quote(options.base_url)}" if options.base_url else ""
    return f"mcptest tool-bench run {shlex.quote(bench.path)} --selector model:{shlex.quote(model)} --record{extra}"


def _misses(
    path: Path,
    recorded: PickCassette | None,
    missing: list[_Needed],
    total: int,
    bench: Bench,
    model: str,
    options: ModelOptions,
) -> list[Problem]:
    why = " (CI=true: nothing records implicitly)" if options.ci else ""
    command = f"record {'them' if recorded else 'it'} with: {record_command(bench, model, options)}"
    if recorded is None:
        return [Problem("mcptest", 0, 0, f"no cassette at {path}{why}; {command}")]
    file = str(path)
    lines = [Problem(file, 0, 0, f"no recorded pick for {len(missing)} of {total} questions{why}, e.g.:")]
    for n in missing[:_SHOWN_MISSES]:
        same = sum(p.intent == n.question.query for p in recorded.picks.values())
        lines.append(
            Problem(
                file,
                0,
                0,
                f"  intents[{n.question.intent}] {n.question.query!r} on {n.question.where} "
                f"(the cassette has this intent on {same} other catalog{'s' * (same != 1)})",
            )
        )
    if len(missing) > _SHOWN_MISSES:
        lines.append(Problem(file, 0, 0, f"  and {len(missing) - _SHOWN_MISSES} more"))
    lines.append(Problem("mcptest", 0, 0, command))
    return lines
