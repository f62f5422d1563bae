"""Judges: a model asked to grade a text against a rubric, recorded and replayed like an agent's model calls."""
