"""Checks over catalogs: one rule kernel (findings, records of rules, SARIF) with the DESC/SCH lint (lint/) and
the SEC scan (security/) on it, and doctor's live probe of a server.

May import: core, expect, records, providers, suite, server, mock, cassette.
"""
