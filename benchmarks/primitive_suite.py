"""Per-test cost of resource and prompt tests beside tool tests, against one mock server (the offline example's).

Each kind's cost is the difference between a 201-test and a 1-test run of the CLI, divided by 200, so process
start-up and the server's start-up cancel out; each figure is the best of REPEATS runs. A resource or prompt test
also lists the server's resources/templates/prompts once per session (the name check), which the 1-test run pays.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "examples" / "resources-and-prompts" / "notes.yml"
TESTS = 200
REPEATS = 3

KINDS = {
    "tool (asks for sampling)": """
  - name: tool {i}
    server: notes
    tool: summarize_note
    args: {{ note: "note {i}" }}
    expect:
      - result.content[0].text: {{ contains: summary }}
""",
    "resource": """
  - name: resource {i}
    server: notes
    uri: notes://readme
    expect:
      - result.contents[0].text: {{ contains: Install }}
""",
    "prompt": """
  - name: prompt {i}
    server: notes
    prompt: review_note
    args: {{ tone: "tone {i}" }}
    expect:
      - result.messages[0].content.text: {{ contains: "tone {i}" }}
""",
}
SECTION = {"tool (asks for sampling)": "tools", "resource": "resources", "prompt": "prompts"}


def write_suite(directory: Path, kind: str, count: int) -> Path:
    path = directory / f"{kind.split()[0]}-{count}.yml"
    header = (
        f'servers:\n  notes:\n    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]\n'
        '    client: { sampling: [ { text: "short" } ] }\n'
        f"{SECTION[kind]}:\n"
    )
    path.write_text(header + "".join(KINDS[kind].format(i=i) for i in range(count)), encoding="utf-8")
    return path


def cli_seconds(suite: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mcptest", "run", str(suite), "-r", "json"], cwd=ROOT, capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            small, large = write_suite(Path(tmp), kind, 1), write_suite(Path(tmp), kind, TESTS + 1)
            one = min(cli_seconds(small) for _ in range(REPEATS))
            many = min(cli_seconds(large) for _ in range(REPEATS))
            print(f"{kind:>24} tests: {(many - one) / TESTS * 1000:6.2f} ms per test ({one * 1000:.0f} ms for 1 test)")


if __name__ == "__main__":
    main()
