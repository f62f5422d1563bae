"""Cassettes: record an agent test's runs once, replay all of them for free (no key, no server, no network)."""
