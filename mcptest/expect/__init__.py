"""The one assertion engine: targets (paths into a result), matchers, the check that compares them, the
`snapshot` matcher's stored copies, how a suite writes a judge, and the failure record a check produces.

May import: core.
"""
