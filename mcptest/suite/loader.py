"""Load a suite file: YAML with positions, env interpolation, cross-references, pydantic validation."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mcptest.core import yaml_source
from mcptest.core.errors import Problem, UserError, did_you_mean, where
from mcptest.core.secrets import is_secret_name, mask_problems, secret_parts
from mcptest.core.validation import problems_from
from mcptest.core.yaml_source import Loc, SourceDoc
from mcptest.suite.agents import AGENT_TARGET_ROOTS
from mcptest.suite.blocks.coverage import TARGET_ROOTS as COVERAGE_TARGET_ROOTS
from mcptest.suite.blocks.fuzz import TARGET_ROOTS as FUZZ_TARGET_ROOTS
from mcptest.suite.blocks.latency import latency_target_problem
from mcptest.suite.blocks.quarantine import quarantine_problems
from mcptest.suite.blocks.security import TARGET_ROOTS as SECURITY_TARGET_ROOTS
from mcptest.suite.blocks.tool_quality import TARGET_ROOTS as QUALITY_TARGET_ROOTS
from mcptest.suite.interpolate import interpolate
from mcptest.suite.judge_checks import judge_problems
from mcptest.suite.models import Suite
from mcptest.suite.positions import place
from mcptest.suite.recorded import load_recorded_runs
from mcptest.suite.server_checks import CAPTURE_ROOTS, auth_secrets, stdio_auth

DEFAULT_SUITE_NAMES = ("mcptest.yaml", "mcptest.yml")
CALL_TARGET_ROOTS = ("result", "error", "duration_ms", "latency", *CAPTURE_ROOTS)
TOOL_TARGET_ROOTS = (*CALL_TARGET_ROOTS, "task")
# The test lists of a suite and the first segments their targets may start with.
_SECTIONS = {
    "tools": TOOL_TARGET_ROOTS,
    "resources": CALL_TARGET_ROOTS,
    "prompts": CALL_TARGET_ROOTS,
    "agents": AGENT_TARGET_ROOTS,
    "tool_quality": QUALITY_TARGET_ROOTS,
    "security": SECURITY_TARGET_ROOTS,
    "coverage": COVERAGE_TARGET_ROOTS,
    "fuzz": FUZZ_TARGET_ROOTS,
    "conformance": (),
}


def find_suite(path: str | None, usage: str = "mcptest run FILE") -> str:
    """The suite to use: the given path, else `mcptest.yaml` or `mcptest.yml` in the working directory.

    `usage` is how the calling command is given what it needs, for the error when there is nothing.
    """
    if path is not None and not path.strip():
        raise UserError(f"the suite file name is empty: {usage}")
    if path:
        return path
    for name in DEFAULT_SUITE_NAMES:
        if Path(name).is_file():
            return name
    raise UserError(f"no suite given and no mcptest.yaml or mcptest.yml here (pass one: {usage})")


def load_suite(path: str | Path, environ: Mapping[str, str] | None = None) -> Suite:
    """Load and validate a suite, reporting every problem in the file at once."""
    doc = yaml_source.load(path)
    if doc.data is None:
        raise UserError([Problem(doc.path, 1, 1, "the file is empty; a suite needs `servers:` and `tools:`")])
    if not isinstance(doc.data, dict):
        raise UserError([doc.problem((), "the top level of a suite must be a mapping of keys like `servers:`")])
    env = os.environ if environ is None else environ
    marked = _marked_secret(doc)
    secrets: set[str] = set()
    problems = interpolate(doc, env, secrets, marked)
    unset = {(p.line, p.col) for p in problems}
    problems += _resolve_env_refs(doc, env, secrets, marked)
    problems += _cross_references(doc) + _working_dirs(doc)
    problems += stdio_auth(doc)
    suite = None
    try:
        suite = Suite.model_validate(doc.data)
    except ValidationError as exc:
        # An unset variable already explains any complaint about the value it left empty.
        problems += [p for p in problems_from(Suite, exc, doc) if (p.line, p.col) not in unset]
    if suite is not None:
        problems += load_recorded_runs(suite.agents, doc)
        problems += auth_secrets(suite, doc, os.environ if environ is None else environ, secrets)
        problems += judge_problems(suite, doc)
        problems += quarantine_problems(doc, suite.test_names())
    if problems or suite is None:
        raise UserError(mask_problems(sorted(set(problems)), secrets))
    suite._file = doc.path
    suite._secrets = secrets
    place(suite, doc)
    for section in ("tools", "resources", "prompts"):
        for i, test in enumerate(getattr(suite, section)):
            test._line = doc.value_pos((section, i))[0]
    for i, agent in enumerate(suite.agents):
        agent._line = doc.value_pos(("agents", i))[0]
    for i, block in enumerate(suite.tool_quality):
        block._line = doc.value_pos(("tool_quality", i))[0]
    for i, scan in enumerate(suite.security):
        scan._line = doc.value_pos(("security", i))[0]
    for i, gate in enumerate(suite.coverage):
        gate._line = doc.value_pos(("coverage", i))[0]
    for i, fuzzing in enumerate(suite.fuzz):
        fuzzing._line = doc.value_pos(("fuzz", i))[0]
    for i, conformance in enumerate(suite.conformance):
        conformance._line = doc.value_pos(("conformance", i))[0]
    return suite


def _servers(doc: SourceDoc) -> Iterator[tuple[str, dict[str, Any]]]:
    servers = doc.data.get("servers")
    if isinstance(servers, dict):
        for name, server in servers.items():
            if isinstance(server, dict):
                yield str(name), server


def _marked_secret(doc: SourceDoc) -> set[str]:
    """The environment variables the suite lists under `secrets:` (pydantic reports a malformed list)."""
    listed = doc.data.get("secrets")
    return {v for v in listed if isinstance(v, str)} if isinstance(listed, list) else set()


def _resolve_env_refs(doc: SourceDoc, environ: Mapping[str, str], secrets: set[str], marked: set[str]) -> list[Problem]:
    """Replace `{ env: VAR }` in server `env:` and `headers:`, collecting the values that are secrets.

    A header value is secret when the header's name says so (`Authorization`, `X-API-Key`, `Cookie`...); an `env:`
    value when the entry's name or the variable's name says so, or the variable is listed under `secrets:`.
    """
    problems = []
    for name, server in _servers(doc):
        for block in ("env", "headers"):
            values = server.get(block)
            if not isinstance(values, dict):
                continue
            for key, value in values.items():
                loc: Loc = ("servers", name, block, key)
                secret = is_secret_name(str(key)) or key in marked
                if isinstance(value, dict) and set(value) == {"env"} and isinstance(value["env"], str):
                    var = value["env"]
                    if var not in environ:
                        problems.append(doc.problem(loc, f"{where(loc)}: environment variable {var} is not set"))
                        continue
                    values[key] = value = environ[var]
                    secret = secret or is_secret_name(var) or var in marked
                if isinstance(value, str) and secret:
                    secrets |= secret_parts(value)
    return problems


def _working_dirs(doc: SourceDoc) -> list[Problem]:
    """A server's `cwd:` must exist: a missing one would fail every test as if the command were missing."""
    problems = []
    for name, server in _servers(doc):
        cwd = server.get("cwd")
        if isinstance(cwd, str) and not (Path(doc.path).parent / cwd).is_dir():
            loc: Loc = ("servers", name, "cwd")
            what = "not a directory" if (Path(doc.path).parent / cwd).exists() else "no such directory"
            message = f"{where(loc)}: {what} '{cwd}' (a relative cwd is from the suite's folder)"
            problems.append(doc.problem(loc, message))
    return problems


def _cross_references(doc: SourceDoc) -> list[Problem]:
    """What pydantic cannot see: servers named by tests, duplicate test names, unknown target roots."""
    names = {name for name, _ in _servers(doc)}
    if isinstance(doc.data.get("servers"), dict):
        names |= set(map(str, doc.data["servers"]))
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for section, roots in _SECTIONS.items():
        tests = doc.data.get(section)
        for i, test in enumerate(tests if isinstance(tests, list) else []):
            if not isinstance(test, dict):
                continue
            loc: Loc = (section, i)
            problems += _server_ref(doc, (*loc, "server"), test.get("server"), names)
            listed = test.get("servers")
            for j, ref in enumerate(listed if isinstance(listed, list) else []):
                problems += _server_ref(doc, (*loc, "servers", j), ref, names)
            name = test.get("name")
            if isinstance(name, str):
                if name in seen:
                    message = f"duplicate test name '{name}' (first defined at line {seen[name]})"
                    problems.append(doc.problem((*loc, "name"), f"{where((*loc, 'name'))}: {message}"))
                else:
                    seen[name] = doc.value_pos(loc)[0]
            problems += _target_roots(doc, loc, test.get("expect"), roots, test)
            if section == "conformance":
                problems += _check_ids(doc, loc, test.get("expected_failures"))
    return problems


def _check_ids(doc: SourceDoc, loc: Loc, ids: Any) -> list[Problem]:
    """A `conformance:` block's `expected_failures` name conformance checks."""
    from mcptest.checks.conformance.rules import BY_ID

    problems = []
    for j, check_id in enumerate(ids if isinstance(ids, list) else []):
        if isinstance(check_id, str) and check_id not in BY_ID:
            hint = did_you_mean(check_id, list(BY_ID)) or " (docs/conformance.md lists the checks)"
            at: Loc = (*loc, "expected_failures", j)
            problems.append(doc.problem(at, f"{where(at)}: no conformance check '{check_id}'{hint}"))
    return problems


def _coverage_target(doc: SourceDoc, loc: Loc, target: str) -> list[Problem]:
    """A `coverage:` target names one figure: `coverage.tools`, `coverage.arguments`, ..."""
    from mcptest.records.coverage import FIGURES

    figure = target.removeprefix("coverage.")
    if target.startswith("coverage.") and figure in FIGURES:
        return []
    hint = did_you_mean(figure, FIGURES) or f"; the figures are {', '.join(FIGURES)}"
    message = f"{where(loc)}: unknown coverage figure '{target}'{hint} (write it like coverage.tools)"
    return [doc.problem(loc, message, at_key=loc[-1] != "target")]


def _server_ref(doc: SourceDoc, loc: Loc, ref: Any, names: set[str]) -> list[Problem]:
    if not isinstance(ref, str) or ref in names:
        return []
    known = f"; servers are {', '.join(sorted(names))}" if names else "; no servers are defined under `servers:`"
    return [doc.problem(loc, f"{where(loc)}: unknown server '{ref}'{did_you_mean(ref, names) or known}")]


def _target_roots(doc: SourceDoc, loc: Loc, expect: Any, roots: tuple[str, ...], test: Any) -> list[Problem]:
    if isinstance(expect, dict):
        expect, loc = expect.get("assertions"), (*loc, "expect", "assertions")
    else:
        loc = (*loc, "expect")
    problems = []
    for j, item in enumerate(expect if isinstance(expect, list) else []):
        if not isinstance(item, dict):
            continue
        key_loc: Loc = (*loc, j, "target")
        target = item.get("target")
        if target is None and len(item) == 1:
            target = next(iter(item))
            key_loc = (*loc, j, target)
        if not isinstance(target, str):
            continue
        root = target.split(".")[0].split("[")[0]
        at_key = key_loc[-1] != "target"
        if root == "coverage" and roots == COVERAGE_TARGET_ROOTS:
            problems += _coverage_target(doc, key_loc, target)
        elif root == "latency" and root in roots and (why := latency_target_problem(target, test)):
            problems.append(doc.problem(key_loc, f"{where(key_loc)}: {why}", at_key=at_key))
        elif root not in roots:
            hint = did_you_mean(root, roots) or f"; targets here start with {', '.join(roots)}"
            problems.append(doc.problem(key_loc, f"{where(key_loc)}: unknown target '{target}'{hint}", at_key=at_key))
    return problems
