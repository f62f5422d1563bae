"""The text heuristics the rules share: verbs, positional phrases, return words, and enums spelled in prose."""

from __future__ import annotations

import pytest

from mcptest.checks.lint.text import has_common_verb, mentions_return, normalized, positional_phrases, prose_enum


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("The new status, one of open, closed, or pending", ["open", "closed", "pending"]),
        ("Allowed values: low, medium, high.", ["low", "medium", "high"]),
        ("Valid values are numeric and categorical.", ["numeric", "categorical"]),
        ("Output format, 'json' or 'csv'.", ["json", "csv"]),
        ('Can be "daily" | "weekly"', ["daily", "weekly"]),
        ("Either asc or desc", ["asc", "desc"]),
        ("IANA timezone name (e.g., 'America/New_York', 'Europe/London').", None),
        ("Formats such as 'png' or 'jpeg' work best", None),
        ("The file path, which can be absolute or relative", None),
        ("must be a valid URL or a path", None),
        ("Must be an integer (e.g. 1, 2, 3) or omit entirely", None),
        ("Type of message to demonstrate different annotation patterns", None),
    ],
)
def test_prose_enum_finds_value_sets_and_ignores_examples_and_descriptions(text: str, values: list | None) -> None:
    assert prose_enum(text) == values


def test_verbs_match_regular_inflections_but_not_bare_nouns() -> None:
    assert all(has_common_verb(t) for t in ("Fetches it", "Queries it", "Listing of x", "Returned value", "Get x"))
    assert not any(has_common_verb(t) for t in ("Information about the weather", "Repository status", ""))


def test_positional_phrases_are_found_in_order() -> None:
    assert positional_phrases("As described above; unlike the next tool; see below") == [
        "described above",
        "next tool",
        "see below",
    ]
    assert positional_phrases("Get the following fields above the fold") == []


def test_return_words_and_name_normalization() -> None:
    assert mentions_return("The output is JSON") and mentions_return("Responds with a list")
    assert not mentions_return("Create an invoice")
    assert normalized("getWeather") == normalized("get_weather.") == normalized(" Get-Weather ") == "get weather"
