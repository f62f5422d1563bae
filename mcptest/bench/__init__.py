"""tool-bench: does a tool description change which tool gets picked? Spec, selectors, mutations, report.

May import: core, expect, records, checks, providers, suite, server, mock, cassette, gates, agent.
"""

from mcptest.bench.loading import load_spec
from mcptest.bench.report import BenchReport
from mcptest.bench.run import run_bench

__all__ = ["BenchReport", "load_spec", "run_bench"]
