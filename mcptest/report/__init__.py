"""The reporters: a Report rendered as console text, JSON, JUnit, Markdown, SARIF or HTML; a saved report read
back, merged from shards, or compared with a baseline.

May import: core, expect, records, checks, providers, suite, server, mock, cassette, gates, agent, bench, diff.
"""
