"""Agent tests: the plan (one cell per test and model), the loop a model runs the servers' tools in, the runs
(replayed, recorded or live), and the judging of runs (expect rows, gate blocks, judges).

May import: core, expect, records, checks, providers, suite, server, mock, cassette, gates.
"""
