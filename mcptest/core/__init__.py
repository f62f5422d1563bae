"""Leaf utilities every layer may use: YAML/JSON sources and their guards, user errors and exit codes, printable
text, atomic files, RE2 regexes, token counting, statistics, figures, JSON Schema helpers, suite-data validation
mapped to `file:line:col`, URI templates, and secret masking.

May import: nothing of mcptest (the package root only, for its version).
"""
