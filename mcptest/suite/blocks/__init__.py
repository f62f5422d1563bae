"""Every block's config as a suite writes it: `expect:` (`expect.py`), each gate block under an agent test (one
module per YAML key, on the shared base in `gate.py`, tabled in `gates.py`), `tool_quality:` and `security:`.
Light on purpose: loading a suite builds these, scoring them lives in gates/ and checks/."""
