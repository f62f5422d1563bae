"""Orchestration of `mcptest run`: which tests run, one module per kind of test, workers, the one builder of the
targets an assertion reads, and the run state a Report is built from; also what `mcptest doctor` (it needs
`agent/`) and `mcptest security` do between parsing their options and rendering.

May import: every layer below: core, expect, records, checks, providers, suite, server, mock, cassette, gates,
agent, bench, diff, report.
"""
