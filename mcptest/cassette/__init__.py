"""Cassettes: record an agent test's runs once, replay all of them for free (no key, no server, no network).

May import: core, expect, records, checks, providers, suite, server, mock.
"""
