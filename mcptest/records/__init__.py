"""Shared pure data, read and written by every layer above: catalogs (tools and every other primitive), the
agent Trace, the Report of a run with its results and verdicts, judges' verdicts, the provider-neutral messages, and
the bundled distractor catalog.

May import: core, expect.
"""
