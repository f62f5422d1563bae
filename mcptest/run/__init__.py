"""Orchestration of `mcptest run`: which tests run, the one call a tool/resource/prompt test makes, workers, the
one builder of the targets an assertion reads, and the run state a Report is built from.

May import: every layer below: core, expect, records, providers, suite, server, mock, cassette, checks, gates, agent,
bench, diff, report.
"""
