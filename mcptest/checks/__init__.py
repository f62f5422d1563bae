"""Checks over catalogs, pure functions of what a server lists: one rule kernel (findings, rule records, SARIF)
with the DESC/SCH lint (lint/) and the SEC scan (security/) on it.

May import: core, expect, records.
"""
